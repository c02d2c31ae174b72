/**
 * restoreSession() (timeline/sessionSnapshot.ts) in slices: the standalone page rebuilds a
 * million-event session on the thread that also draws, so it yields between slices and the
 * timeline stays responsive (drawing the preview) while the session loads. The same steps as
 * restoreSession, with a pause between them. DOM-free.
 */
import { CaptureSession } from '../timeline/captureSession';
import { restoreSteps } from '../timeline/sessionSnapshot';
import { Base64, SessionSnapshot } from '../shared/timelineModel';

export async function restoreSessionSliced(snap: SessionSnapshot, b64: Base64, yieldNow: () => Promise<void>): Promise<CaptureSession> {
  const steps = restoreSteps(snap, b64);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await yieldNow();
  }
}
