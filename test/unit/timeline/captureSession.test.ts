import assert from 'node:assert/strict';
import { StringColumn } from '../../../src/timeline/columns';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { heldRuns, ReplayCursor } from '../../../src/timeline/replayCursor';
import { KeyStateView } from '../../../src/shared/timelineModel';
import { queryTimeline, overview } from '../../../src/timeline/timelineQuery';
import { restoreSession, snapshotSession } from '../../../src/timeline/sessionSnapshot';
import { unpackPage } from '../../../src/shared/pageWire';
import { TimelineService } from '../../../src/timeline/timelineService';
import { CaptureSession } from '../../../src/timeline/captureSession';
import { Sequencer } from '../../../src/core/sequencer/sequencer';
import { runReplay } from '../../../src/core/replay/replayRun';
import { TraceEvent } from '../../../src/core/trace/traceEvents';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const CME = resolveOptions({ preset: 'cme' });
const nodeB64 = { encode: (b: Uint8Array) => Buffer.from(b).toString('base64'), decode: (t: string) => new Uint8Array(Buffer.from(t, 'base64')) };

describe('CaptureSession (the extension’s model of a loaded capture)', function () {
  this.timeout(30_000);
  let session: CaptureSession;
  let trace: TraceEvent[];

  before(async () => {
    session = (await loadSession([SAMPLE], CME)).session;
    trace = [];
    await runReplay({ paths: [SAMPLE], options: CME, listener: (e) => trace.push(e) });
  });

  it('holds exactly the events a CLI replay emits, in the same order', () => {
    assert.equal(session.store.count, trace.length);
    trace.forEach((ev, id) => {
      const v = session.event(id);
      assert.equal(v.kind, ev.type, `event ${id}`);
      if (ev.type === 'message' || ev.type === 'duplicate' || ev.type === 'late') {
        assert.equal(v.key, ev.key);
        assert.equal(v.seq, ev.seq);
        assert.equal(v.messageId, ev.messageId);
        assert.equal(v.line, ev.line);
      }
      if (ev.type === 'gap') assert.deepEqual([v.seq, v.seqTo, v.count, v.t0, v.t1], [ev.from, ev.to, ev.count, ev.openedAt, ev.declaredAt]);
      if (ev.type === 'duplicate') assert.equal(v.redelivery, ev.redelivery);
    });
  });

  it('counts per key at the end equal the summary', () => {
    session.summary.byKey.forEach((k, i) => {
      const c = session.keyCountsAt(i, session.arrivalCount + 1);
      assert.deepEqual([c.delivered, c.gaps, c.lost, c.duplicates, c.late], [k.delivered, k.gaps, k.lost, k.duplicates, k.late], k.key);
    });
    const all = session.countsAt(Infinity);
    assert.equal(all.delivered, session.summary.delivered);
    assert.equal(all.gaps, session.summary.gaps);
  });

  it('pages findings per key', () => {
    const k = session.summary.byKey.findIndex((x) => x.duplicates > 1);
    assert.ok(k >= 0);
    const first = session.findings(k, 'duplicate', 0, 1);
    const rest = session.findings(k, 'duplicate', 1, 1000);
    assert.equal(first.length + rest.length, session.findingCount(k, 'duplicate'));
    assert.ok(first[0].t1 <= rest[0].t1);
  });

  describe('ReplayCursor', () => {
    /** The state at p from scratch: a fresh sequencer fed arrivals 0..p−1. */
    function reference(p: number) {
      const seq = new Sequencer<number>(
        { gapTimeoutMs: CME.gapTimeoutMs, capacity: CME.capacity, seqBits: CME.seqBits, sequenced: true },
        { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} },
      );
      const log = session.log;
      for (let i = 0; i < Math.min(p, log.count); i++) {
        const k = log.key.get(i);
        if (k < 0) continue;
        seq.advance(log.time.get(i));
        seq.offer(session.keyNames[k], log.seq.get(i), log.messageId.get(i), i);
      }
      if (p > log.count) seq.finish();
      return seq.keyStates.map((k) => ({ key: k.name, expected: seq.expectedNumber(k), held: seq.heldNumbers(k) }));
    }

    /** A key's held runs as numbers (a run may span the wrap to 0), or all of them when it lists every run. */
    function heldOf(k: KeyStateView): number[] | string {
      if (k.heldMore) return 'more runs than shown';
      const out: number[] = [];
      for (const [from, to] of k.heldRuns)
        for (let n = from; ; n = (n + 1) % 2 ** CME.seqBits) {
          out.push(n);
          if (n === to) break;
        }
      assert.equal(out.length, k.heldCount, `${k.key}: the runs hold heldCount numbers`);
      return out;
    }

    it('gives the exact state at any position, stepping forward, back, or jumping', () => {
      const cursor = new ReplayCursor(session, CME);
      const n = session.arrivalCount;
      const positions = [0, 1, 2, 50, 49, 48, 1500, 10, n, n + 1, n - 1, Math.floor(n / 2), Math.floor(n / 2) + 1, 3];
      for (const p of positions) {
        const st = cursor.stateAt(p);
        assert.equal(st.position, p);
        const ref = reference(p).filter((k) => k.held.length > 0);
        const got = st.keys.filter((k) => k.heldCount > 0);
        assert.deepEqual(got.map((k) => [k.key, k.expected, heldOf(k)]).sort(), ref.map((k) => [k.key, k.expected, k.held]).sort(), `position ${p}`);
      }
    });

    it('steps back from a checkpoint left near the cursor when the fixed ones are far apart (many keys)', () => {
      // A budget for one checkpoint: only position 0, as with 100 000 keys.
      const cursor = new ReplayCursor(session, CME, 1);
      const n = session.arrivalCount;
      assert.ok(n > 2048, 'the sample spans more than two floating steps');
      let offers = 0;
      const offer = Sequencer.prototype.offer;
      Sequencer.prototype.offer = function (this: Sequencer<number>, ...args: Parameters<typeof offer>) {
        offers++;
        return offer.apply(this, args);
      };
      try {
        const rerun: number[] = [];
        for (const p of [n - 1, n - 2, n - 3, 2049, 2048, 2047, 2046, 1500, 1499, n, 3]) {
          offers = 0;
          const st = cursor.stateAt(p);
          rerun.push(offers);
          const ref = reference(p).filter((k) => k.held.length > 0);
          const got = st.keys.filter((k) => k.heldCount > 0);
          assert.deepEqual(got.map((k) => [k.key, k.expected, heldOf(k)]).sort(), ref.map((k) => [k.key, k.expected, k.held]).sort(), `position ${p}`);
        }
        // The first step back re-runs from the start and leaves a checkpoint at 2048; the steps
        // after it re-run from there, until one goes below it (2047: from the start again, and
        // a checkpoint at 1024 for the next ones).
        assert.ok(rerun[1] > 2048 && rerun[5] > 1024, `from the start: ${rerun[1]}, ${rerun[5]}`);
        for (const i of [2, 3, 4, 6, 7, 8]) assert.ok(rerun[i] <= 1024, `step ${i} re-ran ${rerun[i]} arrivals`);
      } finally {
        Sequencer.prototype.offer = offer;
      }
    });

    it('keeps checkpoints of a session without sequence numbers small: they carry no messageId memory', async () => {
      // With --seq none the engine tracks the last 2^20 messageIds over all keys; the cursor's
      // re-run sequencer needs none of them (the event store says which arrivals were duplicates),
      // and every checkpoint would copy them.
      const plain = resolveOptions({});
      const loaded = (await loadSession([SAMPLE], plain)).session;
      const cursor = new ReplayCursor(loaded, plain, 1);
      cursor.stateAt(loaded.arrivalCount);
      cursor.stateAt(1500);
      const held = cursor as unknown as { checkpoints: { seq: Sequencer<number> }[]; live: Sequencer<number>; floating?: { seq: Sequencer<number> } };
      const copies = [...held.checkpoints.map((c) => c.seq), held.live, ...(held.floating ? [held.floating.seq] : [])];
      assert.ok(copies.length >= 2);
      for (const seq of copies) assert.ok(seq.idMemorySize <= 2, `a copy tracks ${seq.idMemorySize} messageIds`);
      // The same run through an engine of the session's own options tracks every one of them.
      const full = new Sequencer<number>(
        { gapTimeoutMs: plain.gapTimeoutMs, capacity: plain.capacity, seqBits: plain.seqBits, sequenced: false },
        { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} },
      );
      for (let i = 0; i < loaded.log.count; i++)
        if (loaded.log.key.get(i) >= 0) full.offer(loaded.keyNames[loaded.log.key.get(i)], 0, loaded.log.messageId.get(i), i);
      assert.ok(full.idMemorySize > 2900, `${full.idMemorySize}`);
    });

    it('reports what was emitted up to the position and finds the next finding', () => {
      const cursor = new ReplayCursor(session, CME);
      const p = session.nextPositionOf('gap', 0)!;
      assert.ok(p > 0);
      const before = cursor.stateAt(p - 1);
      const at = cursor.stateAt(p);
      assert.equal(at.counts.gaps, before.counts.gaps + 1, 'stepping onto the position reveals the gap');
      assert.equal(cursor.stateAt(session.arrivalCount + 1).counts.delivered, session.summary.delivered);
      assert.equal(cursor.stateAt(0).counts.delivered, 0);
    });
  });

  describe('timeline queries', () => {
    it('returns individual marks when zoomed in and density when zoomed out, never losing a message', () => {
      const { start, end } = session.timeRange;
      const lanes = session.keyNames.map((_, i) => i);
      const zoomedOut = queryTimeline(session, { t0: start, t1: end, buckets: 50, lanes });
      let counted = 0;
      for (const l of zoomedOut.lanes) {
        assert.ok(l.density, 'thousands of messages in 50 buckets: density');
        counted += l.density!.reduce((a, b) => a + b, 0);
      }
      assert.equal(counted, session.summary.delivered);
      const gaps = zoomedOut.lanes.reduce((a, l) => a + l.findings.kind.filter((k) => k === 1).length, 0);
      assert.equal(gaps, session.summary.gaps, 'gaps are always individual');

      const zoomedIn = queryTimeline(session, { t0: start, t1: start + 20_000, buckets: 2000, lanes });
      assert.ok(
        zoomedIn.lanes.every((l) => l.marks),
        'a few seconds: individual marks',
      );
    });

    it('shows only what was emitted before the replay position', () => {
      const { start, end } = session.timeRange;
      const page = queryTimeline(session, { t0: start, t1: end, buckets: 10_000, lanes: [0, 1, 2], position: 100 });
      const shown = page.lanes.reduce((a, l) => a + (l.marks?.id.length ?? 0) + l.findings.id.length, 0);
      assert.equal(shown, session.countsAt(100).delivered + session.countsAt(100).gaps + session.countsAt(100).duplicates + session.countsAt(100).late);
    });

    it('builds an overview of the arrival rate', () => {
      const o = overview(session, 100);
      assert.equal(
        o.arrivals.reduce((a, b) => a + b, 0),
        session.arrivalCount - session.summary.invalid,
      );
      assert.equal(
        o.gaps.reduce((a, b) => a + b, 0),
        session.summary.gaps,
      );
    });
  });

  it('TimelineService applies a filter to pages and overview', async () => {
    const svc = new TimelineService(session, { id: 's1', title: 'sample', options: '' });
    await svc.setFilter({ kinds: ['gap'] });
    const { start, end } = session.timeRange;
    const reply = await svc.handle({ type: 'requestPage', requestId: 7, t0: start, t1: end, buckets: 100, lanes: [0, 1, 2] });
    assert.ok(reply && reply.type === 'page');
    assert.equal(reply.requestId, 7);
    const kinds = unpackPage(reply.page).lanes.flatMap((l) => [...(l.marks?.kind ?? []), ...l.findings.kind]);
    assert.ok(kinds.length > 0 && kinds.every((k) => k === 1));
    const o = svc.overview();
    assert.equal(
      o.duplicates.reduce((a, b) => a + b, 0),
      0,
      'the overview marks only findings that pass the filter',
    );
    assert.equal(
      o.gaps.reduce((a, b) => a + b, 0),
      session.summary.gaps,
    );
  });

  it('TimelineService gives each lane its counts up to the replay position, stepping either way', async () => {
    const svc = new TimelineService(session, { id: 's1', title: 'sample', options: '' });
    const { start, end } = session.timeRange;
    const lanes = session.keyNames.map((_, i) => i);
    const page = async () => {
      const reply = await svc.handle({ type: 'requestPage', requestId: 1, t0: start, t1: end, buckets: 100, lanes });
      assert.ok(reply?.type === 'page');
      return unpackPage(JSON.parse(JSON.stringify(reply.page)));
    };
    assert.ok(
      (await page()).lanes.every((l) => l.countsAt === undefined),
      'not replaying: the lanes keep their totals',
    );
    const n = session.arrivalCount;
    for (const p of [0, 1, 100, 1500, 99, n, n + 1, 5]) {
      svc.position = p;
      for (const lane of (await page()).lanes) {
        let received = 0;
        for (let i = 0; i < Math.min(p, n); i++) if (session.log.key.get(i) === lane.key) received++;
        const c = session.keyCountsAt(lane.key, p);
        assert.deepEqual(
          lane.countsAt,
          { received, delivered: c.delivered, gaps: c.gaps, lost: c.lost, duplicates: c.duplicates, late: c.late, reordered: c.reordered, resets: c.resets },
          `key ${lane.key} at ${p}`,
        );
        if (p === n + 1) {
          const k = session.summary.byKey[lane.key];
          assert.deepEqual(
            lane.countsAt,
            {
              received: k.received,
              delivered: k.delivered,
              gaps: k.gaps,
              lost: k.lost,
              duplicates: k.duplicates,
              late: k.late,
              reordered: k.reordered,
              resets: k.resets,
            },
            'the end: the totals',
          );
        }
      }
    }
  });

  it('round-trips through a snapshot (the standalone export’s embedding)', () => {
    const snap = JSON.parse(JSON.stringify(snapshotSession(session, nodeB64, {})));
    const back = restoreSession(snap, nodeB64);
    assert.equal(back.store.count, session.store.count);
    for (const id of [0, 1, Math.floor(session.store.count / 2), session.store.count - 1]) assert.deepEqual(back.event(id), session.event(id));
    assert.deepEqual(back.keyCountsAt(0, Infinity), session.keyCountsAt(0, Infinity));
  });
});

describe('StringColumn', () => {
  it('packs strings of any script and length and gives them back', () => {
    const c = new StringColumn(2);
    // ASCII up to 0x7f, then strings that turn non-ASCII after an ASCII start, short and long.
    const values = [
      '2070443600000000',
      '',
      'é€😀',
      'x'.repeat(5000),
      'ack-42',
      '<img src=x onerror=alert(1)>',
      'id-\u007f',
      'id-\u0080',
      'abcä',
      `${'7'.repeat(63)}é`,
    ];
    for (let round = 0; round < 50; round++) for (const v of values) c.push(v + (round || ''));
    assert.equal(c.length, 50 * values.length);
    // The bytes are UTF-8, whichever way each string was written.
    const { bytes } = c.pack();
    assert.equal(Buffer.from(bytes).toString('utf8'), Array.from({ length: 50 }, (_, round) => values.map((v) => v + (round || '')).join('')).join(''));
    for (let round = 0; round < 50; round++) values.forEach((v, j) => assert.equal(c.get(round * values.length + j), v + (round || '')));
    assert.deepEqual(c.toArray().slice(0, values.length), values);
  });
});

describe("heldRuns (the replay state panel's Held column)", () => {
  const wrap16 = (abs: number) => ((abs % 65536) + 65536) % 65536;
  it('gives runs of consecutive numbers, a run across the wrap as one', () => {
    assert.deepEqual(
      heldRuns([5, 6, 7, 9, 11, 12], 8, (x) => x),
      {
        runs: [
          [5, 7],
          [9, 9],
          [11, 12],
        ],
        more: false,
      },
    );
    assert.deepEqual(heldRuns([65534, 65535, 65536, 65537, 65540], 8, wrap16), {
      runs: [
        [65534, 1],
        [4, 4],
      ],
      more: false,
    });
    assert.deepEqual(
      heldRuns([], 8, (x) => x),
      { runs: [], more: false },
    );
  });
  it('lists at most `max` runs and says when there are more', () => {
    assert.deepEqual(
      heldRuns([1, 3, 5, 6], 2, (x) => x),
      {
        runs: [
          [1, 1],
          [3, 3],
        ],
        more: true,
      },
    );
    assert.deepEqual(
      heldRuns([1, 3, 5, 6], 3, (x) => x),
      {
        runs: [
          [1, 1],
          [3, 3],
          [5, 6],
        ],
        more: false,
      },
    );
  });
});

describe('CaptureSession.nextGapStop (Run to Next Gap)', () => {
  it('stops where a gap opens, then where it is declared — also when the capture ends before the timeout', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-nextgap-'));
    try {
      const path = join(dir, 'short.jsonl');
      // #3 never comes; the capture ends 4 ms later, long before the 10 s gap timeout.
      const seqs = [1, 2, 4, 5];
      const base = Date.parse('2026-12-01T09:00:00Z');
      const line = (seq: number, i: number) =>
        JSON.stringify({
          message: { data: '', attributes: { Channel: '310', MsgSeqNum: String(seq) }, messageId: `m${i}`, publishTime: new Date(base + i).toISOString() },
          receivedAt: new Date(base + i).toISOString(),
        });
      writeFileSync(path, seqs.map(line).join('\n') + '\n');
      const s = (await loadSession([path], CME)).session;
      assert.equal(s.arrivalCount, 4);
      // #4 (arrival index 2) is the first message held behind the gap: stop just after it arrived.
      assert.equal(s.nextGapStop(0), 3, 'where the gap opens, not the end');
      // Then where it is declared: at the end of input (position arrivals + 1).
      assert.equal(s.nextGapStop(3), 5);
      assert.equal(s.nextGapStop(5), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
