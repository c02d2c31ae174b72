/**
 * Counts of whole positive values in HdrHistogram's buckets (lowest discernible value 1, three
 * significant digits), recorded at a fraction of Int32Histogram.recordValue's cost: the bucket
 * index from the value's bits, one typed-array increment. Read through hdr-histogram-js itself:
 * `histogram()` hands the counts to an Int32Histogram of the same layout, so every percentile is
 * the library's, exactly as if each value had been recorded there.
 */
import Int32Histogram from 'hdr-histogram-js/dist/Int32Histogram';
import type JsHistogram from 'hdr-histogram-js/dist/JsHistogram';

/** Three significant digits: sub-buckets of 2048, half of them 1024 (log2 10). */
export const HDR_DIGITS = 3;
const HALF_MAGNITUDE = 10;
const HALF_COUNT = 1 << HALF_MAGNITUDE;

/** The counts index of a value ≥ 1, as Int32Histogram(1, …, 3).countsArrayIndex computes it. */
export function hdrIndex(v: number): number {
  if (v < 2 * HALF_COUNT) return v;
  if (v <= 0x7fffffff) {
    const bucket = 31 - Math.clz32(v) - HALF_MAGNITUDE;
    return bucket * HALF_COUNT + (v >>> bucket);
  }
  // Past 31 bits (over 35 minutes in µs): the library's own arithmetic.
  const bucket = Math.max(Math.floor(Math.log2(v)) - HALF_MAGNITUDE, 0);
  return bucket * HALF_COUNT + Math.floor(v / 2 ** bucket);
}

export class HdrCounts {
  private counts = new Int32Array(2 * HALF_COUNT);
  /** One past the highest index counted. */
  private top = 0;
  totalCount = 0;
  /** The largest value recorded (exact). */
  maxValue = 0;
  /** The library's histogram of these counts, while nothing was recorded since. */
  private built: JsHistogram | undefined;

  /** Records one whole value ≥ 1. */
  record(v: number): void {
    const i = hdrIndex(v);
    if (i >= this.counts.length) this.grow(i + 1);
    this.counts[i]++;
    if (i >= this.top) this.top = i + 1;
    if (v > this.maxValue) this.maxValue = v;
    this.totalCount++;
    this.built = undefined;
  }

  /** Adds another's counts (the sum is what recording both sets' values here would give). */
  add(other: HdrCounts): void {
    if (other.top > this.counts.length) this.grow(other.top);
    const mine = this.counts;
    const theirs = other.counts;
    for (let i = 0; i < other.top; i++) mine[i] += theirs[i];
    if (other.top > this.top) this.top = other.top;
    if (other.maxValue > this.maxValue) this.maxValue = other.maxValue;
    this.totalCount += other.totalCount;
    this.built = undefined;
  }

  /** Bytes the counts take. */
  get estimatedFootprintInBytes(): number {
    return this.counts.byteLength + 64;
  }

  /** The counts as an hdr-histogram-js histogram (made when first asked after a change). */
  histogram(): JsHistogram {
    if (this.built !== undefined) return this.built;
    const h = new Int32Histogram(1, 2, HDR_DIGITS);
    h.autoResize = true;
    const counts = this.counts;
    for (let i = 0; i < this.top; i++) if (counts[i] > 0) h.recordValueWithCount(h.valueFromIndex(i), counts[i]);
    // The exact maximum, as recording the values one by one keeps it (a count of 0 adds nothing).
    if (this.maxValue > 0) h.recordValueWithCount(this.maxValue, 0);
    this.built = h;
    return h;
  }

  private grow(size: number): void {
    // To the end of the bucket the value needs, as the library's own resizing does.
    const grown = new Int32Array(Math.ceil(size / HALF_COUNT) * HALF_COUNT);
    grown.set(this.counts);
    this.counts = grown;
  }
}
