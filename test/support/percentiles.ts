/** A sort-based reference for the hold and latency percentiles, and the precision they keep. */
import assert from 'node:assert/strict';
import { Percentiles } from '../../src/core/util/durationStats';

/** The reference: sort every value, take the nearest rank. */
export function sortedPercentiles(values: readonly number[]): Percentiles | undefined {
  if (values.length === 0) return undefined;
  const s = Float64Array.from(values).sort();
  const n = s.length;
  const at = (p: number) => s[Math.max(Math.ceil((p / 100) * n - 1e-9), 1) - 1];
  return { count: n, p50: at(50), p90: at(90), p99: at(99), max: s[n - 1] };
}

/**
 * Within the histogram's stated precision: 3 significant digits (a value's bucket is at most
 * 1/1024 of it wide) of the value at the same rank, and the 1 µs the values are kept to.
 */
export function assertWithinPrecision(got: Percentiles | undefined, want: Percentiles | undefined, what: string): void {
  assert.equal(got?.count, want?.count, `${what}: count`);
  if (!got || !want) return;
  assert.equal(got.max, want.max, `${what}: max is exact`);
  for (const p of ['p50', 'p90', 'p99'] as const) {
    const tolerance = Math.abs(want[p]) * 1e-3 + 0.001;
    assert.ok(Math.abs(got[p] - want[p]) <= tolerance, `${what}: ${p} ${got[p]} is not within 0.1 % + 1 µs of ${want[p]}`);
  }
}
