/**
 * The live window both sides work out: the host's page for a following webview's next request
 * must be the very page the webview asks for (its viewport follows by the same rule), or the
 * refresh goes back to a round trip.
 */
import assert from 'node:assert/strict';
import type { ReceivedMessage } from '../../../src/core/capture/captureRecord';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { followPageWindow, followView, LIVE_MIN_SPAN_MS, liveExtent } from '../../../src/shared/liveWindow';
import { openGapBand } from '../../../src/shared/openGapBand';
import { pageWindow } from '../../../src/shared/paging';
import type { SessionInfo } from '../../../src/shared/protocol';
import { IDLE_REPLAY } from '../../../src/shared/protocol';
import { LiveFeed } from '../../../src/timeline/liveFeed';
import { TimelineService } from '../../../src/timeline/timelineService';
import { TimeWindow } from '../../../src/webview/timeWindow';
import { receivedMessage, T0 } from '../../support/captureLines';

const session = (start: number, end: number, open?: SessionInfo['open']): SessionInfo => ({
  id: 'live',
  title: 'live',
  options: '',
  start,
  end,
  arrivals: 10,
  events: 10,
  lanes: [],
  invalid: 0,
  live: true,
  ...(open ? { open } : {}),
});

/** The page the webview's viewport asks for after `s` arrived (following `window`), at `widthPx`. */
function webviewPage(s: SessionInfo, window: 'all' | number, widthPx: number) {
  const w = new TimeWindow(() => {});
  w.setFollowWindow(window);
  const bands = (s.open ?? []).flatMap((o) => openGapBand(o.key, o.state) ?? []);
  w.open(s, bands, undefined, widthPx);
  const vp = w.vp!;
  return pageWindow({ t0: vp.t0, t1: vp.t1 }, widthPx);
}

describe('shared live window (what following a live session shows, worked out on either side)', () => {
  it('asks for the page the webview asks for: the whole session or its last N ms, any width', () => {
    for (const end of [T0 + 1, T0 + 3_000, T0 + 60_000, T0 + 612_345.5])
      for (const window of ['all', 10_000, 60_000, 300_000] as const)
        for (const widthPx of [320, 1087, 1600]) {
          const s = session(T0, end);
          assert.deepEqual(followPageWindow(s, { window, widthPx }), webviewPage(s, window, widthPx), `${end - T0} ms, ${window}, ${widthPx} px`);
        }
  });

  it('reaches as far as a key waits past the last arrival, as the webview does', () => {
    const open: SessionInfo['open'] = [{ key: 3, state: { kind: 'waiting', expected: 7, waitedMs: 4_000, timeoutMs: 10_000, held: 2, openedAt: T0 + 59_000 } }];
    const s = session(T0, T0 + 60_000, open);
    assert.equal(liveExtent(s).t1, T0 + 63_000);
    for (const window of ['all', 10_000] as const) assert.deepEqual(followPageWindow(s, { window, widthPx: 900 }), webviewPage(s, window, 900));
  });

  it('spans at least LIVE_MIN_SPAN_MS, also before anything has arrived', () => {
    assert.deepEqual(liveExtent(session(T0, T0)), { t0: T0 - LIVE_MIN_SPAN_MS, t1: T0 });
    assert.deepEqual(liveExtent(session(0, -Infinity)), { t0: -LIVE_MIN_SPAN_MS, t1: 0 }, 'no time yet');
  });

  it('keeps the last N ms at the padded end, and the whole session when N is wider', () => {
    assert.deepEqual(followView(0, 100_000, 10_000), { t0: 91_000, t1: 101_000 });
    assert.deepEqual(followView(0, 100_000, 1e9), { t0: -1_000, t1: 101_000 });
    assert.deepEqual(followView(0, 100_000, 'all'), { t0: -1_000, t1: 101_000 });
  });

  it("the host's live init carries that page, the very one a request for it is answered with", async () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '10s' }));
    const push = (t: number, channel: string, seq: number) => feed.push(receivedMessage({ t, channel, seq }) as unknown as ReceivedMessage, -1, 0);
    for (let i = 0; i < 200; i++) push(i * 50, i % 2 ? '310' : '312', 1 + (i >> 1));
    push(10_050, '310', 103); // 101 and 102 missing: a wait past the last arrival
    feed.tick(T0 + 12_000);
    feed.refresh();
    const svc = new TimelineService(feed.session, { id: 'live', title: 'live', options: '' });
    const follow = { window: 'all' as const, widthPx: 1000, lanes: [0, 1] };
    const init = svc.liveInit(IDLE_REPLAY, follow);
    assert.ok(init.session.open?.length, 'a key waits');
    const win = followPageWindow(init.session, follow);
    assert.deepEqual(init.firstPage && { t0: init.firstPage.t0, t1: init.firstPage.t1, lanes: init.firstPage.lanes }, {
      t0: win.t0,
      t1: win.t1,
      lanes: [0, 1],
    });
    const reply = await svc.handle({ type: 'requestPage', requestId: 1, t0: win.t0, t1: win.t1, buckets: win.buckets, lanes: [0, 1] });
    assert.deepEqual(init.firstPage?.page, reply?.type === 'page' ? reply.page : undefined);
    assert.equal(svc.liveInit(IDLE_REPLAY, undefined).firstPage, undefined, 'not following: no page ahead');
  });
});
