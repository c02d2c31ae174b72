import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { compareLaneName, CompareLanes, missedOnLane } from '../../../../src/timeline/compareLanes';
import { loadComparison } from '../../../../src/timeline/node/loadComparison';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { lanesOf } from '../../../../src/timeline/timelineService';
import { isCompareKind, Kind } from '../../../../src/shared/timelineModel';
import { LaneIndex } from '../../../../src/timeline/laneIndex';
import { queryTimeline } from '../../../../src/timeline/timelineQuery';
import { PairOptions } from '../../../../scripts/lib/abPairGenerator';
import { writePair } from '../../../support/abPairFiles';

const CME16 = resolveOptions({ key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: '16', gapTimeout: '10s' });

const PAIR: PairOptions = {
  stream: {
    seed: 11,
    keys: ['310', '311', 'only-a'],
    messagesPerKey: 300,
    seqBits: 16,
    startSeq: (k) => 65_400 + k * 20,
    reorderFraction: 0,
    redeliveries: 3,
    republishes: 0,
    burstGapMs: 2,
    intraBurstMs: 0.3,
    losses: [{ key: '311', from: 65_450, to: 65_453 }],
  },
  dropA: 0.04,
  dropB: 0.06,
  lagMsB: 3,
  keysOnlyA: ['only-a'],
};

function lines(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
}

describe('compareLanes (a comparison session’s lanes)', () => {
  it('makes a key’s A, B and merged lanes together, named by side and label', () => {
    const lanes = new CompareLanes(['a.jsonl', 'b.jsonl']);
    assert.equal(lanes.lane('ES', 'merged'), 2);
    assert.equal(lanes.lane('NQ', 'b'), 4);
    assert.equal(lanes.lane('ES', 'a'), 0);
    assert.deepEqual(lanes.names, ['ES · A (a.jsonl)', 'ES · B (b.jsonl)', 'ES · merged', 'NQ · A (a.jsonl)', 'NQ · B (b.jsonl)', 'NQ · merged']);
    assert.deepEqual(lanes.roles[4], { key: 'NQ', side: 'b' });
    assert.equal(lanes.find('GC', 'a'), -1);
    assert.equal(compareLaneName('k', 'b', ['x', 'y']), 'k · B (y)');
    const r = { key: 'k', aMissed: [{ from: 1, to: 2, count: 2 }], bMissed: [], lostBoth: [{ from: 5, to: 5, count: 1 }] };
    assert.equal(missedOnLane(r, 'a'), r.aMissed);
    assert.equal(missedOnLane(r, 'merged'), r.lostBoth);
  });
});

describe('loadComparison (two captures as one session)', () => {
  it('logs every copy once, on its key’s merged lane, and sequences each side on its own lane as the generator made them', async () => {
    const p = writePair(PAIR);
    try {
      const { session, comparison } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a.jsonl', 'b.jsonl'] }, CME16);
      const t = p.pair.truth;
      assert.equal(comparison.problem, undefined);
      assert.equal(session.arrivalCount, lines(p.a) + lines(p.b));
      assert.deepEqual(session.keyNames.slice(0, 3), ['310 · A (a.jsonl)', '310 · B (b.jsonl)', '310 · merged']);
      assert.equal(session.keyNames.length, 9);
      for (let i = 0; i < session.arrivalCount; i++) assert.equal(comparison.roles[session.log.key.get(i)].side, 'merged');
      const byName = new Map(session.summary.byKey.map((k) => [k.key, k]));
      for (const [key, k] of t.byKey) {
        assert.equal(byName.get(`${key} · A (a.jsonl)`)!.received, k.aReceived, key);
        assert.equal(byName.get(`${key} · B (b.jsonl)`)!.received, k.bReceived, key);
        // The merged lane delivers each identity once, and loses what both lost.
        assert.equal(byName.get(`${key} · merged`)!.delivered, k.both + k.onlyA + k.onlyB, key);
        assert.equal(byName.get(`${key} · merged`)!.lost, k.lostBoth, key);
        const c = comparison.comparison.byKey.find((x) => x.key === key)!;
        assert.deepEqual([c.both, c.onlyA, c.onlyB, c.lostBoth], [k.both, k.onlyA, k.onlyB, k.lostBoth], key);
      }
      assert.ok(t.totals.onlyA > 0 && t.totals.onlyB > 0 && t.totals.lostBoth > 0, 'the pair has every kind of difference');
      // A merged lane holds both sides' copies: no hot key for that (hot is over 3× the lanes' mean).
      assert.deepEqual(
        lanesOf(session)
          .filter((l) => l.hot)
          .map((l) => l.name),
        [],
      );
      // The merged lane's events are those of a plain load of both files together, but for the
      // duplicates: only a side's own second copies are recorded, not the other side's copy.
      const plain = await loadSession([p.a, p.b], CME16);
      const merged = (s: typeof session, lane: (k: number) => boolean) => {
        const out: string[] = [];
        for (let i = 0; i < s.store.count; i++) {
          const kind = s.store.kind.get(i);
          if (lane(s.store.key.get(i)) && kind !== Kind.duplicate && !isCompareKind(kind)) out.push(`${kind}:${s.store.seq.get(i)}:${s.store.cause.get(i)}`);
        }
        return out;
      };
      assert.deepEqual(
        merged(session, (k) => k >= 0 && comparison.roles[k].side === 'merged'),
        merged(plain.session, (k) => k >= 0),
      );
      let crossSide = 0;
      for (const key of t.byKey.keys()) {
        const [a, b, m] = ['A (a.jsonl)', 'B (b.jsonl)', 'merged'].map((side) => session.keyIndex(`${key} · ${side}`));
        const dups = (lane: number) => session.store.keys[lane]?.duplicate.length ?? 0;
        assert.equal(dups(m), dups(a) + dups(b), `${key}: the merged lane's duplicates are the sides' own`);
        assert.equal(byName.get(`${key} · merged`)!.duplicates, dups(m), key);
        crossSide += plain.session.summary.byKey.find((k) => k.key === key)!.duplicates - dups(m);
      }
      assert.ok(crossSide > 0, 'the other side’s copies were left out');
      assert.ok(t.totals.aDuplicates + t.totals.bDuplicates > 0, 'the pair has a side’s own duplicates');
      // Every side-lane event is caused by an arrival of that side.
      const firstB = 1;
      for (let i = 0; i < session.store.count; i++) {
        const k = session.store.key.get(i);
        const a = session.store.arrival.get(i);
        if (k < 0 || a < 0 || comparison.roles[k].side === 'merged') continue;
        assert.equal(session.log.file.get(a) >= firstB ? 'b' : 'a', comparison.roles[k].side);
      }
    } finally {
      p.remove();
    }
  });

  it('records on each merged lane the numbers only A had, only B had and both lost, as ranges placed where they happened', async () => {
    const p = writePair(PAIR);
    try {
      const { session, comparison } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a.jsonl', 'b.jsonl'] }, CME16);
      const s = session.store;
      const lanes = lanesOf(session);
      for (const c of comparison.comparison.byKey) {
        const m = session.keyIndex(`${c.key} · merged`);
        const ke = s.keys[m];
        const sums = { onlyA: 0, onlyB: 0, lostBoth: 0 };
        let lastT1 = -Infinity;
        for (let i = 0; i < ke.compared.length; i++) {
          const id = ke.compared.get(i);
          const v = session.event(id);
          assert.ok(v.kind === 'onlyA' || v.kind === 'onlyB' || v.kind === 'lostBoth', v.kind);
          sums[v.kind] += v.count ?? NaN;
          assert.deepEqual(v.sides, ['A (a.jsonl)', 'B (b.jsonl)']);
          assert.ok(v.t0 <= v.t1 && v.t1 >= lastT1, 'placed in time, sorted by t1');
          lastT1 = v.t1;
          // Caused at the end of input: step-through replay's counts stay those of the sequencer.
          assert.equal(s.cause.get(id), session.arrivalCount);
          // Neither in the lane's event list nor on its side lanes.
          assert.equal(comparison.roles[s.key.get(id)].side, 'merged');
        }
        assert.deepEqual(sums, { onlyA: c.onlyA, onlyB: c.onlyB, lostBoth: c.lostBoth }, c.key);
        const expected = c.onlyA + c.onlyB + c.lostBoth ? { onlyA: c.onlyA, onlyB: c.onlyB, lostBoth: c.lostBoth } : undefined;
        assert.deepEqual(lanes[m].compared, expected, c.key);
        assert.equal(lanes[m - 1].compared, undefined);
      }
      // Pages list them with the lane's findings: with or without a filter, at any replay position.
      const m310 = session.keyIndex('310 · merged');
      const { start, end } = session.timeRange;
      const ids = (lp: { findings: { id: number[] } }) => lp.findings.id.filter((id) => isCompareKind(s.kind.get(id)));
      const all = [...s.keys[m310].compared.data.subarray(0, s.keys[m310].compared.length)];
      assert.ok(all.length > 0);
      const q = { t0: start, t1: end, buckets: 400, lanes: [m310] };
      assert.deepEqual(ids(new LaneIndex(session).lane(m310, start, end, 400)), all);
      assert.deepEqual(ids(queryTimeline(session, { ...q, position: 1 }).lanes[0]), all);
      const noOnlyA = queryTimeline(session, q, { kinds: new Set([Kind.message, Kind.gap, Kind.onlyB, Kind.lostBoth]) });
      assert.deepEqual(
        ids(noOnlyA.lanes[0]),
        all.filter((id) => s.kind.get(id) !== Kind.onlyA),
      );
      // A range both lost sits over the merged lane's gap.
      const m311 = session.keyIndex('311 · merged');
      const lost = session.event(s.keys[m311].compared.data.find((id) => s.kind.get(id) === Kind.lostBoth && s.seq.get(id) === 65_450)!);
      const gap = session.event(s.keys[m311].gap.data.find((id) => s.seq.get(id) <= 65_450 && s.seqTo.get(id) >= 65_453)!);
      assert.deepEqual([lost.seqTo, lost.count, lost.t0, lost.t1], [65_453, 4, gap.t0, gap.t1]);
      // An only-A range runs from the arrival of its first number to that of its last.
      const onlyA = session.event(s.keys[m311].compared.data.find((id) => s.kind.get(id) === Kind.onlyA)!);
      const arrivedAt = (seq: number) => {
        for (let a = 0; a < session.arrivalCount; a++) if (session.log.key.get(a) === m311 && session.log.seq.get(a) === seq) return session.log.time.get(a);
        return NaN;
      };
      assert.deepEqual(
        [onlyA.t0, onlyA.t1],
        [Math.min(arrivedAt(onlyA.seq!), arrivedAt(onlyA.seqTo!)), Math.max(arrivedAt(onlyA.seq!), arrivedAt(onlyA.seqTo!))],
      );
    } finally {
      p.remove();
    }
  });

  it('compares a capture with itself: everything on both sides, no misses, Δt 0', async () => {
    const p = writePair({ ...PAIR, dropA: 0, dropB: 0, keysOnlyA: [] });
    try {
      const { session, comparison } = await loadComparison({ a: [p.a], b: [p.a], labels: ['a.jsonl', 'a.jsonl'] }, CME16);
      const t = comparison.comparison.totals;
      assert.deepEqual([t.onlyA, t.onlyB, t.deltaMs?.max], [0, 0, 0]);
      assert.ok(t.both > 0);
      const gapsOn = (side: string) => session.summary.byKey.filter((_, i) => comparison.roles[i].side === side).reduce((n, k) => n + k.gaps, 0);
      assert.equal(gapsOn('a'), gapsOn('b'));
    } finally {
      p.remove();
    }
  });

  it('names the side that holds nothing to compare', async () => {
    const p = writePair(PAIR);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(p.b, '');
    try {
      const { comparison } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a.jsonl', 'b.jsonl'] }, CME16);
      assert.match(comparison.problem ?? '', /^side B \(b\.jsonl\) holds no records/);
    } finally {
      p.remove();
    }
  });
});

describe('loadSession after the builder learnt lanes', () => {
  it('loads a capture whose every record is invalid: each logged as invalid, none on a lane', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-invalid-'));
    try {
      // Records without the Channel attribute the options key them by.
      const file = join(dir, 'unkeyed.jsonl');
      const line = (id: number) =>
        JSON.stringify({ message: { messageId: String(id), publishTime: '2026-01-01T00:00:00Z', attributes: { MsgSeqNum: String(id) } } });
      writeFileSync(file, `${line(1)}\n${line(2)}\n`);
      const { session } = await loadSession([file], CME16);
      assert.equal(session.arrivalCount, 2);
      assert.deepEqual([session.log.key.get(0), session.log.key.get(1)], [-1, -1]);
      assert.equal(session.summary.invalid, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
