/**
 * restoreSession() (core/session/sessionSnapshot.ts) cut into slices: the standalone page
 * rebuilds a million-event session on the thread that also draws, so it yields between slices
 * and the timeline stays responsive (drawing the preview) while the session loads. It must build
 * exactly what restoreSession builds — a unit test compares the two — so keep it in step.
 * DOM-free.
 */
import { ArrivalLog } from '../core/session/arrivalLog';
import { CaptureSession } from '../core/session/captureSession';
import { EventStore, KindCode } from '../core/session/eventStore';
import type { Base64, SessionSnapshot } from '../core/session/sessionSnapshot';

/** Rows added between two yields. */
const SLICE = 50_000;

export async function restoreSessionSliced(snap: SessionSnapshot, b64: Base64, yieldNow: () => Promise<void>): Promise<CaptureSession> {
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
    if ((i + 1) % SLICE === 0) await yieldNow();
  }
  for (const [id, p] of snap.problems) store.problems.set(id, p);
  const a = snap.arrivals;
  const file = i32(a.file), line = i32(a.line), time = f64(a.time), akey = i32(a.key), aseq = f64(a.seq);
  const log = new ArrivalLog();
  for (let i = 0; i < file.length; i++) {
    log.add(file[i], line[i], -1, 0, time[i], akey[i], aseq[i], snap.messageIds[i] ?? '');
    if ((i + 1) % SLICE === 0) await yieldNow();
  }
  return new CaptureSession(snap.paths, snap.summary, store, log, snap.keyNames);
}
