import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { compareLaneName, CompareLanes, missedOnLane } from '../../../../src/timeline/compareLanes';
import { loadComparison } from '../../../../src/timeline/node/loadComparison';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { lanesOf } from '../../../../src/timeline/timelineService';
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
      // The merged lane's events are those of a plain load of both files together.
      const plain = await loadSession([p.a, p.b], CME16);
      const merged = (s: typeof session, lane: (k: number) => boolean) => {
        const out: string[] = [];
        for (let i = 0; i < s.store.count; i++) if (lane(s.store.key.get(i))) out.push(`${s.store.kind.get(i)}:${s.store.seq.get(i)}:${s.store.cause.get(i)}`);
        return out;
      };
      assert.deepEqual(
        merged(session, (k) => k >= 0 && comparison.roles[k].side === 'merged'),
        merged(plain.session, (k) => k >= 0),
      );
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
