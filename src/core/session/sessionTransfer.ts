/**
 * A loaded session as plain typed arrays, to move it from the worker thread that loaded it to
 * the extension host's main thread without copying: every column's buffer is handed over in the
 * transfer list (trimmed by a copy only when a quarter or more of it is growth slack), which
 * leaves the sending side's columns detached. What the load allocated besides (parsed records,
 * the sequencer) dies with the worker, so the host keeps only the columns — not a heap that V8
 * would shrink some minutes later.
 */
import type { ReplaySummary } from '../replayEngine';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore, KeyEvents } from './eventStore';

type NumberArray = Uint8Array | Int32Array | Float64Array;
/** A column as both sides see it: trimmed out on one, adopted whole on the other. */
type Movable = { toMovable(): NumberArray; adopt(a: NumberArray): unknown };

const EVENT_COLUMNS = ['kind', 'key', 'seq', 'seqTo', 'extra', 't0', 't1', 'flags', 'arrival', 'cause'] as const satisfies readonly (keyof EventStore)[];
const ARRIVAL_COLUMNS = ['file', 'line', 'offset', 'length', 'time', 'key', 'seq'] as const satisfies readonly (keyof ArrivalLog)[];
const KEY_LISTS = ['all', 'gap', 'duplicate', 'late', 'releases', 'long'] as const satisfies readonly (keyof KeyEvents)[];

export interface PackedSession {
  paths: string[];
  summary: ReplaySummary;
  keyNames: string[];
  events: Record<(typeof EVENT_COLUMNS)[number], NumberArray>;
  keys: { lists: Record<(typeof KEY_LISTS)[number], NumberArray>; maxSpan: number }[];
  invalid: Int32Array;
  problems: [number, string][];
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
  const keys = store.keys.map((ke) => {
    const lists = {} as PackedSession['keys'][number]['lists'];
    for (const l of KEY_LISTS) lists[l] = take((ke[l] as Movable).toMovable());
    return { lists, maxSpan: ke.maxSpan };
  });
  const ids = s.log.messageId.pack();
  take(ids.bytes);
  take(ids.ends);
  return {
    packed: {
      paths: [...s.paths],
      summary: s.summary,
      keyNames: [...s.keyNames],
      events,
      keys,
      invalid: take(store.invalid.toMovable()),
      problems: [...store.problems],
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
  p.keys.forEach((k, i) => {
    const ke: KeyEvents = store.keyEvents(i);
    for (const l of KEY_LISTS) (ke[l] as Movable).adopt(k.lists[l]);
    ke.maxSpan = k.maxSpan;
  });
  store.invalid.adopt(p.invalid);
  for (const [id, reason] of p.problems) store.problems.set(id, reason);
  const log = new ArrivalLog();
  for (const c of ARRIVAL_COLUMNS) (log[c] as Movable).adopt(p.arrivals[c]);
  log.messageId.adopt(p.messageIds);
  return new CaptureSession(p.paths, p.summary, store, log, p.keyNames);
}
