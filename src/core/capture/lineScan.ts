/**
 * The parallel reader's scanning step: a range of whole JSON Lines in, compact columns out —
 * for each record its line, place, clock, key, number, messageId, content hash and sender's
 * time, or why it cannot be sequenced. Scanning threads run `scanLines` on ranges of a capture
 * side by side (the JSON.parse of every line is most of a replay's time); the thread that
 * sequences turns the columns back into entries (`scannedEntries`), in file order, without
 * parsing anything. Pure TypeScript: the threads themselves are the caller's.
 *
 * Lines are read exactly as LineSplitter and parseEntry read them (CR of a CRLF end dropped,
 * blank lines skipped but counted, a line longer than the bound reported, not parsed), and
 * records as the replay engine reads them (replay/recordFields.ts), so a replay gives the same
 * result whichever reader and however many threads.
 */
import { contentHash } from './contentHash';
import { parseEntry, publishedAt, receivedAtMs } from './captureRecord';
import { ScanKind, ScannedEntry } from './scannedEntry';
import { tooLongRecord } from './captureSplitters';
import { InvalidCause, newRecordFields, readFields, RecordFields } from './recordFields';
import { RecordScanner } from './recordScan';
import { isSchemaLineAt, readSchemaLine, type RecordedSchema } from '../schema/schemaLine';
import { withRecorded } from '../schema/schemaSet';

export { ScanKind, ScannedEntry };
import { SequencingOptions } from '../sequencer/sequencingOptions';
import { SerialSpace } from '../sequencer/serial';

const KINDS: Record<InvalidCause, ScanKind> = {
  record: ScanKind.Record,
  key: ScanKind.Key,
  seq: ScanKind.Seq,
  width: ScanKind.Width,
  mdp3: ScanKind.Mdp3,
  json: ScanKind.Json,
};

/** One range's records as columns (typed arrays move between threads without a copy). */
export interface ScanColumns {
  /** Records (entries) in the range. */
  readonly count: number;
  /** Lines in the range, blank ones included (a last line without a newline counts). */
  readonly lines: number;
  readonly kind: Uint8Array;
  /** Line of each record, counted from 0 at the range's first line. */
  readonly line: Int32Array;
  /** Byte offset of each record from the range's first byte, and its length. */
  readonly offset: Int32Array;
  readonly length: Int32Array;
  /** Clock (NaN for kind Record). */
  readonly time: Float64Array;
  /** Number (also the too-wide number of kind Width). */
  readonly seq: Float64Array;
  readonly sent: Float64Array;
  /** publishTime and receivedAt (valid records; NaN when absent), for the latency percentiles. */
  readonly published: Float64Array;
  readonly received: Float64Array;
  /** Content hash (valid records). */
  readonly hash: Int32Array;
  /** Index into `keys` (valid records). */
  readonly key: Int32Array;
  readonly keys: string[];
  /**
   * messageIds of the records (valid or not, kind Record excepted: no record), one after
   * another; `idLength` of each.
   */
  readonly ids: string;
  readonly idLength: Int32Array;
  /** Why, for each invalid record in order; and where the number came from, for each of kind Width. */
  readonly reasons: string[];
  readonly wideSources: string[];
  /** Records the scanner left to the full parse (see recordScan.ts). */
  readonly parsed: number;
  /** The schema revisions the range records (its definition lines that read as one), in order. */
  readonly schemas: RecordedSchema[];
}

/** The transferable buffers of a ScanColumns (for postMessage's transfer list). */
export function columnBuffers(c: ScanColumns): ArrayBuffer[] {
  return [c.kind, c.line, c.offset, c.length, c.time, c.seq, c.sent, c.published, c.received, c.hash, c.key, c.idLength].map((a) => a.buffer as ArrayBuffer);
}

const NL = 0x0a;
const CR = 0x0d;

/** Scans `buf`, whole lines (the last may lack its newline only at the end of the input). */
export function scanLines(buf: Uint8Array, rangeOptions: SequencingOptions, maxRecordBytes: number): ScanColumns {
  let options = rangeOptions;
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let cap = 1;
  for (let i = b.indexOf(NL); i >= 0; i = b.indexOf(NL, i + 1)) cap++;
  const out = new ColumnsBuilder(cap);
  const space = new SerialSpace(options.seqBits);
  const f = newRecordFields();
  let scanner = new RecordScanner(options, space);
  let n = 0;
  let lineNo = 0;
  let start = 0;
  const end = b.length;
  while (start < end) {
    const nl = b.indexOf(NL, start);
    const lineEnd = nl < 0 ? end : nl;
    let stop = lineEnd;
    if (stop > start && b[stop - 1] === CR) stop--;
    let i = start;
    while (i < stop && (b[i] === 0x20 || b[i] === 0x09)) i++;
    if (i < stop) {
      out.place(n, lineNo, start, stop - start);
      if (stop - start > maxRecordBytes) out.tooLong(n, start, stop - start, maxRecordBytes);
      else if (isSchemaLineAt(b, i)) {
        // A recorded schema: not a record; the lines after it decode by it (see schemaLine.ts).
        const s = readSchemaLine(b.toString('utf8', i, stop));
        if ('key' in s) {
          out.schemas.push(s);
          options = { ...options, schemas: withRecorded(options.schemas, { [s.key]: s.definition }) };
          scanner = new RecordScanner(options, space);
          lineNo++;
          if (nl < 0) break;
          start = nl + 1;
          continue;
        }
        out.invalid(n, s.invalid);
      } else if (scanner.scan(b, i, stop)) out.scanned(n, scanner);
      else out.parse(n, b.toString('utf8', start, stop), options, space, f);
      n++;
    }
    lineNo++;
    if (nl < 0) break;
    start = nl + 1;
  }
  return out.columns(n, lineNo);
}

/** One range's columns as scanLines fills them, record by record. */
class ColumnsBuilder {
  readonly kind: Uint8Array;
  readonly line: Int32Array;
  readonly offset: Int32Array;
  readonly length: Int32Array;
  readonly time: Float64Array;
  readonly seq: Float64Array;
  readonly sent: Float64Array;
  readonly published: Float64Array;
  readonly received: Float64Array;
  readonly hash: Int32Array;
  readonly key: Int32Array;
  readonly idLength: Int32Array;
  readonly keys: string[] = [];
  private readonly keyIndex = new Map<string, number>();
  readonly reasons: string[] = [];
  readonly wideSources: string[] = [];
  readonly schemas: RecordedSchema[] = [];
  ids = '';
  /** Records left to the full parse. */
  parsed = 0;

  /** Room for `cap` records. */
  constructor(cap: number) {
    this.kind = new Uint8Array(cap);
    this.line = new Int32Array(cap);
    this.offset = new Int32Array(cap);
    this.length = new Int32Array(cap);
    this.time = new Float64Array(cap);
    this.seq = new Float64Array(cap);
    this.sent = new Float64Array(cap);
    this.published = new Float64Array(cap);
    this.received = new Float64Array(cap);
    this.hash = new Int32Array(cap);
    this.key = new Int32Array(cap);
    this.idLength = new Int32Array(cap);
  }

  /** Record `n`'s line (from the range's first) and its bytes' place in the range. */
  place(n: number, lineNo: number, start: number, length: number): void {
    this.line[n] = lineNo;
    this.offset[n] = start;
    this.length[n] = length;
  }

  /** A line longer than the bound: reported, not parsed. */
  tooLong(n: number, start: number, length: number, maxRecordBytes: number): void {
    this.kind[n] = ScanKind.Record;
    this.time[n] = NaN;
    this.reasons.push(tooLongRecord(0, start, length, maxRecordBytes).invalid as string);
  }

  /** A line that is not a record, and why. */
  invalid(n: number, reason: string): void {
    this.kind[n] = ScanKind.Record;
    this.time[n] = NaN;
    this.reasons.push(reason);
  }

  /** A valid record the scanner read. */
  scanned(n: number, scanner: RecordScanner): void {
    this.kind[n] = ScanKind.Valid;
    this.time[n] = scanner.time;
    this.seq[n] = scanner.seq;
    this.sent[n] = scanner.sent;
    this.published[n] = scanner.published;
    this.received[n] = scanner.received;
    this.hash[n] = scanner.hash;
    this.key[n] = this.keyIndexOf(scanner.key);
    this.ids += scanner.messageId;
    this.idLength[n] = scanner.messageId.length;
  }

  /** A line the scanner left to the full parse: read as parseEntry and the replay engine read it. */
  parse(n: number, text: string, options: SequencingOptions, space: SerialSpace, f: RecordFields): void {
    this.parsed++;
    const e = parseEntry(text, 0, 0);
    this.time[n] = e.time;
    const rm = e.record;
    if (rm === undefined) {
      this.kind[n] = ScanKind.Record;
      this.reasons.push(e.invalid as string);
    } else if (!readFields(rm, options, space, f)) {
      const k = KINDS[f.cause as InvalidCause];
      this.kind[n] = k;
      this.seq[n] = f.seq;
      this.reasons.push(f.reason as string);
      if (k === ScanKind.Width) this.wideSources.push(f.wideSource as string);
      // The session loader logs the messageId of every arrival that is a record.
      this.addId(n, rm.message.messageId);
    } else {
      this.kind[n] = ScanKind.Valid;
      this.seq[n] = f.seq;
      this.sent[n] = f.sent;
      this.published[n] = publishedAt(rm, e.time);
      this.received[n] = receivedAtMs(rm, e.time);
      this.hash[n] = contentHash(rm.message);
      this.key[n] = this.keyIndexOf(f.key);
      this.addId(n, rm.message.messageId);
    }
  }

  /** The columns of the `count` records of `lines` lines. */
  columns(count: number, lines: number): ScanColumns {
    return {
      count,
      lines,
      kind: this.kind,
      line: this.line,
      offset: this.offset,
      length: this.length,
      time: this.time,
      seq: this.seq,
      sent: this.sent,
      published: this.published,
      received: this.received,
      hash: this.hash,
      key: this.key,
      keys: this.keys,
      ids: this.ids,
      idLength: this.idLength,
      reasons: this.reasons,
      wideSources: this.wideSources,
      parsed: this.parsed,
      schemas: this.schemas,
    };
  }

  private keyIndexOf(key: string): number {
    let ki = this.keyIndex.get(key);
    if (ki === undefined) {
      ki = this.keys.length;
      this.keys.push(key);
      this.keyIndex.set(key, ki);
    }
    return ki;
  }

  private addId(n: number, id: string): void {
    this.ids += id;
    this.idLength[n] = id.length;
  }
}

/**
 * The entries of one scanned range. `range` holds the range's bytes when the records are to be
 * kept (each entry copies its own, so a held entry does not pin the range).
 */
export function scannedEntries(c: ScanColumns, file: number, firstLine: number, firstOffset: number, range?: Uint8Array): ScannedEntry[] {
  const out = new Array<ScannedEntry>(c.count);
  let idAt = 0;
  let reason = 0;
  let wide = 0;
  for (let i = 0; i < c.count; i++) {
    const k = c.kind[i] as ScanKind;
    const off = c.offset[i];
    const len = c.length[i];
    const bytes = range !== undefined && k !== ScanKind.Record ? Buffer.from(range.subarray(off, off + len)) : undefined;
    let id = '';
    if (k !== ScanKind.Record) {
      const idLen = c.idLength[i];
      id = c.ids.substring(idAt, idAt + idLen);
      idAt += idLen;
    }
    if (k === ScanKind.Valid) {
      out[i] = new ScannedEntry(
        file,
        firstLine + c.line[i],
        firstOffset + off,
        len,
        c.time[i],
        k,
        c.keys[c.key[i]],
        c.seq[i],
        id,
        c.hash[i],
        c.sent[i],
        c.published[i],
        c.received[i],
        undefined,
        undefined,
        undefined,
        bytes,
      );
    } else {
      const why = c.reasons[reason++];
      const ws = k === ScanKind.Width ? c.wideSources[wide++] : undefined;
      out[i] = new ScannedEntry(
        file,
        firstLine + c.line[i],
        firstOffset + off,
        len,
        c.time[i],
        k,
        '',
        c.seq[i],
        id,
        0,
        NaN,
        NaN,
        NaN,
        k === ScanKind.Record ? why : undefined,
        k === ScanKind.Record ? undefined : why,
        ws,
        bytes,
      );
    }
  }
  return out;
}
