import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RangeSet } from '../../../../src/core/compare/rangeSet';
import { readClocks } from '../../../../src/core/compare/clockOffset';

describe('RangeSet (matched numbers as ranges)', () => {
  it('holds what a Set holds, as few ranges as the holes allow', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 200 }), (xs) => {
        const r = new RangeSet();
        const s = new Set<number>();
        for (const x of xs) {
          r.add(x);
          s.add(x);
        }
        for (let x = -52; x <= 52; x++) assert.equal(r.has(x), s.has(x), String(x));
        const sorted = [...s].sort((a, b) => a - b);
        const runs = sorted.filter((x, i) => i === 0 || x !== sorted[i - 1] + 1).length;
        assert.equal(r.ranges, runs);
      }),
    );
  });
});

describe('readClocks (a clock offset or a feed lead)', () => {
  it('says offset for a tight Δt far from zero, lead for a spread or small one', () => {
    assert.equal(readClocks({ count: 1000, p10: 245, p50: 250, p90: 256 })?.offset, true);
    assert.equal(readClocks({ count: 1000, p10: -256, p50: -250, p90: -245 })?.offset, true);
    assert.equal(readClocks({ count: 1000, p10: 40, p50: 250, p90: 600 })?.offset, false, 'spread: a lead that varies with the path');
    assert.equal(readClocks({ count: 1000, p10: 2.9, p50: 3, p90: 3.1 })?.offset, false, 'a few ms: no offset worth naming');
    assert.equal(readClocks({ count: 20, p10: 250, p50: 250, p90: 250 })?.offset, false, 'too few shared messages');
    assert.equal(readClocks(undefined), undefined);
  });
});
