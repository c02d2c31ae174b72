/**
 * Scanning threads for the parallel reader (core/capture/parallelReader.ts): `threads` worker
 * threads running dist/scanWorker.js, each scanning one range at a time, ranges queued in the
 * order they come. The CLI's replay and the extension's loader make one per run and close it.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ScanColumns } from '../../core/capture/lineScan';
import { ScanJob, ScanPool } from '../../core/capture/parallelReader';

/** Reader's thread → scanning thread. */
export interface ScanRequest {
  readonly id: number;
  readonly range: Uint8Array;
  readonly job: ScanJob;
}

/** Scanning thread → reader's thread. */
export type ScanReply =
  | { readonly id: number; readonly columns: ScanColumns }
  | { readonly id: number; readonly error: { name: string; message: string; stack?: string } };

/** The threads a replay scans on by default: one per core. */
export function defaultThreads(): number {
  return availableParallelism();
}

interface Task {
  readonly request: ScanRequest;
  readonly transfer: ArrayBuffer[];
  readonly resolve: (c: ScanColumns) => void;
  readonly reject: (e: Error) => void;
}

export class WorkerScanPool implements ScanPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Task[] = [];
  private readonly running = new Map<Worker, Task>();
  private nextId = 0;
  private failure: Error | undefined;
  private closed = false;

  constructor(
    /** dist/scanWorker.js (built from scanWorker.ts). */
    private readonly workerScript: string,
    readonly threads: number,
    private readonly execArgv?: string[],
  ) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`a scan pool needs at least one thread, not ${threads}`);
  }

  scan(range: Uint8Array, job: ScanJob, keep: boolean, owned = false): Promise<ScanColumns> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('the scan pool is closed'));
    // Moved to the thread when the caller is done with it and it owns its whole buffer (a
    // Buffer may be a view into Node's shared pool, which must never move); else copied.
    const own = !keep && (owned || (range.byteOffset === 0 && range.byteLength === range.buffer.byteLength)) && range.buffer instanceof ArrayBuffer;
    const bytes = own ? range : new Uint8Array(range);
    return new Promise<ScanColumns>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, range: bytes, job }, transfer: [bytes.buffer as ArrayBuffer], resolve, reject });
      this.dispatch();
    });
  }

  /** Ends the threads (what is still queued or running is rejected). */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new Error('the scan pool is closed'));
    await Promise.all(this.all.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const w = this.idle.pop() ?? this.spawn();
      if (w === undefined) return;
      const task = this.queue.shift() as Task;
      this.running.set(w, task);
      w.postMessage(task.request, task.transfer);
    }
  }

  /** A new thread, if fewer than `threads` run. */
  private spawn(): Worker | undefined {
    if (this.all.length >= this.threads) return undefined;
    const w = new Worker(this.workerScript, { execArgv: this.execArgv });
    w.on('message', (reply: ScanReply) => {
      const task = this.running.get(w);
      this.running.delete(w);
      this.idle.push(w);
      if (task !== undefined) {
        if ('error' in reply) {
          const e = new Error(reply.error.message);
          e.name = reply.error.name;
          e.stack = reply.error.stack;
          task.reject(e);
        } else task.resolve(reply.columns);
      }
      this.dispatch();
    });
    w.on('error', (e) => this.fail(e));
    w.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`a scanning thread stopped (exit code ${code})`));
    });
    this.all.push(w);
    return w;
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.failAll(e);
  }

  private failAll(e: Error): void {
    for (const t of this.running.values()) t.reject(e);
    this.running.clear();
    for (const t of this.queue.splice(0)) t.reject(e);
  }
}
