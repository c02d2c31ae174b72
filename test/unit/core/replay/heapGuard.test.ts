import assert from 'node:assert/strict';
import { HeapGuard, HeapUse } from '../../../../src/core/replay/heapGuard';

/** A heap the test sets; a collection leaves what the test said would be live. */
class FakeHeap {
  use: HeapUse = { used: 0, limit: 1000 };
  /** What the next collection leaves. */
  live = 0;
  collections = 0;
  clock = 0;
  /** How long a collection takes on the clock. */
  collectMs = 0;

  guard(o: { stopAt?: number; spacing?: number } = {}): HeapGuard {
    return new HeapGuard({
      ...o,
      read: () => this.use,
      collect: () => {
        this.collections++;
        this.clock += this.collectMs;
        this.use = { ...this.use, used: this.live };
      },
      now: () => this.clock,
    });
  }

  at(used: number, live: number): this {
    this.use = { ...this.use, used };
    this.live = live;
    return this;
  }
}

describe('HeapGuard (stops a run before Node runs out of heap)', () => {
  it('collects only once the heap looks past the line, and stops when what is live is past it too', () => {
    const heap = new FakeHeap();
    const g = heap.guard({ stopAt: 0.75 });
    heap.at(750, 0);
    g.check();
    assert.equal(heap.collections, 0, 'at the line, not past it');
    heap.at(900, 760); // garbage included; 760 live
    g.check();
    assert.equal(heap.collections, 1);
    assert.deepEqual(g.stopped, { used: 760, limit: 1000, reserve: 0 });
    assert.equal(g.signal.aborted, true);
    heap.at(990, 990);
    g.check();
    assert.equal(heap.collections, 1, 'nothing more once stopped');
  });

  it('is not fooled by garbage, and does not collect at every batch near the line', () => {
    const heap = new FakeHeap();
    heap.collectMs = 100;
    const g = heap.guard({ stopAt: 0.75, spacing: 4 });
    heap.at(990, 740); // mostly garbage: 740 live is within the line
    g.check();
    assert.equal(heap.collections, 1);
    assert.equal(g.stopped, undefined);
    assert.equal(g.signal.aborted, false);
    // Past the line again: the next collection waits four times as long as that one took.
    heap.at(860, 745);
    heap.clock += 399;
    g.check();
    assert.equal(heap.collections, 1, 'within 400 ms of a 100 ms collection');
    heap.clock += 1;
    g.check();
    assert.equal(heap.collections, 2);
    assert.equal(g.stopped, undefined);
  });

  it('collects within the spacing once the heap is past halfway from the line to the limit', () => {
    const heap = new FakeHeap();
    heap.collectMs = 100;
    const g = heap.guard({ stopAt: 0.75, spacing: 4 });
    heap.at(800, 700);
    g.check();
    assert.equal(heap.collections, 1);
    // 875 is halfway from the line (750) to the limit: up to it the spacing holds.
    heap.at(875, 740);
    heap.clock += 10;
    g.check();
    assert.equal(heap.collections, 1, 'within the spacing, the heap still has room');
    heap.at(876, 740);
    g.check();
    assert.equal(heap.collections, 2, 'past halfway: collected although within the spacing');
    assert.equal(g.stopped, undefined, '740 live is within the line');
    // The halfway mark counts the reserve as the line does: 826 + 50 is past 875.
    heap.at(826, 760);
    heap.clock += 10;
    g.check(50);
    assert.equal(heap.collections, 3);
    assert.deepEqual(g.stopped, { used: 760, limit: 1000, reserve: 50 }, '760 live + 50 is past 750');
  });

  it('counts what the run still needs to finish (the reserve) against the line', () => {
    const heap = new FakeHeap();
    const g = heap.guard({ stopAt: 0.75 });
    heap.at(600, 450);
    g.check(100);
    assert.equal(heap.collections, 0, '600 + 100 is within 750');
    g.check(200);
    assert.equal(heap.collections, 1, '600 + 200 is not');
    assert.equal(g.stopped, undefined, '450 live + 200 is');
    heap.at(700, 700);
    heap.clock += 2000;
    g.check(100);
    assert.deepEqual(g.stopped, { used: 700, limit: 1000, reserve: 100 }, '700 live + 100 is not');
  });

  it('reads the real heap and runs a real full collection by default', () => {
    // Past the line at once (a line of a billionth of the limit): it collects, and what is live
    // (the test runner at least) is still past it.
    const g = new HeapGuard({ stopAt: 1e-9 });
    g.check();
    assert.ok(g.stopped, 'stopped');
    assert.ok(g.stopped.used > 0 && g.stopped.used < g.stopped.limit);
    // And a guard with room collects nothing and stops nothing.
    const roomy = new HeapGuard({ stopAt: 0.99 });
    roomy.check();
    assert.equal(roomy.stopped, undefined);
  });

  it('rejects shares that cannot work', () => {
    assert.throws(() => new HeapGuard({ stopAt: 1 }), RangeError);
    assert.throws(() => new HeapGuard({ stopAt: 0 }), RangeError);
    assert.throws(() => new HeapGuard({ spacing: -1 }), RangeError);
  });
});
