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
import { InvalidCause, newRecordFields, readFields } from './recordFields';
import { RecordScanner } from './recordScan';

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
}

/** The transferable buffers of a ScanColumns (for postMessage's transfer list). */
export function columnBuffers(c: ScanColumns): ArrayBuffer[] {
  return [c.kind, c.line, c.offset, c.length, c.time, c.seq, c.sent, c.published, c.received, c.hash, c.key, c.idLength].map((a) => a.buffer as ArrayBuffer);
}

const NL = 0x0a;
const CR = 0x0d;

/** Scans `buf`, whole lines (the last may lack its newline only at the end of the input). */
export function scanLines(buf: Uint8Array, options: SequencingOptions, maxRecordBytes: number): ScanColumns {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let cap = 1;
  for (let i = b.indexOf(NL); i >= 0; i = b.indexOf(NL, i + 1)) cap++;
  const kind = new Uint8Array(cap);
  const line = new Int32Array(cap);
  const offset = new Int32Array(cap);
  const length = new Int32Array(cap);
  const time = new Float64Array(cap);
  const seq = new Float64Array(cap);
  const sent = new Float64Array(cap);
  const published = new Float64Array(cap);
  const received = new Float64Array(cap);
  const hash = new Int32Array(cap);
  const key = new Int32Array(cap);
  const idLength = new Int32Array(cap);
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const reasons: string[] = [];
  const wideSources: string[] = [];
  let ids = '';
  const space = new SerialSpace(options.seqBits);
  const f = newRecordFields();
  const scanner = new RecordScanner(options, space);
  let parsed = 0;
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
      line[n] = lineNo;
      offset[n] = start;
      length[n] = stop - start;
      if (stop - start > maxRecordBytes) {
        kind[n] = ScanKind.Record;
        time[n] = NaN;
        reasons.push(tooLongRecord(0, start, stop - start, maxRecordBytes).invalid as string);
      } else if (scanner.scan(b, i, stop)) {
        kind[n] = ScanKind.Valid;
        time[n] = scanner.time;
        seq[n] = scanner.seq;
        sent[n] = scanner.sent;
        published[n] = scanner.published;
        received[n] = scanner.received;
        hash[n] = scanner.hash;
        let ki = keyIndex.get(scanner.key);
        if (ki === undefined) {
          ki = keys.length;
          keys.push(scanner.key);
          keyIndex.set(scanner.key, ki);
        }
        key[n] = ki;
        ids += scanner.messageId;
        idLength[n] = scanner.messageId.length;
      } else {
        parsed++;
        const e = parseEntry(b.toString('utf8', start, stop), 0, 0);
        time[n] = e.time;
        const rm = e.record;
        if (rm === undefined) {
          kind[n] = ScanKind.Record;
          reasons.push(e.invalid as string);
        } else if (!readFields(rm, options, space, f)) {
          const k = KINDS[f.cause as InvalidCause];
          kind[n] = k;
          seq[n] = f.seq;
          reasons.push(f.reason as string);
          if (k === ScanKind.Width) wideSources.push(f.wideSource as string);
          // The session loader logs the messageId of every arrival that is a record.
          const id = rm.message.messageId;
          ids += id;
          idLength[n] = id.length;
        } else {
          kind[n] = ScanKind.Valid;
          seq[n] = f.seq;
          sent[n] = f.sent;
          published[n] = publishedAt(rm, e.time);
          received[n] = receivedAtMs(rm, e.time);
          hash[n] = contentHash(rm.message);
          let ki = keyIndex.get(f.key);
          if (ki === undefined) {
            ki = keys.length;
            keys.push(f.key);
            keyIndex.set(f.key, ki);
          }
          key[n] = ki;
          const id = rm.message.messageId;
          ids += id;
          idLength[n] = id.length;
        }
      }
      n++;
    }
    lineNo++;
    if (nl < 0) break;
    start = nl + 1;
  }
  return {
    count: n,
    lines: lineNo,
    kind,
    line,
    offset,
    length,
    time,
    seq,
    sent,
    published,
    received,
    hash,
    key,
    keys,
    ids,
    idLength,
    reasons,
    wideSources,
    parsed,
  };
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
