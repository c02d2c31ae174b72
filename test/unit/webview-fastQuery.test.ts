import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveOptions } from '../../src/core/sequencingOptions';
import type { CaptureSession } from '../../src/core/session/captureSession';
import { loadSession } from '../../src/core/session/loadSession';
import { queryTimeline } from '../../src/core/session/timelineQuery';
import { LaneIndex } from '../../src/webview/fastQuery';

const SAMPLE = join(__dirname, '..', '..', 'media', 'samples', 'cme-sample.jsonl');

/** mulberry32: deterministic windows, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('webview fastQuery (density pages by binary search)', function () {
  this.timeout(30_000);
  let session: CaptureSession;

  before(async () => {
    session = (await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }))).session;
  });

  it('answers exactly what queryTimeline answers, on random windows and resolutions', () => {
    const index = new LaneIndex(session);
    const { start, end } = session.timeRange;
    const random = rng(42);
    let fastAnswers = 0;
    let borderline = 0;
    for (let n = 0; n < 400; n++) {
      const span = (end - start) * (0.001 + random() * 1.2);
      const t0 = start - span * 0.1 + random() * (end - start);
      const t1 = t0 + span;
      const buckets = 1 + Math.floor(random() * 400);
      for (let key = 0; key < session.keyNames.length; key++) {
        const fast = index.densityLane(key, t0, t1, buckets);
        const slow = queryTimeline(session, { t0, t1, buckets, lanes: [key] }).lanes[0];
        if (fast === undefined) {
          // Left to queryTimeline (the host then asks it): mostly lanes it lists one by one, and
          // the odd lane just over its limit only because of messages held across the window's end.
          if (!slow.marks) borderline++;
          continue;
        }
        fastAnswers++;
        assert.deepEqual(fast, slow, `window ${n} [${t0}, ${t1}] × ${buckets}, key ${key}`);
      }
    }
    assert.ok(fastAnswers > 100, `the fast path answered ${fastAnswers} lanes`);
    assert.ok(borderline < fastAnswers / 20, `declined ${borderline} density lanes`);
  });

  it('caps findings like queryTimeline and counts the rest', () => {
    const index = new LaneIndex(session);
    const { start, end } = session.timeRange;
    // A key with findings, one bucket: density, every finding listed.
    const key = session.summary.byKey.findIndex((k) => k.duplicates > 0);
    const fast = index.densityLane(key, start, end, 1)!;
    const slow = queryTimeline(session, { t0: start, t1: end, buckets: 1, lanes: [key] }).lanes[0];
    assert.deepEqual(fast, slow);
    assert.equal(fast.findings.id.length, session.findingCount(key, 'gap') + session.findingCount(key, 'duplicate') + session.findingCount(key, 'late'));
  });
});
