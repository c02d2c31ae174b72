/**
 * Appends capture lines to a file so that a live source can ack a message only once its line is
 * in the file. Lines are batched (one write per flush interval or per MiB, not one syscall per
 * message) and the file is fsynced regularly and on close. A crash can therefore leave at most a
 * torn last line — every complete line replays — and a message is acked only after the write
 * that holds its line returned, so nothing acked is missing from the recording.
 */
import { open, FileHandle } from 'node:fs/promises';

export interface RecorderOptions {
  /** Append to an existing file instead of truncating it. */
  readonly append?: boolean;
  /** Longest a line waits in memory before it is written (ms). */
  readonly flushIntervalMs?: number;
  /** Write at once when this much is buffered (bytes). */
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
  /**
   * Lines are encoded straight into this buffer (one write() call per line, no intermediate
   * strings to join, no byteLength pass); a flush hands its filled part to the file and starts a
   * new one, so a write in progress is never overwritten.
   */
  private buffer: Buffer;
  /** The previous buffer, once its write finished: reused rather than allocating anew. */
  private spare: Buffer | undefined;
  private bufferBytes = 0;
  private waiters: WrittenCallback[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastSync = 0;
  private syncedBytes = 0;
  private failure: Error | undefined;
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly maxBufferBytes: number;
  private readonly syncIntervalMs: number;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    startBytes: number,
    options: RecorderOptions,
  ) {
    this.bytes = this.bytesWritten = this.syncedBytes = startBytes;
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
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
   * runs after the write that holds it, or with an error if it could not be written.
   */
  append(line: string, written?: WrittenCallback): number {
    const offset = this.bytes;
    if (this.failure || this.closed) {
      written?.(this.failure ?? new Error(`recording to ${this.path} is closed`));
      return offset;
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit: make room before encoding.
    const worst = line.length * 3;
    if (this.bufferBytes + worst > this.buffer.length) {
      if (this.bufferBytes > 0) void this.flush();
      if (worst > this.buffer.length) this.buffer = Buffer.allocUnsafe(worst);
    }
    const n = this.buffer.write(line, this.bufferBytes);
    this.bufferBytes += n;
    this.bytes += n;
    this.lines++;
    if (written) this.waiters.push(written);
    if (this.bufferBytes >= this.maxBufferBytes) this.flushSoon(0);
    else this.flushSoon(this.flushIntervalMs);
    return offset;
  }

  /** Writes what is buffered; resolves when it is in the file. */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (this.bufferBytes === 0) return this.writing;
    const full = this.buffer;
    const data = full.subarray(0, this.bufferBytes);
    const waiters = this.waiters;
    this.buffer = this.spare ?? Buffer.allocUnsafe(Math.max(this.maxBufferBytes + 4096, full.length));
    this.spare = undefined;
    this.bufferBytes = 0;
    this.waiters = [];
    // Writes are chained so the file holds lines in append order.
    this.writing = this.writing.then(async () => {
      if (this.failure) throw this.failure;
      let done = 0;
      while (done < data.length) {
        const { bytesWritten } = await this.fh.write(data, done, data.length - done);
        done += bytesWritten;
      }
      this.bytesWritten += data.length;
      const now = Date.now();
      if (now - this.lastSync >= this.syncIntervalMs) {
        this.lastSync = now;
        await this.fh.datasync();
        this.syncedBytes = this.bytesWritten;
      }
    }).then(
      () => {
        this.spare = full;
        for (const w of waiters) w();
      },
      (e: Error) => {
        this.failure ??= new Error(`cannot write to ${this.path}: ${e.message}`);
        for (const w of waiters) w(this.failure);
      },
    );
    return this.writing;
  }

  /** Writes the rest, fsyncs and closes. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return this.writing;
    this.closed = true;
    await this.flush();
    try {
      if (!this.failure && this.syncedBytes !== this.bytesWritten) await this.fh.datasync();
    } finally {
      await this.fh.close();
    }
    if (this.failure) throw this.failure;
  }

  private flushSoon(ms: number): void {
    if (ms === 0) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, ms);
  }
}

async function endsWithNewline(fh: FileHandle, size: number): Promise<boolean> {
  const b = Buffer.alloc(1);
  await fh.read(b, 0, 1, size - 1);
  return b[0] === 0x0a;
}
