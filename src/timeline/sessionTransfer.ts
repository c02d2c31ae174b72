/**
 * A loaded session as plain typed arrays, to move it from the worker thread that loaded it to
 * the extension host's main thread without copying: every column's buffer is handed over in the
 * transfer list (trimmed by a copy only when a quarter or more of it is growth slack), which
 * leaves the sending side's columns detached. What the load allocated besides (parsed records,
 * the sequencer) dies with the worker, so the host keeps only the columns — not a heap that V8
 * would shrink some minutes later.
 *
 * The per-key lists go concatenated, one buffer a kind of list, not one a key: what a transfer
 * costs grows with the square of the number of buffers in the message (measured on Node 20:
 * 10 000 buffers 0.14 s, 40 000 1.0 s), and six lists a key made 600 000 buffers for a capture
 * of 100 000 keys — three minutes before the session reached the extension host.
 */
import type { ReplaySummary } from '../core/replay/replayEngine';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore, KeyEvents } from './eventStore';

type NumberArray = Uint8Array | Int32Array | Float64Array;
/** A column as both sides see it: trimmed out on one, adopted whole on the other. */
type Movable = { toMovable(): NumberArray; adopt(a: NumberArray): unknown };

const EVENT_COLUMNS = ['kind', 'key', 'seq', 'seqTo', 'extra', 't0', 't1', 'flags', 'arrival', 'cause'] as const satisfies readonly (keyof EventStore)[];
const ARRIVAL_COLUMNS = ['file', 'line', 'offset', 'length', 'time', 'key', 'seq'] as const satisfies readonly (keyof ArrivalLog)[];
const KEY_LISTS = ['all', 'gap', 'duplicate', 'late', 'reordered', 'reset', 'releases', 'long', 'compared'] as const satisfies readonly (keyof KeyEvents)[];

/** One kind of per-key list for every key: the values one key after another, and where each key's end. */
interface KeyListColumn {
  values: NumberArray;
  ends: Int32Array;
}

export interface PackedSession {
  paths: string[];
  copy?: string;
  summary: ReplaySummary;
  keyNames: string[];
  events: Record<(typeof EVENT_COLUMNS)[number], NumberArray>;
  keyLists: Record<(typeof KEY_LISTS)[number], KeyListColumn>;
  /** Per key: KeyEvents.maxSpan. */
  keyMaxSpan: Float64Array;
  invalid: Int32Array;
  problems: [number, string][];
  behind: [number, string][];
  released: [number, number][];
  arrivals: Record<(typeof ARRIVAL_COLUMNS)[number], NumberArray>;
  messageIds: { bytes: Uint8Array; ends: Int32Array };
}

/** The session's columns (views of their buffers, or trimmed copies) and the buffers to transfer. */
export function packSession(s: CaptureSession): { packed: PackedSession; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const take = <A extends NumberArray>(a: A): A => {
    transfer.push(a.buffer as ArrayBuffer);
    return a;
  };
  const store = s.store;
  const events = {} as PackedSession['events'];
  for (const c of EVENT_COLUMNS) events[c] = take((store[c] as Movable).toMovable());
  const arrivals = {} as PackedSession['arrivals'];
  for (const c of ARRIVAL_COLUMNS) arrivals[c] = take((s.log[c] as Movable).toMovable());
  const keyLists = {} as PackedSession['keyLists'];
  for (const l of KEY_LISTS) {
    const c = concatenated(store.keys.map((ke) => ke[l]));
    take(c.values);
    take(c.ends);
    keyLists[l] = c;
  }
  const keyMaxSpan = take(Float64Array.from(store.keys, (ke) => ke.maxSpan));
  const ids = s.log.messageId.pack();
  take(ids.bytes);
  take(ids.ends);
  return {
    packed: {
      paths: [...s.paths],
      copy: s.copy,
      summary: s.summary,
      keyNames: [...s.keyNames],
      events,
      keyLists,
      keyMaxSpan,
      invalid: take(store.invalid.toMovable()),
      problems: [...store.problems],
      behind: [...store.behind],
      released: [...store.released],
      arrivals,
      messageIds: ids,
    },
    transfer,
  };
}

/** The session again, on the receiving side; its columns are the transferred arrays. */
export function unpackSession(p: PackedSession): CaptureSession {
  const store = new EventStore();
  for (const c of EVENT_COLUMNS) (store[c] as Movable).adopt(p.events[c]);
  for (let i = 0; i < p.keyMaxSpan.length; i++) {
    const ke: KeyEvents = store.keyEvents(i);
    // Views of the shared buffer: a column that grows later copies itself out of it first. An
    // empty list keeps the column as made (the shared empty array for the lists mostly empty).
    for (const l of KEY_LISTS) {
      const { values, ends } = p.keyLists[l];
      const start = i === 0 ? 0 : ends[i - 1];
      if (ends[i] > start) (ke[l] as Movable).adopt(values.subarray(start, ends[i]));
    }
    ke.maxSpan = p.keyMaxSpan[i];
    for (let j = 0; j < ke.compared.length; j++) {
      const id = ke.compared.get(j);
      ke.comparedSpan = Math.max(ke.comparedSpan, store.t1.get(id) - store.t0.get(id));
    }
  }
  store.invalid.adopt(p.invalid);
  for (const [id, reason] of p.problems) store.problems.set(id, reason);
  for (const [id, messageId] of p.behind) store.behind.set(id, messageId);
  for (const [id, n] of p.released) store.released.set(id, n);
  const log = new ArrivalLog();
  for (const c of ARRIVAL_COLUMNS) (log[c] as Movable).adopt(p.arrivals[c]);
  log.messageId.adopt(p.messageIds);
  return new CaptureSession(p.paths, p.summary, store, log, p.keyNames, p.copy);
}

/** Every key's list of one kind in one array (the same element type), and each key's end in it. */
function concatenated(columns: readonly { data: NumberArray; length: number }[]): KeyListColumn {
  const ends = new Int32Array(columns.length);
  let total = 0;
  columns.forEach((c, i) => (ends[i] = total += c.length));
  const Ctor = (columns[0]?.data.constructor ?? Int32Array) as new (n: number) => NumberArray;
  const values = new Ctor(total);
  columns.forEach((c, i) => values.set(c.data.subarray(0, c.length), i === 0 ? 0 : ends[i - 1]));
  return { values, ends };
}
