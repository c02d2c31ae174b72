import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import type { CaptureSession } from '../../../src/timeline/captureSession';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { queryTimeline } from '../../../src/timeline/timelineQuery';
import { LaneIndex } from '../../../src/timeline/laneIndex';
import { unpackPage } from '../../../src/shared/pageWire';
import { TimelineService } from '../../../src/timeline/timelineService';
import { mulberry32 } from '../../../scripts/lib/captureGenerator';
import type { ReceivedMessage } from '../../../src/core/capture/captureRecord';
import { LiveFeed } from '../../../src/timeline/liveFeed';
import { receivedMessage, T0 } from '../../support/captureLines';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');

/** Deterministic windows, so a failure can be replayed. */
const rng = mulberry32;

describe('LaneIndex (indexed lane pages, as queryTimeline answers them)', function () {
  this.timeout(30_000);
  let session: CaptureSession;

  before(async () => {
    session = (await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }))).session;
  });

  it('answers exactly what queryTimeline answers, on random windows and resolutions', () => {
    const index = new LaneIndex(session);
    const { start, end } = session.timeRange;
    const random = rng(42);
    let density = 0;
    let marks = 0;
    for (let n = 0; n < 600; n++) {
      // Spans from 50 µs to the whole session, so both answers (marks, density) come up.
      const span = (end - start) * 10 ** (-6 + random() * 6.1);
      const t0 = start - span * 0.1 + random() * (end - start);
      const t1 = t0 + span;
      const buckets = 1 + Math.floor(random() * 400);
      for (let key = 0; key < session.keyNames.length; key++) {
        const fast = index.lane(key, t0, t1, buckets);
        const slow = queryTimeline(session, { t0, t1, buckets, lanes: [key] }).lanes[0];
        assert.deepEqual(fast, slow, `window ${n} [${t0}, ${t1}] × ${buckets}, key ${key}`);
        if (slow.density) density++;
        else if (slow.marks?.id.length) marks++;
      }
    }
    assert.ok(density > 100 && marks > 100, `density ${density}, marks ${marks}`);
  });

  it('answers a growing session as queryTimeline does, counting on from where the same window was counted before', () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '2s' }));
    const index = new LaneIndex(feed.session);
    const random = rng(7);
    const keys = ['310', '311', '312'];
    const next = keys.map(() => 1);
    let t = 0;
    let resumed = 0;
    for (let step = 0; step < 300; step++) {
      for (let i = Math.floor(random() * 30); i > 0; i--) {
        t += random() * 20;
        const k = Math.floor(random() * keys.length);
        const r = random();
        // Holes (held messages, gaps declared on the clock), duplicates, and in-order numbers.
        if (r < 0.03) next[k] += 1 + Math.floor(random() * 3);
        const seq = r > 0.97 ? next[k] - 1 : next[k]++;
        feed.push(receivedMessage({ t, channel: keys[k], seq }) as unknown as ReceivedMessage, -1, 0, T0 + t);
      }
      t += 50;
      feed.tick(T0 + t);
      feed.refresh();
      index.grew();
      // Windows a follower asks for: one fixed while the session fills it, and one that moves.
      const windows = [
        [T0, T0 + 40_000, 64],
        [T0 + t - 3_000, T0 + t + 1_000, 32],
      ];
      for (const [t0, t1, buckets] of windows) {
        for (let key = 0; key < keys.length; key++) {
          const fast = index.lane(key, t0, t1, buckets);
          const slow = queryTimeline(feed.session, { t0, t1, buckets, lanes: [key] }).lanes[0];
          assert.deepEqual(fast, slow, `step ${step}, window [${t0}, ${t1}] × ${buckets}, key ${key}`);
          if (fast.density && t0 === T0) resumed++;
        }
      }
    }
    assert.ok(resumed > 100, `density lanes counted on from the last count: ${resumed}`);
  });

  it('lists held messages whose span reaches into the window from beyond its end', () => {
    const index = new LaneIndex(session);
    // A gap's declaration releases the messages held behind it: just before it, they are spans.
    for (let key = 0; key < session.keyNames.length; key++) {
      for (const g of session.findings(key, 'gap', 0, 10)) {
        const t0 = g.t1 - 5;
        const t1 = g.t1 - 1;
        const fast = index.lane(key, t0, t1, 100);
        const slow = queryTimeline(session, { t0, t1, buckets: 100, lanes: [key] }).lanes[0];
        assert.deepEqual(fast, slow);
        assert.ok(slow.marks && slow.marks.id.some((id) => session.event(id).t1 > t1), 'a held message crossing the window end');
      }
    }
  });

  it('caps findings like queryTimeline and counts the rest', () => {
    const index = new LaneIndex(session);
    const { start, end } = session.timeRange;
    const key = session.summary.byKey.findIndex((k) => k.duplicates > 0);
    const fast = index.lane(key, start, end, 1);
    const slow = queryTimeline(session, { t0: start, t1: end, buckets: 1, lanes: [key] }).lanes[0];
    assert.deepEqual(fast, slow);
    assert.ok(fast.density);
    assert.equal(fast.findings.id.length, session.findingCount(key, 'gap') + session.findingCount(key, 'duplicate') + session.findingCount(key, 'late'));
  });
});

describe('TimelineService pages (indexed without a filter, queryTimeline with one)', function () {
  this.timeout(30_000);

  it('answers every requestPage exactly as queryTimeline does: unfiltered, filtered, at a replay position', async () => {
    const INVALID = join(__dirname, '..', '..', 'fixtures', 'captures', 'with-invalid.jsonl');
    const session = (await loadSession([SAMPLE, INVALID], resolveOptions({ preset: 'cme' }))).session;
    const service = new TimelineService(session, { id: 's', title: 't', options: '' });
    const { start, end } = session.timeRange;
    const lanes = session.keyNames.map((_, i) => i);
    const random = rng(7);
    const ask = async (requestId: number, t0: number, t1: number, buckets: number) => {
      const reply = await service.handle({ type: 'requestPage', requestId, t0, t1, buckets, lanes });
      assert.ok(reply && reply.type === 'page');
      // Unpacked as the webview does: it must be the very page.
      return unpackPage(reply.page);
    };
    const check = async (label: string) => {
      for (let n = 0; n < 40; n++) {
        const span = (end - start) * random() ** 3 + 0.05;
        const t0 = start - span / 2 + random() * (end - start);
        const buckets = 1 + Math.floor(random() * 3000);
        const got = await ask(n, t0, t0 + span, buckets);
        // At a replay position each lane also carries its counts there (checked in session.test.ts).
        for (const l of got.lanes) {
          assert.equal(l.countsAt !== undefined, service.position !== undefined, `${label}: counts only at a position`);
          delete l.countsAt;
        }
        assert.deepEqual(
          got,
          queryTimeline(session, { t0, t1: t0 + span, buckets, lanes, position: service.position }, service.eventFilter),
          `${label}, window ${n}`,
        );
      }
    };
    assert.ok(session.store.invalid.length > 0, 'the page frame carries invalid records too');
    await check('unfiltered');
    await service.setFilter({ kinds: ['gap', 'duplicate'] });
    await check('filtered');
    await service.setFilter({});
    service.position = Math.floor(session.arrivalCount / 2);
    await check('at a replay position');
  });
});
