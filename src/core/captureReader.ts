/**
 * Reads a capture file as a stream of entries, in batches, without loading it whole. The format
 * is detected from the content, not the extension:
 *   - JSON Lines, one ReceivedMessage per line (what SeqScope records);
 *   - a JSON array of them (`gcloud pubsub subscriptions pull --format=json`);
 *   - a REST pull response `{"receivedMessages": […]}`.
 */
import { open, FileHandle } from 'node:fs/promises';
import { CaptureEntry, parseEntry } from './captureRecord';
import { JsonArraySplitter, LineSplitter, RawRecord, Splitter } from './captureSplitters';

export type CaptureFormat = 'jsonl' | 'array' | 'pull' | 'empty';

/** A problem with a capture as a whole (exit code 2 in the CLI): the message names the file. */
export class CaptureError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

const CHUNK = 1 << 20;
/** How far detection looks for the end of the first line. */
const DETECT_LIMIT = 16 << 20;

export interface ReadOptions {
  /** Stops reading between chunks. */
  readonly signal?: AbortSignal;
}

export class CaptureReader {
  format: CaptureFormat = 'empty';
  size = 0;
  bytesRead = 0;
  private fh: FileHandle | undefined;
  private head: Buffer = Buffer.alloc(0);

  constructor(
    readonly path: string,
    /** Index of this file in the replay's list (stamped on every entry). */
    readonly index = 0,
  ) {}

  /** Opens the file and detects its format; throws CaptureError with a user-facing message. */
  async open(): Promise<void> {
    if (this.fh) return;
    this.bytesRead = 0;
    try {
      this.fh = await open(this.path, 'r');
      const st = await this.fh.stat();
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      this.size = st.size;
    } catch (e) {
      await this.close();
      throw new CaptureError(`cannot read ${this.path}: ${describeFsError(e)}`, this.path);
    }
    try {
      this.head = await this.readUntilFirstLine();
      this.format = detectFormat(this.head, this.path);
    } catch (e) {
      // Not a capture (or unreadable): do not leave the file open.
      await this.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }

  /** Entries in file order, a batch per chunk read. Closes the file when done. */
  async *batches(options: ReadOptions = {}): AsyncGenerator<CaptureEntry[]> {
    if (!this.fh) await this.open();
    const splitter: Splitter = this.format === 'jsonl' ? new LineSplitter() : new JsonArraySplitter(this.format === 'pull' ? 'pull' : 'array');
    try {
      if (this.format === 'empty') return;
      let chunk: Buffer | undefined = this.head;
      this.head = Buffer.alloc(0);
      // A UTF-8 BOM is not part of the first record (JSON.parse rejects it).
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
        splitter.skip(3);
      }
      while (chunk !== undefined) {
        if (options.signal?.aborted) return;
        const batch = this.toEntries(splitter.push(chunk));
        if (batch.length) yield batch;
        chunk = await this.readChunk();
      }
      const { records, problem } = splitter.end();
      const batch = this.toEntries(records);
      if (problem) batch.push({ file: this.index, line: problem.line, time: NaN, invalid: problem.reason });
      if (batch.length) yield batch;
    } finally {
      await this.close();
    }
  }

  private toEntries(raw: RawRecord[]): CaptureEntry[] {
    const out = new Array<CaptureEntry>(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const r = raw[i];
      out[i] = parseEntry(r.text, this.index, r.line, r.offset, r.length);
    }
    return out;
  }

  private async readChunk(): Promise<Buffer | undefined> {
    const fh = this.fh as FileHandle;
    const buf = Buffer.allocUnsafe(CHUNK);
    let bytesRead: number;
    try {
      ({ bytesRead } = await fh.read(buf, 0, CHUNK, null));
    } catch (e) {
      throw new CaptureError(`cannot read ${this.path}: ${describeFsError(e)}`, this.path);
    }
    if (bytesRead === 0) return undefined;
    this.bytesRead += bytesRead;
    return bytesRead === CHUNK ? buf : buf.subarray(0, bytesRead);
  }

  /** Reads at least one chunk, and on until the first newline, so detection sees a whole line. */
  private async readUntilFirstLine(): Promise<Buffer> {
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const c = await this.readChunk();
      if (!c) break;
      parts.push(c);
      total += c.length;
      if (c.includes(0x0a) || total >= DETECT_LIMIT) break;
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }
}

export function detectFormat(head: Buffer, path: string): CaptureFormat {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3; // UTF-8 BOM
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  if (i === head.length) return 'empty';
  const c = head[i];
  if (c === 0x5b) return 'array';
  if (c === 0x7b) {
    const nl = head.indexOf(0x0a, i);
    const firstLine = head.toString('utf8', i, nl < 0 ? head.length : nl);
    try {
      const v = JSON.parse(firstLine) as Record<string, unknown>;
      // The REST API answers a pull that found nothing with "{}".
      if (head.length < 64 && head.toString('utf8', i).trim() === '{}') return 'empty';
      return Array.isArray(v.receivedMessages) && v.message === undefined ? 'pull' : 'jsonl';
    } catch {
      // A pretty-printed pull response spans lines (its first line is a lone "{", whatever key
      // comes first); JSON Lines with a bad first line is still JSON Lines (the line is then
      // reported invalid).
      if (firstLine.trim() === '{') return 'pull';
      return /^\{\s*"receivedMessages"\s*:/.test(head.toString('utf8', i, Math.min(head.length, i + 200))) ? 'pull' : 'jsonl';
    }
  }
  // A few characters of the first line (decoding a lone byte would garble a multi-byte one).
  const nl = head.indexOf(0x0a, i);
  const first = head.toString('utf8', i, Math.min(nl < 0 ? head.length : nl, i + 64)).replace(/\uFFFD$/, '').trimEnd();
  const chars = [...first];
  const shown = JSON.stringify(chars.length > 16 ? chars.slice(0, 16).join('') + '…' : first);
  throw new CaptureError(
    `${path} is not a capture: it starts with ${shown}; expected JSON Lines of Pub/Sub ReceivedMessage, a JSON array of them, or a pull response {"receivedMessages": …}`,
    path,
    1,
  );
}

function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory, not a capture file';
    default:
      return (e as Error).message;
  }
}
