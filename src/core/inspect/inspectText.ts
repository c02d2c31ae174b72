/**
 * What the agent tools answer, as compact text a model can quote: counts, a line per finding or
 * message, never the payloads unless asked. Shared by `seqscope mcp` and the extension's
 * language model tools.
 */
import { KeySummary, ReplaySummary } from '../replay/replayEngine';
import { formatPercentiles, measuresOf, TIME_MEASURE_LABELS } from '../replay/timePercentiles';
import { SequenceCounts } from '../sequencer/sequencer';
import { orderKeys } from '../trace/keyOrder';
import { escapeUnsafe } from '../trace/keyLabel';
import { overlapsNumberRange } from '../trace/traceFilter';
import { MessageEvent } from '../trace/traceEvents';
import { payloadText } from '../trace/messageMatch';
import { assertNever } from '../util/assertNever';
import { formatDuration } from '../util/duration';
import { InputError } from '../util/inputError';
import { Inspection, MessageSearch } from './captureInspection';
import { FindingEvent, FindingKind } from './findingKinds';

/** Keys listed in a summary before "… N more". */
const KEYS_LISTED = 20;
/** A key or other record text is cut to this many characters in a line. */
const TEXT_WIDTH = 120;

export const FINDING_KINDS = ['gap', 'duplicate', 'late', 'reordered', 'reset', 'invalid'] as const satisfies readonly FindingKind[];
// Every finding kind is listed: a kind added to the trace fails here until it is.
type MissingKinds = Exclude<FindingKind, (typeof FINDING_KINDS)[number]>;
const allKindsListed: MissingKinds extends never ? true : false = true;
void allKindsListed;

/** A key or text for a line: controls escaped, cut to a width. */
export function quoteText(s: string, width = TEXT_WIDTH): string {
  const t = escapeUnsafe(s);
  return JSON.stringify(t.length > width ? t.slice(0, width - 1) + '…' : t);
}

function iso(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '—' : new Date(Math.floor(ms)).toISOString();
}

/** A key's or a total's counts in one line. */
export function counts(c: SequenceCounts & { invalid?: number }): string {
  const republished = c.duplicates - c.redeliveries - c.conflicts;
  const parts = [
    `received ${c.received}`,
    `delivered ${c.delivered}`,
    `gaps ${c.gaps} (lost ${c.lost})`,
    `duplicates ${c.duplicates} (redelivered ${c.redeliveries}, republished ${republished}, conflicting ${c.conflicts}; cascades ${c.cascades})`,
    `late ${c.late}`,
  ];
  if (c.reordered > 0) parts.push(`reordered ${c.reordered}`);
  if (c.resets > 0) parts.push(`resets ${c.resets}`);
  if (c.invalid !== undefined) parts.push(`invalid ${c.invalid}`);
  return parts.join(', ');
}

function percentileLines(p: KeySummary['percentiles'], indent: string): string[] {
  return measuresOf(p).map((m) => `${indent}${TIME_MEASURE_LABELS[m]} p50/p90/p99/max: ${formatPercentiles(p[m]!)}`);
}

/** The key's summary, or an InputError naming some keys that exist. */
export function keySummary(s: ReplaySummary, key: string): KeySummary {
  const k = s.byKey.find((x) => x.key === key);
  if (!k)
    throw new InputError(
      `key ${quoteText(key)} is not in this capture: it has ${s.keys} keys, e.g. ${s.byKey
        .slice(0, 5)
        .map((x) => quoteText(x.key, 40))
        .join(', ')}`,
    );
  return k;
}

/** A session's or capture's summary: totals, percentiles, the keys with the most findings. */
export function summaryText(ins: Inspection, title: string, key?: string): string {
  const s = ins.summary;
  const lines = [`${title}: ${s.options}`];
  if (s.firstTime !== null && s.lastTime !== null) lines.push(`clock ${iso(s.firstTime)} → ${iso(s.lastTime)} (${formatDuration(s.lastTime - s.firstTime)})`);
  if (key !== undefined) {
    const k = keySummary(s, key);
    lines.push(`key ${quoteText(k.key)}: ${counts(k)}; max hold ${formatDuration(k.maxHoldMs)}`, ...percentileLines(k.percentiles, '  '));
    return lines.join('\n');
  }
  lines.push(`total, ${s.keys} keys: ${counts(s)}; max hold ${formatDuration(s.maxHoldMs)}`, ...percentileLines(s.percentiles, '  '));
  const order = orderKeys(s.byKey, 'findings', (k) => k.key).slice(0, KEYS_LISTED);
  lines.push(order.length < s.byKey.length ? `keys with the most findings (${order.length} of ${s.byKey.length}):` : 'keys:');
  for (const i of order) lines.push(`  ${quoteText(s.byKey[i].key)}: ${counts(s.byKey[i])}`);
  if (s.invalid)
    lines.push(
      `invalid records: ${s.invalid}${s.invalidSamples[0] ? `, first at ${where(s.invalidSamples[0])}: ${quoteText(s.invalidSamples[0].reason)}` : ''}`,
    );
  for (const n of ins.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}

function where(p: { file?: string; line: number }): string {
  return `${p.file ? escapeUnsafe(p.file) + ':' : 'line '}${p.line}`;
}

/** When a finding was made (engine clock, ms). */
export function findingTime(ev: FindingEvent): number | undefined {
  switch (ev.type) {
    case 'gap':
      return ev.declaredAt;
    case 'duplicate':
    case 'late':
    case 'reordered':
    case 'reset':
    case 'invalid':
      return ev.at;
    default:
      return assertNever(ev);
  }
}

/** One line per finding, with its messageId and times. */
export function findingLine(ev: FindingEvent): string {
  switch (ev.type) {
    case 'gap':
      return `gap key ${quoteText(ev.key)} ${ev.from}–${ev.to} (${ev.count} lost, ${ev.reason}) opened ${iso(ev.openedAt)} declared ${iso(ev.declaredAt)}`;
    case 'duplicate': {
      const kind = ev.conflict ? `conflict (${ev.conflictReason ?? 'content differs'})` : ev.redelivery ? 'redelivery' : 'republish';
      const first = ev.firstMessageId && ev.firstMessageId !== ev.messageId ? ` first ${quoteText(ev.firstMessageId)}` : '';
      const cascade = ev.cascade ? ` cascade ${ev.cascade}` : '';
      return `duplicate key ${quoteText(ev.key)} seq ${ev.seq ?? '—'} ${kind} messageId ${quoteText(ev.messageId)}${first}${cascade} at ${iso(ev.at)} publishTime ${ev.publishTime ?? '—'} ${where(ev)}`;
    }
    case 'late':
      return `late key ${quoteText(ev.key)} seq ${ev.seq} messageId ${quoteText(ev.messageId)} at ${iso(ev.at)} (${ev.beforeStart ? "below the key's first number" : `declared lost ${iso(ev.lostAt)}`}) publishTime ${ev.publishTime ?? '—'} ${where(ev)}`;
    case 'reordered':
      return `reordered key ${quoteText(ev.key)} messageId ${quoteText(ev.messageId)} publishTime ${ev.publishTime ?? '—'} after ${quoteText(ev.behindMessageId)} published ${ev.behindPublishTime ?? '—'} (${formatDuration(ev.byMs)}, ${ev.byPosition} back) at ${iso(ev.at)} ${where(ev)}`;
    case 'reset':
      return `reset key ${quoteText(ev.key)} #${ev.from} → #${ev.to} (${ev.how}; ${ev.released} released, ${ev.lost} lost) at ${iso(ev.at)}`;
    case 'invalid':
      return `invalid ${where(ev)} at ${iso(ev.at)}: ${quoteText(ev.reason)}`;
    default:
      return assertNever(ev);
  }
}

export interface FindingsFilter {
  readonly kinds?: readonly FindingKind[];
  readonly key?: string;
  readonly fromSeq?: number;
  readonly toSeq?: number;
  /** Engine clock, ms, inclusive. */
  readonly since?: number;
  readonly until?: number;
  readonly offset: number;
  readonly limit: number;
}

function numberMatches(ev: FindingEvent, lo: number | undefined, hi: number | undefined): boolean {
  if (lo === undefined && hi === undefined) return true;
  switch (ev.type) {
    case 'gap':
      return overlapsNumberRange(ev.from, ev.to, lo, hi);
    case 'duplicate':
    case 'late':
      return ev.seq !== undefined && overlapsNumberRange(ev.seq, ev.seq, lo, hi);
    case 'reset':
      return overlapsNumberRange(ev.from, ev.from, lo, hi) || overlapsNumberRange(ev.to, ev.to, lo, hi);
    case 'reordered':
    case 'invalid':
      return false;
    default:
      return assertNever(ev);
  }
}

export interface FindingsPage {
  /** Findings the filter keeps, in all. */
  readonly total: number;
  /** The page of them the filter's offset and limit ask for. */
  readonly page: readonly FindingEvent[];
}

/** The findings the filter keeps, one page of them. */
export function findingsPage(ins: Inspection, f: FindingsFilter): FindingsPage {
  if (f.key !== undefined) keySummary(ins.summary, f.key);
  const kinds = f.kinds && new Set(f.kinds);
  const kept = ins.findings.filter((ev) => {
    if (kinds && !kinds.has(ev.type)) return false;
    if (f.key !== undefined && (ev.type === 'invalid' || ev.key !== f.key)) return false;
    if (!numberMatches(ev, f.fromSeq, f.toSeq)) return false;
    const t = findingTime(ev);
    if (f.since !== undefined && (t === undefined || t < f.since)) return false;
    if (f.until !== undefined && (t === undefined || t > f.until)) return false;
    return true;
  });
  return { total: kept.length, page: kept.slice(f.offset, f.offset + f.limit) };
}

/** A page of findings, with the count on every page. */
export function findingsPageText(ins: Inspection, f: FindingsFilter, { total, page }: FindingsPage): string {
  const head =
    total === 0
      ? 'no findings match'
      : page.length === 0
        ? `${total} findings match; offset ${f.offset} is past the last`
        : `${total} findings match; ${f.offset + 1}–${f.offset + page.length} shown${f.offset + page.length < total ? ` (next: offset ${f.offset + page.length})` : ''}`;
  const lines = [head, ...page.map(findingLine)];
  if (ins.findingsDropped)
    lines.push(`(only the first ${ins.findings.length} findings of the capture are listed; ${ins.findingsDropped} more are counted in the summary)`);
  return lines.join('\n');
}

/** The findings the filter keeps, one page of them, with the count on every page. */
export function findingsText(ins: Inspection, f: FindingsFilter): string {
  return findingsPageText(ins, f, findingsPage(ins, f));
}

/** Found messages, one line each; the payload (as text, or base64 when binary) only when asked. */
export function messagesText(r: MessageSearch, includePayload: boolean): string {
  const total = r.hits.length + r.more;
  const lines = [total === 0 ? 'no messages match' : `${total} messages match${r.more ? `; the first ${r.hits.length} shown` : ''}`];
  for (const m of r.hits) {
    lines.push(messageLine(m));
    if (includePayload && m.data !== undefined) lines.push(payloadLine(m.data));
  }
  if (r.binary) lines.push(`${r.binary} binary payloads were not searched as text (find them by messageId)`);
  return lines.join('\n');
}

/**
 * A payload (base64) as a line under its message: as text when it is UTF-8, else base64; cut to
 * `width` characters when given (the whole payload stays one request away).
 */
export function payloadLine(data: string, width = Infinity): string {
  const t = payloadText(data);
  const cut = (x: string) => (x.length > width ? `${x.slice(0, width)}… (${x.length} characters, cut)` : x);
  return typeof t === 'object' ? `  payload: ${cut(JSON.stringify(t.text))}` : t === 'binary' ? `  payload (base64): ${cut(data)}` : '  payload: empty';
}

export function messageLine(m: MessageEvent): string {
  const json = m.attributes ? escapeUnsafe(JSON.stringify(m.attributes)) : '';
  const attrs = m.attributes ? ` attributes ${json.length > 200 ? json.slice(0, 199) + '…' : json}` : '';
  return `message key ${quoteText(m.key)} seq ${m.seq ?? '—'} messageId ${quoteText(m.messageId)} publishTime ${m.publishTime ?? '—'} arrived ${iso(m.arrivedAt)} released ${iso(m.releasedAt)} (held ${formatDuration(m.heldMs)})${attrs} ${where(m)}`;
}
