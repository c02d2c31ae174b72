import assert from 'node:assert/strict';
import { ESTIMATE_MARGIN, estimateMessages, MemoryReading, sessionFit, SessionMemoryGuard } from '../../../src/timeline/sessionBudget';

describe('sessionBudget: whether a session fits before and while it loads', () => {
  it('estimates the messages from the lines at the head, or counts them when the head is the whole capture', () => {
    assert.equal(estimateMessages({ totalBytes: 5_000_000_000, sampleBytes: 1_000_000, sampleLines: 2000 }), 10_000_000);
    assert.equal(estimateMessages({ totalBytes: 1000, sampleBytes: 1000, sampleLines: 7 }), 7);
    assert.equal(estimateMessages({ totalBytes: 0, sampleBytes: 0, sampleLines: 0 }), 0);
    // A head without a whole line: lines at least that long.
    assert.equal(estimateMessages({ totalBytes: 10_000_000, sampleBytes: 1_000_000, sampleLines: 0 }), 10);
  });

  it('fits when the messages, at their cost with the margin, are within the room', () => {
    const sample = { totalBytes: 500_000, sampleBytes: 1000, sampleLines: 2 }; // 1000 messages
    const need = 7000 + 1000 * 100 * ESTIMATE_MARGIN;
    const fit = sessionFit(sample, need, { fixed: 7000, perMessage: 100 });
    assert.deepEqual(fit, { messages: 1000, need, room: need, fits: true, partBytes: 500_000, partMessages: 1000 });
    assert.equal(sessionFit(sample, need - 1, { fixed: 7000, perMessage: 100 }).fits, false);
  });

  it('past the room: does not fit, and offers the share of the bytes whose messages fit', () => {
    const sample = { totalBytes: 1_000_000, sampleBytes: 1000, sampleLines: 2 }; // 2000 messages
    const fit = sessionFit(sample, 7000 + 500 * 100 * ESTIMATE_MARGIN, { fixed: 7000, perMessage: 100 });
    assert.equal(fit.fits, false);
    assert.equal(fit.messages, 2000);
    assert.equal(fit.need, 7000 + 2000 * 100 * ESTIMATE_MARGIN);
    assert.equal(fit.partMessages, 500);
    assert.equal(fit.partBytes, 250_000);
  });

  it('no room beyond the loading threads: nothing fits, no part to offer', () => {
    const cost = { fixed: 7000, perMessage: 100 };
    for (const room of [0, 6999, 7000]) {
      const fit = sessionFit({ totalBytes: 1000, sampleBytes: 100, sampleLines: 1 }, room, cost);
      assert.equal(fit.fits, false);
      assert.equal(fit.partMessages, 0);
      assert.equal(fit.partBytes, 0);
    }
    assert.equal(sessionFit({ totalBytes: 0, sampleBytes: 0, sampleLines: 0 }, 0, { fixed: 0, perMessage: 100 }).fits, true, 'an empty capture fits any room');
  });

  it('refuses a negative room or a cost that is not positive', () => {
    const sample = { totalBytes: 1, sampleBytes: 1, sampleLines: 1 };
    assert.throws(() => sessionFit(sample, -1), RangeError);
    assert.throws(() => sessionFit(sample, 1, { fixed: 0, perMessage: 0 }), RangeError);
    assert.throws(() => sessionFit(sample, 1, { fixed: -1, perMessage: 1 }), RangeError);
    assert.throws(() => new SessionMemoryGuard(Number.NaN, () => ({ resident: 0 })), RangeError);
  });

  it('the guard stops a load that grows past its room over where it started, and stays stopped', () => {
    let resident = 1000;
    const read = (): MemoryReading => ({ resident });
    const guard = new SessionMemoryGuard(500, read);
    resident = 1500;
    assert.equal(guard.check(), false, 'exactly the room still fits');
    assert.equal(guard.stopped, undefined);
    resident = 1501;
    assert.equal(guard.check(), true);
    assert.deepEqual(guard.stopped, { grown: 501, room: 500 });
    resident = 1000;
    assert.equal(guard.check(), true, 'stopped once, stopped for good');
    assert.deepEqual(guard.stopped, { grown: 501, room: 500 });
  });
});
