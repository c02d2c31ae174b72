/**
 * Growable typed-array columns: how a session keeps a million events in tens of megabytes
 * instead of a million objects (STYLE.md: serialise once, keep compact).
 */
export class IntColumn {
  data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  private grow(): void {
    const next = new Int32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }

  /** A right-sized copy (for sending or embedding). */
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class FloatColumn {
  data: Float64Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  private grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }

  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

export class ByteColumn {
  data: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  private grow(): void {
    const next = new Uint8Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }

  toArray(): Uint8Array {
    return this.data.slice(0, this.length);
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
