/**
 * Builds a CaptureSession from capture files: one streaming pass through the sequencer that
 * records every arrival and every event into columns. Memory grows with the number of events
 * (tens of bytes each), not with the size of the records, which stay in the file.
 */
import type { InputFormat } from '../../core/capture/captureReader';
import type { ScanPool } from '../../core/capture/parallelReader';
import { HeapGuard } from '../../core/replay/heapGuard';
import { HeapStop, ReplayRunResult, runReplay } from '../../core/replay/replayRun';
import type { ReplayEngine, ReplaySummary } from '../../core/replay/replayEngine';
import { SequencingOptions } from '../../core/sequencer/sequencingOptions';
import type { SchemaDefinition } from '../../core/schema/schemaDefinition';
import { ArchiveCopy } from './archiveCopy';
import { CaptureSession } from '../captureSession';
import type { ComparisonFacts } from '../compareLanes';
import { BuiltChunk, SessionBuilder } from '../sessionBuilder';
import { ChunkPace, ChunkPacer } from '../chunkPace';

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
  /** The schema definitions the captures record (schema lines), by revision key: for the session's set. */
  readonly recordedSchemas?: Readonly<Record<string, SchemaDefinition>>;
  /** A comparison's counts and ranges, when the session is one (loadComparison.ts). */
  readonly comparison?: ComparisonFacts;
}

export async function loadSession(paths: readonly string[], options: SequencingOptions, load: LoadOptions = {}): Promise<LoadResult> {
  const b = new SessionBuilder(load.copyTo === undefined ? undefined : new ArchiveCopy(load.copyTo, paths));
  const { summary, cancelled, heapStop, notes, recordedSchemas } = await build(paths, options, load, b);
  const keyNames = summary.byKey.map((k) => k.key);
  return { session: new CaptureSession(paths, summary, b.store, b.log, keyNames, load.copyTo), cancelled, heapStop, notes, recordedSchemas };
}

/** How a load sends its session on in chunks (see sessionChunk.ts). */
export interface ChunkedLoad {
  readonly pace: ChunkPace;
  /** The load's clock, for the pace. */
  readonly now: () => number;
  /**
   * Each chunk, with the summary as of its end (without the keys' percentiles, which come with
   * the last) and the names of the keys it brought; the last (`last`, sent before the load
   * resolves, maybe empty) with the load's own summary. `share`: of the input's bytes, how much
   * was read by then (0–1).
   */
  readonly onChunk: (built: BuiltChunk, summary: ReplaySummary, newKeyNames: string[], last: boolean, share: number) => void;
}

/**
 * `loadSession`, sending the session on in chunks as it is built instead of returning it: the
 * receiver appends them (sessionChunk.ts) and has the whole session after the last, which this
 * sends before it resolves. The builder keeps no more than one chunk.
 */
export async function loadSessionInChunks(
  paths: readonly string[],
  options: SequencingOptions,
  load: LoadOptions,
  chunks: ChunkedLoad,
): Promise<Omit<LoadResult, 'session'>> {
  const b = new SessionBuilder(load.copyTo === undefined ? undefined : new ArchiveCopy(load.copyTo, paths), { chunked: true });
  const pacer = new ChunkPacer(chunks.pace, chunks.now);
  let named = 0;
  let share = 0;
  const send = (summary: ReplaySummary, last: boolean) => {
    const names = summary.byKey.slice(named).map((k) => k.key);
    named += names.length;
    chunks.onChunk(b.cut(), summary, names, last, last ? 1 : share);
  };
  let engine: ReplayEngine | undefined;
  const { summary, cancelled, heapStop, notes, recordedSchemas } = await build(paths, options, load, b, {
    onEngine: (e) => (engine = e),
    afterBatch: (read, total) => {
      share = total > 0 ? read / total : 0;
      if (engine && pacer.due(b.arrivals)) send(engine.summary(false), false);
    },
  });
  send(summary, true);
  return { cancelled, heapStop, notes, recordedSchemas };
}

/** One streaming pass of the sequencer into `b`; `hooks` see the engine and each batch's end. */
async function build(
  paths: readonly string[],
  options: SequencingOptions,
  load: LoadOptions,
  b: SessionBuilder,
  hooks: { onEngine?: (engine: ReplayEngine) => void; afterBatch?: (bytesRead: number, totalBytes: number) => void } = {},
): Promise<ReplayRunResult> {
  const copy = b.copy;
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
      onProgress: (read, total) => {
        hooks.afterBatch?.(read, total);
        load.onProgress?.(read, total);
      },
      listener: b.listener,
      // Key indexes are the sequencer's own (first-appearance order, as in the summary).
      onEngine: (engine) => {
        b.attach(engine);
        hooks.onEngine?.(engine);
      },
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
  return result;
}
