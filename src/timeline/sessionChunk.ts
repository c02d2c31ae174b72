/**
 * A session sent on in chunks while it loads: the loading worker cuts what its builder recorded
 * (SessionBuilder.cut) every so often and sends it here as plain typed arrays; the receiving
 * side appends each chunk to a session it shows from the first one on, indexing the new events
 * as `EventStore.add` would. After the last chunk the session is the very one a load in one
 * piece makes (same columns, indexes, maps, summary and key names), and neither side ever held
 * two copies of it.
 */
import type { ReplaySummary } from '../core/replay/replayEngine';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore } from './eventStore';
import type { BuiltChunk } from './sessionBuilder';

type NumberArray = Uint8Array | Int32Array | Float64Array;
type Movable = { toMovable(): NumberArray };
type Appendable = { append(a: NumberArray, expected?: number): void; trim(): void };

const EVENT_COLUMNS = ['kind', 'key', 'seq', 'seqTo', 'extra', 't0', 't1', 'flags', 'arrival', 'cause'] as const satisfies readonly (keyof EventStore)[];
const ARRIVAL_COLUMNS = ['file', 'line', 'offset', 'length', 'time', 'key', 'seq'] as const satisfies readonly (keyof ArrivalLog)[];

export interface SessionChunk {
  /** The first event's and the first arrival's index in the session. */
  eventBase: number;
  arrivalBase: number;
  events: Record<(typeof EVENT_COLUMNS)[number], NumberArray>;
  arrivals: Record<(typeof ARRIVAL_COLUMNS)[number], NumberArray>;
  messageIds: { bytes: Uint8Array; ends: Int32Array };
  problems: [number, string][];
  behind: [number, string][];
  released: [number, number][];
  /** The summary as of this chunk (the last chunk's is the load's). */
  summary: ReplaySummary;
  /** Names of the keys first seen since the previous chunk, in key-index order. */
  newKeyNames: string[];
  /** Of the input's bytes, how much was read when it was cut (0–1; 1 for the last). */
  share: number;
}

/** A builder's cut as a chunk, and the buffers to transfer with it (the cut's own columns, which the sender drops). */
export function packChunk(built: BuiltChunk, summary: ReplaySummary, newKeyNames: string[], share: number): { chunk: SessionChunk; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const take = <A extends NumberArray>(a: A): A => {
    transfer.push(a.buffer as ArrayBuffer);
    return a;
  };
  const events = {} as SessionChunk['events'];
  for (const c of EVENT_COLUMNS) events[c] = take((built.store[c] as Movable).toMovable());
  const arrivals = {} as SessionChunk['arrivals'];
  for (const c of ARRIVAL_COLUMNS) arrivals[c] = take((built.log[c] as Movable).toMovable());
  const ids = built.log.messageId.pack();
  const messageIds = { bytes: take(ids.bytes), ends: take(ids.ends) };
  const store = built.store;
  return {
    chunk: {
      eventBase: built.eventBase,
      arrivalBase: built.arrivalBase,
      events,
      arrivals,
      messageIds,
      problems: [...store.problems],
      behind: [...store.behind],
      released: [...store.released],
      summary,
      newKeyNames,
      share,
    },
    transfer,
  };
}

/** An empty session of these captures, to append chunks to. */
export function emptySession(paths: readonly string[], summary: ReplaySummary, copy?: string): CaptureSession {
  return new CaptureSession(paths, summary, new EventStore(), new ArrivalLog(), [], copy);
}

/**
 * Appends a chunk to `session`. Chunks come in the order they were cut: one out of order (or
 * missed) is a programming error, and throws.
 */
export function appendChunk(session: CaptureSession, chunk: SessionChunk): void {
  const store = session.store;
  const log = session.log;
  if (chunk.eventBase !== store.count || chunk.arrivalBase !== log.count) {
    throw new Error(`session chunk out of order: events from ${chunk.eventBase} and arrivals from ${chunk.arrivalBase} after ${store.count} and ${log.count}`);
  }
  const expected = expectedSize(chunk, { events: store.count, arrivals: log.count, idBytes: log.messageId.byteLength });
  for (const c of EVENT_COLUMNS) (store[c] as Appendable).append(chunk.events[c], expected.events);
  const { kind, key, t0, t1 } = chunk.events;
  for (let i = 0; i < kind.length; i++) store.indexEvent(chunk.eventBase + i, kind[i], key[i], t0[i], t1[i]);
  for (const [id, reason] of chunk.problems) store.problems.set(id, reason);
  for (const [id, messageId] of chunk.behind) store.behind.set(id, messageId);
  for (const [id, n] of chunk.released) store.released.set(id, n);
  for (const c of ARRIVAL_COLUMNS) (log[c] as Appendable).append(chunk.arrivals[c], expected.arrivals);
  log.messageId.appendPacked(chunk.messageIds, { count: expected.arrivals, bytes: expected.idBytes });
  (session.keyNames as string[]).push(...chunk.newKeyNames);
  session.summary = chunk.summary;
}

/**
 * The whole session's size as far as a chunk partway through tells (its share read), a little
 * over: a column that must grow grows to that once, not by doubling — every doubling of a column
 * of a million values leaves its old array to the collector. Zero (double) for the last chunk.
 */
function expectedSize(chunk: SessionChunk, held: { events: number; arrivals: number; idBytes: number }) {
  const scale = chunk.share > 0 && chunk.share < 1 ? 1.05 / chunk.share : 0;
  return {
    events: Math.ceil((held.events + chunk.events.kind.length) * scale),
    arrivals: Math.ceil((held.arrivals + chunk.arrivals.file.length) * scale),
    idBytes: Math.ceil((held.idBytes + chunk.messageIds.bytes.length) * scale),
  };
}

/** After the last chunk: the columns lose their growth slack (the session grows no more). */
export function trimSession(session: CaptureSession): void {
  const store = session.store;
  for (const c of EVENT_COLUMNS) (store[c] as Appendable).trim();
  store.invalid.trim();
  for (const ke of store.keys) for (const l of [ke.all, ke.releases, ke.long, ke.gap, ke.duplicate, ke.late, ke.reordered, ke.reset]) l.trim();
  for (const c of ARRIVAL_COLUMNS) (session.log[c] as Appendable).trim();
  session.log.messageId.trim();
}
