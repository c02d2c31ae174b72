import assert from 'node:assert/strict';
import fc from 'fast-check';
import Int32Histogram from 'hdr-histogram-js/dist/Int32Histogram';
import { HDR_DIGITS, HdrCounts, hdrIndex } from '../../../../src/core/util/hdrCounts';

/** The library's histogram with the values recorded one by one: what HdrCounts must read as. */
function recorded(values: readonly number[]): Int32Histogram {
  const h = new Int32Histogram(1, 2, HDR_DIGITS);
  h.autoResize = true;
  for (const v of values) h.recordValue(v);
  return h;
}

const PERCENTILES = [0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100];

function assertSameReading(counts: HdrCounts, values: readonly number[]): void {
  const want = recorded(values);
  const got = counts.histogram();
  assert.equal(got.totalCount, want.totalCount);
  assert.equal(got.maxValue, want.maxValue, 'the exact maximum');
  for (const p of PERCENTILES) assert.equal(got.getValueAtPercentile(p), want.getValueAtPercentile(p), `p${p}`);
}

describe('HdrCounts', () => {
  it('indexes every value as the library does, at each power of two and around it', () => {
    const h = recorded([1]);
    for (let k = 0; k <= 52; k++) {
      for (const v of [2 ** k - 1, 2 ** k, 2 ** k + 1, 3 * 2 ** k]) {
        if (v < 1 || v > Number.MAX_SAFE_INTEGER) continue;
        assert.equal(hdrIndex(v), h.countsArrayIndex(v), `value ${v}`);
      }
    }
  });

  it('reads as the library recording value by value (random sets, up to hours in µs)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.integer({ min: 1, max: 5_000 }) },
            { weight: 3, arbitrary: fc.integer({ min: 1, max: 20_000_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }) },
          ),
          { minLength: 1, maxLength: 3000 },
        ),
        (values) => {
          const c = new HdrCounts();
          for (const v of values) c.record(v);
          assertSameReading(c, values);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('adds two sets as recording both would, and reads again after more values', () => {
    const a = new HdrCounts();
    const b = new HdrCounts();
    const av = Array.from({ length: 4000 }, (_, i) => 1 + ((i * 7919) % 9000));
    const bv = Array.from({ length: 2000 }, (_, i) => 1 + ((i * 104_729) % 50_000_000));
    for (const v of av) a.record(v);
    for (const v of bv) b.record(v);
    assertSameReading(a, av);
    a.add(b);
    assertSameReading(a, [...av, ...bv]);
    a.record(3);
    a.record(90_000_000_000);
    assertSameReading(a, [...av, ...bv, 3, 90_000_000_000]);
  });

  it('grows only as far as its largest value needs', () => {
    const c = new HdrCounts();
    for (let v = 1; v <= 10_000_000; v += 997) c.record(v);
    assert.ok(c.estimatedFootprintInBytes < 64 * 1024, `${c.estimatedFootprintInBytes} bytes for values up to 10 s in µs`);
  });
});
