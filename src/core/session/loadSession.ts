/**
 * Builds a CaptureSession from capture files: one streaming pass through the sequencer that
 * records every arrival and every event into columns. Memory grows with the number of events
 * (tens of bytes each), not with the size of the records, which stay in the file.
 */
import { runReplay } from '../replayRun';
import { SequencingOptions } from '../sequencingOptions';
import { CaptureSession } from './captureSession';
import { SessionBuilder } from './sessionBuilder';

export interface LoadOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
}

export interface LoadResult {
  readonly session: CaptureSession;
  readonly cancelled: boolean;
}

export async function loadSession(paths: readonly string[], options: SequencingOptions, load: LoadOptions = {}): Promise<LoadResult> {
  const b = new SessionBuilder();
  const { summary, cancelled } = await runReplay({
    paths,
    options,
    signal: load.signal,
    onProgress: load.onProgress,
    listener: b.listener,
    // Key indexes are the sequencer's own (first-appearance order, as in the summary).
    onEngine: (engine) => b.attach(engine),
    // Each arrival is logged around the push, so events can point back to it.
    beforePush: b.beforePush,
    afterPush: b.afterPush,
    beforeFinish: b.beforeAdvance,
  });
  const keyNames = summary.byKey.map((k) => k.key);
  return { session: new CaptureSession(paths, summary, b.store, b.log, keyNames), cancelled };
}
