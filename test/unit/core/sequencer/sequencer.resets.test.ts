/** Sequence resets, rule by rule (docs/sequencing-rules.md, "Reset"), on small hand-made arrivals. */
import assert from 'node:assert/strict';
import { Harness, run } from '../../../support/sequencerHarness';

describe('Sequencer: resets', () => {
  it('numbered from 1 500 000, then 30 s later from 1: one reset, every message delivered, nothing else', () => {
    const h = new Harness()
      .feed(run(1_500_000, 1_500_099, 0, 10))
      .feed(run(1, 100, 31_000, 10))
      .end();
    assert.deepEqual(h.of('reset'), [{ type: 'reset', key: 'k', from: 1_500_099, to: 1, at: 31_010, arrivedAt: 31_000, released: 0, lost: 0, how: 'next' }]);
    assert.equal(h.delivered().length, 200);
    assert.deepEqual([h.seq.totals.duplicates, h.seq.totals.late, h.seq.totals.gaps, h.seq.totals.resets], [0, 0, 0, 1]);
  });

  it('releases what the old sequence held and declares its open gap lost with reason reset, before the reset event', () => {
    // The key started at 1000 (its start window ended at 10 s) and holds 1002 and 1003 for 1001 when 1 comes.
    const h = new Harness({ resetTo: 1, capacity: 5 })
      .feed([...run(1000, 1000, 0), { t: 10_000, seq: 1002 }, { t: 10_001, seq: 1003 }, { t: 10_002, seq: 1 }])
      .end();
    const types = h.out.filter((e) => e.type !== 'message' || e.seq !== 1000).map((e) => e.type);
    assert.deepEqual(types, ['gap', 'message', 'message', 'reset', 'message']);
    assert.equal(h.of('gap')[0].reason, 'reset');
    assert.deepEqual(
      h.of('reset').map((r) => [r.from, r.to, r.released, r.lost, r.how]),
      [[1003, 1, 2, 1, 'resetTo']],
    );
  });

  it('a far jump the old sequence contradicts is named for what it is: below the start, late, not a duplicate', () => {
    const h = new Harness()
      .feed(run(1_500_000, 1_500_009, 0, 10))
      .feed([{ t: 11_000, seq: 5, id: 'stray' }])
      .feed(run(1_500_010, 1_500_012, 11_010, 10))
      .end();
    assert.deepEqual(h.of('reset'), []);
    assert.deepEqual(
      h.of('late').map((l) => [l.seq, l.beforeStart, l.at]),
      [[5, true, 11_010]],
    );
    assert.equal(h.seq.totals.duplicates, 0);
  });

  it('nothing after the candidate for the gap timeout, or the end of input: a reset (quiet, end)', () => {
    const quiet = new Harness()
      .feed(run(1_500_000, 1_500_009, 0, 10))
      .feed([{ t: 20_000, seq: 1 }])
      .at(40_000)
      .end();
    assert.deepEqual(
      quiet.of('reset').map((r) => [r.how, r.at]),
      [['quiet', 30_000]],
    );
    const end = new Harness()
      .feed(run(1_500_000, 1_500_009, 0, 10))
      .feed([{ t: 20_000, seq: 1 }])
      .end();
    assert.deepEqual(
      end.of('reset').map((r) => r.how),
      ['end'],
    );
  });

  it('a 16- or 32-bit wrap is a wrap; a 16-bit restart from 40 000 to 1 (ahead in serial order) is a reset', () => {
    for (const bits of [16, 32] as const) {
      const top = 2 ** bits;
      const h = new Harness({ seqBits: bits })
        .feed(run(top - 50, top - 1, 0, 10))
        .feed(run(0, 49, 20_000, 10))
        .end();
      assert.deepEqual([h.seq.totals.resets, h.seq.totals.delivered, h.seq.totals.gaps], [0, 100, 0], `${bits}-bit wrap`);
    }
    const h = new Harness({ seqBits: 16 })
      .feed(run(40_000, 40_049, 0, 10))
      .feed(run(1, 50, 20_000, 10))
      .end();
    assert.deepEqual(
      h.of('reset').map((r) => [r.from, r.to]),
      [[40_049, 1]],
    );
    assert.equal(h.seq.totals.delivered, 100);
  });

  it('a redelivery cascade from far back is duplicates, not a reset (16-bit, where the history reaches that far)', () => {
    const h = new Harness({ seqBits: 16 })
      .feed(run(1, 20_000, 0, 1))
      .feed(run(1, 5, 30_000, 1))
      .end();
    assert.deepEqual([h.seq.totals.resets, h.seq.totals.redeliveries], [0, 5]);
  });

  it('resets off: the numbers after a restart are late (below the start), never duplicates', () => {
    const h = new Harness({ resets: false })
      .feed(run(1_500_000, 1_500_009, 0, 10))
      .feed(run(1, 10, 31_000, 10))
      .end();
    assert.deepEqual([h.seq.totals.resets, h.seq.totals.late, h.seq.totals.duplicates], [0, 10, 0]);
  });

  it('a number below the start is late once, a second copy of it a duplicate', () => {
    const h = new Harness()
      .feed(run(100, 110, 0, 10))
      .feed([
        { t: 20_000, seq: 90 },
        { t: 20_001, seq: 90 },
      ])
      .end();
    assert.deepEqual(
      h.of('late').map((l) => [l.seq, l.beforeStart, l.lostAt]),
      [[90, true, 10_000]],
    );
    assert.deepEqual(
      h.of('duplicate').map((d) => [d.seq, d.redelivery]),
      [[90, true]],
    );
  });
});
