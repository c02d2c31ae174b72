/**
 * Binary search over a range sorted ascending, read through `get` so one helper serves plain
 * arrays, typed arrays and columns read through an index list (a lane's events by release time).
 */

/** First index in [lo, hi) whose value is ≥ x (hi when none is). */
export function lowerBound(get: (i: number) => number, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (get(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose value is > x (hi when none is). */
export function upperBound(get: (i: number) => number, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (get(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
