/**
 * Property tests of sequence resets: random per-key streams in which the publisher restarts its
 * numbering (far behind, or with 16/32-bit numbers far ahead across the top) at random places —
 * after the start window or inside it — with loss, reordering and copies of both kinds, checked
 * against what was injected.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SeqBits, SerialSpace } from '../../../../src/core/sequencer/serial';
import { Arrival, Harness } from '../../../support/sequencerHarness';

const CONFIG = { capacity: 20, gapTimeoutMs: 10_000 };
/** How far a jump down must go to be a reset (resetDistance): 2^14 in 16 bits, else 65 536. */
const FAR = (bits: SeqBits): number => (bits === 16 ? 2 ** 14 : 65_536);
const DT = 100;

interface Segment {
  /** How the segment's first number is chosen from the previous segment's last (ignored for the first segment). */
  jump: number;
  behind: boolean;
  numbers: { lost: boolean; jitter: number; copies: { delay: number; sameId: boolean }[] }[];
}

interface Plan {
  bits: SeqBits;
  start: number;
  /** Pause before each restart: long (the old sequence's gaps time out first) or short (within the gap timeout). */
  pause: number;
  segments: Segment[];
}

const numberArb = fc.record({
  lost: fc.integer({ min: 0, max: 99 }).map((n) => n < 10),
  // Reordering within a few numbers: never more than the capacity held.
  jitter: fc.integer({ min: 0, max: 4 * DT }),
  copies: fc.array(fc.record({ delay: fc.integer({ min: 0, max: 5_000 }), sameId: fc.boolean() }), { maxLength: 2 }),
});

const planArb: fc.Arbitrary<Plan> = fc.record({
  bits: fc.constantFrom<SeqBits>(16, 32, 64),
  start: fc.oneof(fc.integer({ min: 0, max: 2 ** 16 - 1 }), fc.integer({ min: 2 ** 16 - 40, max: 2 ** 16 - 1 }), fc.integer({ min: 1_000_000, max: 2 ** 31 })),
  pause: fc.constantFrom(30_000, 12_000, 2_000),
  segments: fc.array(
    fc.record({
      // Added to FAR and to the previous segment's length (at most 40): far from any of its numbers, held or expected.
      jump: fc.integer({ min: 41, max: 5_000 }),
      behind: fc.boolean(),
      numbers: fc.array(numberArb, { minLength: 3, maxLength: 40 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

interface Built {
  arrivals: Arrival[];
  /** Ids of the messages that arrived (first copies), in sequence order. */
  originals: string[];
  copies: number;
  lost: number;
  /** Restarts the rule must call resets. */
  resets: number;
}

/**
 * Numbers of each segment run on from its first; a restart's first number is FAR + `jump` below
 * the previous segment's last (or, 16/32-bit, `jump` less than half the space above it). The restart's first
 * and last numbers are never lost, and its first arrives first: the rule needs to see where it
 * starts and what follows. Inputs where a jump does not make the raw number go down are skipped.
 */
function build(p: Plan): Built {
  const space = new SerialSpace(p.bits);
  const items: { a: Arrival; order: number }[] = [];
  const originals: string[] = [];
  let order = 0;
  let copies = 0;
  let lost = 0;
  let resets = 0;
  let abs = p.bits === 64 ? p.start + 2 ** 40 : p.start;
  let t = 0;
  p.segments.forEach((seg, si) => {
    if (si > 0) {
      const last = abs - 1;
      const next = seg.behind || p.bits === 64 ? last - FAR(p.bits) - seg.jump : last + space.modulus / 2 - seg.jump;
      fc.pre(next >= 0 && space.wrap(next) < space.wrap(last + 1));
      abs = next;
      resets++;
      t += p.pause;
    }
    seg.numbers.forEach((n, i) => {
      const first = i === 0;
      const lastOfSeg = i === seg.numbers.length - 1;
      const at = t + i * DT + (first ? 0 : DT + n.jitter);
      const id = `s${si}/${i}`;
      if (n.lost && !first && !lastOfSeg) lost++;
      else {
        originals.push(id);
        items.push({ a: { t: at, seq: space.wrap(abs + i), id }, order: order++ });
        n.copies.forEach((c, ci) => {
          items.push({ a: { t: at + c.delay, seq: space.wrap(abs + i), id: c.sameId ? id : `${id}/copy${ci}` }, order: order++ });
          copies++;
        });
      }
    });
    abs += seg.numbers.length;
    t += seg.numbers.length * DT + 5 * DT + 5_000;
  });
  items.sort((x, y) => x.a.t - y.a.t || x.order - y.order);
  return { arrivals: items.map((i) => i.a), originals, copies, lost, resets };
}

describe('Sequencer properties: resets', () => {
  it('a publisher restart anywhere is one reset: every message delivered once in order, duplicates only real copies, loss exactly what is missing', () => {
    fc.assert(
      fc.property(planArb, (p) => {
        const b = build(p);
        const h = new Harness({ ...CONFIG, seqBits: p.bits }).feed(b.arrivals).end();
        assert.deepEqual(
          h.out.filter((e) => e.type === 'message').map((e) => (e as { id: string }).id),
          b.originals,
          'every message, once, in sequence order',
        );
        assert.equal(h.seq.totals.resets, b.resets, 'one reset per restart');
        assert.equal(h.seq.totals.late, 0, 'nothing late');
        assert.equal(h.seq.totals.duplicates, b.copies, 'duplicates are the copies');
        for (const d of h.of('duplicate')) assert.equal(d.redelivery, !d.id.includes('/copy'), `duplicate ${d.id}`);
        assert.equal(h.seq.totals.lost, b.lost, 'lost numbers are the missing ones');
        for (const r of h.of('reset')) assert.ok(r.released >= 0 && r.lost >= 0);
      }),
      { numRuns: 400 },
    );
  });

  it('a capture that starts a few numbers before a restart shows the reset, not a gap of millions', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<SeqBits>(16, 32, 64),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (bits, before, after, low, pace) => {
          const space = new SerialSpace(bits);
          // The old numbers end far from the new ones: near the 16-bit middle, high in 32 or 64 bits.
          const old = bits === 16 ? 40_000 : 1_500_000;
          const arrivals: Arrival[] = [];
          let t = 0;
          for (let i = 0; i < before; i++) arrivals.push({ t: (t += 10 * pace), seq: space.wrap(old + i), id: `old${i}` });
          for (let i = 0; i < after; i++) arrivals.push({ t: (t += 10 * pace), seq: low + i, id: `new${i}` });
          const h = new Harness({ seqBits: bits }).feed(arrivals).end();
          assert.deepEqual(
            h.of('reset').map((r) => [r.from, r.to, r.how]),
            [[space.wrap(old + before - 1), low, 'start']],
          );
          assert.deepEqual(h.delivered(), [
            ...Array.from({ length: before }, (_, i) => space.wrap(old + i)),
            ...Array.from({ length: after }, (_, i) => low + i),
          ]);
          assert.deepEqual(h.of('gap'), []);
        },
      ),
      { numRuns: 200 },
    );
  });
});
