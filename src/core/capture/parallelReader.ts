/**
 * Reads a JSON Lines capture on several threads. The thread that sequences reads the bytes (a
 * file, standard input, or gzip data as it is decompressed: compressed data cannot be split, so
 * it is decompressed in order and its output split), cuts them at line ends into ranges of about
 * a mebibyte, and hands each range to a scanning thread (`ScanPool`), which parses its lines into
 * columns (lineScan.ts); the ranges' entries then come back in file order, a batch per range.
 * A replay reads the same entries, line numbers and byte offsets as with CaptureReader.batches,
 * whatever the number of threads; only JSON Lines (ours and BigQuery rows) are read this way.
 *
 * Memory: at most `2 × threads + 1` ranges are in flight, so what is read ahead stays bounded.
 */
import { CaptureEntry } from './captureRecord';
import { CaptureReader, ReadOptions } from './captureReader';
import { MAX_RECORD_BYTES, tooLongRecord } from './captureSplitters';
import { ScanColumns, scanLines, scannedEntries } from './lineScan';
import { readsJson, SequencingOptions } from '../sequencer/sequencingOptions';
import type { SchemaDefinition } from '../schema/schemaDefinition';
import { nextSchemaLine, readSchemaLine, type RecordedSchema } from '../schema/schemaLine';
import { withRecorded } from '../schema/schemaSet';

/** What a scanning thread needs besides the range. */
export interface ScanJob {
  readonly options: SequencingOptions;
  readonly maxRecordBytes: number;
}

/** Threads that scan ranges (src/timeline/node/scanPool.ts runs them on worker threads). */
export interface ScanPool {
  readonly threads: number;
  /** Bytes per range handed to a thread (default: about a mebibyte; tests cut smaller). */
  readonly rangeBytes?: number;
  /**
   * Scans one range of whole lines. `keep`: the caller still needs the bytes afterwards (else
   * the pool may move them to the thread that scans them). `owned`: no other view into the
   * range's whole buffer exists, so it may move even when the range is a part of it.
   */
  scan(range: Uint8Array, job: ScanJob, keep: boolean, owned?: boolean): Promise<ScanColumns>;
}

/**
 * Scans on the calling thread: a one-thread replay that only summarises reads records with the
 * scanner too (recordScan.ts), not with JSON.parse.
 */
export class InlineScanPool implements ScanPool {
  readonly threads = 1;

  scan(range: Uint8Array, job: ScanJob): Promise<ScanColumns> {
    return Promise.resolve(scanLines(range, job.options, job.maxRecordBytes));
  }

  async close(): Promise<void> {}
}

/** Anything that hands on a capture's entries in batches, in file order. */
export interface EntrySource {
  batches(options?: ReadOptions): AsyncGenerator<CaptureEntry[]>;
}

/** Bytes per range handed to a scanning thread. */
const RANGE_BYTES = 1 << 20;

/** A piece of the capture: a range of whole lines, or a line too long to keep (reported, not read). */
type Piece = { readonly range: Uint8Array; readonly offset: number; readonly owned: boolean } | { readonly tooLong: number; readonly offset: number };

/**
 * Cuts a byte stream into ranges of whole lines (the last may lack its newline). A line longer
 * than the bound is not kept while it streams past: it becomes a `tooLong` piece.
 */
export class LineRangeCutter {
  /** Whole lines not handed on yet, from stream offset `pendingOffset`. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private pendingOffset = 0;
  /** The bytes since the last newline. */
  private partial: Buffer[] = [];
  private partialLength = 0;
  /** The unfinished line passed the bound: only counted; whether its last byte is a CR. */
  private tooLong = false;
  private endsWithCR = false;
  /** Stream offset of the next chunk's first byte. */
  private base = 0;

  constructor(
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
    private readonly rangeBytes = RANGE_BYTES,
    /**
     * Chunks are views into buffers of their own that no one else keeps (a file's reads): a
     * chunk no larger than a range then becomes one range without a copy, the line that
     * straddles it and the one before a small range of their own.
     */
    private readonly ownedChunks = false,
  ) {}

  skip(n: number): void {
    this.base += n;
    this.pendingOffset = this.base;
  }

  push(chunk: Buffer): Piece[] {
    const out: Piece[] = [];
    const chunkBase = this.base;
    this.base += chunk.length;
    let start = 0;
    if (this.tooLong) {
      const nl = chunk.indexOf(0x0a);
      if (nl < 0) {
        this.countLong(chunk, 0, chunk.length);
        return out;
      }
      this.countLong(chunk, 0, nl);
      out.push(this.longPiece());
      start = nl + 1;
      this.pendingOffset = chunkBase + start;
    }
    const nl = chunk.lastIndexOf(0x0a);
    if (nl >= start && this.ownedChunks && chunk.length <= this.rangeBytes) {
      if (this.partialLength > 0 || this.pendingLength > 0) {
        const first = chunk.indexOf(0x0a, start);
        this.takePartial(chunk.subarray(start, first + 1));
        out.push(this.rangePiece());
        start = first + 1;
      }
      if (nl >= start) {
        this.pending.push(chunk.subarray(start, nl + 1));
        this.pendingLength = nl + 1 - start;
        out.push(this.rangePiece(true));
        start = nl + 1;
      }
    } else if (nl >= start) {
      for (const p of this.partial) this.pending.push(p);
      this.pendingLength += this.partialLength + nl + 1 - start;
      this.pending.push(chunk.subarray(start, nl + 1));
      this.partial = [];
      this.partialLength = 0;
      start = nl + 1;
      // By what came in since the last range, so a chunk of the range's size makes one.
      if (this.pendingLength + chunk.length - start >= this.rangeBytes) out.push(this.rangePiece());
    }
    if (start < chunk.length) {
      // A copy: the caller may reuse its chunk.
      this.partial.push(Buffer.from(chunk.subarray(start)));
      this.partialLength += chunk.length - start;
      // One byte more than the bound may be the CR of a CRLF end (see LineSplitter).
      if (this.partialLength > this.maxRecordBytes + 1) {
        if (this.pendingLength > 0) out.push(this.rangePiece());
        this.tooLong = true;
        this.endsWithCR = chunk[chunk.length - 1] === 0x0d;
        this.partial = [];
      }
    }
    return out;
  }

  /** End of input: what is left (the last line, if it has no newline). */
  end(): Piece[] {
    const out: Piece[] = [];
    if (this.tooLong) {
      out.push(this.longPiece());
      return out;
    }
    for (const p of this.partial) this.pending.push(p);
    this.pendingLength += this.partialLength;
    this.partial = [];
    this.partialLength = 0;
    if (this.pendingLength > 0) out.push(this.rangePiece());
    return out;
  }

  /** Whether the input ended inside a line (bytes after the last newline). */
  get inLine(): boolean {
    return this.tooLong || this.partialLength > 0;
  }

  private countLong(chunk: Buffer, start: number, end: number): void {
    if (end === start) return;
    this.partialLength += end - start;
    this.endsWithCR = chunk[end - 1] === 0x0d;
  }

  /** The unfinished line, ended by `rest`, joins the whole lines waiting. */
  private takePartial(rest: Buffer): void {
    for (const p of this.partial) this.pending.push(p);
    this.pending.push(rest);
    this.pendingLength += this.partialLength + rest.length;
    this.partial = [];
    this.partialLength = 0;
  }

  private longPiece(): Piece {
    const offset = this.pendingOffset;
    const length = this.partialLength - (this.endsWithCR ? 1 : 0);
    this.tooLong = false;
    this.partialLength = 0;
    this.endsWithCR = false;
    return { tooLong: length, offset };
  }

  /** The lines waiting, as one range; `owned`: it is the only view into its chunk's buffer that is kept. */
  private rangePiece(owned = false): Piece {
    const range = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingLength);
    const piece = { range, offset: this.pendingOffset, owned };
    this.pendingOffset += this.pendingLength;
    this.pending = [];
    this.pendingLength = 0;
    return piece;
  }
}

/**
 * The schema lines of a range (whole lines), found by the sequencing thread before the range is
 * sent on, so the next ranges' jobs carry them (the range's own thread applies them to the lines
 * after each): `learn` is told each; true when one was new.
 */
function schemasIn(range: Uint8Array, maxRecordBytes: number, learn: (s: RecordedSchema) => boolean): boolean {
  const b = Buffer.isBuffer(range) ? range : Buffer.from(range.buffer, range.byteOffset, range.byteLength);
  let added = false;
  for (let at = nextSchemaLine(b, 0); at >= 0; at = nextSchemaLine(b, at + 1)) {
    const nl = b.indexOf(0x0a, at);
    let stop = nl < 0 ? b.length : nl;
    if (stop > at && b[stop - 1] === 0x0d) stop--;
    let start = at;
    while (start > 0 && b[start - 1] !== 0x0a) start--;
    if (stop - start > maxRecordBytes) continue;
    const s = readSchemaLine(b.toString('utf8', at, stop));
    if ('key' in s && learn(s)) added = true;
  }
  return added;
}

/** A piece handed to the pool, and its columns to come. */
interface InFlight {
  readonly piece: Piece;
  readonly columns: Promise<ScanColumns> | undefined;
}

/**
 * A CaptureReader's JSON Lines read through a ScanPool. `keepRecords`: entries keep their bytes,
 * so their records can be parsed again when asked for (exports, filters); a replay that only
 * summarises does without.
 */
export class ParallelLineReader implements EntrySource {
  constructor(
    private readonly reader: CaptureReader,
    private readonly pool: ScanPool,
    private readonly options: SequencingOptions,
    private readonly keepRecords: boolean,
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
    private readonly rangeBytes = pool.rangeBytes ?? RANGE_BYTES,
  ) {}

  async *batches(options: ReadOptions = {}): AsyncGenerator<CaptureEntry[]> {
    const file = this.reader.index;
    // The run's set learns the schemas this and other captures record as they are read: the jobs start from what it holds now.
    const base = this.options.schemas && withRecorded(this.options.schemas, {});
    const start = base ? { ...this.options, schemas: base } : this.options;
    let job: ScanJob = { options: start, maxRecordBytes: this.maxRecordBytes };
    /** The schemas recorded in the ranges sent so far: each job carries those before its range. */
    const known: Record<string, SchemaDefinition> = {};
    const learn = (s: RecordedSchema): boolean => {
      if (known[s.key] !== undefined) return false;
      known[s.key] = s.definition;
      options.onSchema?.(s);
      return true;
    };
    // Only a run that reads payloads (json: options) decodes by schemas while scanning: it finds
    // them before each range is sent. Any other learns them from the scanned ranges, in order.
    const findAhead = readsJson(this.options);
    const cutter = new LineRangeCutter(this.maxRecordBytes, this.rangeBytes, this.reader.ownsChunks);
    const depth = 2 * Math.max(1, this.pool.threads) + 1;
    const queue: InFlight[] = [];
    let damage: string | undefined;
    let line = 1;
    const send = (piece: Piece): void => {
      // Read before the range is sent: the pool may move its bytes to the thread that scans it.
      const found = findAhead && 'range' in piece && schemasIn(piece.range, this.maxRecordBytes, learn);
      const columns = 'range' in piece ? this.pool.scan(piece.range, job, this.keepRecords, piece.owned) : undefined;
      if (found) job = { options: { ...start, schemas: withRecorded(base, known) }, maxRecordBytes: this.maxRecordBytes };
      // Settled later in order; a rejection left behind by an early return must not go unhandled.
      columns?.catch(() => {});
      queue.push({ piece, columns });
    };
    /** The entries of the oldest piece in flight. */
    const take = async (): Promise<CaptureEntry[]> => {
      const { piece, columns } = queue.shift() as InFlight;
      if ('tooLong' in piece) {
        const r = tooLongRecord(line, piece.offset, piece.tooLong, this.maxRecordBytes);
        line++;
        return [{ file, line: r.line, offset: r.offset, length: r.length, time: NaN, invalid: r.invalid }];
      }
      const c = await (columns as Promise<ScanColumns>);
      for (const s of c.schemas) learn(s);
      const entries = scannedEntries(c, file, line, piece.offset, this.keepRecords ? piece.range : undefined);
      line += c.lines;
      return entries;
    };
    const chunks = this.reader.rawChunks(
      options,
      (reason) => (damage = reason),
      (n) => cutter.skip(n),
    );
    for await (const chunk of chunks) {
      for (const p of cutter.push(chunk)) send(p);
      while (queue.length >= depth) {
        if (options.signal?.aborted) return;
        const batch = await take();
        if (batch.length) yield batch;
      }
    }
    if (options.signal?.aborted) return;
    const cutOff = cutter.inLine;
    for (const p of cutter.end()) send(p);
    let batch: CaptureEntry[] = [];
    while (queue.length > 0) {
      if (options.signal?.aborted) return;
      batch = await take();
      if (queue.length > 0 && batch.length) yield batch;
    }
    if (damage !== undefined) {
      // As CaptureReader.batches: one report for the damage, on the record it cut off if any.
      const last = cutOff && batch.length > 0 ? batch[batch.length - 1] : undefined;
      const lastIsCut = last !== undefined && last.line === line - 1;
      if (last !== undefined && lastIsCut && last.invalid !== undefined) {
        batch[batch.length - 1] = { file, line: last.line, offset: last.offset, length: last.length, time: NaN, invalid: `${damage} (this record is cut off)` };
      } else batch.push({ file, line, time: NaN, invalid: damage });
    }
    if (batch.length) yield batch;
  }
}
