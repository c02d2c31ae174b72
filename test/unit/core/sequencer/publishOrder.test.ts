/**
 * Publish order (`--seq publishTime`): random arrival permutations of published sequences with
 * batches (equal publish times) and redeliveries, judged by the engine and by the brute-force
 * definition (docs/sequencing-rules.md, "Publish order").
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Sequencer, SequencerSink, ReorderInfo } from '../../../../src/core/sequencer/sequencer';
import { RISES_KEPT } from '../../../../src/core/sequencer/publishOrder';

interface Published {
  readonly key: string;
  readonly id: string;
  readonly publishedMs: number;
}

/** Runs arrivals (a message may come more than once) through an engine judging publish order. */
function judge(arrivals: readonly Published[]): { reordered: ReorderInfo<Published>[]; messages: string[]; engine: Sequencer<Published> } {
  const reordered: ReorderInfo<Published>[] = [];
  const messages: string[] = [];
  const sink: SequencerSink<Published> = {
    message: (_k, _s, m) => messages.push(m.id),
    gap: () => assert.fail('no gaps without numbers'),
    duplicate: () => {},
    late: () => assert.fail('nothing is late without numbers'),
    reordered: (_k, r) => reordered.push(r),
  };
  const engine = new Sequencer<Published>({ gapTimeoutMs: 10_000, capacity: 10_000, seqBits: 64, sequenced: false, publishOrder: true }, sink);
  arrivals.forEach((m, i) => {
    engine.advance(i);
    engine.offer(m.key, m.publishedMs, m.id, m);
  });
  engine.finish();
  return { reordered, messages, engine };
}

/** The definition, by brute force over each key's first copies in arrival order. */
function bruteForce(arrivals: readonly Published[]): { id: string; behindId: string; byMs: number; byPosition: number }[] {
  const seen = new Set<string>();
  const firsts = new Map<string, Published[]>();
  const out: { id: string; behindId: string; byMs: number; byPosition: number }[] = [];
  for (const m of arrivals) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    const before = firsts.get(m.key) ?? [];
    firsts.set(m.key, [...before, m]);
    const firstLater = before.findIndex((b) => b.publishedMs > m.publishedMs);
    if (firstLater < 0) continue;
    const latest = Math.max(...before.map((b) => b.publishedMs));
    out.push({ id: m.id, behindId: before.find((b) => b.publishedMs === latest)!.id, byMs: latest - m.publishedMs, byPosition: before.length - firstLater });
  }
  return out;
}

/** Keys' messages published in batches (one publish time each, µs apart as Pub/Sub's can be), then delivered in a random order, some more than once. */
const scenarioArb = fc
  .record({
    keys: fc.integer({ min: 1, max: 3 }),
    batches: fc.array(fc.record({ key: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 1, max: 4 }), gapUs: fc.integer({ min: 1, max: 400 }) }), {
      minLength: 1,
      maxLength: 25,
    }),
    seed: fc.integer(),
    redeliveries: fc.array(fc.nat(), { maxLength: 8 }),
  })
  .map(({ keys, batches, seed, redeliveries }) => {
    const published: Published[] = [];
    let t = Date.UTC(2026, 11, 1, 9, 30);
    batches.forEach((b, i) => {
      t += b.gapUs / 1000;
      for (let j = 0; j < b.size; j++) published.push({ key: `k${b.key % keys}`, id: `m${i}.${j}`, publishedMs: t });
    });
    // A deterministic shuffle of the published order, mostly local (as a moved key delivers).
    const arrivals = [...published];
    let r = seed >>> 0;
    const next = () => (r = (Math.imul(r, 1103515245) + 12345) >>> 0);
    for (let i = arrivals.length - 1; i > 0; i--) {
      if (next() % 3 !== 0) continue;
      const j = Math.max(0, i - (next() % 6));
      [arrivals[i], arrivals[j]] = [arrivals[j], arrivals[i]];
    }
    for (const n of redeliveries) arrivals.splice(n % (arrivals.length + 1), 0, arrivals[n % arrivals.length]);
    return arrivals;
  });

describe('Publish order: reordered first copies', () => {
  it('flags exactly the first copies the definition does, with its displacement and the message each came behind', () => {
    fc.assert(
      fc.property(scenarioArb, (arrivals) => {
        const { reordered } = judge(arrivals);
        assert.deepEqual(
          reordered.map((r) => ({ id: r.messageId, behindId: r.behindId, byMs: r.byMs, byPosition: r.byPosition })),
          bruteForce(arrivals),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('never flags a tie (one batch) or a duplicate, and delivers every first copy in arrival order', () => {
    fc.assert(
      fc.property(scenarioArb, (arrivals) => {
        const { reordered, messages, engine } = judge(arrivals);
        for (const r of reordered) assert.ok(r.behindMs > r.publishedMs, `${r.messageId} flagged behind a publish time not later than its own`);
        assert.equal(new Set(reordered.map((r) => r.messageId)).size, reordered.length, 'a message flagged twice (a duplicate judged)');
        assert.deepEqual(messages, [...new Set(arrivals.map((a) => a.id))]);
        assert.equal(engine.totals.reordered, reordered.length);
        assert.equal(engine.totals.gaps + engine.totals.lost + engine.totals.late, 0);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps sub-millisecond publish times apart: 0.3 ms out of order is reordered', () => {
    const t = Date.UTC(2026, 11, 1, 9, 30);
    const { reordered } = judge([
      { key: 'AAA', id: '1', publishedMs: t + 0.3 },
      { key: 'AAA', id: '2', publishedMs: t },
    ]);
    assert.equal(reordered.length, 1);
    assert.ok(Math.abs(reordered[0].byMs - 0.3) < 1e-3);
  });

  it('never judges a record without a publish time', () => {
    const { reordered } = judge([
      { key: 'AAA', id: '1', publishedMs: 20 },
      { key: 'AAA', id: '2', publishedMs: NaN },
      { key: 'AAA', id: '3', publishedMs: 10 },
    ]);
    assert.deepEqual(
      reordered.map((r) => [r.messageId, r.byPosition]),
      [['3', 2]],
    );
  });

  it('past the rises it keeps, counts the position from the oldest one kept and keeps the time exact', () => {
    const arrivals: Published[] = [];
    for (let i = 0; i < RISES_KEPT + 10; i++) arrivals.push({ key: 'AAA', id: `m${i}`, publishedMs: 1000 + i });
    arrivals.push({ key: 'AAA', id: 'early', publishedMs: 500 });
    const { reordered } = judge(arrivals);
    assert.equal(reordered.length, 1);
    assert.equal(reordered[0].byMs, RISES_KEPT + 9 + 500);
    assert.equal(reordered[0].byPosition, RISES_KEPT, 'a lower bound: from the oldest rise kept');
  });

  it('carries its state through a clone (the checkpoints behind step-back)', () => {
    const reordered: string[] = [];
    const sink: SequencerSink<string> = { message() {}, gap() {}, duplicate() {}, late() {}, reordered: (_k, r) => reordered.push(r.messageId) };
    const a = new Sequencer<string>({ gapTimeoutMs: 0, capacity: 10, seqBits: 64, sequenced: false, publishOrder: true }, sink);
    a.offer('AAA', 20, 'late-published', 'x');
    const b = a.clone(sink);
    b.offer('AAA', 10, 'early', 'y');
    a.offer('AAA', 30, 'next', 'z');
    assert.deepEqual(reordered, ['early']);
    assert.equal(b.totals.reordered, 1);
    assert.equal(a.totals.reordered, 0);
  });
});
