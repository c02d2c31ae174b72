import assert from 'node:assert/strict';
import { HistoryArena } from '../../../../src/core/sequencer/historyArena';
import { KeyState } from '../../../../src/core/sequencer/sequencer';
import { Harness, run } from '../../../support/sequencerHarness';

const T = 10_000;

describe('Sequencer', () => {
  describe('start of a key', () => {
    it('holds a new key for the gap timeout, then starts at the lowest held number', () => {
      const h = new Harness().feed([
        { t: 0, seq: 5 },
        { t: 1, seq: 3 },
        { t: 2, seq: 4 },
      ]);
      assert.deepEqual(h.delivered(), [], 'nothing is released inside the start window');
      h.at(T - 1);
      assert.deepEqual(h.delivered(), []);
      h.at(T);
      assert.deepEqual(h.delivered(), [3, 4, 5]);
      assert.equal(h.of('gap').length, 0, 'start-of-key reordering is not a gap');
      assert.deepEqual(
        h.of('message').map((m) => m.releasedAt),
        [T, T, T],
      );
    });

    it('releases in-order messages at once after the start window', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([{ t: T + 5, seq: 2 }]);
      assert.deepEqual(h.delivered(), [1, 2]);
      const m2 = h.of('message')[1];
      assert.equal(m2.releasedAt, m2.arrivedAt, 'an in-order message is not held');
    });

    it('starts a key early when it holds more than its capacity', () => {
      const h = new Harness({ capacity: 3 }).feed(run(10, 13, 0));
      assert.deepEqual(h.delivered(), [10, 11, 12, 13]);
      assert.equal(h.of('gap').length, 0);
    });
  });

  describe('the Camel resequencer cases, restated', () => {
    // Camel's stream resequencer tests: once 3 is delivered, 4 goes out at once; with 2 missing,
    // 4 waits for the timeout; 4 then 3 comes out 3, 4.
    it('delivered 3, then 4 → 4 is released at once', () => {
      const h = new Harness()
        .feed(run(1, 3, 0))
        .at(T)
        .feed([{ t: T + 1, seq: 4 }]);
      assert.deepEqual(h.delivered(), [1, 2, 3, 4]);
      assert.equal(h.of('message')[3].releasedAt, T + 1);
    });

    it('expected 2, then 4 → 4 is held until the timeout, and 2–3 are lost', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([{ t: T + 100, seq: 4 }]);
      assert.deepEqual(h.delivered(), [1]);
      h.at(2 * T + 99);
      assert.deepEqual(h.delivered(), [1], 'still waiting one ms before the timeout');
      h.at(2 * T + 100);
      assert.deepEqual(h.delivered(), [1, 4]);
      assert.deepEqual(h.of('gap'), [{ type: 'gap', key: 'k', from: 2, to: 3, count: 2, openedAt: T + 100, declaredAt: 2 * T + 100, reason: 'timeout' }]);
    });

    it('expected 3, 4 then 3 → 3, 4', () => {
      const h = new Harness()
        .feed(run(1, 2, 0))
        .at(T)
        .feed([
          { t: T + 1, seq: 4 },
          { t: T + 2, seq: 3 },
        ]);
      assert.deepEqual(h.delivered(), [1, 2, 3, 4]);
      assert.equal(h.of('gap').length, 0);
      const four = h.of('message')[3];
      assert.equal(four.arrivedAt, T + 1);
      assert.equal(four.releasedAt, T + 2, '4 was held until 3 arrived');
    });
  });

  describe('gaps', () => {
    it('declares each missing range at its own deadline: the earliest message held above it + timeout', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([
          { t: T + 100, seq: 3 },
          { t: T + 200, seq: 6 },
        ]);
      h.at(3 * T);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.openedAt, g.declaredAt]),
        [
          [2, 2, T + 100, 2 * T + 100],
          [4, 5, T + 200, 2 * T + 200],
        ],
      );
      assert.deepEqual(h.delivered(), [1, 3, 6]);
      assert.deepEqual(
        h.of('message').map((m) => m.releasedAt),
        [T, 2 * T + 100, 2 * T + 200],
      );
    });

    it('a gap that opened with an earlier arrival above it waits from that arrival', () => {
      // 6 arrives before 3: both gaps (2, and 4–5) have 6 held above them, so both time out
      // 10 s after 6 arrived.
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([
          { t: T + 100, seq: 6 },
          { t: T + 200, seq: 3 },
        ])
        .at(3 * T);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.declaredAt]),
        [
          [2, 2, 2 * T + 100],
          [4, 5, 2 * T + 100],
        ],
      );
      assert.deepEqual(h.delivered(), [1, 3, 6]);
    });

    it('wraps 65535 → 0 in 16 bits without a gap', () => {
      const h = new Harness({ seqBits: 16 })
        .feed(run(65533, 65535, 0))
        .feed(run(0, 2, 3))
        .end();
      assert.deepEqual(h.delivered(), [65533, 65534, 65535, 0, 1, 2]);
      assert.equal(h.of('gap').length, 0);
    });

    it('reports a gap that spans the wrap as one range in serial order', () => {
      const h = new Harness({ seqBits: 16 })
        .feed([{ t: 0, seq: 65533 }])
        .at(T)
        .feed([{ t: T + 1, seq: 2 }])
        .at(3 * T);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.count]),
        [[65534, 1, 4]],
      );
      assert.deepEqual(h.delivered(), [65533, 2]);
    });

    it('reorders across the wrap during the start window', () => {
      const h = new Harness({ seqBits: 16 })
        .feed([
          { t: 0, seq: 1 },
          { t: 1, seq: 65535 },
          { t: 2, seq: 0 },
          { t: 3, seq: 65534 },
        ])
        .end();
      assert.deepEqual(h.delivered(), [65534, 65535, 0, 1]);
      assert.equal(h.of('gap').length, 0);
    });

    it('wraps 32-bit numbers', () => {
      const max = 2 ** 32 - 1;
      const h = new Harness({ seqBits: 32 })
        .feed([
          { t: 0, seq: max - 1 },
          { t: 1, seq: 1 },
          { t: 2, seq: max },
        ])
        .end();
      assert.deepEqual(h.delivered(), [max - 1, max, 1]);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.count, g.reason]),
        [[0, 0, 1, 'end']],
      );
    });

    it('declares the lowest gap lost at once when a key holds more than its capacity', () => {
      const h = new Harness({ capacity: 3 })
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed(run(3, 6, T + 1));
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.reason, g.declaredAt]),
        [[2, 2, 'capacity', T + 4]],
      );
      assert.deepEqual(h.delivered(), [1, 3, 4, 5, 6]);
    });

    it('at end of input releases what is held and declares open gaps lost', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([
          { t: T + 1, seq: 3 },
          { t: T + 2, seq: 7 },
        ])
        .end();
      assert.deepEqual(h.delivered(), [1, 3, 7]);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.reason, g.declaredAt]),
        [
          [2, 2, 'end', T + 2],
          [4, 6, 'end', T + 2],
        ],
      );
    });

    it('ends a start window that is still open at end of input', () => {
      const h = new Harness()
        .feed([
          { t: 0, seq: 8 },
          { t: 1, seq: 7 },
        ])
        .end();
      assert.deepEqual(h.delivered(), [7, 8]);
    });

    it('keeps keys independent: a gap on one key does not hold another', () => {
      const h = new Harness()
        .feed([
          { t: 0, key: 'a', seq: 1 },
          { t: 0, key: 'b', seq: 1 },
        ])
        .at(T)
        .feed([
          { t: T + 1, key: 'a', seq: 3 },
          { t: T + 2, key: 'b', seq: 2 },
          { t: T + 3, key: 'b', seq: 3 },
        ]);
      assert.deepEqual(h.delivered('b'), [1, 2, 3]);
      assert.deepEqual(h.delivered('a'), [1]);
    });

    it('with a zero timeout releases every arrival at once and declares gaps immediately', () => {
      const h = new Harness({ gapTimeoutMs: 0 }).feed([
        { t: 0, seq: 1 },
        { t: 1, seq: 3 },
        { t: 2, seq: 2 },
      ]);
      assert.deepEqual(h.delivered(), [1, 3]);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to]),
        [[2, 2]],
      );
      assert.deepEqual(
        h.of('late').map((l) => l.seq),
        [2],
      );
    });

    it('fires the deadlines one advance passes in time order across keys, even when one key has moved its own later', () => {
      // b's start window was set first (t=0) but b started early, on overflow at t=0.5, leaving a
      // gap due at 5.5; a's start window ends at 5. Advancing to 5.5 must report a's start
      // (released at 5) before b's gap (declared at 5.5) — b's timer, set for 5, used to fire b
      // at 5.5 ahead of a.
      const h = new Harness({ gapTimeoutMs: 5, capacity: 2 }).feed([
        { t: 0, key: 'b', seq: 10 },
        { t: 0, key: 'a', seq: 20 },
        { t: 0.5, key: 'b', seq: 12 },
        { t: 0.5, key: 'b', seq: 13 },
      ]);
      assert.deepEqual(h.delivered('b'), [10]);
      h.at(5.5);
      const after = h.out.slice(1).map((e) => `${e.type} ${e.key} ${e.type === 'gap' ? e.declaredAt : e.type === 'message' ? e.releasedAt : ''}`);
      assert.deepEqual(after, ['message a 5', 'gap b 5.5', 'message b 5.5', 'message b 5.5']);
    });

    it('never moves the clock backwards', () => {
      const h = new Harness().feed([
        { t: 100, seq: 1 },
        { t: 50, seq: 2 },
      ]);
      assert.equal(h.seq.now, 100);
      h.at(T + 100);
      assert.deepEqual(
        h.of('message').map((m) => m.arrivedAt),
        [100, 100],
      );
    });
  });

  describe('duplicates and late messages', () => {
    it('reports a redelivery of a delivered number (same messageId), never delivering it twice', () => {
      const h = new Harness()
        .feed(run(1, 3, 0))
        .at(T)
        .feed([{ t: T + 1, seq: 2 }]);
      assert.deepEqual(h.delivered(), [1, 2, 3]);
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.redelivery]),
        [[2, true]],
      );
    });

    it('reports a second publish of a number (new messageId) as a duplicate that is not a redelivery', () => {
      const h = new Harness()
        .feed(run(1, 3, 0))
        .at(T)
        .feed([{ t: T + 1, seq: 2, id: 'republished' }]);
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.id, d.redelivery]),
        [[2, 'republished', false]],
      );
    });

    it('reports a duplicate of a held number, of both kinds', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([
          { t: T + 1, seq: 3 },
          { t: T + 2, seq: 3 },
          { t: T + 3, seq: 3, id: 'other' },
          { t: T + 4, seq: 2 },
        ]);
      assert.deepEqual(h.delivered(), [1, 2, 3]);
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.redelivery]),
        [
          [3, true],
          [3, false],
        ],
      );
    });

    it('reports a number that arrives after it was declared lost as late, and a second copy as a duplicate', () => {
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([{ t: T + 1, seq: 3 }])
        .at(2 * T + 1)
        .feed([
          { t: 2 * T + 5, seq: 2 },
          { t: 2 * T + 6, seq: 2 },
        ]);
      assert.deepEqual(h.delivered(), [1, 3]);
      assert.deepEqual(
        h.of('late').map((l) => [l.seq, l.lostAt, l.at]),
        [[2, 2 * T + 1, 2 * T + 5]],
      );
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.redelivery]),
        [[2, true]],
      );
    });

    it('groups a Pub/Sub redelivery of N and everything after it into one cascade', () => {
      const h = new Harness()
        .feed(run(1, 5, 0))
        .at(T)
        .feed([
          // The server re-sends 3, 4, 5 (already delivered and acked), then new messages flow.
          { t: T + 1, seq: 3 },
          { t: T + 2, seq: 4 },
          { t: T + 3, seq: 5 },
          { t: T + 4, seq: 6 },
          // A second, separate re-send.
          { t: T + 5, seq: 5 },
          { t: T + 6, seq: 6 },
        ]);
      assert.deepEqual(h.delivered(), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.cascade]),
        [
          [3, 1],
          [4, 1],
          [5, 1],
          [5, 2],
          [6, 2],
        ],
      );
      const k = h.seq.key('k')!;
      assert.equal(k.cascades, 2);
      assert.equal(k.redeliveries, 5);
    });

    it('starts a new cascade when a redelivery goes back in number', () => {
      const h = new Harness()
        .feed(run(1, 5, 0))
        .at(T)
        .feed([
          { t: T + 1, seq: 4 },
          { t: T + 2, seq: 5 },
          { t: T + 3, seq: 2 },
        ]);
      assert.deepEqual(
        h.of('duplicate').map((d) => d.cascade),
        [1, 1, 2],
      );
    });

    it('remembers messageIds only as far back as its history, then still reports duplicates', () => {
      const h = new Harness({ historySize: 4 })
        .feed(run(1, 20, 0))
        .at(T)
        .feed([
          { t: T + 1, seq: 2 },
          { t: T + 2, seq: 19 },
        ]);
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.redelivery]),
        [
          [2, false],
          [19, true],
        ],
      );
    });

    it('keeps the histories of all keys within historyTotal: a key past it remembers only its latest', () => {
      // 32 slots for all keys: 'a' grows to 32 first; 'b' still gets its first 16 but no more.
      const h = new Harness({ historyTotal: 32 })
        .feed(run(1, 32, 0, 1, 'a'))
        .feed(run(1, 40, 100, 1, 'b'))
        .at(T + 200)
        .feed(run(33, 40, T + 300, 1, 'a'))
        .feed([
          { t: T + 400, key: 'b', seq: 25 }, // among b's latest 16 (25–40)
          { t: T + 401, key: 'b', seq: 24 },
          { t: T + 402, key: 'a', seq: 9 }, // among a's latest 32 (9–40): a stopped at 32 too
          { t: T + 403, key: 'a', seq: 8 },
        ]);
      assert.deepEqual(
        h.delivered('a'),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        h.delivered('b'),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.key, d.seq, d.redelivery]),
        [
          ['b', 25, true],
          ['b', 24, false],
          ['a', 9, true],
          ['a', 8, false],
        ],
        'older duplicates are still duplicates, with their first id unknown',
      );
    });
  });

  describe('without sequence numbers (--seq none)', () => {
    it('keeps arrival order and finds duplicates by messageId', () => {
      const h = new Harness({ sequenced: false }).feed([
        { t: 0, seq: 0, id: 'a' },
        { t: 1, seq: 0, id: 'b' },
        { t: 2, seq: 0, id: 'a' },
        { t: 3, seq: 0, id: 'c' },
      ]);
      assert.deepEqual(
        h.of('message').map((m) => m.id),
        ['a', 'b', 'c'],
      );
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.id, d.redelivery, d.seq]),
        [['a', true, undefined]],
      );
      assert.equal(h.of('message')[0].releasedAt, 0, 'nothing is held');
    });

    it('keeps per-key messageId sets: the same id under another key is not a duplicate', () => {
      const h = new Harness({ sequenced: false }).feed([
        { t: 0, key: 'x', seq: 0, id: 'a' },
        { t: 1, key: 'y', seq: 0, id: 'a' },
      ]);
      assert.equal(h.of('duplicate').length, 0);
    });
  });

  describe('counters and state', () => {
    it('accounts for every arrival: received = delivered + duplicates + late + held', () => {
      const h = new Harness()
        .feed([
          { t: 0, seq: 1 },
          { t: 1, seq: 1 },
          { t: 2, seq: 4 },
        ])
        .at(T);
      const k = h.seq.key('k')!;
      assert.equal(k.received, 3);
      assert.equal(k.delivered + k.duplicates + k.late + k.held.size, 3);
      assert.deepEqual(h.seq.heldNumbers(k), [4]);
      assert.equal(h.seq.expectedNumber(k), 2);
      assert.equal(h.seq.deadlineOf(k), 2 + T);
      assert.equal(k.maxHeld, 2);
    });

    it('tracks the longest hold per key, not counting the start window', () => {
      // 1 waits the whole window by rule; then 3 waits 50 ms for 2.
      const h = new Harness()
        .feed([{ t: 0, seq: 1 }])
        .at(T)
        .feed([
          { t: T + 10, seq: 3 },
          { t: T + 60, seq: 2 },
        ]);
      assert.equal(h.seq.maxHoldMsOf(h.seq.key('k')!), 50, 'the wait for 2, not the window');
      // 3 arrives in the window above a missing 2 and waits on for it after the start: its
      // whole wait counts, from its arrival.
      const h3 = new Harness()
        .feed([
          { t: 0, seq: 1 },
          { t: 5, seq: 3 },
        ])
        .at(T)
        .feed([{ t: T + 3, seq: 2 }]);
      assert.deepEqual(h3.delivered(), [1, 2, 3]);
      assert.equal(h3.seq.maxHoldMsOf(h3.seq.key('k')!), T - 2);
      const h2 = new Harness({ gapTimeoutMs: 0 }).feed([
        { t: 0, seq: 1 },
        { t: 1, seq: 2 },
      ]);
      assert.equal(h2.seq.maxHoldMsOf(h2.seq.key('k')!), 0);
    });

    it('gives a key that holds again clean queues, and never shares one between keys holding at once', () => {
      // Queues are pooled: once a holds nothing its queues serve the next key that holds.
      const h = new Harness()
        .feed([
          { t: 0, seq: 1, key: 'a' },
          { t: 0, seq: 1, key: 'b' },
        ])
        .at(T);
      h.feed([
        { t: T + 1, seq: 3, key: 'a' },
        { t: T + 2, seq: 2, key: 'a' },
      ]);
      const a = h.seq.key('a')!;
      const b = h.seq.key('b')!;
      assert.equal(a.held.size, 0);
      h.feed([{ t: T + 50, seq: 5, key: 'b' }]);
      assert.deepEqual(h.seq.heldNumbers(b), [5]);
      assert.equal(h.seq.deadlineOf(b), T + 50 + T, "b's wait starts at its own arrival, not at a's");
      h.feed([{ t: T + 60, seq: 6, key: 'a' }]);
      assert.deepEqual(h.seq.heldNumbers(a), [6]);
      assert.deepEqual(h.seq.heldNumbers(b), [5], 'both hold at once, each its own');
      h.feed([
        { t: T + 70, seq: 4, key: 'a' },
        { t: T + 71, seq: 5, key: 'a' },
      ]);
      assert.deepEqual(h.seq.heldNumbers(a), []);
      assert.deepEqual(h.seq.heldNumbers(b), [5]);
      h.at(T + 50 + T);
      assert.deepEqual(
        h.of('gap').map((g) => [g.key, g.from, g.to, g.openedAt]),
        [['b', 2, 4, T + 50]],
      );
      assert.deepEqual(h.delivered('a'), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(h.delivered('b'), [1, 5]);
    });

    it('keeps 64-bit numbers up to 2^53 − 1 exact: order, gaps, redeliveries, longest hold', () => {
      const top = Number.MAX_SAFE_INTEGER;
      const h = new Harness()
        .feed([
          { t: 0, seq: top - 9 },
          { t: 1, seq: top - 10 },
        ])
        .at(T)
        .feed([
          { t: T + 1, seq: top - 8 },
          { t: T + 2, seq: top - 6 },
          { t: T + 3, seq: top - 9 },
          { t: T + 4, seq: top - 9, id: 'another publish' },
        ])
        .at(2 * T + 2);
      h.feed([{ t: 2 * T + 3, seq: top }]).end();
      assert.deepEqual(h.delivered(), [top - 10, top - 9, top - 8, top - 6, top]);
      assert.deepEqual(
        h.of('gap').map((g) => [g.from, g.to, g.count, g.reason]),
        [
          [top - 7, top - 7, 1, 'timeout'],
          [top - 5, top - 1, 5, 'end'],
        ],
      );
      assert.deepEqual(
        h.of('duplicate').map((d) => [d.seq, d.redelivery]),
        [
          [top - 9, true],
          [top - 9, false],
        ],
      );
      const k = h.seq.key('k')!;
      assert.equal(h.seq.maxHoldMsOf(k), T);
      assert.equal(h.seq.expectedNumber(k), top + 1);
    });

    it('counts findings per key, zero for a key without any', () => {
      const h = new Harness()
        .feed([
          { t: 0, seq: 1, key: 'quiet' },
          { t: 0, seq: 1, key: 'noisy' },
          { t: 1, seq: 1, key: 'noisy' },
          { t: 2, seq: 1, key: 'noisy', id: 'second publish' },
          { t: 3, seq: 4, key: 'noisy' },
        ])
        .end();
      const quiet = h.seq.key('quiet')!;
      const noisy = h.seq.key('noisy')!;
      assert.deepEqual([quiet.duplicates, quiet.redeliveries, quiet.cascades, quiet.gaps, quiet.lost, quiet.late], [0, 0, 0, 0, 0, 0]);
      assert.deepEqual([noisy.duplicates, noisy.redeliveries, noisy.cascades, noisy.gaps, noisy.lost, noisy.late], [2, 1, 1, 1, 2, 0]);
      const t = h.seq.totals;
      assert.deepEqual([t.duplicates, t.redeliveries, t.cascades, t.gaps, t.lost], [2, 1, 1, 1, 2]);
    });

    it('copies every field of a key state (the clone behind checkpoints), whatever fields it has', () => {
      // Every own field that is not the history ring's (HistoryArena.copy moves those) gets a
      // value no fresh state has, so a field that copy() forgets comes out as its default.
      const k = new KeyState<number>('k', 3);
      const own = k as unknown as Record<string, unknown>;
      let n = 7000;
      const poisoned: string[] = [];
      for (const f of Object.keys(own)) {
        if (f.startsWith('hist') || f === 'name' || f === 'order') continue;
        const v = own[f];
        if (typeof v === 'number') own[f] = n++;
        else if (typeof v === 'boolean') own[f] = !v;
        else continue;
        poisoned.push(f);
      }
      const c = k.copy(new HistoryArena(2), 0) as unknown as Record<string, unknown>;
      assert.deepEqual(Object.keys(c).sort(), Object.keys(own).sort());
      for (const f of Object.keys(own)) if (typeof own[f] !== 'object' || own[f] === null) assert.equal(c[f], own[f], f);
      for (const f of ['started', 'received', 'delivered', 'cascadeOpen', 'maxHeld', 'late']) assert.ok(poisoned.includes(f), `${f} among the fields poisoned`);
    });

    it('rejects impossible configurations', () => {
      assert.throws(() => new Harness({ capacity: 0 }), /capacity/);
      assert.throws(() => new Harness({ gapTimeoutMs: -1 }), /gapTimeoutMs/);
    });
  });
});
