/**
 * Reads a capture file as a stream of entries, in batches, without loading it whole. The format
 * is detected from the content, not the extension:
 *   - JSON Lines, one ReceivedMessage per line (what SeqScope records);
 *   - a JSON array of them (`gcloud pubsub subscriptions pull --format=json`);
 *   - a REST pull response `{"receivedMessages": […]}`;
 *   - a BigQuery subscription's rows exported as JSON Lines (snake_case `message_id`, …; read
 *     line by line like our own, see capture/bigQueryRows.ts);
 *   - an Avro container file: a Cloud Storage subscription's Avro output (with or without
 *     write_metadata) or a BigQuery table exported as Avro (told by the Avro magic `Obj\x01`;
 *     see capture/avroArchive.ts);
 *   - and, only when asked (`inputFormat: 'text'`), a Cloud Storage subscription's text output:
 *     bare payloads, one per line (see capture/textArchive.ts for why it is never guessed).
 * Any of them may be gzip-compressed (told by its first bytes too) and is then decompressed as
 * it is read; and the bytes may come from standard input rather than a file.
 */
import { open, FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { CaptureEntry, parseEntry } from './captureRecord';
import { ChunkReader, DamagedCompressionError, fileChunks, GunzipChunks, isGzip, streamChunks } from './captureSource';
import { JsonArraySplitter, LineSplitter, MAX_RECORD_BYTES, RawRecord, Splitter } from './captureSplitters';
import { AvroArchiveError, AvroArchiveParser, isAvro } from './avroArchive';
import type { AvroScan } from './avroFixedEntries';
import { archiveLabel, textEntries, UNTIMED_CLOCK, untimedArchiveNote } from './textArchive';
import { isSchemaLine, readSchemaLine, type RecordedSchema } from '../schema/schemaLine';

export type CaptureFormat = 'jsonl' | 'array' | 'pull' | 'avro' | 'text' | 'empty';

/** How the content is told: `auto` detects it; `text` reads a Cloud Storage text archive (bare payloads). */
export type InputFormat = 'auto' | 'text';
export const INPUT_FORMATS: readonly InputFormat[] = ['auto', 'text'];

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

/** How far detection looks for the end of the first line. */
const DETECT_LIMIT = 16 << 20;

export interface ReadOptions {
  /** Stops reading between chunks. */
  readonly signal?: AbortSignal;
  /**
   * Told each schema definition the capture records (a schema line, see schemaLine.ts), before
   * the entries after it are handed on. Such lines are never entries; one that does not read is
   * an invalid entry.
   */
  readonly onSchema?: (recorded: RecordedSchema) => void;
}

export class CaptureReader {
  format: CaptureFormat = 'empty';
  /** Whether the bytes are gzip-compressed (decompressed as they are read). */
  compressed = false;
  /** Size of the file (compressed, if it is), 0 for a stream: what `bytesRead` goes up to. */
  size = 0;
  /** Bytes read from the file or stream so far (compressed bytes, if it is). */
  bytesRead = 0;
  /** How messages name the input: its path, or "standard input". */
  readonly label: string;
  /**
   * What the run cannot know about this input (an archive without ids or times), for the user:
   * filled by `open` for text archives, and once the Avro header is read for Avro archives.
   */
  readonly notes: string[] = [];
  /**
   * Set by a replay before reading: an Avro archive's records then come as entries that carry
   * what it sequences by (see avroFixedEntries.ts), their records decoded only when kept and asked for.
   */
  avroScan: AvroScan | undefined;
  private fh: FileHandle | undefined;
  private opened = false;
  private raw: ChunkReader | undefined;
  private gunzip: GunzipChunks | undefined;
  /** The first raw chunk, when it turned out not to be compressed. */
  private first: Buffer | undefined;
  private head: Buffer = Buffer.alloc(0);

  constructor(
    readonly path: string,
    /** Index of this file in the replay's list (stamped on every entry). */
    readonly index = 0,
    /** Read this stream (standard input) instead of the file at `path`. */
    private readonly stream?: NodeJS.ReadableStream,
    private readonly inputFormat: InputFormat = 'auto',
    /** The longest record kept (tests make it short). */
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {
    this.label = stream ? 'standard input' : path;
  }

  /** Opens the file and detects its format; throws CaptureError with a user-facing message. */
  async open(): Promise<void> {
    if (this.opened) return;
    this.bytesRead = 0;
    const counted = (n: number): void => {
      this.bytesRead += n;
    };
    if (this.stream) {
      this.raw = streamChunks(this.stream, counted);
    } else {
      try {
        this.fh = await open(this.path, 'r');
        const st = await this.fh.stat();
        if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        this.size = st.size;
      } catch (e) {
        await this.close();
        throw new CaptureError(`cannot read ${this.path}: ${describeFsError(e)}`, this.path);
      }
      this.raw = fileChunks(this.fh, counted);
    }
    try {
      let first = await this.readRaw();
      // A stream may hand over a single byte first; gzip is told by two.
      while (first !== undefined && first.length < 2) {
        const more = await this.readRaw();
        if (more === undefined) break;
        first = Buffer.concat([first, more]);
      }
      if (first !== undefined && isGzip(first)) {
        this.compressed = true;
        this.gunzip = new GunzipChunks(first, () => this.readRaw());
      } else {
        this.first = first;
      }
      this.head = await this.readUntilFirstLine();
      if (this.inputFormat === 'text') {
        this.format = this.head.length === 0 ? 'empty' : 'text';
        if (this.format === 'text') this.notes.push(untimedArchiveNote(this.label, 'text'));
      } else {
        this.format = isAvro(this.head) ? 'avro' : detectFormat(this.head, this.label);
      }
      this.opened = true;
    } catch (e) {
      // Not a capture (or unreadable): do not leave the file open.
      await this.close();
      if (e instanceof DamagedCompressionError) throw new CaptureError(`${this.label}: ${e.message}`, this.path, 1);
      throw e;
    }
  }

  async close(): Promise<void> {
    this.gunzip?.close();
    this.gunzip = undefined;
    // A stream stopped early (Ctrl-C) would otherwise keep the process waiting on more input.
    (this.stream as Partial<Readable> | undefined)?.destroy?.();
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }

  /**
   * Whether the chunks `rawChunks` yields are views into buffers read for them alone, which no
   * one else keeps (a plain file's; not a stream's or gzip's, whose buffers are shared or reused).
   */
  get ownsChunks(): boolean {
    return this.stream === undefined && !this.compressed;
  }

  /** Entries in file order, a batch per chunk read. Closes the file when done. */
  async *batches(options: ReadOptions = {}): AsyncGenerator<CaptureEntry[]> {
    if (!this.opened) await this.open();
    if (this.format === 'avro') {
      yield* this.avroBatches(options);
      return;
    }
    const splitter: Splitter =
      this.format === 'jsonl' || this.format === 'text'
        ? new LineSplitter(this.maxRecordBytes)
        : new JsonArraySplitter(this.format === 'pull' ? 'pull' : 'array', this.maxRecordBytes);
    try {
      if (this.format === 'empty') return;
      let chunk: Buffer | undefined = this.head;
      this.head = Buffer.alloc(0);
      // A UTF-8 BOM is not part of the first record (JSON.parse rejects it).
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
        splitter.skip(3);
      }
      let damage: string | undefined;
      while (chunk !== undefined) {
        if (options.signal?.aborted) return;
        const batch = this.toEntries(splitter.push(chunk), options.onSchema);
        if (batch.length) yield batch;
        try {
          chunk = await this.readChunk();
        } catch (e) {
          if (!(e instanceof DamagedCompressionError)) throw e;
          // What was decompressed before the damage is good: sequence it, and report the
          // damage where it is, like a plain file's truncated last record.
          damage = e.message;
          chunk = undefined;
        }
      }
      const { records, problem } = splitter.end();
      const batch = this.toEntries(records, options.onSchema);
      if (damage !== undefined) {
        // One report for the damage: on the record it cut off, if it cut one off.
        const last = records.length > 0 ? batch[batch.length - 1] : undefined;
        if (last !== undefined && last.invalid !== undefined) batch[batch.length - 1] = { ...last, invalid: `${damage} (this record is cut off)` };
        else batch.push({ file: this.index, line: problem?.line ?? splitter.currentLine(), time: NaN, invalid: damage });
      } else if (problem) {
        batch.push({ file: this.index, line: problem.line, time: NaN, invalid: problem.reason });
      }
      if (batch.length) yield batch;
    } finally {
      await this.close();
    }
  }

  /**
   * The (decompressed) bytes of a JSON Lines capture as they are read, for a reader that splits
   * them itself (parallelReader.ts): the first chunk without its UTF-8 BOM (`skipped` says how
   * many bytes went), and on damaged compressed data, what came before it, then `onDamage` with
   * the reason. Closes the file when done.
   */
  async *rawChunks(options: ReadOptions, onDamage: (reason: string) => void, skipped: (n: number) => void): AsyncGenerator<Buffer> {
    if (!this.opened) await this.open();
    if (this.format !== 'jsonl') throw new RangeError(`rawChunks reads JSON Lines, not ${this.format}`);
    try {
      let chunk: Buffer | undefined = this.head;
      this.head = Buffer.alloc(0);
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
        skipped(3);
      }
      while (chunk !== undefined) {
        if (options.signal?.aborted) return;
        if (chunk.length) yield chunk;
        try {
          chunk = await this.readChunk();
        } catch (e) {
          if (!(e instanceof DamagedCompressionError)) throw e;
          onDamage(e.message);
          chunk = undefined;
        }
      }
    } finally {
      await this.close();
    }
  }

  /** An Avro archive's entries, a batch per chunk read. Closes the file when done. */
  private async *avroBatches(options: ReadOptions): AsyncGenerator<CaptureEntry[]> {
    const parser = new AvroArchiveParser(this.index, archiveLabel(this.path, this.stream !== undefined), UNTIMED_CLOCK, { scan: this.avroScan });
    try {
      let chunk: Buffer | undefined = this.head;
      this.head = Buffer.alloc(0);
      let noted = false;
      while (chunk !== undefined) {
        if (options.signal?.aborted) return;
        let batch: CaptureEntry[];
        try {
          batch = parser.push(chunk);
        } catch (e) {
          throw this.avroError(e);
        }
        if (!noted && parser.untimed !== undefined) {
          noted = true;
          if (parser.untimed) this.notes.push(untimedArchiveNote(this.label, 'avro'));
        }
        if (batch.length) yield batch;
        try {
          chunk = await this.readChunk();
        } catch (e) {
          if (!(e instanceof DamagedCompressionError)) throw e;
          const rest = this.endAvro(parser);
          // Reported at the record it cut off (records are numbered from 1, like lines).
          rest.push({ file: this.index, line: parser.nextRecord, time: NaN, invalid: e.message });
          yield rest;
          return;
        }
      }
      const rest = this.endAvro(parser);
      if (rest.length) yield rest;
    } finally {
      await this.close();
    }
  }

  private endAvro(parser: AvroArchiveParser): CaptureEntry[] {
    try {
      return parser.end();
    } catch (e) {
      throw this.avroError(e);
    }
  }

  private avroError(e: unknown): unknown {
    if (!(e instanceof AvroArchiveError)) return e;
    return new CaptureError(
      `${this.label} is an Avro file but cannot be read as a Pub/Sub archive: ${e.message}${e.nextStep ? `. Next: ${e.nextStep}` : ''}`,
      this.path,
    );
  }

  private toEntries(raw: RawRecord[], onSchema: ReadOptions['onSchema']): CaptureEntry[] {
    if (this.format === 'text') return textEntries(raw, this.index, archiveLabel(this.path, this.stream !== undefined));
    const out = new Array<CaptureEntry>(raw.length);
    let n = 0;
    for (let i = 0; i < raw.length; i++) {
      const r = raw[i];
      if (r.invalid === undefined && isSchemaLine(r.text)) {
        const s = readSchemaLine(r.text);
        if ('key' in s) {
          onSchema?.(s);
          continue;
        }
        out[n++] = { file: this.index, line: r.line, offset: r.offset, length: r.length, time: NaN, invalid: s.invalid };
        continue;
      }
      out[n++] =
        r.invalid === undefined
          ? parseEntry(r.text, this.index, r.line, r.offset, r.length)
          : { file: this.index, line: r.line, offset: r.offset, length: r.length, time: NaN, invalid: r.invalid };
    }
    out.length = n;
    return out;
  }

  /** The next chunk of the capture's (decompressed) bytes, or undefined at the end. */
  private async readChunk(): Promise<Buffer | undefined> {
    if (this.gunzip) return this.gunzip.next();
    const first = this.first;
    if (first !== undefined) {
      this.first = undefined;
      return first;
    }
    return this.readRaw();
  }

  private async readRaw(): Promise<Buffer | undefined> {
    try {
      return await (this.raw as ChunkReader)();
    } catch (e) {
      throw new CaptureError(`cannot read ${this.label}: ${describeFsError(e)}`, this.path);
    }
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
  const first = head
    .toString('utf8', i, Math.min(nl < 0 ? head.length : nl, i + 64))
    .replace(/\uFFFD$/, '')
    .trimEnd();
  const chars = [...first];
  const shown = JSON.stringify(chars.length > 16 ? chars.slice(0, 16).join('') + '…' : first);
  throw new CaptureError(
    `${path} is not a capture: it starts with ${shown}; expected JSON Lines of Pub/Sub ReceivedMessage (or of BigQuery subscription rows), a JSON array of them, a pull response {"receivedMessages": …}, or an Avro archive of a Cloud Storage or BigQuery subscription. If it is a Cloud Storage subscription's text archive (bare payloads, one per line), read it with seqscope replay --input-format text`,
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
