import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CmeBaseline, SkipListUnitSet, SortedUnitSet, UnitSet } from '../../bench/cmeBaseline';

/** Applies add/poll operations to a set; returns what each answered. */
function run(set: UnitSet<number>, ops: readonly (number | 'poll')[]): (boolean | number)[] {
  return ops.map((op, i) => {
    if (op === 'poll') return set.size > 0 ? set.pollFirst().seq : -1;
    return set.add({ seq: op, arrivedAt: i, item: i });
  });
}

describe('bench: the CME sample loop baseline (test/bench/cmeBaseline.ts)', () => {
  it('its skip list behaves as a sorted set that rejects a held number (same answers as a sorted array)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constant('poll' as const)), { maxLength: 400 }), (ops) => {
        const skip = new SkipListUnitSet<number>();
        const sorted = new SortedUnitSet<number>();
        assert.deepEqual(run(skip, ops), run(sorted, ops));
        assert.equal(skip.size, sorted.size);
        const drained: number[] = [];
        while (skip.size > 0) drained.push(skip.pollFirst().seq);
        assert.deepEqual(
          drained,
          [...drained].sort((a, b) => a - b),
          'polled lowest first',
        );
      }),
    );
  });

  it('runs the loop: buffers the start, drops duplicates, skips a gap after the wait, and finishes', () => {
    for (const tuned of [false, true]) {
      const out: number[] = [];
      const b = new CmeBaseline<number>(10_000, (_item, seq) => out.push(seq), tuned);
      // Start window: 3, 1, 2 arrive out of order within 10 s; 2 again is a duplicate.
      b.offer('k', 3, 0, 0);
      b.offer('k', 1, 0, 1);
      b.offer('k', 2, 0, 2);
      b.offer('k', 2, 0, 3);
      assert.deepEqual(out, [], 'nothing before the 10 s buffer');
      b.offer('k', 4, 0, 10_001);
      assert.deepEqual(out, [1, 2, 3, 4]);
      // 5 is missing: 6 waits, then is released once 10 s have passed since it arrived.
      b.offer('k', 6, 0, 10_002);
      b.offer('k', 7, 0, 15_000);
      assert.deepEqual(out, [1, 2, 3, 4]);
      b.offer('k', 8, 0, 20_003);
      assert.deepEqual(out, [1, 2, 3, 4, 6, 7, 8]);
      b.offer('k', 3, 0, 20_004);
      b.finish();
      assert.deepEqual(b.counts, { delivered: 7, duplicates: 2, gaps: 1, lost: 1 }, tuned ? 'tuned' : 'skip list');
    }
  });
});
