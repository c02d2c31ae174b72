/**
 * Entry point of the search worker (bundled as dist/searchWorker.js): runs one `searchCaptures`
 * for the thread that asked (searchInWorker.ts) and reports its progress.
 */
import { parentPort } from 'node:worker_threads';
import type { SearchWorkerReply, SearchWorkerRequest } from './searchInWorker';
import { searchCaptures } from './sessionSearch';

const port = parentPort;
if (!port) throw new Error('searchWorker.js runs as a worker thread (see searchInWorker.ts)');

const abort = new AbortController();
const reply = (m: SearchWorkerReply) => port.postMessage(m);

port.on('message', (req: SearchWorkerRequest) => {
  if (req.type === 'cancel') {
    abort.abort();
    return;
  }
  searchCaptures(req.paths, req.ranges, req.input, {
    signal: abort.signal,
    limit: req.limit,
    schemas: req.schemas,
    onProgress: (searched, total, matched) => reply({ type: 'progress', searched, total, matched }),
  }).then(
    (result) => reply({ type: 'done', result }),
    (e: unknown) => reply({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
  );
});
