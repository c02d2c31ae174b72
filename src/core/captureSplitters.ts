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
  text: string;
  /** Byte offset and length of the record in the stream, so a viewer can read it back later. */
  offset: number;
  length: number;
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

const NL = 0x0a;
const CR = 0x0d;

export class LineSplitter implements Splitter {
  private rest: Buffer | undefined;
  private line = 1;
  /** Stream offset of the first byte of the buffer being split. */
  private base = 0;

  skip(n: number): void {
    this.base += n;
  }

  currentLine(): number {
    return this.line;
  }

  push(chunk: Buffer): RawRecord[] {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const out: RawRecord[] = [];
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(NL, start);
      if (nl < 0) break;
      this.emit(buf, start, nl, out);
      start = nl + 1;
    }
    this.rest = start < buf.length ? buf.subarray(start) : undefined;
    this.base += start;
    return out;
  }

  end(): { records: RawRecord[] } {
    const out: RawRecord[] = [];
    if (this.rest) this.emit(this.rest, 0, this.rest.length, out);
    this.rest = undefined;
    return { records: out };
  }

  private emit(buf: Buffer, start: number, end: number, out: RawRecord[]): void {
    const line = this.line++;
    if (end > start && buf[end - 1] === CR) end--;
    // Blank lines are layout, not records.
    let i = start;
    while (i < end && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
    if (i === end) return;
    out.push({ line, text: buf.toString('utf8', start, end), offset: this.base + start, length: end - start });
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
  private buf: Buffer = Buffer.alloc(0);
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
  /** Where the open string started (its escapes may straddle chunks). */
  private strStart = -1;

  /** Stream offset of buf[0]. */
  private base = 0;

  constructor(private readonly mode: 'array' | 'pull') {}

  skip(n: number): void {
    this.base += n;
  }

  currentLine(): number {
    return this.line;
  }

  push(chunk: Buffer): RawRecord[] {
    // Keep only what an unfinished element (or key) still needs.
    let keep = this.pos;
    for (const s of [this.elemStart, this.keyStart, this.strStart]) if (s >= 0 && s < keep) keep = s;
    this.buf = keep < this.buf.length ? Buffer.concat([this.buf.subarray(keep), chunk]) : chunk;
    this.pos -= keep;
    this.base += keep;
    if (this.elemStart >= 0) this.elemStart -= keep;
    if (this.keyStart >= 0) this.keyStart -= keep;
    if (this.strStart >= 0) this.strStart -= keep;
    const out: RawRecord[] = [];
    this.scan(out);
    return out;
  }

  end(): { records: RawRecord[]; problem?: { line: number; reason: string } } {
    const records: RawRecord[] = [];
    if (this.elemStart >= 0) {
      // An element cut off by the end of the file: hand it on so it is reported, not lost.
      records.push({ line: this.elemLine, text: this.buf.toString('utf8', this.elemStart), offset: this.base + this.elemStart, length: this.buf.length - this.elemStart });
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
        for (let j = q - 1; j > this.strStart && buf[j] === BACKSLASH; j--) bs++;
        i = q + 1;
        if (bs % 2 === 0) {
          this.inString = false;
          this.strStart = -1;
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
        if (this.depth === this.elemDepth && this.elemStart < 0) this.startElement(i);
        else if (this.mode === 'pull' && this.depth === 1 && this.elemDepth < 0) this.keyStart = i;
      } else if (b === OPEN_OBJ || b === OPEN_ARR) {
        if (this.depth === this.elemDepth && this.elemStart < 0) this.startElement(i);
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
        if (this.depth === this.elemDepth && this.elemStart < 0) this.startElement(i);
      }
      i++;
    }
    this.pos = i;
  }

  private startElement(i: number): void {
    this.elemStart = i;
    this.elemLine = this.line;
  }

  private finishElement(end: number, out: RawRecord[]): void {
    if (this.elemStart < 0) return;
    out.push({ line: this.elemLine, text: this.buf.toString('utf8', this.elemStart, end), offset: this.base + this.elemStart, length: end - this.elemStart });
    this.elemStart = -1;
  }
}
