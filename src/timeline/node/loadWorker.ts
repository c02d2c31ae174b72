/**
 * Entry point of the capture-loading worker (bundled as dist/loadWorker.js): loads one session
 * with `loadSession` (or a comparison with `loadComparison`) and hands its columns back to the thread that asked (loadInWorker.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { LoadFailure, LoadWorkerReply, LoadWorkerRequest } from './loadInWorker';
import { HeapGuard } from '../../core/replay/heapGuard';
import { runReplay } from '../../core/replay/replayRun';
import { LoadOptions, LoadResult, loadSession, loadSessionInChunks } from './loadSession';
import { loadComparison } from './loadComparison';
import { packChunk } from '../sessionChunk';
import { packSession } from '../sessionTransfer';
import { defaultThreads, WorkerScanPool } from './scanPool';
import { thinProgress } from '../../core/util/thinProgress';

const port = parentPort;
if (!port) throw new Error('loadWorker.js runs as a worker thread (see loadInWorker.ts)');

const abort = new AbortController();
const reply = (m: LoadWorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
/** Progress reaches the caller at most this often (and at the end): each message wakes its thread. */
const PROGRESS_EVERY_MS = 100;
const progressReplies = () =>
  thinProgress(
    PROGRESS_EVERY_MS,
    () => performance.now(),
    (bytesRead, totalBytes) => reply({ type: 'progress', bytesRead, totalBytes }),
  );

port.on('message', (req: LoadWorkerRequest) => {
  if (req.type === 'cancel') {
    abort.abort();
    return;
  }
  const scanPool = scanPoolFor(req.threads ?? defaultThreads());
  if (req.type === 'summarize') {
    summarize(req, scanPool);
    return;
  }
  const load: LoadOptions = {
    scanPool,
    signal: abort.signal,
    inputFormat: req.inputFormat,
    copyTo: req.copyTo,
    onProgress: progressReplies(),
    // A capture of millions of keys fills the worker's heap: stop with what was read (the
    // caller says why) rather than lose the worker and all of it.
    heapGuard: new HeapGuard(),
  };
  if (req.chunks) {
    loadSessionInChunks(req.paths, req.options, load, {
      pace: req.chunks,
      now: () => performance.now(),
      onChunk: (built, summary, newKeyNames, last, share) => {
        const { chunk, transfer } = packChunk(built, summary, newKeyNames, share);
        reply({ type: 'chunk', chunk, last }, transfer);
      },
    })
      .finally(() => scanPool?.close())
      .then(({ cancelled, heapStop, notes, recordedSchemas }) => reply({ type: 'done', cancelled, heapStop, notes, recordedSchemas }), failed);
    return;
  }
  const c = req.compare;
  const loading: Promise<LoadResult> = c
    ? loadComparison({ a: req.paths.slice(0, c.firstB), b: req.paths.slice(c.firstB), labels: c.labels }, req.options, load)
    : loadSession(req.paths, req.options, load);
  loading
    .finally(() => scanPool?.close())
    .then(({ session, cancelled, heapStop, notes, comparison, recordedSchemas }) => {
      const { packed, transfer } = packSession(session);
      reply({ type: 'done', packed, cancelled, heapStop, notes, comparison, recordedSchemas }, transfer);
    }, failed);
});

/** The summary alone: the sequencer over the captures, nothing recorded. */
function summarize(req: Extract<LoadWorkerRequest, { type: 'summarize' }>, scanPool: WorkerScanPool | undefined): void {
  runReplay({
    paths: req.paths,
    options: req.options,
    inputFormat: req.inputFormat,
    scanPool,
    signal: abort.signal,
    heapGuard: new HeapGuard(),
    onProgress: progressReplies(),
  })
    .finally(() => scanPool?.close())
    .then(({ summary, cancelled, heapStop, notes }) => reply({ type: 'summary', summary, cancelled, heapStop, notes }), failed);
}

/** A failed load, as far as its error crosses threads. */
function failed(e: unknown): void {
  const err = e instanceof Error ? e : new Error(String(e));
  const failure: LoadFailure = { name: err.name, message: err.message };
  const where = err as { path?: unknown; line?: unknown };
  if (typeof where.path === 'string') failure.path = where.path;
  if (typeof where.line === 'number') failure.line = where.line;
  reply({ type: 'failed', error: failure });
}

/**
 * The scanning threads of a load (none with one thread, or where there is no bundled
 * scanWorker.js beside this file, as in tests that bundle the loader alone: then it reads on
 * this thread, same session).
 */
function scanPoolFor(threads: number): WorkerScanPool | undefined {
  if (threads < 2) return undefined;
  const script = join(__dirname, 'scanWorker.js');
  return existsSync(script) ? new WorkerScanPool(script, threads) : undefined;
}
