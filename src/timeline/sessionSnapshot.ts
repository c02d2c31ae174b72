/**
 * A session as one JSON-able object, for the standalone HTML export: columns as base64 of their
 * typed arrays (compact, and decoded in the page without parsing a number per event), plus the
 * records the export embeds for the detail pane. Browser-safe; base64 is passed in because Node
 * and the browser encode it differently.
 */
import type { ReceivedMessage } from '../core/capture/captureRecord';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore } from './eventStore';
import { KindCode } from '../shared/timelineModel';
import { EventFilter, matches } from './timelineQuery';
import type { ArrivalColumn, Base64, EventColumn, SessionSnapshot } from '../shared/timelineModel';

function bytesOf(a: Uint8Array | Int32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** MessageIds decoded between two steps of snapshotSteps. */
const ID_SLICE = 100_000;

/** The events that pass `filter` (all when absent), re-numbered in order. */
export function snapshotSession(s: CaptureSession, b64: Base64, records: Record<number, ReceivedMessage>, filter?: EventFilter): SessionSnapshot {
  return runToEnd(snapshotSteps(s, b64, records, filter));
}

/** Runs a generator of steps straight through, for its result. */
function runToEnd<R>(steps: Generator<unknown, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * snapshotSession in steps: it yields after each column (its fraction of the work done so far),
 * so that an exporter in the extension host can let other work run between them — a million
 * events took ~0.9 s in one go, during which the window's other extensions waited.
 */
export function* snapshotSteps(
  s: CaptureSession,
  b64: Base64,
  records: Record<number, ReceivedMessage>,
  filter?: EventFilter,
): Generator<number, SessionSnapshot> {
  const src = s.store;
  const { ids, problems, behind, released } = selectEvents(s, filter);
  const log = s.log;
  const eventColumns: [
    EventColumn,
    { data: Float64Array | Int32Array | Uint8Array },
    Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor,
  ][] = [
    ['kind', src.kind, Uint8Array],
    ['key', src.key, Int32Array],
    ['seq', src.seq, Float64Array],
    ['seqTo', src.seqTo, Float64Array],
    ['extra', src.extra, Float64Array],
    ['t0', src.t0, Float64Array],
    ['t1', src.t1, Float64Array],
    ['flags', src.flags, Uint8Array],
    ['arrival', src.arrival, Int32Array],
    ['cause', src.cause, Int32Array],
  ];
  const arrivalColumns: [ArrivalColumn, { toArray(): Uint8Array | Int32Array | Float64Array }][] = [
    ['file', log.file],
    ['line', log.line],
    ['time', log.time],
    ['key', log.key],
    ['seq', log.seq],
  ];
  // MessageIds are decoded from the log's bytes one by one (~0.5 s for a million): in slices too.
  const idColumn = log.messageId;
  const idSlices = Math.ceil(idColumn.length / ID_SLICE);
  const steps = eventColumns.length + arrivalColumns.length + idSlices;
  let done = 0;
  yield done / steps;
  const events = {} as Record<EventColumn, string>;
  for (const [name, col, Ctor] of eventColumns) {
    const out = new Ctor(ids.length);
    ids.forEach((id, i) => (out[i] = col.data[id]));
    events[name] = b64.encode(bytesOf(out));
    yield ++done / steps;
  }
  const arrivals = {} as Record<ArrivalColumn, string>;
  for (const [name, col] of arrivalColumns) {
    arrivals[name] = b64.encode(bytesOf(col.toArray()));
    yield ++done / steps;
  }
  const messageIds = new Array<string>(idColumn.length);
  for (let i = 0; i < messageIds.length; i++) {
    messageIds[i] = idColumn.get(i);
    if ((i + 1) % ID_SLICE === 0) yield ++done / steps;
  }
  return {
    version: 1,
    paths: [...s.paths],
    summary: s.summary,
    keyNames: [...s.keyNames],
    events,
    arrivals,
    messageIds,
    problems,
    ...(behind.length ? { behind } : {}),
    ...(released.length ? { released } : {}),
    records,
  };
}

/**
 * The events that pass `filter` (all when absent), by id in order, and their sparse columns
 * (problems, what they are behind, when they were released) re-keyed by their new numbers.
 */
function selectEvents(
  s: CaptureSession,
  filter: EventFilter | undefined,
): { ids: number[]; problems: [number, string][]; behind: [number, string][]; released: [number, number][] } {
  const src = s.store;
  const ids: number[] = [];
  for (let id = 0; id < src.count; id++) if (matches(s, id, filter)) ids.push(id);
  const problems: [number, string][] = [];
  const behind: [number, string][] = [];
  const released: [number, number][] = [];
  ids.forEach((id, i) => {
    const p = src.problems.get(id);
    if (p !== undefined) problems.push([i, p]);
    const b = src.behind.get(id);
    if (b !== undefined) behind.push([i, b]);
    const r = src.released.get(id);
    if (r !== undefined) released.push([i, r]);
  });
  return { ids, problems, behind, released };
}

/** Rows restored between two yields of `restoreSteps`. */
const RESTORE_SLICE = 50_000;

export function restoreSession(snap: SessionSnapshot, b64: Base64): CaptureSession {
  return runToEnd(restoreSteps(snap, b64));
}

/**
 * Rebuilds the session, yielding every RESTORE_SLICE rows so a page that also draws (the
 * standalone export) can restore a million events in slices and stay responsive.
 */
export function* restoreSteps(snap: SessionSnapshot, b64: Base64): Generator<void, CaptureSession> {
  const f64 = (t: string) => {
    const b = b64.decode(t);
    return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  };
  const i32 = (t: string) => {
    const b = b64.decode(t);
    return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  };
  const u8 = (t: string) => b64.decode(t);
  const e = snap.events;
  const kind = u8(e.kind),
    key = i32(e.key),
    seq = f64(e.seq),
    seqTo = f64(e.seqTo),
    extra = f64(e.extra);
  const t0 = f64(e.t0),
    t1 = f64(e.t1),
    flags = u8(e.flags),
    arrival = i32(e.arrival),
    cause = i32(e.cause);
  const store = new EventStore();
  for (let i = 0; i < kind.length; i++) {
    store.add(kind[i] as KindCode, key[i], seq[i], seqTo[i], extra[i], t0[i], t1[i], flags[i], arrival[i], cause[i]);
    if ((i + 1) % RESTORE_SLICE === 0) yield;
  }
  for (const [id, p] of snap.problems) store.problems.set(id, p);
  for (const [id, b] of snap.behind ?? []) store.behind.set(id, b);
  for (const [id, r] of snap.released ?? []) store.released.set(id, r);
  const a = snap.arrivals;
  const file = i32(a.file),
    line = i32(a.line),
    time = f64(a.time),
    akey = i32(a.key),
    aseq = f64(a.seq);
  const log = new ArrivalLog();
  for (let i = 0; i < file.length; i++) {
    log.add(file[i], line[i], -1, 0, time[i], akey[i], aseq[i], snap.messageIds[i] ?? '');
    if ((i + 1) % RESTORE_SLICE === 0) yield;
  }
  return new CaptureSession(snap.paths, snap.summary, store, log, snap.keyNames);
}
