/**
 * Entry point of a scanning thread (bundled as dist/scanWorker.js): scans the ranges of JSON
 * Lines it is sent into columns (core/capture/lineScan.ts) and sends them back, moved, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { columnBuffers, scanLines } from '../../core/capture/lineScan';
import { ScanReply, ScanRequest } from './scanPool';

const port = parentPort;
if (!port) throw new Error('scanWorker.js runs as a worker thread (see scanPool.ts)');

port.on('message', (req: ScanRequest) => {
  let reply: ScanReply;
  try {
    const columns = scanLines(req.range, req.job.options, req.job.maxRecordBytes);
    reply = { id: req.id, columns };
    port.postMessage(reply, columnBuffers(columns));
  } catch (e) {
    // A bug (scanLines reports bad input as invalid records): hand it to the reader's thread.
    const err = e instanceof Error ? e : new Error(String(e));
    reply = { id: req.id, error: { name: err.name, message: err.message, stack: err.stack } };
    port.postMessage(reply);
  }
});
