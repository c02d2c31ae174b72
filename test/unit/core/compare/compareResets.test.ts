import assert from 'node:assert/strict';
import { CompareMatcher } from '../../../../src/core/compare/compareMatcher';
import type { CompareRow } from '../../../../src/core/compare/compareRow';
import type { RunRule } from '../../../../src/core/compare/sideRuns';
import { SerialSpace, SeqBits } from '../../../../src/core/sequencer/serial';

const RULE: RunRule = { far: 65_536, capacity: 10_000 };

/** A publisher's numbers for one key: each run of [first, count], one after the other (a reset between runs). */
function published(runs: readonly [number, number][]): number[] {
  return runs.flatMap(([first, count]) => Array.from({ length: count }, (_, i) => first + i));
}

/**
 * Both sides receive `numbers` (A without the positions in `missA`, B without those in `missB`),
 * B `lag` positions behind A, each copy at its position in ms; the comparison's one key.
 */
function compare(numbers: readonly number[], o: { bits?: SeqBits; rule?: RunRule; missA?: number[]; missB?: number[]; lag?: number; rows?: CompareRow[] }) {
  const space = new SerialSpace(o.bits ?? 32);
  const m = new CompareMatcher(space, o.rows && ((r) => o.rows!.push(r)), o.rule);
  const lag = o.lag ?? 0;
  const wrap = (n: number) => space.wrap(n);
  for (let i = 0; i < numbers.length + lag; i++) {
    if (i < numbers.length && !o.missA?.includes(i)) m.observe(0, 'k', wrap(numbers[i]), `a${i}`, i);
    const j = i - lag;
    if (j >= 0 && !o.missB?.includes(j)) m.observe(1, 'k', wrap(numbers[j]), `b${j}`, i + 0.5);
  }
  const r = m.finish([]);
  return { key: r.byKey[0], ranges: r.ranges[0] };
}

describe('compare across resets (a side’s numbers start again)', () => {
  // 500 000–500 999, then the publisher restarts at 1: 1–600.
  const numbers = published([
    [500_000, 1000],
    [1, 600],
  ]);

  it('matches number n after a reset with the other side’s n after it, not with n before it', () => {
    const { key, ranges } = compare(numbers, { rule: RULE, missB: [300, 1000 + 199], lag: 7 });
    assert.equal(key.both, 1600 - 2);
    assert.equal(key.onlyA, 2);
    assert.equal(key.onlyB, 0);
    assert.equal(key.a.duplicates + key.b.duplicates, 0, 'the second run’s numbers are no copies of the first’s');
    assert.equal(key.lostBoth, 0, 'nothing between the runs counts as lost');
    assert.deepEqual(ranges.bMissed, [
      { from: 500_300, to: 500_300, count: 1 },
      { from: 200, to: 200, count: 1 },
    ]);
    assert.deepEqual(ranges.aMissed, []);
  });

  it('without resets (--no-resets) the two runs are one line of numbers, half a million of them lost in both', () => {
    const { key } = compare(numbers, { missB: [300], lag: 7 });
    assert.equal(key.both, 1600 - 1);
    assert.equal(key.lostBoth, 500_999 - (1600 - 1) - 1);
  });

  it('a reset to the --reset-to number starts a run at once; one both sides lost a number in is one range in its run', () => {
    const rows: CompareRow[] = [];
    const { key, ranges } = compare(numbers, { rule: { ...RULE, resetTo: 1 }, missA: [1000 + 50], missB: [1000 + 50, 1000 + 51], rows });
    assert.equal(key.both, 1600 - 2);
    assert.equal(key.onlyA, 1);
    assert.equal(key.lostBoth, 1);
    assert.deepEqual(ranges.lostBoth, [{ from: 51, to: 51, count: 1 }]);
    assert.deepEqual(ranges.bMissed, [{ from: 52, to: 52, count: 1 }]);
    const lost = rows.filter((r) => !r.inA && !r.inB);
    assert.deepEqual(
      lost.map((r) => [r.seq, r.count]),
      [[51, 1]],
    );
  });

  it('16-bit numbers: a wrap from 65 535 to 0 is no reset, a restart at 1 from 20 000 is one', () => {
    // 60 000 … 65 535, 0 … 19 999 (one wrap), then 1 … 500.
    const wrapping = published([
      [60_000, 25_536],
      [1, 500],
    ]);
    const { key, ranges } = compare(wrapping, { bits: 16, rule: { far: 16_384, capacity: 10_000 }, missA: [10], lag: 3 });
    assert.equal(key.both, 26_036 - 1);
    assert.equal(key.onlyB, 1);
    assert.equal(key.lostBoth, 0);
    assert.equal(key.a.duplicates + key.b.duplicates, 0);
    assert.deepEqual(ranges.aMissed, [{ from: 60_010, to: 60_010, count: 1 }]);
  });

  it('a far jump down that the next number does not continue is no reset: the old run goes on', () => {
    // A stray copy of 5 (a very old message redelivered) between 500 500 and 500 501 on side A only.
    const m = new CompareMatcher(new SerialSpace(32), undefined, RULE);
    for (let i = 0; i < 1000; i++) {
      m.observe(0, 'k', 500_000 + i, `a${i}`, i);
      if (i === 500) m.observe(0, 'k', 5, 'stray', i);
      m.observe(1, 'k', 500_000 + i, `b${i}`, i + 0.5);
    }
    const k = m.finish([]).byKey[0];
    assert.equal(k.both, 1000, 'every number after the stray one still matches');
    assert.equal(k.onlyA, 1);
  });

  it('a candidate still waiting at the end of input starts a run', () => {
    const { key } = compare(
      published([
        [500_000, 100],
        [1, 1],
      ]),
      { rule: RULE },
    );
    assert.equal(key.both, 101);
    assert.equal(key.a.duplicates + key.b.duplicates, 0);
  });
});
