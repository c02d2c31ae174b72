/**
 * Percentiles of durations (ms) on HdrHistogram: values counted in its buckets (hdrCounts.ts) and
 * read by hdr-histogram-js. Values are kept at 1 µs resolution and 3 significant digits: a
 * percentile is within 0.1 % (and 1 µs) of the recorded value at the same rank; the count and the
 * max are exact.
 *
 * Built for many sets (one a key and a measure) over millions of values:
 * - a histogram's fixed cost is over 1 KB, so it is made only once a set has more than
 *   `RAW_LIMIT` non-zero values; until then they are kept as they are, and the percentiles are
 *   read from them exactly;
 * - zeros (a message released as it arrived) are only counted;
 * - `KeyedDurations` keeps a key's count, zeros, maximum and first non-zero value in flat arrays,
 *   so a key with one message costs a few dozen bytes, not objects;
 * - the whole run's set is not recorded value by value: `KeyedDurations.total` merges the keys'
 *   sets once, when the summary is made (histograms add bucket by bucket, so the result is what
 *   recording every value twice would give).
 * Negative durations (clocks that disagree) are kept in a histogram of their own, by magnitude.
 */
import { HDR_DIGITS, HdrCounts } from './hdrCounts';

export interface Percentiles {
  /** Values recorded. */
  count: number;
  /** ms: the values at or below which 50, 90 and 99 % of them lie (nearest rank), and the largest. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Significant decimal digits the histograms keep (HdrHistogram's precision). */
export const SIGNIFICANT_DIGITS = HDR_DIGITS;
/**
 * Non-zero values kept as they are (exact; 8 bytes each, ≤ 8 KB) before a histogram is made
 * (16–200 KB, growing with the largest value).
 */
export const RAW_LIMIT = 1024;
/**
 * Keys of a KeyedDurations whose values may go into histograms of their own. A histogram lives
 * outside the JavaScript heap (typed arrays), where the heap guard does not see it: without a
 * bound, a capture of 10 000 keys with over RAW_LIMIT values each would take gigabytes. The
 * keys past it give their values to the run's set only (no percentiles of their own): at most
 * ~15 MB a measure.
 */
export const HISTOGRAM_KEY_LIMIT = 256;

const US_PER_MS = 1000;

/** Whole µs; -0 reads as 0. */
function toUs(ms: number): number {
  return Math.round(ms * US_PER_MS) + 0;
}

/** The nearest rank (1-based) of percentile p among n values, as HdrHistogram counts it. */
export function rankOf(p: number, n: number): number {
  // p/100·n can land one ulp above an integer (0.9 · 1000): take that integer, not the next.
  const exact = (p / 100) * n;
  const r = Math.ceil(exact - exact * Number.EPSILON);
  return Math.min(Math.max(r, 1), n);
}

/**
 * One set's non-zero values (µs): as they are up to RAW_LIMIT, then (or from the start, for a
 * set that will be large) in histograms.
 */
class NonZeroValues {
  private readonly raw: number[] = [];
  /** Positive values, and magnitudes of negative ones; made when first needed. */
  private pos: HdrCounts | undefined;
  private neg: HdrCounts | undefined;
  /** Whether the values are in the histograms (no longer raw). */
  private inHistograms: boolean;

  constructor(large = false) {
    this.inHistograms = large;
  }

  add(us: number): void {
    if (!this.inHistograms) {
      this.raw.push(us);
      if (this.raw.length >= RAW_LIMIT) this.flush();
      return;
    }
    if (us > 0) (this.pos ??= new HdrCounts()).record(us);
    else (this.neg ??= new HdrCounts()).record(-us);
  }

  histogramBytes(): number {
    return (this.pos?.estimatedFootprintInBytes ?? 0) + (this.neg?.estimatedFootprintInBytes ?? 0);
  }

  /**
   * The value (µs) at each rank among all the set's values, `zeros` zeros included: negatives
   * rank first, then zeros, then positives.
   */
  ranker(zeros: number): (rank: number) => number {
    if (!this.inHistograms) {
      // Sorted in place: the order they came in does not matter.
      const sorted = this.raw.sort((a, b) => a - b);
      const below = sorted.findIndex((v) => v > 0);
      const negatives = below === -1 ? sorted.length : below;
      return (rank) => (rank <= negatives ? sorted[rank - 1] : rank <= negatives + zeros ? 0 : sorted[rank - 1 - zeros]);
    }
    const negatives = this.neg?.totalCount ?? 0;
    return (rank) => {
      // The rank-th smallest negative is the (negatives − rank + 1)-th largest magnitude.
      if (rank <= negatives) return -valueAtRank(this.neg!, negatives - rank + 1);
      if (rank <= negatives + zeros) return 0;
      return valueAtRank(this.pos!, rank - negatives - zeros);
    };
  }

  /** Adds this set's values to `into` (a large set: the run's total). */
  addTo(into: NonZeroValues): void {
    if (!this.inHistograms) {
      for (const v of this.raw) into.add(v);
      return;
    }
    if (this.pos) (into.pos ??= new HdrCounts()).add(this.pos);
    if (this.neg) (into.neg ??= new HdrCounts()).add(this.neg);
  }

  /** Whether the next non-zero value moves the values into histograms. */
  get fillsUp(): boolean {
    return !this.inHistograms && this.raw.length === RAW_LIMIT - 1;
  }

  /** Moves the raw values into the histograms (once: later values go there at once). */
  private flush(): void {
    this.inHistograms = true;
    for (const v of this.raw) this.add(v);
    this.raw.length = 0;
  }
}

/** The value at a 1-based rank of a histogram (HdrHistogram's nearest-rank percentile). */
function valueAtRank(counts: HdrCounts, rank: number): number {
  const h = counts.histogram();
  const n = h.totalCount;
  // The percentile that is exactly this rank: getValueAtPercentile rounds p/100·n up.
  return rank >= n ? h.maxValue : h.getValueAtPercentile((rank / n) * 100);
}

/**
 * Recently made percentiles of sets of one value, by that value: many keys of one message each
 * (a topic keyed per order) would otherwise each carry equal objects. They are never changed.
 */
const single = new Map<number, Percentiles>();

function percentilesOf(n: number, maxMs: number, at: (rank: number) => number): Percentiles {
  // The max at the 1 µs the values are kept to (times read from text carry float noise).
  const max = toUs(maxMs) / US_PER_MS;
  if (n === 1) {
    let p = single.get(max);
    if (p === undefined) {
      if (single.size >= 4096) single.clear();
      single.set(max, (p = Object.freeze({ count: 1, p50: max, p90: max, p99: max, max })));
    }
    return p;
  }
  return { count: n, p50: at(rankOf(50, n)) / US_PER_MS, p90: at(rankOf(90, n)) / US_PER_MS, p99: at(rankOf(99, n)) / US_PER_MS, max };
}

/** What a key past the histogram key limit keeps of its own: nothing (never added to). */
const NO_VALUES = new NonZeroValues();

/** One set of durations. */
export class DurationStats {
  /** Values recorded, zeros and negatives included. */
  count = 0;
  private zeros = 0;
  /** The largest value (ms), exact. */
  private maxMs = -Infinity;
  private readonly values: NonZeroValues;

  /** `large`: a set that will hold many values (a whole run's): histograms from the start. */
  constructor(large = false) {
    this.values = new NonZeroValues(large);
  }

  record(ms: number): void {
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
    const us = toUs(ms);
    if (us === 0) this.zeros++;
    else this.values.add(us);
  }

  /** The percentiles, or undefined when nothing was recorded. */
  percentiles(): Percentiles | undefined {
    return this.count === 0 ? undefined : percentilesOf(this.count, this.maxMs, this.values.ranker(this.zeros));
  }

  /** Heap bytes the histograms estimate for themselves (the raw values not included). */
  histogramBytes(): number {
    return this.values.histogramBytes();
  }
}

/** Growable per-key numbers. */
function grown(a: Float64Array<ArrayBuffer>, size: number, fill: number): Float64Array<ArrayBuffer> {
  if (size <= a.length) return a;
  const b = new Float64Array(Math.max(size, a.length * 2)).fill(fill);
  b.set(a);
  return b;
}

function grownInt32(a: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= a.length) return a;
  const b = new Int32Array(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

/**
 * A set of durations per key (keys 0, 1, 2… as the sequencer numbers them): the same as a
 * DurationStats each, in flat arrays until a key has a second non-zero value (36 bytes a key),
 * and the run's set over all keys, merged from them when asked.
 */
export class KeyedDurations {
  private counts = new Float64Array(16);
  private zeros = new Float64Array(16);
  private maxes = new Float64Array(16).fill(-Infinity);
  /** The first non-zero value (µs) while it is the only one; NaN when none or when in `more`. */
  private firsts = new Float64Array(16).fill(NaN);
  /** For a key with more than one non-zero value: 1 + its index in `more`; 0 otherwise. */
  private moreAt = new Int32Array(16);
  private readonly more: NonZeroValues[] = [];
  /** Keys whose values are in histograms of their own. */
  private histogramKeys = 0;
  /** The values of keys past the histogram key limit (moreAt −1): the run's set only. */
  private rest: NonZeroValues | undefined;

  constructor(
    /** Keys that may have histograms of their own (see HISTOGRAM_KEY_LIMIT). */
    private readonly histogramKeyLimit = HISTOGRAM_KEY_LIMIT,
  ) {}

  record(key: number, ms: number): void {
    if (key >= this.counts.length) this.grow(key + 1);
    this.counts[key]++;
    if (ms > this.maxes[key]) this.maxes[key] = ms;
    const us = toUs(ms);
    if (us === 0) {
      this.zeros[key]++;
      return;
    }
    const at = this.moreAt[key];
    if (at > 0) {
      const values = this.more[at - 1];
      if (values.fillsUp) {
        if (this.histogramKeys >= this.histogramKeyLimit) {
          const rest = (this.rest ??= new NonZeroValues(true));
          values.addTo(rest);
          rest.add(us);
          this.more[at - 1] = NO_VALUES;
          this.moreAt[key] = -1;
          return;
        }
        this.histogramKeys++;
      }
      values.add(us);
      return;
    }
    if (at < 0) {
      this.rest!.add(us);
      return;
    }
    const first = this.firsts[key];
    if (first !== first) {
      this.firsts[key] = us;
      return;
    }
    const values = new NonZeroValues();
    values.add(first);
    values.add(us);
    this.more.push(values);
    this.moreAt[key] = this.more.length;
    this.firsts[key] = NaN;
  }

  /**
   * A key's percentiles, or undefined when nothing was recorded for it or when it is past the
   * histogram key limit.
   */
  percentiles(key: number): Percentiles | undefined {
    const n = key < this.counts.length ? this.counts[key] : 0;
    if (n === 0) return undefined;
    const zeros = this.zeros[key];
    const at = this.moreAt[key];
    if (at < 0) return undefined;
    let rank: (rank: number) => number;
    if (at !== 0) rank = this.more[at - 1].ranker(zeros);
    else {
      const first = this.firsts[key];
      // Zeros and at most one other value.
      rank = first !== first ? () => 0 : first < 0 ? (r) => (r === 1 ? first : 0) : (r) => (r <= zeros ? 0 : first);
    }
    return percentilesOf(n, this.maxes[key], rank);
  }

  /** The percentiles over all keys' values, or undefined when nothing was recorded. */
  total(): Percentiles | undefined {
    const all = new NonZeroValues(true);
    let n = 0;
    let zeros = 0;
    let max = -Infinity;
    const counts = this.counts;
    for (let k = 0; k < counts.length; k++) {
      if (counts[k] === 0) continue;
      n += counts[k];
      zeros += this.zeros[k];
      if (this.maxes[k] > max) max = this.maxes[k];
      const first = this.firsts[k];
      if (first === first) all.add(first);
    }
    if (n === 0) return undefined;
    for (const v of this.more) v.addTo(all);
    this.rest?.addTo(all);
    return percentilesOf(n, max, all.ranker(zeros));
  }

  /** Heap bytes: the flat arrays, and what the histograms estimate for themselves. */
  bytes(): number {
    let n = this.counts.byteLength * 4 + this.moreAt.byteLength;
    for (const v of this.more) n += v.histogramBytes();
    return n + (this.rest?.histogramBytes() ?? 0);
  }

  private grow(size: number): void {
    this.counts = grown(this.counts, size, 0);
    this.zeros = grown(this.zeros, size, 0);
    this.maxes = grown(this.maxes, size, -Infinity);
    this.firsts = grown(this.firsts, size, NaN);
    this.moreAt = grownInt32(this.moreAt, size);
  }
}
