/**
 * Appends capture lines to a file so that a live source can ack a message only once its line is
 * in the file. The lines of one batch of deliveries (a pull response's messages, which the
 * live source appends in one go) are encoded into one buffer and written with a single
 * synchronous write when that batch ends, in a microtask; their callbacks run right after. The
 * file is fsynced about once a second, in the background, and on close. A crash can therefore
 * leave at most a torn last line — every complete line replays — and a message is acked only
 * after the write that holds its line returned, so nothing acked is missing from the recording
 * when SeqScope or its host dies (the OS holds the written bytes; a power cut can cost the last
 * second, the fsync interval).
 *
 * Why synchronous writes, in the extension host: a batch is tens of KB into the page cache, a
 * few tens of µs. Asynchronous writes, flushed on a timer or in setImmediate, cost more CPU per
 * message than the whole record and sequencer path: measured on the Pub/Sub benchmark (same-run
 * comparisons of the two recorders, when SeqScope still received through the library's
 * Subscription), 8–9 µs per message more, from the extra event-loop wakeups and thread-pool
 * round trips rather than from the writes themselves.
 */
import { writeSync } from 'node:fs';
import { open, FileHandle } from 'node:fs/promises';

export interface RecorderOptions {
  /** Append to an existing file instead of truncating it. */
  readonly append?: boolean;
  /** Write at once when this much is buffered (bytes), not waiting for the batch to end. */
  readonly maxBufferBytes?: number;
  /** fsync at most this often while lines arrive (ms); always on close. */
  readonly syncIntervalMs?: number;
}

/** Called once the line is written (err undefined) or could not be (do not ack then). */
export type WrittenCallback = (err?: Error) => void;

export class CaptureRecorder {
  /** Lines handed to append(). */
  lines = 0;
  /** Bytes handed to append() (the next line's offset). */
  bytes = 0;
  /** Bytes the OS has taken. */
  bytesWritten = 0;
  /** Lines are encoded straight into this buffer: one write() call per line, no joined strings. */
  private buffer: Buffer;
  private bufferBytes = 0;
  /** Callbacks of the lines still in the buffer. */
  private waiting: WrittenCallback[] = [];
  /** Callbacks of lines already written (or failed), by write, to run when the batch ends. */
  private settled: { cbs: WrittenCallback[]; err?: Error }[] = [];
  private batchQueued = false;
  /** The background fsyncs, chained. */
  private syncing: Promise<void> = Promise.resolve();
  private lastSync = 0;
  private syncedBytes = 0;
  private failure: Error | undefined;
  private closed = false;
  private readonly maxBufferBytes: number;
  private readonly syncIntervalMs: number;
  private readonly endBatch = () => {
    this.batchQueued = false;
    this.writeBuffer();
    this.runCallbacks();
  };

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    startBytes: number,
    options: RecorderOptions,
  ) {
    this.bytes = this.bytesWritten = this.syncedBytes = startBytes;
    this.maxBufferBytes = options.maxBufferBytes ?? 1 << 20;
    this.syncIntervalMs = options.syncIntervalMs ?? 1000;
    this.buffer = Buffer.allocUnsafe(this.maxBufferBytes + 4096);
  }

  static async open(path: string, options: RecorderOptions = {}): Promise<CaptureRecorder> {
    const fh = await open(path, options.append ? 'a+' : 'w');
    let size = 0;
    if (options.append) {
      size = (await fh.stat()).size;
      // A file torn by a crash ends mid-line: start on a fresh line so the new records parse.
      if (size > 0 && !(await endsWithNewline(fh, size))) {
        await fh.write('\n');
        size++;
      }
    }
    return new CaptureRecorder(path, fh, size, options);
  }

  /** The error that stopped recording, if any (every later append fails with it). */
  get error(): Error | undefined {
    return this.failure;
  }

  /**
   * Queues one line (it must end with '\n') and returns its byte offset in the file. `written`
   * runs after the write that holds it, or with an error if it could not be written — never
   * before append() returns.
   */
  append(line: string, written?: WrittenCallback): number {
    return this.appendWith(encodeText, line, written);
  }

  /**
   * Like append(), but `encode` writes the line (ending with '\n') straight into the buffer:
   * it gets `value`, the buffer and the position, and returns the position after the line, or
   * -1 when the line did not fit (it is then given an emptied, and if need be larger, buffer).
   * Saves making a string per line (see writeCaptureLine).
   */
  appendWith<T>(encode: (value: T, buf: Buffer, pos: number) => number, value: T, written?: WrittenCallback): number {
    const offset = this.bytes;
    if (this.failure || this.closed) {
      if (written) this.settle(written, this.failure ?? new Error(`recording to ${this.path} is closed`));
      return offset;
    }
    let end = encode(value, this.buffer, this.bufferBytes);
    if (end < 0) {
      this.writeBuffer();
      end = encode(value, this.buffer, 0);
      while (end < 0) {
        if (this.buffer.length >= 1 << 30) throw new RangeError('a capture line does not fit in 1 GiB');
        this.buffer = Buffer.allocUnsafe(this.buffer.length * 2);
        end = encode(value, this.buffer, 0);
      }
    }
    const n = end - this.bufferBytes;
    this.bufferBytes = end;
    this.bytes += n;
    this.lines++;
    if (written) this.waiting.push(written);
    if (this.bufferBytes >= this.maxBufferBytes) this.writeBuffer();
    this.queueBatchEnd();
    return offset;
  }

  /** Writes what is buffered and runs its callbacks; resolves once any fsync under way is done. */
  flush(): Promise<void> {
    this.writeBuffer();
    this.runCallbacks();
    return this.syncing;
  }

  /** Writes the rest, fsyncs and closes. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return this.syncing;
    this.closed = true;
    await this.flush();
    try {
      if (!this.failure && this.syncedBytes !== this.bytesWritten) await this.fh.datasync();
    } finally {
      await this.fh.close();
    }
    if (this.failure) throw this.failure;
  }

  private queueBatchEnd(): void {
    if (this.batchQueued) return;
    this.batchQueued = true;
    queueMicrotask(this.endBatch);
  }

  private settle(cb: WrittenCallback, err?: Error): void {
    this.settled.push({ cbs: [cb], err });
    this.queueBatchEnd();
  }

  /** One synchronous write of the buffer; its callbacks move to `settled`. */
  private writeBuffer(): void {
    if (this.bufferBytes === 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    let err = this.failure;
    if (!err) {
      try {
        let done = 0;
        while (done < this.bufferBytes) done += writeSync(this.fh.fd, this.buffer, done, this.bufferBytes - done);
        this.bytesWritten += this.bufferBytes;
      } catch (e) {
        err = this.failure = new Error(`cannot write to ${this.path}: ${(e as Error).message}`);
      }
    }
    this.bufferBytes = 0;
    // One entry per write, not per line: this runs for every message at full delivery rate.
    if (waiting.length) this.settled.push({ cbs: waiting, err });
    if (!err) this.syncSometimes();
  }

  private runCallbacks(): void {
    const settled = this.settled;
    if (settled.length === 0) return;
    this.settled = [];
    for (const s of settled) for (const cb of s.cbs) cb(s.err);
  }

  /** A background fsync when the last one is older than the interval (the acks do not wait for it). */
  private syncSometimes(): void {
    const now = Date.now();
    if (now - this.lastSync < this.syncIntervalMs) return;
    this.lastSync = now;
    const upTo = this.bytesWritten;
    this.syncing = this.syncing
      .then(() => this.fh.datasync())
      .then(
        () => void (this.syncedBytes = Math.max(this.syncedBytes, upTo)),
        // A failed fsync does not unwrite the lines: close() tries again and reports it.
        () => undefined,
      );
  }
}

/**
 * Text as UTF-8 at `pos`: the position after it, or -1 when it does not fit (the exact size is
 * counted only when the worst case, 3 bytes per UTF-16 unit, does not fit). append()'s encoder,
 * and the fallback of writeCaptureLine for text that needs escaping.
 */
export function encodeText(line: string, buf: Buffer, pos: number): number {
  const room = buf.length - pos;
  if (line.length * 3 > room && Buffer.byteLength(line) > room) return -1;
  return pos + buf.write(line, pos);
}

async function endsWithNewline(fh: FileHandle, size: number): Promise<boolean> {
  const b = Buffer.alloc(1);
  await fh.read(b, 0, 1, size - 1);
  return b[0] === 0x0a;
}
