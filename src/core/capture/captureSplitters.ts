/**
 * Splitters that cut a capture's byte stream into one text per record without holding the file:
 * JSON Lines by newline, and JSON arrays / pull responses by tracking nesting.
 *
 * Hand-written rather than a streaming JSON tokenizer library because only element boundaries
 * are needed and each element is then handed to the native `JSON.parse`, which is several times
 * faster than any tokenizer written in JavaScript. Only ASCII structural bytes are inspected, so
 * scanning UTF-8 bytes is safe.
 */
export interface RawRecord {
  /** 1-based line where the record starts. */
  line: number;
  /** The record's text ('' when `invalid` says why it is not handed on). */
  text: string;
  /** Byte offset and length of the record in the stream, so a viewer can read it back later. */
  offset: number;
  length: number;
  /** Why the record was not kept (it is longer than `MAX_RECORD_BYTES`): reported, not parsed. */
  invalid?: string;
}

export interface Splitter {
  /** Feeds the next chunk; returns the records completed by it. */
  push(chunk: Buffer): RawRecord[];
  /** Counts `n` bytes that were consumed before the first chunk (a BOM), for offsets. */
  skip(n: number): void;
  /** The line the bytes fed so far end on (where a damaged compressed stream broke off). */
  currentLine(): number;
  /** End of input: the remaining record, and a problem with the file's structure if any. */
  end(): { records: RawRecord[]; problem?: { line: number; reason: string } };
}

/**
 * The longest record a splitter keeps. A Pub/Sub message carries at most 10 MB of data (13.4 MB
 * in base64) and 100 attributes, so a ReceivedMessage line stays well under 16 MiB; a longer
 * "record" is a file that is not a capture, or two records whose newline was lost. Without a
 * bound such a file would be held whole — past V8's longest string (512 MiB) the read would fail,
 * and long before that the machine runs out of memory. Longer records are skipped as they
 * stream past, never held, and reported invalid with their line and size.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** The stand-in for a record longer than `max` bytes: its place and size, and why it was skipped. */
export function tooLongRecord(line: number, offset: number, length: number, max: number): RawRecord {
  const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  const size = length >= 1024 * 1024 ? mib(length) : `${length} bytes`;
  const limit = max >= 1024 * 1024 ? mib(max) : `${max} bytes`;
  const invalid = `the record is ${size}, longer than SeqScope reads (${limit}; a Pub/Sub message is at most 10 MB): skipped unread — is a newline missing?`;
  return { line, text: '', offset, length, invalid };
}

const NL = 0x0a;
const CR = 0x0d;

export class LineSplitter implements Splitter {
  /** The unfinished line's bytes, as they came (joined once, when its newline arrives). */
  private parts: Buffer[] = [];
  private partsLength = 0;
  /** The unfinished line passed the bound: its bytes are dropped, only counted. */
  private tooLong = false;
  /** Whether the unfinished line's last byte so far is a CR (not part of a CRLF line's record). */
  private endsWithCR = false;
  /** Stream offset of the unfinished line's first byte. */
  private lineOffset = 0;
  private line = 1;
  /** Stream offset of the next chunk's first byte. */
  private base = 0;

  constructor(private readonly maxRecordBytes = MAX_RECORD_BYTES) {}

  skip(n: number): void {
    this.base += n;
  }

  currentLine(): number {
    return this.line;
  }

  push(chunk: Buffer): RawRecord[] {
    const out: RawRecord[] = [];
    const chunkBase = this.base;
    this.base += chunk.length;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      if (this.partsLength === 0 && !this.tooLong) {
        this.emit(chunk, start, nl, chunkBase + start, out);
      } else {
        this.add(chunk, start, nl);
        this.finishPending(out);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      if (this.partsLength === 0 && !this.tooLong) this.lineOffset = chunkBase + start;
      this.add(chunk, start, chunk.length);
    }
    return out;
  }

  end(): { records: RawRecord[] } {
    const out: RawRecord[] = [];
    if (this.partsLength > 0 || this.tooLong) this.finishPending(out);
    return { records: out };
  }

  /** Adds bytes to the unfinished line, or only counts them once it is too long. */
  private add(chunk: Buffer, start: number, end: number): void {
    if (end === start) return;
    this.partsLength += end - start;
    this.endsWithCR = chunk[end - 1] === CR;
    if (this.tooLong) return;
    // One byte more than the bound may be the CR of a CRLF line end, which is not the record's:
    // a line is too long by its length without it, wherever the chunks were cut.
    if (this.partsLength > this.maxRecordBytes + 1) {
      this.tooLong = true;
      this.parts = [];
      return;
    }
    // A view would pin the caller's whole chunk (and callers may reuse it): copy the part.
    this.parts.push(Buffer.from(chunk.subarray(start, end)));
  }

  private finishPending(out: RawRecord[]): void {
    if (this.tooLong) {
      const line = this.line++;
      const length = this.partsLength - (this.endsWithCR ? 1 : 0);
      out.push(tooLongRecord(line, this.lineOffset, length, this.maxRecordBytes));
    } else {
      const buf = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.partsLength);
      this.emit(buf, 0, buf.length, this.lineOffset, out);
    }
    this.parts = [];
    this.partsLength = 0;
    this.tooLong = false;
  }

  /** Emits `buf[start, end)`, which starts at stream offset `offset`, as line `this.line`. */
  private emit(buf: Buffer, start: number, end: number, offset: number, out: RawRecord[]): void {
    const line = this.line++;
    if (end > start && buf[end - 1] === CR) end--;
    // Blank lines are layout, not records.
    let i = start;
    while (i < end && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
    if (i === end) return;
    if (end - start > this.maxRecordBytes) {
      out.push(tooLongRecord(line, offset, end - start, this.maxRecordBytes));
      return;
    }
    out.push({ line, text: buf.toString('utf8', start, end), offset, length: end - start });
  }
}

const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isSpace(b: number): boolean {
  return b === 0x20 || b === NL || b === CR || b === 0x09;
}

/**
 * Splits `[elem, elem, …]` (mode "array") or `{"receivedMessages": [elem, …], …}` (mode "pull")
 * into element texts.
 */
export class JsonArraySplitter implements Splitter {
  /** What is kept of the stream: `store[0, length)`, grown by doubling so a long element is not copied per chunk. */
  private store: Buffer = Buffer.alloc(0);
  private buf: Buffer = this.store;
  /** Whether `buf` is in `store` (else it is the caller's last chunk). */
  private bufInStore = false;
  /** Scan position in `buf`. */
  private pos = 0;
  private line = 1;
  private depth = 0;
  private inString = false;
  /** Depth at which elements sit, once the element array is open; -1 before. */
  private elemDepth = -1;
  private arrayClosed = false;
  private elemStart = -1;
  private elemLine = 0;
  /** Pull mode: the last object key seen at depth 1. */
  private keyStart = -1;
  private lastKey = '';
  /** Where the open string started (its escapes may straddle chunks); -1 once its start was dropped. */
  private strStart = -1;
  /**
   * The open element passed the bound: it is scanned on without being kept. Its start is then
   * `tooLongOffset` in the stream, and an open string's backslashes just before `buf[0]` are
   * counted in `carriedBackslashes` (a quote after them is escaped when they are odd).
   */
  private tooLong = false;
  private tooLongOffset = 0;
  private carriedBackslashes = 0;

  /** Stream offset of buf[0]. */
  private base = 0;

  constructor(
    private readonly mode: 'array' | 'pull',
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {}

  skip(n: number): void {
    this.base += n;
  }

  currentLine(): number {
    return this.line;
  }

  push(chunk: Buffer): RawRecord[] {
    // Keep only what an unfinished element (or key) still needs.
    let keep = this.pos;
    for (const s of [this.elemStart, this.keyStart, this.tooLong ? -1 : this.strStart]) if (s >= 0 && s < keep) keep = s;
    if (this.tooLong && this.inString && keep > 0) this.carryBackslashes(keep);
    this.append(keep, chunk);
    this.pos -= keep;
    this.base += keep;
    if (this.elemStart >= 0) this.elemStart -= keep;
    if (this.keyStart >= 0) this.keyStart -= keep;
    if (this.strStart >= 0) this.strStart = this.strStart >= keep ? this.strStart - keep : -1;
    const out: RawRecord[] = [];
    this.scan(out);
    if (this.elemStart >= 0 && this.buf.length - this.elemStart > this.maxRecordBytes) {
      // Scanned on, not kept: only its start, line and length are still needed.
      this.tooLong = true;
      this.tooLongOffset = this.base + this.elemStart;
      this.elemStart = -1;
    }
    return out;
  }

  /** Makes `buf` the kept bytes from `keep` on, then `chunk`: in the store, grown by doubling. */
  private append(keep: number, chunk: Buffer): void {
    const kept = this.buf.length - keep;
    if (kept === 0) {
      // Nothing unfinished (the common case between elements): scan the chunk itself.
      this.buf = chunk;
      this.bufInStore = false;
      return;
    }
    const need = kept + chunk.length;
    if (!this.bufInStore || need > this.store.length) {
      // Also when buf is a caller's chunk: what is kept is copied, the caller may reuse it.
      const store = Buffer.allocUnsafe(Math.max(2 * need, 64 * 1024));
      this.buf.copy(store, 0, keep);
      this.store = store;
    } else if (keep > 0) {
      this.store.copyWithin(0, keep, this.buf.length);
    }
    chunk.copy(this.store, kept);
    this.buf = this.store.subarray(0, need);
    this.bufInStore = true;
  }

  /** Counts the open string's backslashes that end at `buf[keep − 1]`, before dropping them. */
  private carryBackslashes(keep: number): void {
    let j = keep - 1;
    const floor = this.strStart >= 0 ? this.strStart : -1;
    while (j > floor && this.buf[j] === BACKSLASH) j--;
    const run = keep - 1 - j;
    this.carriedBackslashes = j === -1 && this.strStart < 0 ? this.carriedBackslashes + run : run;
  }

  end(): { records: RawRecord[]; problem?: { line: number; reason: string } } {
    const records: RawRecord[] = [];
    if (this.tooLong) {
      const length = this.base + this.buf.length - this.tooLongOffset;
      records.push(tooLongRecord(this.elemLine, this.tooLongOffset, length, this.maxRecordBytes));
      this.tooLong = false;
    } else if (this.elemStart >= 0) {
      // An element cut off by the end of the file: hand it on so it is reported, not lost.
      records.push({
        line: this.elemLine,
        text: this.buf.toString('utf8', this.elemStart),
        offset: this.base + this.elemStart,
        length: this.buf.length - this.elemStart,
      });
      this.elemStart = -1;
    }
    if (this.arrayClosed) return { records };
    if (this.elemDepth < 0) {
      const what = this.mode === 'pull' ? 'a "receivedMessages" array' : 'a JSON array';
      return { records, problem: { line: this.line, reason: `the file ends before ${what} starts` } };
    }
    return { records, problem: { line: this.line, reason: 'the file ends inside the array (truncated?)' } };
  }

  private scan(out: RawRecord[]): void {
    const buf = this.buf;
    const n = buf.length;
    let i = this.pos;
    while (i < n) {
      const b = buf[i];
      if (this.inString) {
        // Jump to the next quote; it closes the string unless escaped by an odd run of '\'.
        const q = buf.indexOf(QUOTE, i);
        if (q < 0) {
          i = n;
          break;
        }
        let bs = 0;
        let j = q - 1;
        for (; j > this.strStart && buf[j] === BACKSLASH; j--) bs++;
        // The string began before buf (its start was dropped): backslashes may run on before it.
        if (j === -1 && this.strStart < 0) bs += this.carriedBackslashes;
        i = q + 1;
        if (bs % 2 === 0) {
          this.inString = false;
          this.strStart = -1;
          this.carriedBackslashes = 0;
          if (this.keyStart >= 0) {
            this.lastKey = buf.toString('utf8', this.keyStart + 1, q);
            this.keyStart = -1;
          }
        }
        continue;
      }
      if (b === NL) {
        this.line++;
      } else if (b === QUOTE) {
        this.inString = true;
        this.strStart = i;
        if (this.depth === this.elemDepth && !this.inElement()) this.startElement(i);
        else if (this.mode === 'pull' && this.depth === 1 && this.elemDepth < 0) this.keyStart = i;
      } else if (b === OPEN_OBJ || b === OPEN_ARR) {
        if (this.depth === this.elemDepth && !this.inElement()) this.startElement(i);
        this.depth++;
        if (b === OPEN_ARR && this.elemDepth < 0 && !this.arrayClosed) {
          if ((this.mode === 'array' && this.depth === 1) || (this.mode === 'pull' && this.depth === 2 && this.lastKey === 'receivedMessages')) {
            this.elemDepth = this.depth;
          }
        }
      } else if (b === CLOSE_OBJ || b === CLOSE_ARR) {
        if (this.depth === this.elemDepth) {
          // The element array itself closes.
          this.finishElement(i, out);
          this.elemDepth = -1;
          this.arrayClosed = true;
        }
        this.depth--;
      } else if (b === COMMA) {
        if (this.depth === this.elemDepth) this.finishElement(i, out);
      } else if (!isSpace(b)) {
        // A bare number / literal element.
        if (this.depth === this.elemDepth && !this.inElement()) this.startElement(i);
      }
      i++;
    }
    this.pos = i;
  }

  /** Whether an element is open (kept, or scanned past because it is too long). */
  private inElement(): boolean {
    return this.elemStart >= 0 || this.tooLong;
  }

  private startElement(i: number): void {
    this.elemStart = i;
    this.elemLine = this.line;
  }

  private finishElement(end: number, out: RawRecord[]): void {
    if (this.tooLong) {
      const length = this.base + end - this.tooLongOffset;
      out.push(tooLongRecord(this.elemLine, this.tooLongOffset, length, this.maxRecordBytes));
      this.tooLong = false;
      return;
    }
    if (this.elemStart < 0) return;
    const length = end - this.elemStart;
    const offset = this.base + this.elemStart;
    if (length > this.maxRecordBytes) out.push(tooLongRecord(this.elemLine, offset, length, this.maxRecordBytes));
    else out.push({ line: this.elemLine, text: this.buf.toString('utf8', this.elemStart, end), offset, length });
    this.elemStart = -1;
  }
}
