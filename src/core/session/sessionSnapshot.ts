/**
 * A session as one JSON-able object, for the standalone HTML export: columns as base64 of their
 * typed arrays (compact, and decoded in the page without parsing a number per event), plus the
 * records the export embeds for the detail pane. Browser-safe; base64 is passed in because Node
 * and the browser encode it differently.
 */
import type { ReceivedMessage } from '../captureRecord';
import type { ReplaySummary } from '../replayEngine';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore, KindCode } from './eventStore';
import { EventFilter, matches } from './timelineQuery';

export interface Base64 {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
}

export interface SessionSnapshot {
  version: 1;
  paths: string[];
  summary: ReplaySummary;
  keyNames: string[];
  events: Record<EventColumn, string>;
  arrivals: Record<ArrivalColumn, string>;
  messageIds: string[];
  problems: [number, string][];
  /** Records by arrival index (only those the export chose to embed). */
  records: Record<number, ReceivedMessage>;
}

type EventColumn = 'kind' | 'key' | 'seq' | 'seqTo' | 'extra' | 't0' | 't1' | 'flags' | 'arrival' | 'cause';
type ArrivalColumn = 'file' | 'line' | 'time' | 'key' | 'seq';

function bytesOf(a: Uint8Array | Int32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** The events that pass `filter` (all when absent), re-numbered in order. */
export function snapshotSession(s: CaptureSession, b64: Base64, records: Record<number, ReceivedMessage>, filter?: EventFilter): SessionSnapshot {
  const src = s.store;
  const ids: number[] = [];
  for (let id = 0; id < src.count; id++) if (matches(s, id, filter)) ids.push(id);
  const pick = (col: { data: Float64Array | Int32Array | Uint8Array }, Ctor: Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor) => {
    const out = new Ctor(ids.length);
    ids.forEach((id, i) => (out[i] = col.data[id]));
    return b64.encode(bytesOf(out));
  };
  const log = s.log;
  const problems: [number, string][] = [];
  ids.forEach((id, i) => {
    const p = src.problems.get(id);
    if (p !== undefined) problems.push([i, p]);
  });
  return {
    version: 1,
    paths: [...s.paths],
    summary: s.summary,
    keyNames: [...s.keyNames],
    events: {
      kind: pick(src.kind, Uint8Array),
      key: pick(src.key, Int32Array),
      seq: pick(src.seq, Float64Array),
      seqTo: pick(src.seqTo, Float64Array),
      extra: pick(src.extra, Float64Array),
      t0: pick(src.t0, Float64Array),
      t1: pick(src.t1, Float64Array),
      flags: pick(src.flags, Uint8Array),
      arrival: pick(src.arrival, Int32Array),
      cause: pick(src.cause, Int32Array),
    },
    arrivals: {
      file: b64.encode(bytesOf(log.file.toArray())),
      line: b64.encode(bytesOf(log.line.toArray())),
      time: b64.encode(bytesOf(log.time.toArray())),
      key: b64.encode(bytesOf(log.key.toArray())),
      seq: b64.encode(bytesOf(log.seq.toArray())),
    },
    messageIds: log.messageId.toArray(),
    problems,
    records,
  };
}

/** Rows restored between two yields of `restoreSteps`. */
const RESTORE_SLICE = 50_000;

export function restoreSession(snap: SessionSnapshot, b64: Base64): CaptureSession {
  const steps = restoreSteps(snap, b64);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
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
  const kind = u8(e.kind), key = i32(e.key), seq = f64(e.seq), seqTo = f64(e.seqTo), extra = f64(e.extra);
  const t0 = f64(e.t0), t1 = f64(e.t1), flags = u8(e.flags), arrival = i32(e.arrival), cause = i32(e.cause);
  const store = new EventStore();
  for (let i = 0; i < kind.length; i++) {
    store.add(kind[i] as KindCode, key[i], seq[i], seqTo[i], extra[i], t0[i], t1[i], flags[i], arrival[i], cause[i]);
    if ((i + 1) % RESTORE_SLICE === 0) yield;
  }
  for (const [id, p] of snap.problems) store.problems.set(id, p);
  const a = snap.arrivals;
  const file = i32(a.file), line = i32(a.line), time = f64(a.time), akey = i32(a.key), aseq = f64(a.seq);
  const log = new ArrivalLog();
  for (let i = 0; i < file.length; i++) {
    log.add(file[i], line[i], -1, 0, time[i], akey[i], aseq[i], snap.messageIds[i] ?? '');
    if ((i + 1) % RESTORE_SLICE === 0) yield;
  }
  return new CaptureSession(snap.paths, snap.summary, store, log, snap.keyNames);
}
