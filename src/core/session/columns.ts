/**
 * Growable typed-array columns: how a session keeps a million events in tens of megabytes
 * instead of a million objects (STYLE.md: serialise once, keep compact).
 */
type TypedArray = Int32Array | Float64Array | Uint8Array;

class Column<A extends TypedArray> {
  data: A;
  length = 0;

  constructor(
    private readonly make: (n: number) => A,
    capacity: number,
  ) {
    this.data = make(capacity);
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

  private grow(): void {
    const next = this.make(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

export class IntColumn extends Column<Int32Array> {
  constructor(capacity = 1024) {
    super((n) => new Int32Array(n), capacity);
  }
}

export class FloatColumn extends Column<Float64Array> {
  constructor(capacity = 1024) {
    super((n) => new Float64Array(n), capacity);
  }
}

export class ByteColumn extends Column<Uint8Array> {
  constructor(capacity = 1024) {
    super((n) => new Uint8Array(n), capacity);
  }
}

/** First index in [lo, hi) whose value is ≥ x, for a column sorted ascending over that range. */
export function lowerBound(get: (i: number) => number, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (get(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
