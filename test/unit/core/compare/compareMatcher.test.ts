import assert from 'node:assert/strict';
import { CompareMatcher } from '../../../../src/core/compare/compareMatcher';
import { SerialSpace } from '../../../../src/core/sequencer/serial';

describe('CompareMatcher (memory follows what is unmatched)', () => {
  it('holds only the lagging window and the holes however long the stream, through many 16-bit wraps', () => {
    const m = new CompareMatcher(new SerialSpace(16));
    const N = 300_000;
    const LAG = 50;
    let peakPending = 0;
    let peakRanges = 0;
    for (let i = 0; i < N + LAG; i++) {
      // A has every number but those ≡ 7 (mod 10 007); B every number, LAG numbers behind.
      if (i < N && i % 10_007 !== 7) m.observe(0, 'k', i % 65_536, `a${i}`, i);
      const j = i - LAG;
      if (j >= 0) m.observe(1, 'k', j % 65_536, `b${j}`, i + 0.5);
      peakPending = Math.max(peakPending, m.pending);
      peakRanges = Math.max(peakRanges, m.matchedRanges);
    }
    const holes = Math.ceil(N / 10_007);
    assert.ok(peakPending <= LAG + 1 + holes, `pending ${peakPending}`);
    assert.ok(peakRanges <= holes + 1, `ranges ${peakRanges}`);
    const r = m.finish([]);
    assert.equal(r.byKey[0].both, N - holes);
    assert.equal(r.byKey[0].onlyB, holes);
    assert.equal(r.byKey[0].a.incidents, holes);
    assert.equal(r.byKey[0].lostBoth, 0);
  });
});
