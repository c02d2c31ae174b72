/**
 * Property-based tests: random per-key streams with injected loss, reordering and duplicates of
 * both kinds, checked against what was injected.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SeqBits } from '../../../../src/core/sequencer/serial';
import { Arrival, Harness } from '../../../support/sequencerHarness';

const T = 10_000;

interface KeyPlan {
  start: number;
  offset: number;
  numbers: { lost: boolean; jitter: number; copies: { delay: number; sameId: boolean }[] }[];
}

interface Stream {
  bits: SeqBits;
  keys: KeyPlan[];
}

function streamArb(maxJitter: number, maxDelay: number): fc.Arbitrary<Stream> {
  const numberArb = fc.record({
    lost: fc.integer({ min: 0, max: 99 }).map((n) => n < 12),
    jitter: fc.integer({ min: 0, max: maxJitter }),
    copies: fc.array(fc.record({ delay: fc.integer({ min: 0, max: maxDelay }), sameId: fc.boolean() }), { maxLength: 2 }),
  });
  const keyArb = fc.record({
    // Start anywhere, near the 16-bit wrap often enough to exercise it.
    start: fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 65500, max: 65535 })),
    offset: fc.integer({ min: 0, max: 5_000 }),
    numbers: fc.array(numberArb, { minLength: 1, maxLength: 50 }),
  });
  return fc.record({ bits: fc.constantFrom<SeqBits>(16, 64), keys: fc.array(keyArb, { minLength: 1, maxLength: 4 }) });
}

interface Built {
  arrivals: Arrival[];
  /** Per key: absolute numbers that survive, and the count of arrivals per number. */
  truth: { survivors: number[]; arrivalsPer: Map<number, number>; start: number; copies: number }[];
}

const DT = 100;

function build(s: Stream): Built {
  const items: { a: Arrival; order: number }[] = [];
  let order = 0;
  const truth = s.keys.map((plan, ki) => {
    const key = `k${ki}`;
    const survivors: number[] = [];
    const arrivalsPer = new Map<number, number>();
    let copies = 0;
    plan.numbers.forEach((n, i) => {
      if (n.lost) return;
      const abs = plan.start + i;
      const raw = s.bits === 16 ? abs % 65536 : abs;
      const t = plan.offset + i * DT + n.jitter;
      survivors.push(abs);
      items.push({ a: { t, key, seq: raw, id: `${key}/${abs}` }, order: order++ });
      n.copies.forEach((c, ci) => {
        items.push({ a: { t: t + c.delay, key, seq: raw, id: c.sameId ? `${key}/${abs}` : `${key}/${abs}/copy${ci}` }, order: order++ });
        copies++;
      });
      arrivalsPer.set(abs, 1 + n.copies.length);
    });
    return { survivors, arrivalsPer, start: plan.start, copies };
  });
  items.sort((x, y) => x.a.t - y.a.t || x.order - y.order);
  return { arrivals: items.map((i) => i.a), truth };
}

function absOf(bits: SeqBits, start: number, raw: number): number {
  return bits === 16 ? start + ((raw - (start % 65536) + 65536) % 65536) : raw;
}

function runStream(s: Stream, capacity = 10_000): Harness {
  const h = new Harness({ seqBits: s.bits, capacity });
  h.feed(build(s).arrivals).end();
  return h;
}

describe('Sequencer properties', () => {
  it('with reordering inside the timeout: delivers every survivor once in order, loses exactly the missing numbers, counts every copy', () => {
    fc.assert(
      fc.property(streamArb(T - 1, 5 * T), (s) => {
        const { truth } = build(s);
        const h = runStream(s);
        truth.forEach((tr, ki) => {
          const key = `k${ki}`;
          const delivered = h.delivered(key).map((r) => absOf(s.bits, tr.start, r as number));
          assert.deepEqual(delivered, tr.survivors, 'every surviving number, once, in serial order');
          const lost: number[] = [];
          for (const g of h.of('gap', key)) {
            const from = absOf(s.bits, tr.start, g.from);
            for (let a = from; a < from + g.count; a++) lost.push(a);
          }
          const first = tr.survivors[0];
          const last = tr.survivors[tr.survivors.length - 1];
          const missing: number[] = [];
          for (let a = first; a <= last; a++) if (!tr.arrivalsPer.has(a)) missing.push(a);
          assert.deepEqual(lost, missing, 'lost numbers are exactly the missing ones');
          assert.equal(h.of('duplicate', key).length, tr.copies, 'every copy is a duplicate');
          assert.equal(h.of('late', key).length, 0);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('tells redeliveries (same messageId) from second publishes', () => {
    fc.assert(
      fc.property(streamArb(T - 1, 5 * T), (s) => {
        const h = runStream(s);
        for (const d of h.of('duplicate')) {
          assert.equal(d.redelivery, !d.id.includes('/copy'), `duplicate ${d.id}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('under any reordering and a small capacity: every arrival is delivered once or reported, output stays in order', () => {
    fc.assert(
      fc.property(streamArb(4 * T, 4 * T), fc.integer({ min: 1, max: 20 }), (s, capacity) => {
        const { truth } = build(s);
        const h = runStream(s, capacity);
        truth.forEach((tr, ki) => {
          const key = `k${ki}`;
          if (tr.survivors.length === 0) return assert.equal(h.seq.key(key), undefined);
          const seen = new Map<number, number>();
          const bump = (a: number) => seen.set(a, (seen.get(a) ?? 0) + 1);
          const delivered = h.delivered(key).map((r) => absOf(s.bits, tr.start, r as number));
          delivered.forEach(bump);
          h.of('duplicate', key).forEach((d) => bump(absOf(s.bits, tr.start, d.seq as number)));
          h.of('late', key).forEach((l) => bump(absOf(s.bits, tr.start, l.seq)));
          assert.deepEqual(
            new Map([...seen].sort((a, b) => a[0] - b[0])),
            new Map([...tr.arrivalsPer].sort((a, b) => a[0] - b[0])),
            'each arrival accounted for exactly once',
          );
          for (let i = 1; i < delivered.length; i++) assert.ok(delivered[i] > delivered[i - 1], 'delivered in increasing serial order');
          // Between the first and last delivered, every number is delivered or lost, not both.
          const lost = new Set<number>();
          for (const g of h.of('gap', key)) {
            const from = absOf(s.bits, tr.start, g.from);
            for (let a = from; a < from + g.count; a++) {
              assert.ok(!lost.has(a), 'a number is declared lost once');
              lost.add(a);
            }
          }
          const d = new Set(delivered);
          for (let a = delivered[0]; a <= delivered[delivered.length - 1]; a++) assert.ok(d.has(a) !== lost.has(a), `number ${a} is delivered xor lost`);
          for (const l of h.of('late', key)) {
            // Late: declared lost, or below the key's first delivered number (the start went on without it).
            const a = absOf(s.bits, tr.start, l.seq);
            if (l.beforeStart) assert.ok(a < delivered[0], 'a number late before the start is below the first delivered');
            else assert.ok(lost.has(a), 'late numbers were declared lost');
          }
          const k = h.seq.key(key)!;
          assert.equal(k.received, k.delivered + k.duplicates + k.late);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a clone taken at any point continues exactly as the original (checkpoints for step-back)', () => {
    fc.assert(
      fc.property(streamArb(3 * T, 3 * T), fc.integer({ min: 1, max: 30 }), fc.nat(), (s, capacity, cut) => {
        const arrivals = build(s).arrivals;
        const at = cut % (arrivals.length + 1);
        const whole = new Harness({ seqBits: s.bits, capacity }).feed(arrivals).end();
        const first = new Harness({ seqBits: s.bits, capacity }).feed(arrivals.slice(0, at));
        const before = first.out.length;
        const second = new Harness({ seqBits: s.bits, capacity });
        second.adopt(first.seq.clone(second.sink));
        // Run the original on with garbage to prove the clone shares no state with it.
        first.feed(arrivals.slice(at).map((a) => ({ ...a, seq: (a.seq + 7) % 65536 }))).end();
        second.feed(arrivals.slice(at)).end();
        assert.deepEqual([...whole.out.slice(0, before), ...second.out], whole.out);
        assert.deepEqual(second.seq.totals, whole.seq.totals);
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic: the same input gives the same output', () => {
    fc.assert(
      fc.property(streamArb(3 * T, 3 * T), fc.integer({ min: 1, max: 50 }), (s, capacity) => {
        assert.deepEqual(runStream(s, capacity).out, runStream(s, capacity).out);
      }),
      { numRuns: 100 },
    );
  });
});
