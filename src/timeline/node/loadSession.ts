/**
 * Builds a CaptureSession from capture files: one streaming pass through the sequencer that
 * records every arrival and every event into columns. Memory grows with the number of events
 * (tens of bytes each), not with the size of the records, which stay in the file.
 */
import type { InputFormat } from '../../core/capture/captureReader';
import type { ScanPool } from '../../core/capture/parallelReader';
import { HeapGuard } from '../../core/replay/heapGuard';
import { HeapStop, runReplay } from '../../core/replay/replayRun';
import { SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { ArchiveCopy } from './archiveCopy';
import { CaptureSession } from '../captureSession';
import { SessionBuilder } from '../sessionBuilder';
import type { ComparisonFacts } from '../compareLanes';

export interface LoadOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Stops the load (keeping what was read, as a cancel does) when the heap is nearly full. */
  readonly heapGuard?: HeapGuard;
  /** How the captures' content is told (default: detected; `text` for Cloud Storage text archives). */
  readonly inputFormat?: InputFormat;
  /**
   * A new file to write the arrivals to as JSON Lines, and read them back from (archives: see
   * archiveCopy.ts). It must not exist; it is left for the caller to delete, whatever happens.
   */
  readonly copyTo?: string;
  /**
   * Threads that parse JSON Lines captures while this one sequences (see parallelReader.ts); the
   * caller owns them. Same session with or without, for any number of threads.
   */
  readonly scanPool?: ScanPool;
}

export interface LoadResult {
  readonly session: CaptureSession;
  readonly cancelled: boolean;
  /** Set when the heap guard stopped the load (then `cancelled` too). */
  readonly heapStop?: HeapStop;
  /** What the load could not know about its inputs (archives without ids or times), one line each. */
  readonly notes: readonly string[];
  /** A comparison's counts and ranges, when the session is one (loadComparison.ts). */
  readonly comparison?: ComparisonFacts;
}

export async function loadSession(paths: readonly string[], options: SequencingOptions, load: LoadOptions = {}): Promise<LoadResult> {
  const copy = load.copyTo === undefined ? undefined : new ArchiveCopy(load.copyTo, paths);
  const b = new SessionBuilder(copy);
  let result;
  try {
    result = await runReplay({
      // An archive's copy writes each arrival's record (archives are not read in parallel anyway).
      scanPool: copy === undefined ? load.scanPool : undefined,
      // The builder reads no record fields beyond sequencing's: no record is parsed twice.
      sequencingOnly: copy === undefined,
      paths,
      options,
      inputFormat: load.inputFormat,
      signal: load.signal,
      heapGuard: load.heapGuard,
      // A session also makes its key names and packs its per-key lists for the move to the
      // extension host: with the CLI's reserve (192, before percentiles) a 64 MiB worker ran out
      // of memory there; the key's percentiles add ~65.
      heapReservePerKey: 576,
      onProgress: load.onProgress,
      listener: b.listener,
      // Key indexes are the sequencer's own (first-appearance order, as in the summary).
      onEngine: (engine) => b.attach(engine),
      // Each arrival is logged around the push, so events can point back to it.
      beforePush: b.beforePush,
      afterPush: b.afterPush,
      beforeFinish: b.beforeAdvance,
    });
  } catch (e) {
    try {
      copy?.close();
    } catch {
      // The load's own error says more.
    }
    throw e;
  }
  copy?.close();
  const { summary, cancelled, heapStop, notes } = result;
  const keyNames = summary.byKey.map((k) => k.key);
  return { session: new CaptureSession(paths, summary, b.store, b.log, keyNames, load.copyTo), cancelled, heapStop, notes };
}
