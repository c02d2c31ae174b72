/**
 * Find Messages on a worker thread (dist/searchWorker.js, built from searchWorker.ts): reading and
 * matching a million records takes seconds, which the extension host's main thread — every
 * extension's code runs there — must not spend. The worker gets copies of the arrival log's byte
 * ranges (16 bytes an arrival) and reads the captures itself.
 */
import { Worker } from 'node:worker_threads';
import type { SchemaSet } from '../../core/schema/schemaSet';
import type { SearchInput } from '../../core/trace/messageMatch';
import type { CaptureSession } from '../captureSession';
import { RecordRanges, SearchOptions, SearchResult } from './sessionSearch';

/** Main thread → worker. */
export type SearchWorkerRequest =
  | { type: 'search'; paths: readonly string[]; ranges: RecordRanges; input: SearchInput; limit?: number; schemas?: SchemaSet }
  | { type: 'cancel' };

/** Worker → main thread. */
export type SearchWorkerReply =
  | { type: 'progress'; searched: number; total: number; matched: number }
  | { type: 'done'; result: SearchResult }
  | { type: 'failed'; message: string };

/**
 * The session's record ranges, copied (the session keeps its own), and the files they are in: an
 * archive's records are read back from its JSON Lines copy, which holds every arrival.
 */
export function recordRanges(session: CaptureSession): RecordRanges {
  const log = session.log;
  const file = session.copy === undefined ? log.file.toArray() : new Int32Array(log.count);
  return { file, offset: log.offset.toArray(), length: log.length.toArray() };
}

/** The files `recordRanges` point into. */
export function recordFiles(session: CaptureSession): readonly string[] {
  return session.copy === undefined ? session.paths : [session.copy];
}

export interface WorkerSearchOptions extends SearchOptions {
  /** Node options for the worker (tests run the TypeScript entry through a loader). */
  readonly execArgv?: string[];
}

/**
 * `searchCaptures` on a worker running `workerScript`. Aborting `signal` stops it and resolves
 * with what was found so far (`cancelled`).
 */
export function searchInWorker(workerScript: string, session: CaptureSession, input: SearchInput, options: WorkerSearchOptions = {}): Promise<SearchResult> {
  return new Promise<SearchResult>((resolve, reject) => {
    const worker = new Worker(workerScript, { execArgv: options.execArgv });
    let settled = false;
    const onAbort = () => worker.postMessage({ type: 'cancel' } satisfies SearchWorkerRequest);
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    worker.on('message', (m: SearchWorkerReply) => {
      switch (m.type) {
        case 'progress':
          options.onProgress?.(m.searched, m.total, m.matched);
          break;
        case 'done':
          settle(() => resolve(m.result));
          break;
        case 'failed':
          settle(() => reject(new Error(m.message)));
          break;
      }
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the search stopped unexpectedly (exit code ${code})`))));
    const ranges = recordRanges(session);
    worker.postMessage(
      { type: 'search', paths: recordFiles(session), ranges, input, limit: options.limit, schemas: options.schemas } satisfies SearchWorkerRequest,
      [ranges.file.buffer, ranges.offset.buffer, ranges.length.buffer] as ArrayBuffer[],
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort);
  });
}
