/** The scanning threads of a replay or a comparison. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InlineScanPool } from '../core/capture/parallelReader';
import { WorkerScanPool } from '../timeline/node/scanPool';

/**
 * The pool `--threads` asks for: with one thread (or when run from source, where there is no
 * bundled dist/scanWorker.js beside this file) records are scanned on this thread, same result.
 * An export reads each record whole anyway, so on one thread it parses each once instead.
 */
export function scanPoolFor(threads: number, exporting: boolean): WorkerScanPool | InlineScanPool | undefined {
  const script = join(__dirname, 'scanWorker.js');
  if (threads >= 2 && existsSync(script)) return new WorkerScanPool(script, threads);
  return exporting ? undefined : new InlineScanPool();
}
