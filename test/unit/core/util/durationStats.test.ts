import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DurationStats, HISTOGRAM_KEY_LIMIT, KeyedDurations, RAW_LIMIT, rankOf } from '../../../../src/core/util/durationStats';
import { assertWithinPrecision, sortedPercentiles } from '../../../support/percentiles';

function statsOf(values: readonly number[]): DurationStats {
  const d = new DurationStats();
  for (const v of values) d.record(v);
  return d;
}

describe('DurationStats', () => {
  it('has no percentiles before a value', () => {
    assert.equal(new DurationStats().percentiles(), undefined);
  });

  it('reads a few values exactly (no histogram yet)', () => {
    const values = [5, 0, 0, 12.5, 3, 0.25, 9];
    assert.deepEqual(statsOf(values).percentiles(), sortedPercentiles(values));
  });

  it('counts zeros without keeping them: a million in-order releases', () => {
    const d = new DurationStats();
    for (let i = 0; i < 1_000_000; i++) d.record(0);
    d.record(10_000);
    assert.deepEqual(d.percentiles(), { count: 1_000_001, p50: 0, p90: 0, p99: 0, max: 10_000 });
    assert.equal(d.histogramBytes(), 0, 'no histogram for one non-zero value');
  });

  it('takes the nearest rank as HdrHistogram does', () => {
    assert.equal(rankOf(90, 1000), 900, 'not 901: 0.9 × 1000 is one ulp above 900');
    assert.equal(rankOf(50, 1), 1);
    assert.equal(rankOf(99, 3), 3);
    assert.equal(rankOf(50, 3006), 1503);
  });

  it('stays within 3 significant digits of a sort on random data, negatives and zeros included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            { weight: 3, arbitrary: fc.double({ min: 0, max: 20, noNaN: true }) },
            { weight: 2, arbitrary: fc.double({ min: 0, max: 600_000, noNaN: true }) },
            { weight: 1, arbitrary: fc.constant(0) },
            { weight: 1, arbitrary: fc.double({ min: -50, max: 0, noNaN: true }) },
          ),
          // Any length up to twice RAW_LIMIT: raw values, and histograms.
          { minLength: 1, maxLength: 2 * RAW_LIMIT, size: 'max' },
        ),
        (values) => {
          // Values at 1 µs, as the histogram keeps them; the reference sorts the same.
          const us = values.map((v) => Math.round(v * 1000) / 1000 + 0);
          assertWithinPrecision(statsOf(us).percentiles(), sortedPercentiles(us), `${us.length} values`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays within 3 significant digits of a sort over 200 000 log-normal latencies', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      // Box–Muller: a log-normal around 5 ms with a long tail; one value in 50 a second late.
      const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const v = Math.exp(Math.log(5) + 0.8 * z) + (random() < 0.02 ? 1000 : 0);
      values.push(Math.round(v * 1000) / 1000);
    }
    const d = statsOf(values);
    assertWithinPrecision(d.percentiles(), sortedPercentiles(values), 'log-normal');
    assert.ok(d.histogramBytes() > 0 && d.histogramBytes() < 64 * 1024, `a compact histogram: ${d.histogramBytes()} bytes`);
  });

  it('keeps recording after its percentiles were read', () => {
    const values = Array.from({ length: 500 }, (_, i) => (i * 37) % 101);
    const d = statsOf(values.slice(0, 300));
    d.percentiles();
    for (const v of values.slice(300)) d.record(v);
    assertWithinPrecision(d.percentiles(), sortedPercentiles(values), 'read, then more');
  });
});

describe('KeyedDurations', () => {
  it("merges keys past the raw values, in histograms, into the run's set: 20 keys × 5 000 log-spread values", () => {
    const keyed = new KeyedDurations();
    const all: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      // Spread over six decades (1 µs to 1 000 s), with negatives and zeros.
      const v = i % 97 === 0 ? 0 : Math.round(Math.exp(((i * 7919) % 13_816) / 1000) * (i % 31 === 0 ? -1 : 1)) / 1000 + 0;
      keyed.record(i % 20, v);
      all.push(v);
    }
    assertWithinPrecision(keyed.total(), sortedPercentiles(all), 'all keys');
    for (let k = 0; k < 20; k++) assertWithinPrecision(keyed.percentiles(k), sortedPercentiles(all.filter((_, i) => i % 20 === k)), `key ${k}`);
  });

  it('has no percentiles for a key or a run without values', () => {
    const keyed = new KeyedDurations();
    assert.equal(keyed.total(), undefined);
    assert.equal(keyed.percentiles(0), undefined);
  });

  it('gives each key what a DurationStats of its values gives: flat arrays, a key with one value, keys with many', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat(40),
            fc.oneof(
              fc.constant(0),
              fc.integer({ min: -5_000, max: 5_000_000 }).map((us) => us / 1000),
            ),
          ),
          { maxLength: 1500 },
        ),
        (pairs) => {
          const keyed = new KeyedDurations();
          const byKey = new Map<number, number[]>();
          for (const [k, v] of pairs) {
            keyed.record(k, v);
            byKey.set(k, [...(byKey.get(k) ?? []), v + 0]);
          }
          for (let k = 0; k <= 40; k++) assertWithinPrecision(keyed.percentiles(k), sortedPercentiles(byKey.get(k) ?? []), `key ${k}`);
          // The run's set, merged from the keys' when asked: as a sort of all the values.
          assertWithinPrecision(keyed.total(), sortedPercentiles([...byKey.values()].flat()), 'all keys');
        },
      ),
      { numRuns: 100 },
    );
  });

  it("gives histograms of their own to the first keys only; later busy keys count in the run's set, which stays exact", () => {
    const keyed = new KeyedDurations(2);
    const byKey: number[][] = [[], [], [], []];
    // Four keys past the raw values, the last two after the first two took the histograms; a
    // fifth key with a few values keeps them raw.
    for (let i = 0; i < 4 * (RAW_LIMIT + 500); i++) {
      const k = i < 2 * (RAW_LIMIT + 500) ? i % 2 : 2 + (i % 2);
      const v = ((i * 7919) % 10_007) / 100 + 0.001;
      keyed.record(k, v);
      byKey[k].push(v);
    }
    for (const v of [1, 2, 3]) keyed.record(4, v);
    assertWithinPrecision(keyed.percentiles(0), sortedPercentiles(byKey[0]), 'key 0');
    assertWithinPrecision(keyed.percentiles(1), sortedPercentiles(byKey[1]), 'key 1');
    assert.equal(keyed.percentiles(2), undefined, 'key 2 is past the limit');
    assert.equal(keyed.percentiles(3), undefined, 'key 3 is past the limit');
    assert.deepEqual(keyed.percentiles(4), { count: 3, p50: 2, p90: 3, p99: 3, max: 3 });
    assertWithinPrecision(keyed.total(), sortedPercentiles([...byKey.flat(), 1, 2, 3]), 'all keys');
  });

  it("bounds the histograms' memory whatever the number of busy keys", () => {
    const one = new KeyedDurations();
    for (let i = 0; i <= RAW_LIMIT; i++) one.record(0, 1 + (i % 10_000));
    const perKey = one.bytes();
    const keyed = new KeyedDurations();
    const keys = HISTOGRAM_KEY_LIMIT * 4;
    for (let i = 0; i <= RAW_LIMIT; i++) for (let k = 0; k < keys; k++) keyed.record(k, 1 + (i % 10_000));
    assert.ok(keyed.bytes() <= (HISTOGRAM_KEY_LIMIT + 1) * perKey + keys * 64, `${keyed.bytes()} bytes for ${keys} busy keys, ${perKey} for one`);
    assert.equal(keyed.percentiles(HISTOGRAM_KEY_LIMIT - 1)?.count, RAW_LIMIT + 1, 'the first keys have percentiles of their own');
    assert.equal(keyed.percentiles(HISTOGRAM_KEY_LIMIT), undefined, 'the later ones do not');
    assert.equal(keyed.total()?.count, keys * (RAW_LIMIT + 1));
  });

  it('costs a key of one message 36 bytes a measure (no object, no histogram)', () => {
    const keyed = new KeyedDurations();
    for (let k = 0; k < 100_000; k++) keyed.record(k, k % 7);
    assert.ok(keyed.bytes() <= 100_000 * 36 * 2, `${keyed.bytes()} bytes`);
    assert.deepEqual(keyed.percentiles(3), { count: 1, p50: 3, p90: 3, p99: 3, max: 3 });
  });
});
