import assert from 'node:assert/strict';
import type { SessionInfo } from '../../../src/shared/protocol';
import { TimeWindow, ZOOM_STEP } from '../../../src/webview/timeWindow';

const T0 = Date.UTC(2026, 11, 2, 2, 49, 56);

const session = (id: string, end: number, live = false): SessionInfo => ({
  id,
  title: id,
  options: '',
  start: T0,
  end,
  arrivals: 10,
  events: 10,
  lanes: [],
  invalid: 0,
  ...(live ? { live } : {}),
});

describe('webview time window (the viewport across sessions, zoom, pan, fit, follow)', () => {
  it('keeps the window of the same live session as it grows, and makes a new one for another session', () => {
    const w = new TimeWindow(() => {});
    assert.equal(w.open(session('live', T0 + 60_000, true), [], undefined, 800), false);
    const first = w.vp;
    w.setFollowWindow(10_000);
    assert.equal(w.open(session('live', T0 + 120_000, true), [], 'live', 800), true);
    assert.equal(w.vp, first, 'the same viewport');
    assert.equal(w.vp?.domainT1, T0 + 120_000);
    assert.ok(w.vp?.follow);
    assert.equal(w.vp?.span, 10_000, 'following its last 10 s');
    assert.equal(w.open(session('capture', T0 + 60_000), [], 'live', 800), false);
    assert.notEqual(w.vp, first);
    assert.equal(w.vp?.follow, false, 'a capture does not follow');
    assert.equal(w.open(session('live', T0 + 60_000, true), [], 'capture', 800), false);
    assert.equal(w.vp?.followWindow, 10_000, "the user's pick of what following keeps in view stays");
  });

  it('keeps the window of a capture as it loads, following the whole of it unless the user zooms, through its last init', () => {
    const w = new TimeWindow(() => {});
    const loading = (end: number, share?: number) => ({ ...session('c', end), ...(share === undefined ? {} : { loading: share }) });
    assert.equal(w.open(loading(T0 + 10_000, 0.1), [], 'other', 800), false);
    const first = w.vp;
    assert.equal(w.vp?.followWindow, 'all');
    assert.ok(w.vp?.follow, 'it follows the whole session as it grows');
    assert.equal(w.open(loading(T0 + 60_000, 0.5), [], 'c', 800), true);
    assert.equal(w.vp, first, 'the same viewport');
    assert.equal(w.vp?.domainT1, T0 + 60_000);
    w.zoom(ZOOM_STEP);
    const zoomed = { t0: w.vp?.t0, t1: w.vp?.t1 };
    assert.equal(w.open(loading(T0 + 120_000), [], 'c', 800), true, 'its last init (whole) too');
    assert.equal(w.vp, first);
    assert.equal(w.vp?.domainT1, T0 + 120_000);
    assert.deepEqual({ t0: w.vp?.t0, t1: w.vp?.t1 }, zoomed, "the user's zoom stays");
    assert.equal(w.open(loading(T0 + 120_000), [], 'c', 800), false, 'once whole, an init of it makes a new window, as for any capture');
    assert.equal(w.vp?.follow, false);
  });

  it('reports every change; fit all on a live session follows the whole of it', () => {
    let changes = 0;
    const w = new TimeWindow(() => changes++);
    w.open(session('live', T0 + 60_000, true), [], undefined, 800);
    w.toggleFollow();
    assert.equal(w.vp?.follow, false);
    w.fitAll(true);
    assert.equal(w.vp?.state, 'following');
    assert.equal(w.vp?.followWindow, 'all');
    w.zoom(ZOOM_STEP);
    w.pan(-1000);
    assert.equal(w.vp?.state, 'paused', "the user's zoom pauses following");
    assert.equal(changes, 4);
  });
});
