/**
 * Where a capture's bytes come from: a file or a stream (standard input), read in chunks; and,
 * when its first bytes are gzip's, the same bytes decompressed as they are read. Captures run to
 * gigabytes and JSON compresses about tenfold, so they are often kept as `.jsonl.gz`; like the
 * capture format, compression is told from the content, not from the file name.
 */
import { createWriteStream } from 'node:fs';
import { FileHandle, open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, Gunzip } from 'node:zlib';

/** Bytes per read from a file. */
const CHUNK = 1 << 20;
/**
 * Bytes per decompressed chunk. zlib hands on its output each time this fills, and an error
 * loses what it decompressed since: smaller chunks keep more of a damaged file's good records.
 */
const INFLATED_CHUNK = 64 << 10;

/** The first two bytes of every gzip member (RFC 1952). */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Whether the file at `path` is gzip-compressed (false when it is shorter than two bytes). */
export async function sniffGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return isGzip(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/**
 * The compressed data is damaged or cut off. What was decompressed before it is good; nothing
 * after it can be read. The message says which, in words for the user.
 */
export class DamagedCompressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedCompressionError';
  }
}

/** Next raw chunk, or undefined at the end. */
export type ChunkReader = () => Promise<Buffer | undefined>;

/**
 * Chunks of a file from its current position (null position: the handle's own). The next chunk
 * is read while the caller works on this one.
 */
export function fileChunks(fh: FileHandle, onRead: (n: number) => void): ChunkReader {
  const read = async (): Promise<Buffer | undefined> => {
    const buf = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
    if (bytesRead === 0) return undefined;
    return bytesRead === CHUNK ? buf : buf.subarray(0, bytesRead);
  };
  let ahead: Promise<Buffer | undefined> | undefined;
  return async () => {
    const chunk = await (ahead ?? read());
    ahead = undefined;
    if (chunk === undefined) return undefined;
    ahead = read();
    // Settled when asked for; a read the caller never asks for (it stopped) must not go unhandled.
    ahead.catch(() => {});
    onRead(chunk.length);
    return chunk;
  };
}

/** Chunks of a byte stream (standard input). */
export function streamChunks(stream: NodeJS.ReadableStream, onRead: (n: number) => void): ChunkReader {
  const it = (stream as Readable)[Symbol.asyncIterator]();
  return async () => {
    const r = await it.next();
    if (r.done) return undefined;
    const c = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    onRead(c.length);
    return c;
  };
}

/**
 * Decompresses gzip data (every member, as `gunzip` does) arriving as `first` and then from
 * `raw`, as chunks of up to INFLATED_CHUNK bytes. A read error of `raw` comes out unchanged;
 * damaged or truncated gzip data comes out as a DamagedCompressionError after the last good chunk.
 */
export class GunzipChunks {
  private readonly gz: Gunzip;
  private readonly it: AsyncIterator<Buffer>;

  constructor(first: Buffer, raw: ChunkReader) {
    async function* all(): AsyncGenerator<Buffer> {
      yield first;
      for (let c = await raw(); c !== undefined; c = await raw()) yield c;
    }
    this.gz = createGunzip({ chunkSize: INFLATED_CHUNK });
    // Errors reach the reader through the iterator; the callback only keeps pipeline from
    // reporting them a second time.
    pipeline(Readable.from(all(), { objectMode: false }), this.gz, () => {});
    this.it = this.gz[Symbol.asyncIterator]();
  }

  async next(): Promise<Buffer | undefined> {
    try {
      const r = await this.it.next();
      return r.done ? undefined : r.value;
    } catch (e) {
      throw isZlibError(e) ? new DamagedCompressionError(describeZlibError(e as NodeJS.ErrnoException)) : e;
    }
  }

  /** Stops decompressing (and reading) early. */
  close(): void {
    this.gz.destroy();
  }
}

function isZlibError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function describeZlibError(e: NodeJS.ErrnoException): string {
  if (e.code === 'Z_BUF_ERROR') return 'the gzip data ends early (the file is truncated, or still being written): nothing after this point can be read';
  return `the gzip data is damaged (${e.message}): nothing after this point can be read`;
}

export interface DecompressOptions {
  readonly signal?: AbortSignal;
  /** Compressed bytes read so far and the compressed file's size, after each chunk. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /**
   * On damaged or truncated data, keep what was decompressed before it and resolve with the
   * damage, rather than reject: what a capture still being written holds is worth opening.
   */
  readonly keepPartial?: boolean;
}

/**
 * Writes the decompressed contents of the gzip file `from` to `to` (for viewers that read
 * records back by their byte offset, which compressed data cannot give). Stops and removes `to`
 * when the signal aborts (the promise then rejects with the signal's reason) or when the data
 * is damaged (DamagedCompressionError) — unless `keepPartial`, which resolves with the damage.
 */
export async function decompressCapture(from: string, to: string, o: DecompressOptions = {}): Promise<{ damage?: string }> {
  const fh = await open(from, 'r');
  const out = createWriteStream(to);
  let gz: GunzipChunks | undefined;
  let damage: string | undefined;
  try {
    const size = (await fh.stat()).size;
    let read = 0;
    const raw = fileChunks(fh, (n) => {
      read += n;
      o.onProgress?.(read, size);
    });
    const first = (await raw()) ?? Buffer.alloc(0);
    gz = new GunzipChunks(first, raw);
    for (;;) {
      let c: Buffer | undefined;
      try {
        c = await gz.next();
      } catch (e) {
        if (!(o.keepPartial && e instanceof DamagedCompressionError)) throw e;
        damage = e.message;
      }
      if (c === undefined) break;
      o.signal?.throwIfAborted();
      if (!out.write(c)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    await rm(to, { force: true });
    throw e;
  } finally {
    gz?.close();
    await fh.close();
  }
  return damage === undefined ? {} : { damage };
}
