/**
 * The detail pane: what the selected mark is (event fields), the record behind it (messageId,
 * delivery attempt, times, latency SendingTime → publish → receive), the hold and latency
 * percentiles of its key and of all keys, its attributes and its payload
 * as pretty JSON, text or hex — with a schema, the record it decodes (decoded on the host) and
 * the raw payload folded under it. Everything from the session goes in with textContent (see dom.ts).
 */
import type { Mdp3Packet } from '../core/capture/mdp3';
import type { DecodedRecord, EventView, MessageDetail } from '../shared/protocol';
import { iconButton, textButton, VscodeButton } from './controls';
import { comparedWords } from './comparedRibbons';
import { clear, el } from './dom';
import { count, dateTime, duration, missingRange, PayloadView, renderPayload } from './format';
import { displayKey } from '../core/trace/keyLabel';
import { RESET_HOW_WORDS } from '../core/sequencer/resets';
import { formatPercentiles, measuresOf, TIME_MEASURE_LABELS, TimePercentiles } from '../core/replay/timePercentiles';

const VIEW_LABEL: Record<PayloadView, string> = { json: 'JSON', text: 'Text', hex: 'Hex' };

export class DetailPane {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly heading: HTMLElement;
  private payloadView: PayloadView | undefined;

  constructor(private readonly onClose: () => void) {
    this.heading = el('h2', { class: 'ss-detail-title', attrs: { id: 'ss-detail-title' } });
    this.body = el('div', { class: 'ss-detail-body' });
    this.root = el('aside', { class: 'ss-detail', attrs: { 'aria-labelledby': 'ss-detail-title', hidden: true } }, [
      el('div', { class: 'ss-detail-head' }, [this.heading, iconButton('close', 'Close the detail pane', () => this.onClose())]),
      this.body,
    ]);
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  hide(): void {
    this.root.hidden = true;
  }

  /** Shows the event at once while its record is read. */
  loading(event: Partial<EventView> & { id: number }): void {
    this.root.hidden = false;
    delete this.root.dataset.eventId;
    this.heading.textContent = `Event ${event.id}`;
    clear(this.body);
    this.body.append(el('p', { class: 'ss-muted', text: 'Reading the record…' }));
  }

  show(d: MessageDetail): void {
    const e = d.event;
    this.root.hidden = false;
    this.root.dataset.eventId = String(e.id);
    this.heading.textContent = title(e);
    clear(this.body);
    this.body.append(section('Event', eventRows(e)));
    if (d.unavailable && e.kind !== 'gap') this.body.append(el('p', { class: 'ss-note', text: `Record: ${d.unavailable}.` }));
    const rows = recordRows(d);
    if (rows.length) this.body.append(section('Record', rows));
    // Beside the record's own latency: how its key's messages and all messages fared.
    const p = d.percentiles;
    if (p?.key && e.kind !== 'invalid') this.body.append(...percentileSection(`Key ${displayKey(e.key)}: p50 / p90 / p99 / max`, p.key));
    if (p) this.body.append(...percentileSection('All keys: p50 / p90 / p99 / max', p.all));
    if (d.attributes && Object.keys(d.attributes).length) {
      this.body.append(
        section(
          'Attributes',
          Object.entries(d.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      );
    }
    if (d.mdp3) this.body.append(...mdp3Sections(d.mdp3));
    else if (d.mdp3Error) this.body.append(el('p', { class: 'ss-note', text: `Not an MDP 3.0 packet: ${d.mdp3Error}.` }));
    // A payload with a schema: the record it decodes, the raw payload a click away.
    if (d.decoded) this.body.append(decodedSection(d.decoded));
    else if (d.decodeError) this.body.append(el('p', { class: 'ss-note ss-decode-error', text: `Not decoded by its schema: ${d.decodeError}.` }));
    if (d.data !== undefined) this.body.append(this.payload(d.data, d.decoded !== undefined));
  }

  /** The payload as JSON, text or hex; `folded` (a decoded one): under a "Raw payload" disclosure. */
  private payload(data: string, folded: boolean): HTMLElement {
    const p = renderPayload(data);
    const box = folded ? el('details', { class: 'ss-detail-section ss-raw-payload' }) : el('section', { class: 'ss-detail-section' });
    if (!p) return box;
    const pre = el('pre', { class: 'ss-payload', attrs: { tabindex: 0, 'aria-label': 'Payload' } });
    const toggles = el('div', { class: 'ss-segmented', attrs: { role: 'group', 'aria-label': 'Show the payload as' } });
    const buttons = new Map<PayloadView, VscodeButton>();
    const select = (v: PayloadView, chosen: boolean) => {
      // Remember only what the user picked, to keep it from one message to the next.
      if (chosen) this.payloadView = v;
      pre.textContent = p.render(v);
      pre.dataset.view = v;
      for (const [k, b] of buttons) {
        b.setAttribute('aria-pressed', String(k === v));
        b.secondary = k !== v;
      }
    };
    for (const v of ['json', 'text', 'hex'] as PayloadView[]) {
      const b = textButton(VIEW_LABEL[v], `Show the payload as ${VIEW_LABEL[v]}`, () => select(v, true), { secondary: true });
      b.disabled = !p.views.includes(v);
      buttons.set(v, b);
      toggles.append(b);
    }
    // Keep the user's choice from one message to the next when the payload allows it.
    select(this.payloadView && p.views.includes(this.payloadView) ? this.payloadView : p.preferred, false);
    const heading = `${folded ? 'Raw payload' : 'Payload'} (${count(p.bytes)} bytes)`;
    box.append(folded ? el('summary', {}, [el('h3', { text: heading })]) : el('h3', { text: heading }), toggles, pre);
    return box;
  }
}

/** The record a payload's schema decodes, as the host wrote it (indented JSON), and the schema's source. */
function decodedSection(d: DecodedRecord): HTMLElement {
  return el('section', { class: 'ss-detail-section ss-decoded' }, [
    el('h3', { text: 'Decoded record' }),
    el('p', { class: 'ss-muted', text: `by the schema from ${d.source}` }),
    el('pre', { class: 'ss-payload', text: d.text, attrs: { tabindex: 0, 'aria-label': 'Decoded record', 'data-view': 'json' } }),
  ]);
}

const GAP_REASON_WORDS: Record<NonNullable<EventView['reason']>, string> = {
  timeout: 'gap timeout',
  capacity: 'hold capacity reached',
  end: 'end of input',
  reset: 'the key was reset: its numbers started again',
};

function title(e: EventView): string {
  const key = e.key !== undefined && e.kind !== 'invalid' ? ` · ${displayKey(e.key)}` : '';
  switch (e.kind) {
    case 'gap':
      return `Gap ${missingRange(e.seq ?? NaN, e.seqTo ?? NaN, e.count)}${key}`;
    case 'duplicate':
      return `Duplicate ${e.seq ?? ''} (${e.conflict ? 'conflict' : e.redelivery ? 'redelivery' : 'republish'})${key}`;
    case 'late':
      return `Late ${e.seq ?? ''}${key}`;
    case 'reordered':
      return `Reordered ${e.messageId ?? ''}${key}`;
    case 'reset':
      return `Reset #${e.resetFrom ?? ''} → #${e.seq ?? ''}${key}`;
    case 'invalid':
      return 'Invalid record';
    case 'onlyA':
    case 'onlyB':
    case 'lostBoth':
      return `${comparedWords(e).title} #${e.seq === e.seqTo ? e.seq : `${e.seq}–${e.seqTo}`} (${count(e.count ?? NaN)})${key}`;
    default:
      return `Message ${e.seq ?? ''}${key}`;
  }
}

function eventRows(e: EventView): [string, string][] {
  const rows: [string, string][] = [['Kind', e.kind]];
  if (e.key !== undefined && e.kind !== 'invalid') rows.push(['Key', displayKey(e.key)]);
  switch (e.kind) {
    case 'gap':
      rows.push(['Missing', missingRange(e.seq ?? NaN, e.seqTo ?? NaN)], ['Count', count(e.count ?? NaN)]);
      rows.push(['Opened', dateTime(e.t0)], ['Declared lost', dateTime(e.t1)], ['Waited', duration(e.t1 - e.t0)]);
      if (e.reason) rows.push(['Reason', GAP_REASON_WORDS[e.reason]]);
      break;
    case 'message':
      if (e.seq !== undefined) rows.push(['Seq', String(e.seq)]);
      rows.push(['Arrived', dateTime(e.t0)], ['Released', dateTime(e.t1)]);
      if (e.t1 > e.t0) rows.push(['Held', duration(e.t1 - e.t0)]);
      if (e.latencyMs !== undefined) rows.push(['Latency', duration(e.latencyMs)]);
      break;
    case 'duplicate':
      if (e.seq !== undefined) rows.push(['Seq', String(e.seq)]);
      rows.push([
        'Duplicate',
        e.conflict
          ? "conflict: the first copy's messageId with other data, attributes or ordering key (a corrupt capture, a bad merge or a faulty publisher)"
          : e.redelivery
            ? 'redelivery: the same Pub/Sub message (same messageId) again'
            : 'republish: the same number under a new messageId',
      ]);
      if (e.cascade) rows.push(['Cascade', `#${e.cascade}`]);
      rows.push(['At', dateTime(e.t1)]);
      break;
    case 'late':
      if (e.seq !== undefined) rows.push(['Seq', String(e.seq)]);
      rows.push(
        ['Late', e.beforeStart ? "below its key's first number: it belonged before the capture's start" : 'arrived after its gap was declared lost'],
        ['At', dateTime(e.t1)],
      );
      break;
    case 'reordered':
      rows.push(
        ['Reordered', `arrived after ${e.behindId ?? 'a message of its key'}, which was published ${duration(e.byMs ?? NaN)} later (its publishTime is below)`],
        [
          'Out of place',
          `by ${duration(e.byMs ?? NaN)} of publish time and ${count(e.byPosition ?? NaN)} ${e.byPosition === 1 ? 'message' : 'messages'} of its key that arrived since the first one published later`,
        ],
        ['At', dateTime(e.t1)],
      );
      break;
    case 'reset':
      rows.push(
        ['Before', e.resetFrom !== undefined ? `#${e.resetFrom}: the old sequence's last number` : '—'],
        ['After', e.seq !== undefined ? `#${e.seq}: the new sequence's first number` : '—'],
        ['Decided', e.how ? RESET_HOW_WORDS[e.how] : '—'],
        [
          'Old sequence',
          `${count(e.released ?? 0)} held ${e.released === 1 ? 'message' : 'messages'} released, ${count(e.lost ?? 0)} ${e.lost === 1 ? 'number' : 'numbers'} declared lost (gaps with reason reset)`,
        ],
        ['Arrived', dateTime(e.t0)],
        ['At', dateTime(e.t1)],
      );
      break;
    case 'invalid':
      if (e.problem) rows.push(['Problem', e.problem]);
      rows.push(['At', dateTime(e.t1)]);
      break;
    case 'onlyA':
    case 'onlyB':
    case 'lostBoth': {
      const w = comparedWords(e);
      rows.push(['Compared', w.text], ['Meaning', w.meaning], ['From', dateTime(e.t0)], ['To', dateTime(e.t1)]);
      break;
    }
  }
  if (e.messageId !== undefined) rows.push(['messageId', e.messageId]);
  if (e.line !== undefined) rows.push(['Source', `${e.file ? `file ${e.file + 1}, ` : ''}line ${e.line}`]);
  if (e.arrival !== undefined && e.arrival >= 0) rows.push(['Arrival', `#${count(e.arrival + 1)}`]);
  rows.push(['Event id', String(e.id)]);
  return rows;
}

function recordRows(d: MessageDetail): [string, string][] {
  const rows: [string, string][] = [];
  if (d.deliveryAttempt !== undefined) rows.push(['deliveryAttempt', String(d.deliveryAttempt)]);
  if (d.orderingKey) rows.push(['orderingKey', d.orderingKey]);
  if (d.publishTime) rows.push(['publishTime', d.publishTime]);
  if (d.receivedAt) rows.push(['receivedAt', d.receivedAt]);
  const l = d.latency;
  if (l) {
    const parts: string[] = [];
    if (l.sendToPublishMs !== undefined) parts.push(`SendingTime → publish ${duration(l.sendToPublishMs)}`);
    if (l.publishToReceiveMs !== undefined) parts.push(`publish → receive ${duration(l.publishToReceiveMs)}`);
    if (l.sendToReceiveMs !== undefined) parts.push(`total ${duration(l.sendToReceiveMs)}`);
    if (parts.length) rows.push(['Latency', parts.join(' · ')]);
  }
  return rows;
}

/** Messages listed one by one, at most; a packet carries a few. */
const MDP3_MESSAGES_SHOWN = 20;

/** The packet header, then each SBE message's header, above the payload's hex. */
function mdp3Sections(p: Mdp3Packet): HTMLElement[] {
  const ns = BigInt(p.sendingTimeNs);
  const iso = new Date(Number(ns / 1_000_000n)).toISOString().replace('Z', `${String(ns % 1_000_000n).padStart(6, '0')}Z`);
  const out = [
    section('MDP 3.0 packet', [
      ['MsgSeqNum', String(p.msgSeqNum)],
      ['SendingTime', `${p.sendingTimeNs} ns (${iso})`],
      ['messages', String(p.messages.length)],
    ]),
  ];
  p.messages.slice(0, MDP3_MESSAGES_SHOWN).forEach((m, i) =>
    out.push(
      section(`SBE message ${i + 1}`, [
        ['templateId', String(m.templateId)],
        ['size', `${m.size} bytes at offset ${m.offset}`],
        ['blockLength', String(m.blockLength)],
        ['schemaId', String(m.schemaId)],
        ['version', String(m.version)],
      ]),
    ),
  );
  if (p.messages.length > MDP3_MESSAGES_SHOWN) out.push(el('p', { class: 'ss-muted', text: `… ${p.messages.length - MDP3_MESSAGES_SHOWN} more messages` }));
  return out;
}

/** A measure a row (hold, sent → published…), over the whole session; nothing when none was measured. */
function percentileSection(name: string, t: TimePercentiles): HTMLElement[] {
  const measures = measuresOf(t);
  if (measures.length === 0) return [];
  const s = section(
    name,
    measures.map((m) => [TIME_MEASURE_LABELS[m], formatPercentiles(t[m]!, duration)]),
  );
  s.classList.add('ss-percentiles');
  return [s];
}

function section(name: string, rows: [string, string][]): HTMLElement {
  const table = el('table', { class: 'ss-props' }, [
    el(
      'tbody',
      {},
      rows.map(([k, v]) => el('tr', {}, [el('th', { text: k, attrs: { scope: 'row' } }), el('td', { text: v })])),
    ),
  ]);
  return el('section', { class: 'ss-detail-section' }, [el('h3', { text: name }), table]);
}
