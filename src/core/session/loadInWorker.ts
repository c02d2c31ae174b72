/**
 * Loads a session on a worker thread. The extension host stays responsive while a large capture
 * is parsed and sequenced (its main thread runs every extension's code), cancelling answers at
 * once, and the load's garbage — a parsed object per record, the sequencer, the columns' growth
 * slack — lives in the worker's own heap, which is returned whole when the worker ends: the host
 * keeps only the finished columns, moved over without a copy (see sessionTransfer.ts).
 */
import { Worker } from 'node:worker_threads';
import { CaptureError } from '../captureReader';
import { SequencingOptions } from '../sequencingOptions';
import { LoadOptions, LoadResult } from './loadSession';
import { PackedSession, unpackSession } from './sessionTransfer';

/** Main thread → worker. */
export type LoadWorkerRequest = { type: 'load'; paths: readonly string[]; options: SequencingOptions } | { type: 'cancel' };

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
  | { type: 'done'; packed: PackedSession; cancelled: boolean }
  | { type: 'failed'; error: LoadFailure };

export interface WorkerLoadOptions extends LoadOptions {
  /** Node options for the worker (tests run the TypeScript entry through a loader). */
  readonly execArgv?: string[];
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
export function loadSessionInWorker(workerScript: string, paths: readonly string[], options: SequencingOptions, load: WorkerLoadOptions = {}): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(workerScript, { execArgv: load.execArgv });
    let settled = false;
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
        case 'done':
          settle(() => resolve({ session: unpackSession(m.packed), cancelled: m.cancelled }));
          break;
        case 'failed':
          settle(() => reject(reviveFailure(m.error)));
          break;
      }
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the capture loader stopped unexpectedly (exit code ${code})`))));
    worker.postMessage({ type: 'load', paths, options } satisfies LoadWorkerRequest);
    if (load.signal?.aborted) onAbort();
    else load.signal?.addEventListener('abort', onAbort);
  });
}
