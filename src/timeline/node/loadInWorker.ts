/**
 * Loads a session on a worker thread. The extension host stays responsive while a large capture
 * is parsed and sequenced (its main thread runs every extension's code), cancelling answers at
 * once, and the load's garbage — a parsed object per record, the sequencer, the columns' growth
 * slack — lives in the worker's own heap, which is returned whole when the worker ends: the host
 * keeps only the finished columns, moved over without a copy (see sessionTransfer.ts).
 */
import { ResourceLimits, Worker } from 'node:worker_threads';
import { CaptureError, InputFormat } from '../../core/capture/captureReader';
import type { HeapStop, ReplayRunResult } from '../../core/replay/replayRun';
import type { ReplaySummary } from '../../core/replay/replayEngine';
import { SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { LoadOptions, LoadResult } from './loadSession';
import { PackedSession, unpackSession } from '../sessionTransfer';
import type { ComparisonFacts } from '../compareLanes';
import type { ChunkPace } from '../chunkPace';
import type { CaptureSession } from '../captureSession';
import { appendChunk, emptySession, SessionChunk, trimSession } from '../sessionChunk';
import { assertNever } from '../../core/util/assertNever';

/** Main thread → worker. */
export type LoadWorkerRequest =
  | {
      type: 'load';
      paths: readonly string[];
      options: SequencingOptions;
      inputFormat?: InputFormat;
      copyTo?: string;
      threads?: number;
      /** Compare: `paths` are side A's files and then B's, from `compare.firstB` on. */
      compare?: { firstB: number; labels: readonly [string, string] };
      /** Send the session in chunks at this pace (see sessionChunk.ts) instead of whole at the end. */
      chunks?: ChunkPace;
    }
  /** The summary alone, as `seqscope replay --json` prints it: no session is kept. */
  | { type: 'summarize'; paths: readonly string[]; options: SequencingOptions; inputFormat?: InputFormat; threads?: number }
  | { type: 'cancel' };

/** What a failed load threw, as far as it crosses threads. */
export interface LoadFailure {
  name: string;
  message: string;
  path?: string;
  line?: number;
}

/** Worker → main thread. */
export type LoadWorkerReply =
  | { type: 'progress'; bytesRead: number; totalBytes: number }
  | { type: 'chunk'; chunk: SessionChunk; last: boolean }
  /** `packed`: the session, unless it came in chunks. */
  | {
      type: 'done';
      packed?: PackedSession;
      cancelled: boolean;
      heapStop?: HeapStop;
      notes: readonly string[];
      comparison?: ComparisonFacts;
      recordedSchemas?: LoadResult['recordedSchemas'];
    }
  | { type: 'summary'; summary: ReplaySummary; cancelled: boolean; heapStop?: HeapStop; notes: readonly string[] }
  | { type: 'failed'; error: LoadFailure };

export interface WorkerLoadOptions extends LoadOptions {
  /** Node options for the worker (tests run the TypeScript entry through a loader). */
  readonly execArgv?: string[];
  /** The worker's heap (tests give it a small one); by default Node's. */
  readonly resourceLimits?: ResourceLimits;
  /**
   * The session in chunks while it loads (see sessionChunk.ts): `onChunk` is called with the
   * session as it grows — the same object each time, the one the load resolves with — after
   * each chunk but the last.
   */
  readonly chunks?: { readonly pace: ChunkPace; readonly onChunk: (session: CaptureSession) => void };
  /**
   * Threads that read JSON Lines captures (see parallelReader.ts): 1 reads on the loader's own
   * thread; by default one per core. The session is the same for any number.
   */
  readonly threads?: number;
  /** Loads a comparison instead (loadComparison.ts): `paths` are side A's files and then B's, from `firstB` on. */
  readonly compare?: { readonly firstB: number; readonly labels: readonly [string, string] };
}

/** The error as the caller would have seen it from an in-thread load (CaptureError stays one). */
export function reviveFailure(f: LoadFailure): Error {
  if (f.name === 'CaptureError' && f.path !== undefined) return new CaptureError(f.message, f.path, f.line);
  const e = new Error(f.message);
  e.name = f.name;
  return e;
}

/**
 * `loadSession` on a worker running `workerScript` (dist/loadWorker.js, built from
 * loadWorker.ts). Same result and errors; aborting keeps what was read, as loadSession does.
 */
export function loadSessionInWorker(
  workerScript: string,
  paths: readonly string[],
  options: SequencingOptions,
  load: WorkerLoadOptions = {},
): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(workerScript, { execArgv: load.execArgv, resourceLimits: load.resourceLimits });
    let settled = false;
    let growing: CaptureSession | undefined;
    const onAbort = () => worker.postMessage({ type: 'cancel' } satisfies LoadWorkerRequest);
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      load.signal?.removeEventListener('abort', onAbort);
      fn();
      // The columns are ours now; the worker's heap goes with it.
      void worker.terminate();
    };
    worker.on('message', (m: LoadWorkerReply) => {
      switch (m.type) {
        case 'progress':
          load.onProgress?.(m.bytesRead, m.totalBytes);
          break;
        case 'chunk':
          try {
            const first = growing === undefined;
            const session = (growing ??= emptySession(paths, m.chunk.summary, load.copyTo));
            appendChunk(session, m.chunk);
            if (!m.last) load.chunks?.onChunk(session);
            else if (!first) trimSession(session);
          } catch (e) {
            settle(() => reject(e));
          }
          break;
        case 'done': {
          const session = m.packed ? unpackSession(m.packed) : growing;
          if (!session) settle(() => reject(new Error('the capture loader ended without sending its session')));
          else
            settle(() =>
              resolve({ session, cancelled: m.cancelled, heapStop: m.heapStop, notes: m.notes, comparison: m.comparison, recordedSchemas: m.recordedSchemas }),
            );
          break;
        }
        case 'failed':
          settle(() => reject(reviveFailure(m.error)));
          break;
        case 'summary':
          settle(() => reject(new Error('the capture loader sent a summary to a load')));
          break;
        default:
          assertNever(m);
      }
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the capture loader stopped unexpectedly (exit code ${code})`))));
    worker.postMessage({
      type: 'load',
      paths,
      options,
      chunks: load.chunks?.pace,
      inputFormat: load.inputFormat,
      copyTo: load.copyTo,
      threads: load.threads,
      compare: load.compare,
    } satisfies LoadWorkerRequest);
    if (load.signal?.aborted) onAbort();
    else load.signal?.addEventListener('abort', onAbort);
  });
}

/**
 * The summary of captures alone, on a worker running `workerScript` (as `seqscope replay --json`
 * makes it): memory grows with the keys, not the messages, so it serves captures too big to
 * hold as a session. Aborting keeps what was read (`cancelled`).
 */
export function summarizeInWorker(
  workerScript: string,
  paths: readonly string[],
  options: SequencingOptions,
  load: Pick<WorkerLoadOptions, 'signal' | 'onProgress' | 'inputFormat' | 'threads' | 'execArgv'> = {},
): Promise<ReplayRunResult> {
  return new Promise<ReplayRunResult>((resolve, reject) => {
    const worker = new Worker(workerScript, { execArgv: load.execArgv });
    let settled = false;
    const onAbort = () => worker.postMessage({ type: 'cancel' } satisfies LoadWorkerRequest);
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      load.signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    worker.on('message', (m: LoadWorkerReply) => {
      switch (m.type) {
        case 'progress':
          load.onProgress?.(m.bytesRead, m.totalBytes);
          break;
        case 'summary':
          settle(() => resolve({ summary: m.summary, cancelled: m.cancelled, heapStop: m.heapStop, notes: m.notes, recordedSchemas: {} }));
          break;
        case 'failed':
          settle(() => reject(reviveFailure(m.error)));
          break;
        case 'chunk':
        case 'done':
          settle(() => reject(new Error(`the capture loader sent a session (${m.type}) to a summary`)));
          break;
        default:
          assertNever(m);
      }
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the capture loader stopped unexpectedly (exit code ${code})`))));
    worker.postMessage({ type: 'summarize', paths, options, inputFormat: load.inputFormat, threads: load.threads } satisfies LoadWorkerRequest);
    if (load.signal?.aborted) onAbort();
    else load.signal?.addEventListener('abort', onAbort);
  });
}
