import assert from 'node:assert/strict';
import { FIT_PAD, LANE_BLOCK, laneBlock, MIN_SPAN_MS, pageWindow } from '../../../src/shared/paging';
import { LaneScroll, Viewport } from '../../../src/webview/viewport';

const T0 = Date.UTC(2026, 10, 30, 9, 30);
const T1 = T0 + 120_000;

describe('webview viewport (time ↔ pixels, zoom, pan)', () => {
  it('fits the session with a little padding and maps time to pixels and back', () => {
    const v = new Viewport(T0, T1, 1000);
    const pad = 120_000 * FIT_PAD;
    assert.equal(v.t0, T0 - pad);
    assert.equal(v.t1, T1 + pad);
    assert.ok(v.isFitAll());
    assert.ok(Math.abs(v.timeToX(v.t0)) < 1e-9);
    assert.ok(Math.abs(v.timeToX(v.t1) - 1000) < 1e-9);
    for (const x of [0, 1, 333.5, 999]) assert.ok(Math.abs(v.timeToX(v.xToTime(x)) - x) < 1e-6);
  });

  it('zooms around the pixel under the pointer', () => {
    const v = new Viewport(T0, T1, 1000);
    const anchor = v.xToTime(250);
    v.zoomAt(4, 250);
    assert.ok(Math.abs(v.span - (120_000 * (1 + 2 * FIT_PAD)) / 4) < 1e-6);
    assert.ok(Math.abs(v.xToTime(250) - anchor) < 1e-6, 'the time under x=250 stays put');
    assert.ok(!v.isFitAll());
  });

  it('never zooms out past the session nor in below the minimum span', () => {
    const v = new Viewport(T0, T1, 1000);
    v.zoomAt(0.001, 500);
    assert.ok(v.isFitAll());
    assert.ok(Math.abs(v.span - v.maxSpan) < 1e-6);
    for (let i = 0; i < 100; i++) v.zoomAt(10, 500);
    // t1 − t0 near 1.8e12 ms is exact only to ~0.0002 ms.
    assert.ok(Math.abs(v.span - MIN_SPAN_MS) < 1e-3, `span ${v.span}`);
    assert.ok(Number.isFinite(v.t0) && v.t0 >= T0 - 120_000 * FIT_PAD && v.t1 <= T1 + 120_000 * FIT_PAD);
  });

  it('pans by pixels and keeps the window on the session', () => {
    const v = new Viewport(T0, T1, 1000);
    v.zoomAt(10, 500);
    const span = v.span;
    const t0 = v.t0;
    v.panPx(100);
    assert.ok(Math.abs(v.t0 - (t0 + 100 * (span / 1000))) < 1e-6);
    assert.ok(Math.abs(v.span - span) < 1e-6, 'panning keeps the zoom');
    v.panTime(1e9);
    assert.ok(Math.abs(v.t1 - (T1 + 120_000 * FIT_PAD)) < 1e-6, 'stops at the end');
    v.panTime(-1e9);
    assert.ok(Math.abs(v.t0 - (T0 - 120_000 * FIT_PAD)) < 1e-6, 'stops at the start');
    v.centerOn(T0 + 60_000);
    assert.ok(Math.abs((v.t0 + v.t1) / 2 - (T0 + 60_000)) < 1e-6);
    v.show(T0 + 1000, T0 + 2000);
    assert.ok(Math.abs(v.t0 - (T0 + 1000)) < 1e-6 && Math.abs(v.t1 - (T0 + 2000)) < 1e-6);
  });

  it('handles an empty or instantaneous session', () => {
    const v = new Viewport(T0, T0, 500);
    assert.ok(v.span > 0 && Number.isFinite(v.msPerPx));
    v.zoomAt(2);
    v.panPx(10);
    assert.ok(Number.isFinite(v.t0) && Number.isFinite(v.t1));
  });
});

describe('webview pageWindow (which page to request)', () => {
  it('covers the view with about half a level of margin on each side', () => {
    for (const span of [0.05, 1, 37, 1000, 65_000, 3.6e6]) {
      for (const t0 of [T0, T0 + 0.3, T0 + 12_345.678]) {
        const w = pageWindow({ t0, t1: t0 + span }, 1200);
        const level = 2 ** w.level;
        assert.ok(level >= span && level < span * Math.SQRT2 * 1.0001, `level of ${span}`);
        assert.ok(w.t0 <= t0 - level / 2 + 1e-9, 'left margin');
        assert.ok(w.t1 >= t0 + span + level / 2 - 1e-9, 'right margin');
        assert.equal(w.buckets, Math.round(1200 * ((w.t1 - w.t0) / level)));
      }
    }
  });

  it("spans a power of two, or one times √2 at a half level: a double every engine computes alike (pow(2, k + ½) differs in the last bit between Node's and the webview's)", () => {
    for (const k of [-5, 3, 13, 14, 21, 22]) {
      const half = pageWindow({ t0: T0, t1: T0 + 2 ** k * 1.3 }, 1000);
      const L = 2 ** k * Math.SQRT2;
      assert.equal(half.level, k + 0.5);
      assert.equal(half.t1, half.t0 + (L * 2 + L / 2), `2^${k}·√2`);
      assert.equal(half.t0, Math.floor((T0 - L / 2) / (L / 2)) * (L / 2));
      const whole = pageWindow({ t0: T0, t1: T0 + 2 ** k * 0.9 }, 1000);
      assert.equal(whole.t1, whole.t0 + 2 ** k * 2.5, `2^${k}`);
    }
  });

  it('asks for the same page for nearby views (so the cache hits)', () => {
    const a = pageWindow({ t0: T0 + 10_000, t1: T0 + 20_000 }, 1000);
    const b = pageWindow({ t0: T0 + 10_400, t1: T0 + 20_300 }, 1000);
    assert.deepEqual(a, b);
    // Zooming a half-octave changes the level.
    const c = pageWindow({ t0: T0 + 10_000, t1: T0 + 25_000 }, 1000);
    assert.notEqual(c.level, a.level);
  });

  it('does not depend on the width for the window, only for the buckets', () => {
    const a = pageWindow({ t0: T0, t1: T1 }, 800);
    const b = pageWindow({ t0: T0, t1: T1 }, 1600);
    assert.equal(a.t0, b.t0);
    assert.equal(a.t1, b.t1);
    assert.equal(b.buckets, 2 * a.buckets);
  });

  it('caps buckets at what the host accepts', () => {
    assert.equal(pageWindow({ t0: T0, t1: T1 }, 100_000).buckets, 8192);
  });
});

describe('webview lanes (vertical scrolling, lane blocks)', () => {
  it('lists the lanes in view and scrolls as little as needed', () => {
    const s = new LaneScroll(30, 100, 95);
    assert.deepEqual(s.visible(), { first: 0, end: 4 });
    s.ensureVisible(10);
    assert.equal(s.scrollY, 11 * 30 - 95);
    assert.deepEqual(s.visible(), { first: 7, end: 11 });
    s.scrollBy(1e9);
    assert.equal(s.scrollY, s.maxScroll);
    assert.equal(s.laneAt(94), 99);
    s.scrollTo(-5);
    assert.equal(s.scrollY, 0);
    assert.equal(s.laneAt(-1), -1);
    s.setSize(2, 95);
    assert.equal(s.maxScroll, 0);
    assert.deepEqual(s.visible(), { first: 0, end: 2 });
  });

  it('requests lanes in blocks', () => {
    const order = Array.from({ length: 40 }, (_, i) => 100 + i);
    assert.deepEqual(laneBlock(order, 0, 3), order.slice(0, LANE_BLOCK));
    assert.deepEqual(laneBlock(order, 15, 18), order.slice(0, 2 * LANE_BLOCK));
    assert.deepEqual(laneBlock(order, 33, 40), order.slice(32, 40));
    assert.deepEqual(laneBlock([], 0, 0), []);
  });
});
