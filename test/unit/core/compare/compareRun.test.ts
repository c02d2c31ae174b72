import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runCompare } from '../../../../src/core/compare/compareRun';
import { KeyComparison } from '../../../../src/core/compare/compareResult';
import { CompareRow } from '../../../../src/core/compare/compareRow';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions, SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { PairOptions, PairTruth } from '../../../../scripts/lib/abPairGenerator';
import { StreamOptions } from '../../../../scripts/lib/captureGenerator';
import { PairFiles, writePair } from '../../../support/abPairFiles';

const CME16 = resolveOptions({ key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: '16', gapTimeout: '10s' });
const CME32 = resolveOptions({ key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: '32', gapTimeout: '10s' });

function stream(o: Partial<StreamOptions> = {}): StreamOptions {
  return {
    seed: 5,
    keys: 4,
    messagesPerKey: 400,
    seqBits: 16,
    startSeq: (k) => 65_300 + k * 40,
    reorderFraction: 0.05,
    redeliveries: 6,
    republishes: 4,
    burstGapMs: 2,
    intraBurstMs: 0.3,
    ...o,
  };
}

async function compare(a: string, b: string, options: SequencingOptions = CME16, rows?: CompareRow[]) {
  return runCompare({ a: { paths: [a] }, b: { paths: [b] }, options, rows: rows && { add: (r) => rows.push(r), flush: async () => undefined } });
}

/** What the truth says of a key, in the comparison's terms. */
function expected(t: PairTruth, key: string) {
  const k = t.byKey.get(key)!;
  return {
    both: k.both,
    onlyA: k.onlyA,
    onlyB: k.onlyB,
    lostBoth: k.lostBoth,
    a: { received: k.aReceived, duplicates: k.aDuplicates, missed: k.onlyB },
    b: { received: k.bReceived, duplicates: k.bDuplicates, missed: k.onlyA },
  };
}

function actual(k: KeyComparison) {
  return {
    both: k.both,
    onlyA: k.onlyA,
    onlyB: k.onlyB,
    lostBoth: k.lostBoth,
    a: { received: k.a.received, duplicates: k.a.duplicates, missed: k.a.missed },
    b: { received: k.b.received, duplicates: k.b.duplicates, missed: k.b.missed },
  };
}

/** Within the 3 significant digits the Δt histograms keep. */
function near(got: number, want: number): void {
  assert.ok(Math.abs(got - want) <= Math.abs(want) * 1e-3 + 1e-3, `${got} ≉ ${want}`);
}

async function withPair<T>(o: PairOptions, f: (p: PairFiles) => Promise<T>): Promise<T> {
  const p = writePair(o);
  try {
    return await f(p);
  } finally {
    p.remove();
  }
}

const HOSTILE: PairOptions = {
  stream: stream({ keys: ['310', '311', '312', '313', 'only-a', 'only-b'], losses: [{ key: '311', from: 65_400, to: 65_404 }] }),
  dropA: 0.05,
  dropB: 0.07,
  lagMsB: 3,
  extraCopiesA: 0.01,
  extraCopiesB: 0.02,
  swapB: 0.05,
  keysOnlyA: ['only-a'],
  keysOnlyB: ['only-b'],
};

describe('runCompare (two captures of one stream)', () => {
  it('finds what each side had, missed and duplicated, per key, as the generator made it (16-bit wrap, overlapping losses, B lagging and reordered, keys on one side only)', async () => {
    await withPair(HOSTILE, async (p) => {
      const r = await compare(p.a, p.b);
      const t = p.pair.truth;
      assert.deepEqual(new Set(r.comparison.byKey.map((k) => k.key)), new Set(t.byKey.keys()));
      for (const k of r.comparison.byKey) assert.deepEqual(actual(k), expected(t, k.key), k.key);
      assert.ok(
        t.totals.lostBoth > 5 && t.totals.onlyA > 0 && t.totals.onlyB > 0 && t.totals.aDuplicates > 0 && t.totals.bDuplicates > 0,
        'the pair has every kind of difference',
      );
      const onlyA = r.comparison.byKey.find((k) => k.key === 'only-a')!;
      assert.equal(onlyA.b.received, 0);
      assert.equal(onlyA.b.missed, onlyA.onlyA);
      assert.equal(r.comparison.sharedKeys, 4);
      // B's clock runs 3 ms behind A's: every shared message was first in A.
      assert.equal(r.comparison.totals.firstA, r.comparison.totals.both);
      near(r.comparison.totals.deltaMs!.p50, 3);
    });
  });

  it('counts incidents as runs of consecutive missed numbers, one across the wrap, and lists the ranges', async () => {
    // Key 310 runs 65 300… through 65 535 → 0: A misses 65 534..1 (one run across the wrap) and 10..12.
    const o: PairOptions = { stream: stream({ keys: 1, startSeq: 65_300, reorderFraction: 0, redeliveries: 0, republishes: 0 }) };
    await withPair(o, async (p) => {
      const rows: CompareRow[] = [];
      // Drop A's lines by number: rewrite A without them.
      const { readFileSync, writeFileSync } = await import('node:fs');
      const missed = new Set([65_534, 65_535, 0, 1, 10, 11, 12]);
      writeFileSync(
        p.a,
        readFileSync(p.a, 'utf8')
          .split('\n')
          .filter((l) => l === '' || !missed.has(Number(JSON.parse(l).message.attributes.MsgSeqNum)))
          .join('\n'),
      );
      const r = await compare(p.a, p.b, CME16, rows);
      const k = r.comparison.byKey[0];
      assert.equal(k.a.missed, 7);
      assert.equal(k.a.incidents, 2);
      assert.deepEqual(r.comparison.ranges[0].aMissed, [
        { from: 65_534, to: 1, count: 4 },
        { from: 10, to: 12, count: 3 },
      ]);
      assert.equal(k.b.incidents, 0);
      const oneSided = rows.filter((row) => !row.inA);
      assert.deepEqual(
        oneSided.map((row) => row.seq),
        [65_534, 65_535, 0, 1, 10, 11, 12],
        'one-sided rows in number order across the wrap',
      );
      assert.equal(rows.length, 400, 'a row per number');
    });
  });

  it('is wrap-aware at 32 bits, with B leading by 5 ms', async () => {
    const o: PairOptions = { stream: stream({ seqBits: 32, startSeq: (k) => 2 ** 32 - 100 - k * 7 }), dropA: 0.04, dropB: 0.04, lagMsB: -5 };
    await withPair(o, async (p) => {
      const r = await compare(p.a, p.b, CME32);
      for (const k of r.comparison.byKey) assert.deepEqual(actual(k), expected(p.pair.truth, k.key), k.key);
      assert.equal(r.comparison.totals.firstB, r.comparison.totals.both);
      near(r.comparison.totals.deltaMs!.p50, -5);
    });
  });

  it('compare(A, A) of one path: everything both, Δt 0, nothing first on either side', async () => {
    await withPair(HOSTILE, async (p) => {
      const r = await compare(p.a, p.a);
      const t = r.comparison.totals;
      assert.equal(t.onlyA + t.onlyB + t.a.missed + t.b.missed, 0);
      assert.equal(t.firstA + t.firstB, 0);
      assert.deepEqual(t.deltaMs, { p50: 0, p90: 0, p99: 0, max: 0 });
      assert.equal(t.a.received, t.b.received);
    });
  });

  it('merged: first copy wins from either side; it equals a replay of both files together, its lost what both lost', async () => {
    await withPair(HOSTILE, async (p) => {
      const r = await compare(p.a, p.b);
      const together = await runReplay({ paths: [p.a, p.b], options: CME16 });
      const { byKey: _m, files: _f, percentiles: _p, ...merged } = r.merged;
      const { byKey: _m2, files: _f2, percentiles: _p2, ...replayed } = together.summary;
      assert.deepEqual(merged, replayed);
      const t = r.comparison.totals;
      assert.equal(t.merged.delivered, t.both + t.onlyA + t.onlyB);
      assert.equal(t.merged.late, 0);
      assert.equal(t.merged.lost, t.lostBoth);
      assert.equal(r.merged.received, t.a.received + t.b.received);
    });
  });

  it('with --seq none an identity is its messageId', async () => {
    const none = resolveOptions({ key: 'attribute:Channel', seq: 'none' });
    await withPair({ stream: stream({ republishes: 0 }), dropA: 0.05, dropB: 0.05, lagMsB: 1 }, async (p) => {
      const r = await compare(p.a, p.b, none);
      for (const k of r.comparison.byKey) {
        const e = expected(p.pair.truth, k.key);
        assert.deepEqual(actual(k), { ...e, lostBoth: 0 }, k.key);
        assert.equal(
          r.comparison.ranges.find((x) => x.key === k.key)!.aMissed.reduce((s, x) => s + x.count, 0),
          k.a.missed,
        );
      }
    });
  });

  it('property: per key counts match the truth, and compare(B, A) mirrors compare(A, B)', async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 1e6 }),
          dropA: fc.double({ min: 0, max: 0.3, noNaN: true }),
          dropB: fc.double({ min: 0, max: 0.3, noNaN: true }),
          lag: fc.integer({ min: -20, max: 20 }),
          copiesA: fc.double({ min: 0, max: 0.1, noNaN: true }),
          copiesB: fc.double({ min: 0, max: 0.1, noNaN: true }),
          swapB: fc.double({ min: 0, max: 0.2, noNaN: true }),
        }),
        async (o) => {
          const pairOptions: PairOptions = {
            stream: stream({ seed: o.seed, keys: 3, messagesPerKey: 120 }),
            dropA: o.dropA,
            dropB: o.dropB,
            lagMsB: o.lag,
            extraCopiesA: o.copiesA,
            extraCopiesB: o.copiesB,
            swapB: o.swapB,
          };
          await withPair(pairOptions, async (p) => {
            const ab = await compare(p.a, p.b);
            const ba = await compare(p.b, p.a);
            for (const k of ab.comparison.byKey) assert.deepEqual(actual(k), expected(p.pair.truth, k.key), k.key);
            const t = ab.comparison.totals;
            const m = ba.comparison.totals;
            assert.deepEqual([m.both, m.onlyA, m.onlyB, m.lostBoth, m.firstA, m.firstB], [t.both, t.onlyB, t.onlyA, t.lostBoth, t.firstB, t.firstA]);
            assert.deepEqual(m.a, t.b);
            assert.deepEqual(m.b, t.a);
            if (t.deltaMs && m.deltaMs) near(m.deltaMs.p50, -t.deltaMs.p50);
            assert.equal(t.merged.lost, t.lostBoth);
          });
        },
      ),
      { numRuns: 15 },
    );
  });
});
