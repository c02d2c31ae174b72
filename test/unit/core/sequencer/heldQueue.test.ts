import assert from 'node:assert/strict';
import { ArrivalQueue, HeldQueue } from '../../../../src/core/sequencer/heldQueue';

/** Empties the queue lowest first, as the sequencer releases: [position, id, arrival, item]. */
function drain<T>(q: HeldQueue<T>): [number, string, number, T][] {
  const out: [number, string, number, T][] = [];
  while (q.size > 0) {
    out.push([q.lowest(), q.lowestId(), q.lowestArrivedAt(), q.lowestItem()]);
    q.dropLowest();
  }
  return out;
}

describe('HeldQueue', () => {
  it('keeps messages sorted by position, with their id, arrival and item', () => {
    const q = new HeldQueue<string>();
    for (const p of [5, 9, 7, 6, 12, 8]) assert.equal(q.insert(p, `m${p}`, p * 0.5, `item${p}`), undefined);
    assert.deepEqual(q.positions(), [5, 6, 7, 8, 9, 12]);
    assert.deepEqual(q.arrivalTimes(), [2.5, 3, 3.5, 4, 4.5, 6]);
    assert.deepEqual(
      drain(q).map((e) => e.join(' ')),
      ['5 m5 2.5 item5', '6 m6 3 item6', '7 m7 3.5 item7', '8 m8 4 item8', '9 m9 4.5 item9', '12 m12 6 item12'],
    );
  });

  it('refuses a position already held and names the held copy', () => {
    const q = new HeldQueue<number>();
    q.insert(3, 'first', 1, 30);
    q.insert(8, 'eight', 2, 80);
    assert.equal(q.insert(3, 'second', 3, 31), 'first');
    assert.equal(q.insert(8, 'again', 4, 81), 'eight');
    assert.equal(q.size, 2);
    assert.equal(q.lowestItem(), 30);
  });

  it('stays correct when refilled after emptying (arrays reused) and across compaction', () => {
    const q = new HeldQueue<number>();
    for (let round = 0; round < 3; round++) {
      for (const p of [4, 2, 3, 1]) q.insert(round * 10 + p, `r${round}p${p}`, p, p);
      assert.deepEqual(
        drain(q).map((e) => e[1]),
        [1, 2, 3, 4].map((p) => `r${round}p${p}`),
      );
    }
    // Past 1024 released with more than half of the array released, the head is compacted away.
    for (let p = 0; p < 3000; p++) q.insert(p, `i${p}`, p, p);
    for (let p = 0; p < 2000; p++) q.dropLowest();
    q.insert(1999.5, 'x', 0, -1); // below everything held: lands at the front
    assert.equal(q.size, 1001);
    assert.equal(q.lowestId(), 'x');
    q.dropLowest();
    assert.deepEqual(
      q.positions(),
      Array.from({ length: 1000 }, (_, i) => 2000 + i),
    );
  });

  it('clones independently', () => {
    const q = new HeldQueue<number>();
    q.insert(1, 'a', 0, 1);
    q.insert(2, 'b', 0, 2);
    q.dropLowest();
    const c = q.clone();
    c.insert(5, 'e', 0, 5);
    q.dropLowest();
    assert.equal(q.size, 0);
    assert.deepEqual(c.positions(), [2, 5]);
  });

  it('gives its storage back only when empty', () => {
    const q = new HeldQueue<number>();
    q.insert(1, 'a', 0, 1);
    q.freeStorage();
    assert.deepEqual(q.positions(), [1]);
    q.dropLowest();
    q.freeStorage();
    assert.equal(q.size, 0);
    q.insert(7, 'g', 0, 7);
    assert.deepEqual(q.positions(), [7]);
  });
});

describe('ArrivalQueue', () => {
  it('answers the oldest arrival still held, skipping positions below expected', () => {
    const a = new ArrivalQueue();
    a.push(10, 100);
    a.push(12, 101);
    a.push(11, 102);
    assert.equal(a.oldest(10), 100);
    assert.equal(a.oldest(11), 101); // 10 released
    assert.equal(a.oldest(12), 101); // 11 released, 12 still held
    assert.equal(a.oldest(13), undefined);
    a.push(20, 200);
    assert.equal(a.oldest(13), 200);
  });

  it('refills from a held queue in arrival order', () => {
    const q = new HeldQueue<number>();
    q.insert(30, 'c', 5, 0);
    q.insert(10, 'a', 9, 0);
    q.insert(20, 'b', 1, 0);
    const a = new ArrivalQueue();
    a.push(99, 0);
    a.refill(q);
    assert.equal(a.oldest(10), 1);
    assert.equal(a.oldest(21), 5);
    assert.equal(a.oldest(31), undefined);
  });

  it('clones without released entries', () => {
    const a = new ArrivalQueue();
    a.push(1, 10);
    a.push(5, 11);
    const c = a.clone(2);
    assert.equal(c.oldest(-Infinity), 11);
    assert.equal(a.oldest(-Infinity), 10);
  });
});
