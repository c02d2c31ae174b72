import { KeyOrder, orderKeys } from '../trace/keyOrder';
import { DuplicateEvent, GapEvent, InvalidEvent, LateEvent, MessageEvent, ReorderedEvent, ResetEvent, TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';
import { NO_KEY_LABEL } from '../trace/keyLabel';

/**
 * Chrome trace-event JSON (opens in Perfetto and chrome://tracing). Each key is a process, so it
 * gets its own track group; inside it:
 *   - thread 1 "delivered": an instant per released message;
 *   - thread 2 "findings": an instant per duplicate / late / reordered message, and one (process-wide) per reset;
 *   - async slices "hold #n" (arrival → release) and "gap a–b" (opened → declared lost), which may
 *     overlap one another, so they are async events rather than complete events on a thread.
 * Invalid records go to process 0 "capture". Times are µs since the first event. The keys' tracks
 * are sorted in the key order asked for (process_sort_index).
 */
/** One event of the Trace Event Format, as written. */
export interface ChromeEvent {
  name: string;
  ph: string;
  ts?: number;
  pid: number;
  tid?: number;
  s?: string;
  cat?: string;
  id?: string;
  args?: Record<string, unknown>;
}

const DELIVERED_TID = 1;
const FINDINGS_TID = 2;

/** A key's findings in the trace, for its place in `findings` order. */
interface KeyTally {
  name: string;
  lost: number;
  late: number;
  reordered: number;
  duplicates: number;
}

export class ChromeTraceFormatter implements TraceFormatter {
  private readonly pids = new Map<string, number>();
  /** By pid − 1. */
  private readonly tallies: KeyTally[] = [];
  private origin = NaN;
  private asyncId = 0;

  /**
   * @param keyOrder The order of the keys' tracks (process_sort_index, written at the end, once
   *   every key and its findings in the trace are known); default: as the keys first appeared.
   */
  constructor(private readonly keyOrder: KeyOrder = 'arrival') {}

  /** Sets the time origin (the capture's first record) so no event lands before zero. */
  startAt(ms: number): void {
    if (this.origin !== this.origin) this.origin = ms;
  }

  header(): string {
    return '{"displayTimeUnit":"ms","traceEvents":[\n' + JSON.stringify(meta(0, 'process_name', { name: 'capture' }));
  }

  format(events: readonly TraceEvent[]): string {
    let s = '';
    const out = (c: ChromeEvent) => {
      s += ',\n' + JSON.stringify(c);
    };
    for (const ev of events) {
      // An invalid record read before any valid one has no clock of its own: it must not set the origin.
      if (this.origin !== this.origin && ev.type !== 'invalid') this.origin = timeOf(ev);
      if (ev.type === 'invalid') {
        out({
          name: 'invalid',
          ph: 'i',
          s: 'p',
          ts: this.us(ev.at ?? this.origin),
          pid: 0,
          tid: 0,
          cat: 'invalid',
          args: { line: ev.line, file: ev.file, reason: ev.reason },
        });
        continue;
      }
      const pid = this.pidFor(ev.key, out);
      this.tally(pid, ev);
      if (ev.type === 'message') this.message(ev, pid, out);
      else if (ev.type === 'gap') this.gap(ev, pid, out);
      else out(findingEvent(ev, this.us(ev.at), pid));
    }
    return s;
  }

  footer(): string {
    let sorts = '';
    const order = orderKeys(this.tallies, this.keyOrder, (t) => t.name);
    order.forEach((i, at) => (sorts += ',\n' + JSON.stringify(meta(i + 1, 'process_sort_index', { sort_index: at + 1 }))));
    const origin = this.origin === this.origin ? new Date(this.origin).toISOString() : null;
    return `${sorts}\n],"otherData":${JSON.stringify({ producer: 'seqscope', origin, keyOrder: this.keyOrder })}}\n`;
  }

  /** µs since the origin; never before zero (nor NaN), which trace viewers reject or misplace. */
  private us(ms: number): number {
    const us = Math.round((ms - this.origin) * 1000);
    return us > 0 ? us : 0;
  }

  /** Counts a key's findings, for its place in `findings` order. */
  private tally(pid: number, ev: Exclude<TraceEvent, InvalidEvent>): void {
    const tally = this.tallies[pid - 1];
    if (ev.type === 'gap') tally.lost += ev.count;
    else if (ev.type === 'late') tally.late++;
    else if (ev.type === 'reordered') tally.reordered++;
    else if (ev.type === 'duplicate') tally.duplicates++;
  }

  /** A released message: its instant on the delivered thread, after its hold's slice when it was held. */
  private message(ev: MessageEvent, pid: number, out: (c: ChromeEvent) => void): void {
    const label = ev.seq !== undefined ? `#${ev.seq}` : ev.messageId;
    if (ev.heldMs > 0) {
      const id = String(++this.asyncId);
      out({ name: `hold ${label}`, ph: 'b', cat: 'hold', id, ts: this.us(ev.arrivedAt), pid });
      out({ name: `hold ${label}`, ph: 'e', cat: 'hold', id, ts: this.us(ev.releasedAt), pid });
    }
    out({
      name: label,
      ph: 'i',
      s: 't',
      cat: 'delivered',
      ts: this.us(ev.releasedAt),
      pid,
      tid: DELIVERED_TID,
      args: { messageId: ev.messageId, heldMs: ev.heldMs, line: ev.line },
    });
  }

  /** A gap: a slice from when it opened to when it was declared lost. */
  private gap(ev: GapEvent, pid: number, out: (c: ChromeEvent) => void): void {
    const id = String(++this.asyncId);
    const name = ev.count === 1 ? `gap #${ev.from}` : `gap #${ev.from}–${ev.to}`;
    out({ name, ph: 'b', cat: 'gap', id, ts: this.us(ev.openedAt), pid, args: { from: ev.from, to: ev.to, count: ev.count, reason: ev.reason } });
    out({ name, ph: 'e', cat: 'gap', id, ts: this.us(ev.declaredAt), pid });
  }

  private pidFor(key: string, out: (c: ChromeEvent) => void): number {
    let pid = this.pids.get(key);
    if (pid === undefined) {
      pid = this.pids.size + 1;
      this.pids.set(key, pid);
      out(meta(pid, 'process_name', { name: key === '' ? NO_KEY_LABEL : `key ${key}` }));
      this.tallies.push({ name: key, lost: 0, late: 0, reordered: 0, duplicates: 0 });
      out({ ...meta(pid, 'thread_name', { name: 'delivered' }), tid: DELIVERED_TID });
      out({ ...meta(pid, 'thread_name', { name: 'findings' }), tid: FINDINGS_TID });
    }
    return pid;
  }
}

/** A finding's instant on its key's findings thread (a reset's, process-wide), at `ts` µs. */
function findingEvent(ev: DuplicateEvent | LateEvent | ResetEvent | ReorderedEvent, ts: number, pid: number): ChromeEvent {
  switch (ev.type) {
    case 'duplicate':
      return {
        name: `${ev.conflict ? 'conflict' : ev.redelivery ? 'redelivery' : 'duplicate'} ${ev.seq !== undefined ? '#' + ev.seq : ev.messageId}`,
        ph: 'i',
        s: 't',
        cat: ev.conflict ? 'duplicate,conflict' : 'duplicate',
        ts,
        pid,
        tid: FINDINGS_TID,
        args: {
          messageId: ev.messageId,
          redelivery: ev.redelivery,
          cascade: ev.cascade,
          conflict: ev.conflict,
          conflictReason: ev.conflictReason,
          line: ev.line,
        },
      };
    case 'late':
      return {
        name: `late #${ev.seq}`,
        ph: 'i',
        s: 't',
        cat: 'late',
        ts,
        pid,
        tid: FINDINGS_TID,
        args: { messageId: ev.messageId, beforeStart: ev.beforeStart, line: ev.line },
      };
    case 'reset':
      return {
        name: `reset #${ev.from} → #${ev.to}`,
        ph: 'i',
        s: 'p',
        cat: 'reset',
        ts,
        pid,
        tid: FINDINGS_TID,
        args: { from: ev.from, to: ev.to, released: ev.released, lost: ev.lost, how: ev.how },
      };
    case 'reordered':
      return {
        name: `reordered ${ev.messageId}`,
        ph: 'i',
        s: 't',
        cat: 'reordered',
        ts,
        pid,
        tid: FINDINGS_TID,
        args: {
          messageId: ev.messageId,
          publishTime: ev.publishTime,
          behindMessageId: ev.behindMessageId,
          behindPublishTime: ev.behindPublishTime,
          byMs: ev.byMs,
          byPosition: ev.byPosition,
          line: ev.line,
        },
      };
  }
}

function meta(pid: number, name: string, args: Record<string, unknown>): ChromeEvent {
  return { name, ph: 'M', pid, tid: 0, args };
}

function timeOf(ev: TraceEvent): number {
  switch (ev.type) {
    case 'message':
      return ev.arrivedAt;
    case 'gap':
      return ev.openedAt;
    case 'invalid':
      return ev.at ?? NaN;
    default:
      return ev.at;
  }
}
