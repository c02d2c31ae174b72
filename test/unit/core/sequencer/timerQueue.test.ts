import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TimerQueue } from '../../../../src/core/sequencer/timerQueue';

interface Key {
  readonly order: number;
}

/** Everything the queue holds, taken out: [deadline, key order] pairs in the order it gives them. */
function drain(q: TimerQueue<Key>): [number, number][] {
  const out: [number, number][] = [];
  while (q.size > 0) {
    const d = q.peekDeadline();
    out.push([d, q.pop().order]);
  }
  return out;
}

function sorted(entries: [number, number][]): [number, number][] {
  return [...entries].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe('TimerQueue', () => {
  it('is empty with an infinite deadline at first and after draining', () => {
    const q = new TimerQueue<Key>();
    assert.equal(q.size, 0);
    assert.equal(q.peekDeadline(), Infinity);
    q.push(5, { order: 0 });
    assert.equal(q.peekDeadline(), 5);
    q.pop();
    assert.equal(q.size, 0);
    assert.equal(q.peekDeadline(), Infinity);
  });

  it('gives deadlines that come in sorted and out of order alike earliest first, ties by key order', () => {
    const keys = Array.from({ length: 4 }, (_, order) => ({ order }));
    const q = new TimerQueue<Key>();
    // In order (the run), then older deadlines (the heap), then a tie on 20 across both.
    q.push(10, keys[2]);
    q.push(20, keys[3]);
    q.push(30, keys[0]);
    q.push(5, keys[1]);
    q.push(20, keys[1]);
    q.push(20, keys[0]);
    assert.deepEqual(drain(q), [
      [5, 1],
      [10, 2],
      [20, 0],
      [20, 1],
      [20, 3],
      [30, 0],
    ]);
  });

  it('pops exactly what a sorted list would, for any mix of pushes, pops and clones', () => {
    // An op is a push (deadline mostly rising, as the sequencer's are, sometimes older), a pop,
    // or a clone that replaces the queue (checkpoints copy it mid-run).
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: -50, max: 200 }), key: fc.integer({ min: 0, max: 7 }) }),
      fc.constant({ pop: true as const }),
      fc.constant({ clone: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const keys = Array.from({ length: 8 }, (_, order) => ({ order }));
        let q = new TimerQueue<Key>();
        let model: [number, number][] = [];
        let now = 0;
        for (const o of ops) {
          if ('push' in o) {
            now += 1;
            // Three in four rise with the clock (the run); the rest land anywhere (the heap).
            const deadline = o.push % 4 === 0 ? o.push : now + 10;
            q.push(deadline, keys[o.key]);
            model.push([deadline, o.key]);
          } else if ('pop' in o) {
            if (model.length === 0) continue;
            model = sorted(model);
            const want = model.shift() as [number, number];
            assert.equal(q.peekDeadline(), want[0]);
            // Equal (deadline, key) pairs are the same timer twice: either copy may come first.
            assert.equal(q.pop().order, want[1]);
          } else {
            q = q.clone((k) => keys[k.order]);
          }
          assert.equal(q.size, model.length);
        }
        assert.deepEqual(drain(q), sorted(model));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps its order across the run compacting its front (thousands of timers in flight)', () => {
    const keys = Array.from({ length: 10 }, (_, order) => ({ order }));
    const q = new TimerQueue<Key>();
    const model: [number, number][] = [];
    let popped: [number, number][] = [];
    for (let i = 0; i < 5000; i++) {
      q.push(i, keys[i % 10]);
      model.push([i, i % 10]);
      if (i % 3 === 0) popped.push([q.peekDeadline(), q.pop().order]);
    }
    popped = popped.concat(drain(q));
    assert.deepEqual(popped, model);
  });
});
