/**
 * Growable typed-array columns: how a session keeps a million events in tens of megabytes
 * instead of a million objects (STYLE.md: serialise once, keep compact).
 */
type TypedArray = Int32Array | Float64Array | Uint8Array;

class Column<A extends TypedArray> {
  data: A;
  length = 0;

  /**
   * `make` is one function per kind of column, not a closure per column; capacity 0 starts on
   * the kind's shared empty array and allocates on the first push. A session of 100 000 keys
   * has six lists a key, most of them empty (gaps, duplicates, late): per-column closures and
   * arrays were ~0.5 KB a key.
   */
  constructor(
    private readonly make: (n: number) => A,
    capacity: number,
    empty: A,
  ) {
    this.data = capacity > 0 ? make(capacity) : empty;
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  /** A right-sized copy (for sending or embedding). */
  toArray(): A {
    return this.data.slice(0, this.length) as A;
  }

  /**
   * The column's values for moving to another thread: a view of its own buffer when that is at
   * least three quarters full (no copy: copying 100+ MB of columns at the end of a load cost
   * ~0.4 s, mostly the garbage collection the new buffers set off), else a right-sized copy.
   */
  toMovable(): A {
    // Never a view of a shared empty array: transferring would detach it for every column.
    if (this.length === 0) return this.make(0);
    return mostlyFull(this.length, this.data.length) ? (this.data.subarray(0, this.length) as A) : this.toArray();
  }

  /** Takes `data` as the whole column (no copy): the other side of `toArray` after a transfer. */
  adopt(data: A): this {
    this.data = data;
    this.length = data.length;
    return this;
  }

  /**
   * Appends `values` (a chunk of a column built elsewhere: see sessionChunk.ts). When the column
   * must grow, it grows to `expected` values if that is more than it needs (the whole column's
   * size, as far as the caller can tell), else doubles.
   */
  append(values: A, expected = 0): void {
    if (values.length === 0) return;
    const need = this.length + values.length;
    if (need > this.data.length) this.grow(expected >= need ? expected : Math.max(this.data.length * 2, need));
    this.data.set(values, this.length);
    this.length = need;
  }

  /** Drops the growth slack unless the column is mostly full (as `toMovable` decides). */
  trim(): void {
    if (this.length > 0 && !mostlyFull(this.length, this.data.length)) this.data = this.toArray();
  }

  private grow(need = 0): void {
    const next = this.make(Math.max(16, need || this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}

// Never written: a push first grows a full column (length === data.length), so the shared
// empty arrays stay empty.
const makeInt = (n: number) => new Int32Array(n);
const makeFloat = (n: number) => new Float64Array(n);
const makeByte = (n: number) => new Uint8Array(n);
const EMPTY_INT = makeInt(0);
const EMPTY_FLOAT = makeFloat(0);
const EMPTY_BYTE = makeByte(0);

export class IntColumn extends Column<Int32Array> {
  constructor(capacity = 1024) {
    super(makeInt, capacity, EMPTY_INT);
  }
}

export class FloatColumn extends Column<Float64Array> {
  constructor(capacity = 1024) {
    super(makeFloat, capacity, EMPTY_FLOAT);
  }
}

export class ByteColumn extends Column<Uint8Array> {
  constructor(capacity = 1024) {
    super(makeByte, capacity, EMPTY_BYTE);
  }
}

const encoder = new TextEncoder();
/** Longest string StringColumn.push copies itself when it is ASCII. */
const ASCII_COPY_MAX = 64;
const decoder = new TextDecoder();

/**
 * Strings packed as UTF-8 into one growable byte array with an end offset each: a million
 * messageIds take ~20 MB here instead of ~40 MB as separate JS strings, and give the garbage
 * collector nothing to trace. Browser-safe (TextEncoder / TextDecoder), like the other columns.
 */
export class StringColumn {
  private bytes: Uint8Array;
  private used = 0;
  private readonly ends: IntColumn;

  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(capacity * 16);
    this.ends = new IntColumn(capacity);
  }

  get length(): number {
    return this.ends.length;
  }

  /** Bytes the strings take. */
  get byteLength(): number {
    return this.used;
  }

  push(s: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (this.used + s.length * 3 > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.bytes.length * 2, this.used + s.length * 3));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    // ASCII (messageIds are digits) is copied unit by unit: for short strings TextEncoder's
    // call costs more than the copy. A string with anything else goes to the encoder whole.
    const bytes = this.bytes;
    const at = this.used;
    const n = s.length;
    let i = 0;
    if (n <= ASCII_COPY_MAX)
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        bytes[at + i] = c;
      }
    this.used = i === n ? at + n : at + encoder.encodeInto(s, bytes.subarray(at)).written;
    this.ends.push(this.used);
  }

  get(i: number): string {
    const start = i > 0 ? this.ends.get(i - 1) : 0;
    const end = this.ends.get(i);
    return end > start ? decoder.decode(this.bytes.subarray(start, end)) : '';
  }

  /** The packed bytes and end offsets for a transfer between threads (see Column.toMovable). */
  pack(): { bytes: Uint8Array; ends: Int32Array } {
    const bytes = mostlyFull(this.used, this.bytes.length) ? this.bytes.subarray(0, this.used) : this.bytes.slice(0, this.used);
    return { bytes, ends: this.ends.toMovable() };
  }

  /** Appends a packed chunk of strings (`pack` of another column); `expected`: see Column.append. */
  appendPacked(p: { bytes: Uint8Array; ends: Int32Array }, expected: { count: number; bytes: number } = { count: 0, bytes: 0 }): void {
    const need = this.used + p.bytes.length;
    if (need > this.bytes.length) {
      const next = new Uint8Array(expected.bytes >= need ? expected.bytes : Math.max(this.bytes.length * 2, need));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    this.bytes.set(p.bytes, this.used);
    const base = this.used;
    const ends = p.ends.slice();
    for (let i = 0; i < ends.length; i++) ends[i] += base;
    this.ends.append(ends, expected.count);
    this.used = need;
  }

  /** Drops the growth slack (see Column.trim). */
  trim(): void {
    if (!mostlyFull(this.used, this.bytes.length)) this.bytes = this.bytes.slice(0, this.used);
    this.ends.trim();
  }

  /** The other side of `pack`: takes the arrays as the whole column (no copy). */
  adopt(p: { bytes: Uint8Array; ends: Int32Array }): this {
    this.bytes = p.bytes;
    this.used = p.bytes.length;
    this.ends.adopt(p.ends);
    return this;
  }

  toArray(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.get(i);
    return out;
  }
}

/** At least three quarters used: moved as it is rather than copied to size (see toMovable). */
function mostlyFull(used: number, capacity: number): boolean {
  return used * 4 >= capacity * 3;
}

/** For src/webview/standaloneHost.ts, which imports it from here; binarySearch.ts holds it. */
export { lowerBound } from './binarySearch';
