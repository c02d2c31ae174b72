import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { Kind } from '../../../src/shared/timelineModel';
import { comparisonIndex, ComparisonFacts, sideLaneOf } from '../../../src/timeline/compareLanes';
import { TimelineService } from '../../../src/timeline/timelineService';
import { unpackPage } from '../../../src/shared/pageWire';
import { inRun, missedRangeEvent } from '../../../src/timeline/compareReveal';
import { comparisonNotes, sidesLine, totalsLine } from '../../../src/timeline/comparisonWords';
import { loadComparison } from '../../../src/timeline/node/loadComparison';
import { ReplayCursor } from '../../../src/timeline/replayCursor';
import { writePair } from '../../support/abPairFiles';

const CME16 = resolveOptions({ key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: '16', gapTimeout: '10s' });

/** Rewrites a capture without the lines numbered in `drop`. */
function dropNumbers(path: string, drop: readonly number[]): void {
  const gone = new Set(drop);
  const kept = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l === '' || !gone.has(Number(JSON.parse(l).message.attributes.MsgSeqNum)));
  writeFileSync(path, kept.join('\n'));
}

describe('compareReveal (where a missed range shows in a comparison session)', () => {
  it('tells a number inside a run, across the wrap too', () => {
    assert.ok(inRun(5, 3, 7) && !inRun(8, 3, 7));
    assert.ok(inRun(65_535, 65_534, 1) && inRun(0, 65_534, 1) && !inRun(2, 65_534, 1));
  });

  it('shows a range by the gap its lane declared over it, else by the other side’s copy of its first number', async () => {
    const p = writePair({
      stream: { seed: 3, keys: 1, messagesPerKey: 200, startSeq: 100, reorderFraction: 0, redeliveries: 0, republishes: 0, burstGapMs: 2, intraBurstMs: 0.3 },
    });
    try {
      // A misses 110–112 (in its middle: a gap); B misses 100–101 (before its first number: no gap); both miss 150.
      dropNumbers(p.a, [110, 111, 112, 150]);
      dropNumbers(p.b, [100, 101, 150]);
      const { session, comparison: f } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a', 'b'] }, CME16);
      const ix = comparisonIndex(f);
      const r = ix.rangesOf('310')!;
      assert.deepEqual(r.aMissed, [{ from: 110, to: 112, count: 3 }]);
      assert.deepEqual(r.bMissed, [{ from: 100, to: 101, count: 2 }]);
      assert.deepEqual(r.lostBoth, [{ from: 150, to: 150, count: 1 }]);
      const at = (side: 'a' | 'b' | 'merged', range: (typeof r.aMissed)[number]) => {
        const id = missedRangeEvent(session, ix.laneOf, { key: '310', side }, range)!;
        assert.notEqual(id, undefined, side);
        return { lane: f.roles[session.store.key.get(id)].side, kind: session.store.kind.get(id), seq: session.store.seq.get(id) };
      };
      assert.deepEqual(at('a', r.aMissed[0]), { lane: 'a', kind: Kind.gap, seq: 110 });
      assert.deepEqual(at('b', r.bMissed[0]), { lane: 'a', kind: Kind.message, seq: 100 });
      assert.deepEqual(at('merged', r.lostBoth[0]), { lane: 'merged', kind: Kind.gap, seq: 150 });
      assert.equal(missedRangeEvent(session, ix.laneOf, { key: '310', side: 'a' }, { count: 2 }), undefined);
      assert.equal(sidesLine(f), `A: a (${f.sides[0].valid} records) ⇄ B: b (${f.sides[1].valid} records)`);
      assert.equal(totalsLine(f), 'both 194, only A 2, only B 3, lost in both 1; A (a) missed 3 in 1 run, B (b) missed 2 in 1 run');
    } finally {
      p.remove();
    }
  });
});

describe('comparisonWords', () => {
  const facts = (o: Partial<ComparisonFacts['comparison']>, spread: ComparisonFacts['spread']): ComparisonFacts =>
    ({
      labels: ['feed-a', 'feed-b'],
      comparison: { byKey: [{}, {}], ranges: [], sharedKeys: 2, ...o },
      spread,
    }) as unknown as ComparisonFacts;

  it('says when the sides share no key', () => {
    assert.deepEqual(comparisonNotes(facts({ sharedKeys: 0 }, undefined)), [
      'no shared key: A and B have no key in common (2 keys in all) — are they of one stream, sequenced with the same key?',
    ]);
  });

  it('says when Δt looks like two clocks apart rather than one feed leading, and when it looks like a lead', () => {
    const [offset] = comparisonNotes(facts({}, { count: 500, p10: 248, p50: 250, p90: 252 }));
    assert.match(offset, /median Δt 250 ?ms, nearly the same for every message: this suggests the two machines' clocks differ by about 250 ?ms/);
    const [lead] = comparisonNotes(facts({}, { count: 500, p10: 1, p50: 30, p90: 90 }));
    assert.match(lead, /feed-b lagged feed-a by a median 30 ?ms/);
    assert.deepEqual(comparisonNotes(facts({}, { count: 500, p10: 0, p50: 0, p90: 0 })), []);
  });
});

describe('step-through replay of a comparison session', () => {
  it('runs over the merged stream: every arrival on its key’s merged lane, key states named by the session’s own lane indexes', async () => {
    const p = writePair({
      stream: { seed: 4, keys: 2, messagesPerKey: 100, startSeq: 10, reorderFraction: 0, redeliveries: 0, republishes: 0, burstGapMs: 2, intraBurstMs: 0.3 },
      dropA: 0.1,
    });
    try {
      const { session, comparison: f } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a', 'b'] }, CME16);
      const cursor = new ReplayCursor(session, CME16);
      for (const at of [1, 57, session.arrivalCount]) {
        const st = cursor.stateAt(at);
        assert.match(st.current!.key, / · merged$/);
        assert.ok(st.keys.length > 0);
        for (const k of st.keys) assert.equal(session.keyNames[k.keyIndex], k.key);
        assert.ok(st.keys.every((k) => f.roles[k.keyIndex].side === 'merged'));
      }
    } finally {
      p.remove();
    }
  });
});

describe('a comparison session’s lanes while replaying', () => {
  it('count each arrival as received on its side’s lane and on the merged lane, up to every position and at the end as the summary does', async () => {
    const p = writePair({
      stream: { seed: 6, keys: 2, messagesPerKey: 80, startSeq: 10, reorderFraction: 0, redeliveries: 2, republishes: 0, burstGapMs: 2, intraBurstMs: 0.3 },
      dropA: 0.1,
      dropB: 0.1,
    });
    try {
      const { session, comparison: f } = await loadComparison({ a: [p.a], b: [p.b], labels: ['a', 'b'] }, CME16);
      const svc = new TimelineService(session, { id: 'c', title: 'a ⇄ b', options: '' });
      svc.alsoReceivedOn = sideLaneOf(session.log, 1);
      const { start, end } = session.timeRange;
      const lanes = session.keyNames.map((_, i) => i);
      const n = session.arrivalCount;
      for (const at of [7, n, n + 1, 3]) {
        svc.position = at;
        const reply = await svc.handle({ type: 'requestPage', requestId: 1, t0: start, t1: end, buckets: 50, lanes });
        assert.ok(reply?.type === 'page');
        for (const lane of unpackPage(JSON.parse(JSON.stringify(reply.page))).lanes) {
          const role = f.roles[lane.key];
          let received = 0;
          for (let i = 0; i < Math.min(at, n); i++) {
            const side = session.log.file.get(i) === 0 ? 'a' : 'b';
            if (f.roles[session.log.key.get(i)].key === role.key && (role.side === 'merged' || role.side === side)) received++;
          }
          assert.equal(lane.countsAt!.received, received, `${session.keyNames[lane.key]} at ${at}`);
          if (at > n) assert.equal(received, session.summary.byKey[lane.key].received);
        }
      }
    } finally {
      p.remove();
    }
  });
});
