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
 * A gzip recording writes gzip members (concatenated members are one gzip file to gunzip and to
 * replay), so the same holds: at most a torn last member. Small batches are gathered for up to
 * half a second into one member (see GZIP_GATHER_MS): a member costs zlib's set-up and starts
 * without the previous one's dictionary.
 *
 * Why synchronous writes, in the extension host: a batch is tens of KB into the page cache, a
 * few tens of µs. Asynchronous writes, flushed on a timer or in setImmediate, cost more CPU per
 * message than the whole record and sequencer path: measured on the Pub/Sub benchmark (same-run
 * comparisons of the two recorders, when SeqScope still received through the library's
 * Subscription), 8–9 µs per message more, from the extra event-loop wakeups and thread-pool
 * round trips rather than from the writes themselves.
 */
import { writeSync } from 'node:fs';
import { access, constants, open, stat, FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatBytes } from '../core/util/byteSize';
import { DamagedCompressionError, fileChunks, GunzipChunks, sniffGzip } from '../core/capture/captureSource';

export interface RecorderOptions {
  /** Append to an existing file instead of truncating it (in the file's own format: plain or gzip). */
  readonly append?: boolean;
  /**
   * Replace a file that already holds something. Without it (or `append`) such a file is
   * refused: the messages in it were acked when they were recorded, so the subscription will not
   * send them again — re-running yesterday's command from the shell history would lose them.
   */
  readonly overwrite?: boolean;
  /**
   * Write a new (or empty) file gzip-compressed, as gzip members (see GZIP_GATHER_MS): the file
   * on disk is always whole members plus at most a torn last one, and every acked line decompresses.
   */
  readonly gzip?: boolean;
  /** Write at once when this much is buffered (bytes), not waiting for the batch to end. */
  readonly maxBufferBytes?: number;
  /** fsync at most this often while lines arrive (ms); always on close. */
  readonly syncIntervalMs?: number;
  /**
   * gzip only: how long small batches are gathered into one member before it is written (ms;
   * their acks wait as long). A batch of 64 KiB or more is written at once; 0 writes every
   * batch as a member of its own.
   */
  readonly gzipGatherMs?: number;
}

/** Called once the line is written (err undefined) or could not be (do not ack then). */
export type WrittenCallback = (err?: Error) => void;

/**
 * gzip level 1: a batch is compressed on the receiving thread before its messages are acked.
 * On capture lines level 1 runs about twice as fast as zlib's default (6) for 13 % more bytes
 * (about 7× smaller than the text in 64 KiB batches, against 8×).
 */
const GZIP_LEVEL = 1;
/**
 * Every gzip member costs about 50 µs of setting up zlib, and compresses without the previous
 * member's dictionary: one 460-byte line alone shrinks by a fifth, 100 lines together 7×. So a
 * gzip recording gathers small batches for up to half a second — acks are not urgent (Pub/Sub's
 * deadline is 10 s or more) — and writes at once from 64 KiB.
 */
const GZIP_GATHER_MS = 500;
const GZIP_MEMBER_BYTES = 64 << 10;

export class CaptureRecorder {
  /** Lines handed to append(). */
  lines = 0;
  /** Bytes of text handed to append() (the next line's offset in the text, decompressed if gzip). */
  bytes = 0;
  /** Bytes the OS has taken (compressed, for a gzip file). */
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
    if (this.gzip && this.gzipGatherMs > 0 && !this.closed && this.bufferBytes > 0 && this.bufferBytes < GZIP_MEMBER_BYTES && !this.failure) {
      this.gatherTimer ??= setTimeout(this.endGathering, this.gzipGatherMs);
    } else {
      this.writeBuffer();
    }
    this.runCallbacks();
  };
  private gatherTimer: NodeJS.Timeout | undefined;
  private readonly endGathering = () => {
    this.gatherTimer = undefined;
    this.writeBuffer();
    this.runCallbacks();
  };
  private readonly gzipGatherMs: number;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    start: { text: number; file: number },
    /** Whether the file is gzip-compressed (a new file as asked; an appended one as it was). */
    readonly gzip: boolean,
    options: RecorderOptions,
  ) {
    this.bytes = start.text;
    this.bytesWritten = this.syncedBytes = start.file;
    this.maxBufferBytes = options.maxBufferBytes ?? 1 << 20;
    this.syncIntervalMs = options.syncIntervalMs ?? 1000;
    this.gzipGatherMs = options.gzipGatherMs ?? GZIP_GATHER_MS;
    this.buffer = Buffer.allocUnsafe(this.maxBufferBytes + 4096);
  }

  /**
   * What stops recording to `path`, as one sentence with a next step, or undefined: for the CLI
   * to check before it connects, so a typo costs nothing. open() throws the same sentences.
   */
  static async problemWith(path: string, options: RecorderOptions = {}): Promise<string | undefined> {
    const problem = (await pathProblem(path)) ?? (await replaceProblem(path, options));
    if (problem || !options.append || !(await sniffGzip(path).catch(() => false))) return problem;
    const { damage } = await gzipText(path);
    return damage && appendProblem(path, damage);
  }

  static async open(path: string, options: RecorderOptions = {}): Promise<CaptureRecorder> {
    const problem = (await pathProblem(path)) ?? (await replaceProblem(path, options));
    if (problem) throw new Error(problem);
    const fh = await open(path, options.append ? 'a+' : 'w');
    try {
      let file = 0;
      let text = 0;
      let gzip = !!options.gzip;
      if (options.append) {
        file = text = (await fh.stat()).size;
        if (file > 0) {
          gzip = await sniffGzip(path);
          if (gzip) {
            const t = await gzipText(path);
            if (t.damage) throw new Error(appendProblem(path, t.damage));
            text = t.length;
            // A file gzipped by other means may end mid-line: start the next member on a fresh one.
            if (!t.endsWithNewline) {
              await fh.write(gzipSync('\n', { level: GZIP_LEVEL }));
              file = (await fh.stat()).size;
              text++;
            }
          } else if (!(await endsWithNewline(fh, file))) {
            // A file torn by a crash ends mid-line: start on a fresh line so the new records parse.
            await fh.write('\n');
            file = ++text;
          }
        }
      }
      return new CaptureRecorder(path, fh, { text, file }, gzip, options);
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  /** The error that stopped recording, if any (every later append fails with it). */
  get error(): Error | undefined {
    return this.failure;
  }

  /**
   * Queues one line (it must end with '\n') and returns its byte offset in the file's text
   * (decompressed, for a gzip file). `written` runs after the write that holds it, or with an
   * error if it could not be written — never before append() returns.
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
        if (this.buffer.length >= 1 << 30) throw new Error('a capture line does not fit in 1 GiB');
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
    if (this.gatherTimer !== undefined) {
      clearTimeout(this.gatherTimer);
      this.gatherTimer = undefined;
    }
    if (this.bufferBytes === 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    let err = this.failure;
    if (!err) {
      try {
        const data = this.gzip ? gzipSync(this.buffer.subarray(0, this.bufferBytes), { level: GZIP_LEVEL }) : this.buffer;
        const size = this.gzip ? data.length : this.bufferBytes;
        let done = 0;
        while (done < size) done += writeSync(this.fh.fd, data, done, size - done);
        this.bytesWritten += size;
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

/**
 * Decompresses a gzip file (every member) to learn its text's length and last byte, or the
 * damage that ends it. Appending needs both: a cut-off member (a crash mid-write) would swallow
 * every member written after it, for gunzip and for replay alike.
 */
type GzipScan = { length: number; endsWithNewline: boolean; damage?: string };

/**
 * The last scan, for the file as it was then: `record --append` checks the file before it
 * connects (problemWith) and opens it after, and each read the whole file through gunzip — a
 * recording of gigabytes decompressed twice. The file is scanned again if it changed between.
 */
let lastScan: { path: string; ino: bigint; dev: bigint; size: bigint; mtimeNs: bigint; scan: GzipScan } | undefined;

async function gzipText(path: string): Promise<GzipScan> {
  const st = await stat(path, { bigint: true });
  const l = lastScan;
  if (l && l.path === path && l.ino === st.ino && l.dev === st.dev && l.size === st.size && l.mtimeNs === st.mtimeNs) return l.scan;
  const scan = await scanGzip(path);
  lastScan = { path, ino: st.ino, dev: st.dev, size: st.size, mtimeNs: st.mtimeNs, scan };
  return scan;
}

async function scanGzip(path: string): Promise<GzipScan> {
  const fh = await open(path, 'r');
  const raw = fileChunks(fh, () => undefined);
  const gz = new GunzipChunks((await raw()) ?? Buffer.alloc(0), raw);
  let length = 0;
  let last = 0x0a;
  try {
    for (let c = await gz.next(); c !== undefined; c = await gz.next()) {
      length += c.length;
      if (c.length) last = c[c.length - 1];
    }
    return { length, endsWithNewline: last === 0x0a };
  } catch (e) {
    if (e instanceof DamagedCompressionError) return { length, endsWithNewline: false, damage: e.message };
    throw e;
  } finally {
    gz.close();
    await fh.close();
  }
}

/** What stops writing a file at `path` at all, or undefined. */
async function pathProblem(path: string): Promise<string | undefined> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) return `${path} is a folder: name a file in it`;
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent) return `the folder ${folder} does not exist: create it first, or name a file elsewhere`;
  if (!parent.isDirectory()) return `${folder} is not a folder: name a file in a folder`;
  const target = existing ? path : folder;
  const writable = await access(target, constants.W_OK).then(
    () => true,
    () => false,
  );
  return writable ? undefined : `cannot write ${existing ? path : `in ${folder}`} (permission denied): name a file somewhere you may write`;
}

/** A file that already holds a recording, which recording would truncate: or undefined. */
async function replaceProblem(path: string, options: RecorderOptions): Promise<string | undefined> {
  if (options.append || options.overwrite) return undefined;
  const existing = await stat(path).catch(() => undefined);
  // An empty file has nothing to lose; a device (/dev/null) is not a recording.
  if (!existing?.isFile() || existing.size === 0) return undefined;
  return `${path} already holds a recording (${formatBytes(existing.size)}) whose messages were acked: add --append to continue it, --overwrite to replace it, or name a new file`;
}

function appendProblem(path: string, damage: string): string {
  return `cannot append to ${path}: ${damage} — record to a new file instead (\`seqscope replay\` merges the two)`;
}
