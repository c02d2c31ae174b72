/**
 * Avro object container files (Avro 1.x spec, "Object Container Files") holding Pub/Sub
 * messages, read as a stream of chunks:
 *   - a Cloud Storage subscription's Avro output, with `write_metadata`
 *     (`com.google.pubsub.PubsubMessageWithMetadata`: subscription_name, message_id,
 *     publish_time timestamp-micros, attributes map<string>, data bytes) or without it
 *     (`com.google.pubsub.PubsubMessage`: data bytes only);
 *   - a BigQuery subscription's table exported as Avro (the same columns; attributes a JSON
 *     string, nullable columns as unions with null);
 *   - records of the topic's schema (a Cloud Storage subscription with `use_topic_schema`), with
 *     or without write_metadata's fields (avroArchiveSchema.ts tells which; avroTopicRecords.ts).
 *
 * The container framing (header, blocks, sync markers) is parsed here so that a damaged block
 * is reported with its byte offset and skipped — reading resumes at the next sync marker —
 * while the records are decoded by avsc (`Type.decode`) from the writer's schema in the header —
 * or, when that schema is exactly one of Google's two fixed ones, by a reader of their bytes
 * (avroFixedLayout.ts), which leaves to avsc every block it does not read with certainty.
 */
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { Type } from 'avsc';
import './avscBounds';
import { CaptureEntry, RecordEntry, ReceivedMessage, parseRfc3339 } from './captureRecord';
import { rowToRecord } from './bigQueryRows';
import { AvroArchiveError, AvroArchiveKind, archiveSchema, FieldReading, HEADER_NEXT_STEP, SCHEMA_NEXT_STEP } from './avroArchiveSchema';
import { fixedLayout } from './avroFixedLayout';
import { topicSchemaRecord, topicSchemaType } from './avroTopicRecords';
import { AvroScan, FixedLayoutEntries } from './avroFixedEntries';

/** `Obj` and version 1: the first four bytes of every Avro object container file. */
export function isAvro(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x4f && head[1] === 0x62 && head[2] === 0x6a && head[3] === 0x01;
}

/** Whether the file at `path` starts as an Avro container does (not through gzip). */
export async function sniffAvro(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return isAvro(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export { AvroArchiveError, archiveSchema, type AvroArchiveKind } from './avroArchiveSchema';

/** The longest block read (a block is held whole to decode it): Pub/Sub writes far smaller ones. */
const MAX_BLOCK_BYTES = 256 << 20;

interface Header {
  readonly type: Type;
  /** Reads the writer's records into `type`, skipping what is not needed (subscription_name); none: `type` is the writer's. */
  readonly resolver?: ReturnType<Type['createResolver']>;
  readonly codec: string;
  readonly sync: Buffer;
  readonly reading: FieldReading;
  /** Reads the blocks of a file whose schema is one of Google's fixed ones (undefined: avsc reads them all). */
  readonly fixed: FixedLayoutEntries | undefined;
}

/** How a parser reads records. */
export interface AvroParseOptions {
  /** Read blocks of Google's fixed schemas without avsc (default true; false reads every block with avsc). */
  readonly fixedLayouts?: boolean;
  /** What a replay sequences by: records of fixed-layout blocks then come as scanned entries (see avroFixedEntries.ts). */
  readonly scan?: AvroScan;
}

/**
 * Cuts an Avro container's bytes, pushed in chunks, into entries. Entries carry `line` = the
 * record's number in the file (1-based) and the offset of its block; a damaged block becomes one
 * invalid entry naming its byte offset and how many records it held.
 */
export class AvroArchiveParser {
  /**
   * The bytes not parsed yet, `scratch[0, pending)`: chunks are copied in and parsed blocks
   * moved out, so one buffer serves the whole file. Joining each chunk to the last one's rest
   * allocated a block-sized buffer per block, and that much short-lived external memory made the
   * collector run full collections: 40 % of a replay's time.
   */
  private scratch = Buffer.allocUnsafe(1 << 16);
  private pending = 0;
  /** Bytes the parts must hold before parsing is worth trying again. */
  private need = 0;
  /** Stream offset of parts[0][0]. */
  private base = 0;
  private header: Header | undefined;
  /** Records seen so far (the next one's number is this + 1). */
  private records = 0;

  /** The number (1-based) the next record would have: where damage that ends the read is reported. */
  get nextRecord(): number {
    return this.records + 1;
  }
  /** Looking for the next sync marker after damage. */
  private resyncing = false;
  /** Records with no message_id / publish_time (data-only files): their own id and the given clock. */
  private readonly untimedClock: number;

  constructor(
    private readonly file: number,
    /** How ids of data-only records are made: `<label>#<n>`. */
    private readonly label: string,
    /** Clock for records that carry no time (data-only files). */
    untimedClock: number,
    private readonly parseOptions: AvroParseOptions = {},
  ) {
    this.untimedClock = untimedClock;
  }

  /** Whether the archive's records carry no ids or times (known once the header is read). */
  get untimed(): boolean | undefined {
    const r = this.header?.reading;
    return r && (r.kind === 'data-only' || (r.kind === 'topic-schema' && !r.metadata));
  }

  /** The archive kind, once the header is read. */
  get kind(): AvroArchiveKind | undefined {
    return this.header?.reading.kind;
  }

  /** Blocks read so far without avsc, and with it. */
  get blockCounts(): { fixed: number; avsc: number } {
    const f = this.header?.fixed;
    return { fixed: f?.fastBlocks ?? 0, avsc: f?.avscBlocks ?? 0 };
  }

  push(chunk: Buffer): CaptureEntry[] {
    const want = this.pending + chunk.length;
    if (want > this.scratch.length) {
      const grown = Buffer.allocUnsafe(Math.max(want, this.scratch.length * 2));
      this.scratch.copy(grown, 0, 0, this.pending);
      this.scratch = grown;
    }
    chunk.copy(this.scratch, this.pending);
    this.pending = want;
    if (this.pending < this.need) return [];
    return this.parse(false);
  }

  /** End of input: what is left is a block cut off (reported) or nothing. */
  end(): CaptureEntry[] {
    return this.parse(true);
  }

  private parse(atEnd: boolean): CaptureEntry[] {
    // Records are turned into strings before the scratch is written again: views of it do not outlive a parse.
    const buf = this.scratch.subarray(0, this.pending);
    const out: CaptureEntry[] = [];
    let pos = 0;
    for (;;) {
      if (!this.header) {
        const h = this.readHeader(buf);
        if (h === undefined) break;
        this.header = h.header;
        pos = h.end;
        continue;
      }
      if (this.resyncing) {
        const at = buf.indexOf(this.header.sync, pos);
        this.need = 0;
        if (at < 0) {
          // Keep the last 15 bytes: a marker may straddle chunks.
          pos = atEnd ? buf.length : Math.max(pos, buf.length - 15);
          break;
        }
        pos = at + 16;
        this.resyncing = false;
        continue;
      }
      if (pos === buf.length) break;
      const r = this.readBlock(buf, pos, out);
      if (r === undefined) {
        if (!atEnd) break;
        // The file ends inside this block: cut off, or its size field is damaged. Look for a
        // later sync marker in case it is the latter.
        out.push(
          this.invalid(
            `the Avro block at byte ${this.base + pos} is cut off or damaged (the file ends before the block does: truncated, or still being written): skipped`,
          ),
        );
        this.resyncing = true;
        this.need = 0;
        pos += 1;
        continue;
      }
      pos = r;
    }
    // Keep what is left for the next chunk.
    const rest = this.pending - pos;
    if (pos > 0) this.scratch.copyWithin(0, pos, this.pending);
    this.base += pos;
    this.pending = rest;
    if (atEnd) {
      if (!this.header) {
        throw new AvroArchiveError(`its Avro header is cut off (the file is truncated${this.base + rest === 0 ? ', or empty' : ''})`, HEADER_NEXT_STEP);
      }
    }
    return out;
  }

  private readHeader(buf: Buffer): { header: Header; end: number } | undefined {
    if (buf.length < 4) return this.wait(4);
    if (!isAvro(buf)) throw new AvroArchiveError('it does not start with the Avro magic "Obj\\x01"');
    const meta = new Map<string, Buffer>();
    let p = 4;
    for (;;) {
      const c = readLong(buf, p);
      if (c === undefined) return this.wait(buf.length + 1);
      p = c.end;
      let count = c.value;
      if (count === 0) break;
      if (count < 0) {
        const size = readLong(buf, p);
        if (size === undefined) return this.wait(buf.length + 1);
        p = size.end;
        count = -count;
      }
      for (let i = 0; i < count; i++) {
        const k = readBytes(buf, p);
        if (k === undefined) return this.wait(buf.length + 1);
        const v = readBytes(buf, k.end);
        if (v === undefined) return this.wait(buf.length + 1);
        meta.set(k.value.toString('utf8'), v.value);
        p = v.end;
      }
    }
    if (buf.length < p + 16) return this.wait(p + 16);
    const sync = Buffer.from(buf.subarray(p, p + 16));
    const schemaText = meta.get('avro.schema')?.toString('utf8');
    if (schemaText === undefined) throw new AvroArchiveError('its Avro header has no avro.schema', HEADER_NEXT_STEP);
    let schema: unknown;
    try {
      schema = JSON.parse(schemaText);
    } catch (e) {
      throw new AvroArchiveError(`its Avro header's schema is not JSON (${(e as Error).message})`, HEADER_NEXT_STEP);
    }
    const reading = archiveSchema(schema);
    const codec = meta.get('avro.codec')?.toString('utf8') || 'null';
    if (codec !== 'null' && codec !== 'deflate') {
      throw new AvroArchiveError(
        `its Avro blocks are compressed with "${codec}", which SeqScope does not read (it reads null and deflate): convert it, e.g. with avro-tools recodec`,
      );
    }
    let type: Type;
    let resolver: Header['resolver'];
    let writer: Type;
    try {
      writer = Type.forSchema(schema as never);
      if (reading.kind === 'topic-schema') return { header: { type: topicSchemaType(schema), codec, sync, reading, fixed: undefined }, end: p + 16 };
      // Read without the subscription name: one string less per record for the collector.
      const s = schema as { fields: { name: string }[] };
      type = Type.forSchema({ ...s, fields: s.fields.filter((f) => f.name !== 'subscription_name') } as never);
      resolver = type.createResolver(writer);
    } catch (e) {
      throw new AvroArchiveError(`its Avro schema is not valid (${(e as Error).message})`, SCHEMA_NEXT_STEP);
    }
    const layout = this.parseOptions.fixedLayouts === false ? undefined : fixedLayout(writer);
    const fixed = layout && new FixedLayoutEntries(layout, this.file, this.label, this.untimedClock, this.parseOptions.scan);
    return { header: { type, resolver, codec, sync, reading, fixed }, end: p + 16 };
  }

  /** Reads the block at `pos` into `out`; the position after it, or undefined to wait for more bytes. */
  private readBlock(buf: Buffer, pos: number, out: CaptureEntry[]): number | undefined {
    const h = this.header as Header;
    const at = this.base + pos;
    const c = readLong(buf, pos);
    if (c === undefined) return this.wait(buf.length - pos + 1);
    const s = readLong(buf, c.end);
    if (s === undefined) return this.wait(buf.length - pos + 1);
    const count = c.value;
    const size = s.value;
    if (count < 0 || size < 0 || size > MAX_BLOCK_BYTES || count > size * 8 + 1) {
      out.push(this.invalid(`the Avro block at byte ${at} is damaged (it claims ${count} records in ${size} bytes): skipped to the next sync marker`));
      this.resyncing = true;
      this.need = 0;
      return pos + 1;
    }
    const end = s.end + size + 16;
    if (buf.length < end) {
      this.need = end - pos;
      return undefined;
    }
    this.need = 0;
    if (!buf.subarray(s.end + size, end).equals(h.sync)) {
      out.push(
        this.invalid(
          `the Avro block at byte ${at} is damaged (its sync marker does not match the header's): its records are skipped, reading resumes at the next sync marker`,
        ),
      );
      this.resyncing = true;
      this.need = 0;
      return pos + 1;
    }
    let data = buf.subarray(s.end, s.end + size);
    try {
      if (h.codec === 'deflate') data = inflateRawSync(data);
    } catch (e) {
      out.push(this.invalid(`the Avro block at byte ${at} does not inflate (${(e as Error).message}): its ${count} records are skipped`));
      this.records += count;
      return end;
    }
    if (h.fixed?.block(data, count, this.records + 1, out)) this.records += count;
    else this.decodeRecords(data, count, at, out);
    return end;
  }

  private decodeRecords(data: Buffer, count: number, at: number, out: CaptureEntry[]): void {
    const h = this.header as Header;
    let p = 0;
    for (let i = 0; i < count; i++) {
      let r: { value: Record<string, unknown>; offset: number };
      try {
        r = h.type.decode(data, p, h.resolver) as typeof r;
      } catch (e) {
        r = { value: {}, offset: -2 };
        void e;
      }
      if (r.offset < 0) {
        out.push(
          this.invalid(
            `the Avro block at byte ${at} is damaged: record ${i + 1} of its ${count} does not decode against the file's schema; the block's other ${count - i - 1} records are skipped`,
          ),
        );
        this.records += count - i - 1;
        return;
      }
      p = r.offset;
      out.push(this.entry(r.value, at));
    }
    if (p !== data.length) {
      out.push(this.invalid(`the Avro block at byte ${at} has ${data.length - p} bytes after its ${count} records: the block is damaged`));
    }
  }

  private entry(v: Record<string, unknown>, at: number): CaptureEntry {
    const line = ++this.records;
    const h = this.header as Header;
    if (h.reading.kind === 'topic-schema') {
      const rm = topicSchemaRecord(v, h.reading.metadata, `${this.label}#${line}`);
      if (typeof rm === 'string')
        return { file: this.file, line, offset: -1, length: 0, time: NaN, invalid: `${rm} (Avro record ${line}, block at byte ${at})` };
      const pt = v.publish_time;
      const time = !h.reading.metadata ? this.untimedClock : typeof pt === 'number' ? pt / 1000 : parseRfc3339(rm.message.publishTime as string);
      return new RecordEntry(this.file, line, -1, 0, time, rm);
    }
    if (h.reading.kind === 'data-only') {
      const d = v.data;
      const data = Buffer.isBuffer(d) ? d.toString('base64') : typeof d === 'string' ? Buffer.from(d, 'utf8').toString('base64') : undefined;
      const rm: ReceivedMessage = { message: { messageId: `${this.label}#${line}`, ...(data === undefined ? {} : { data }) } };
      return new RecordEntry(this.file, line, -1, 0, this.untimedClock, rm);
    }
    // Bytes are encoded here (rowToRecord has no Buffer: see there).
    const bytes = v.data;
    if (Buffer.isBuffer(bytes)) v.data = undefined;
    const rm = rowToRecord(v, 'text');
    if (typeof rm !== 'string' && Buffer.isBuffer(bytes)) rm.message.data = bytes.toString('base64');
    if (typeof rm === 'string') return { file: this.file, line, offset: -1, length: 0, time: NaN, invalid: `${rm} (Avro record ${line}, block at byte ${at})` };
    const pt = v.publish_time;
    const time = typeof pt === 'number' ? pt / 1000 : parseRfc3339(rm.message.publishTime as string);
    return new RecordEntry(this.file, line, -1, 0, time, rm);
  }

  private invalid(reason: string): CaptureEntry {
    return { file: this.file, line: this.records + 1, offset: -1, length: 0, time: NaN, invalid: reason };
  }

  private wait(need: number): undefined {
    this.need = need;
    return undefined;
  }
}

/** Avro `long` (zig-zag varint) at p, or undefined when the bytes end first. */
function readLong(buf: Buffer, p: number): { value: number; end: number } | undefined {
  let n = 0;
  let shift = 1;
  let b: number;
  let i = p;
  do {
    if (i >= buf.length) return undefined;
    b = buf[i++];
    n += (b & 0x7f) * shift;
    shift *= 128;
    if (i - p > 10) return { value: -1, end: i };
  } while (b & 0x80);
  return { value: n % 2 === 0 ? n / 2 : -(n + 1) / 2, end: i };
}

function readBytes(buf: Buffer, p: number): { value: Buffer; end: number } | undefined {
  const len = readLong(buf, p);
  if (len === undefined) return undefined;
  if (len.value < 0) throw new AvroArchiveError('its Avro header is damaged', HEADER_NEXT_STEP);
  const end = len.end + len.value;
  if (end > buf.length) return undefined;
  return { value: buf.subarray(len.end, end), end };
}
