// The pure layout of a live timeline: labels that never overlap, an open gap's growing band, and
// the window that follows the data.
import assert from 'node:assert/strict';
import { FIT_PAD } from '../../../src/shared/paging';
import { placeLabels } from '../../../src/webview/labelPlacement';
import { liveDataEnd, openGapBand } from '../../../src/shared/openGapBand';
import { Sequencer } from '../../../src/core/sequencer/sequencer';
import { openStateOf } from '../../../src/core/sequencer/openState';
import { FollowWindow, LIVE_MIN_SPAN_MS, liveDomain, Viewport } from '../../../src/webview/viewport';

const T0 = Date.UTC(2026, 11, 2, 2, 49, 56);

/** No two placed labels in one row overlap (nor come closer than `pad`). */
function assertNoOverlap(placed: { left: number; row: number; label: { w: number } }[], pad: number): void {
  for (const a of placed) {
    for (const b of placed) {
      if (a === b || a.row !== b.row) continue;
      const apart = a.left + a.label.w + pad <= b.left || b.left + b.label.w + pad <= a.left;
      assert.ok(apart, `labels at ${a.left} (w ${a.label.w}) and ${b.left} (w ${b.label.w}) overlap in row ${a.row}`);
    }
  }
}

describe('timeline label placement', () => {
  it('keeps labels that clear each other, skips one that would overlap', () => {
    const placed = placeLabels(
      [
        { x: 50, w: 60 },
        { x: 90, w: 60 },
        { x: 200, w: 60 },
      ],
      { pad: 6 },
    );
    assert.deepEqual(
      placed.map((p) => [p.label.x, p.left, p.row]),
      [
        [50, 20, 0],
        [200, 170, 0],
      ],
    );
  });

  it('stacks into a second row before skipping, and skips once the rows are full', () => {
    const labels = [
      { x: 50, w: 60 },
      { x: 60, w: 60 },
      { x: 70, w: 60 },
    ];
    const placed = placeLabels(labels, { rows: 2, pad: 4 });
    assert.deepEqual(
      placed.map((p) => [p.label.x, p.row]),
      [
        [50, 0],
        [60, 1],
      ],
    );
    assertNoOverlap(placed, 4);
  });

  it('places a kept label (the selected finding) first, even when an earlier one was in its way', () => {
    const placed = placeLabels(
      [
        { x: 50, w: 60 },
        { x: 70, w: 60, keep: true },
      ],
      { pad: 6 },
    );
    assert.deepEqual(
      placed.map((p) => p.label.x),
      [70],
    );
  });

  it('left-aligned labels (the axis ticks) shift inside the plot and are skipped when they do not fit', () => {
    const placed = placeLabels(
      [
        { x: 0, w: 50 },
        { x: 40, w: 50 },
        { x: 110, w: 50 },
        { x: 190, w: 50 },
      ],
      { align: 'left', minX: 0, maxX: 220, pad: 8 },
    );
    assert.deepEqual(
      placed.map((p) => p.left),
      [0, 110, 170],
    );
    const wide = placeLabels([{ x: 0, w: 300 }], { align: 'left', minX: 0, maxX: 220 });
    assert.deepEqual(wide, [], 'wider than the plot: left out');
  });

  it('never overlaps, whatever the labels (random bands of gaps opened close together)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const labels = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => ({ x: rnd() * 800, w: 10 + rnd() * 120, keep: rnd() < 0.05 }));
      const rows = 1 + Math.floor(rnd() * 3);
      const placed = placeLabels(labels, { rows, pad: 5, minX: 0, maxX: 800 });
      assertNoOverlap(placed, 5);
      for (const p of placed) assert.ok(p.left >= 0 && p.left + p.label.w <= 800 + 1e-9 && p.row < rows);
      // Something always shows where there was something to show.
      if (labels.some((l) => l.w <= 800)) assert.ok(placed.length > 0);
    }
  });
});

describe('an open gap in the live timeline', () => {
  const waiting = (waitedMs: number) => ({ kind: 'waiting' as const, expected: 400, waitedMs, timeoutMs: 10_000, held: 1096, openedAt: T0 });

  it('is a band from where it opened to now, inside its whole wait, saying what it waits for', () => {
    const b = openGapBand(3, waiting(3_250))!;
    assert.deepEqual(
      { ...b },
      { kind: 'gap', key: 3, t0: T0, tNow: T0 + 3_250, tDeadline: T0 + 10_000, fraction: 0.325, label: 'waiting for #400 · 3.2 s of 10 s' },
    );
  });

  it('grows while it waits and stops at its timeout', () => {
    const widths = [0, 1_000, 5_000, 9_999, 10_000, 12_000].map((w) => openGapBand(0, waiting(w))!).map((b) => b.tNow - b.t0);
    assert.deepEqual(widths, [0, 1_000, 5_000, 9_999, 10_000, 10_000]);
    assert.equal(openGapBand(0, waiting(12_000))!.fraction, 1);
  });

  it('is not drawn for a key holding nothing', () => {
    assert.equal(openGapBand(0, undefined), undefined);
  });

  it('extends where the data ends: the axis follows a wait past the last arrival', () => {
    const b = openGapBand(0, waiting(4_000))!;
    assert.equal(liveDataEnd(T0 + 1_000, [b]), T0 + 4_000);
    assert.equal(liveDataEnd(T0 + 9_000, [b]), T0 + 9_000);
    assert.equal(liveDataEnd(T0 + 9_000, []), T0 + 9_000);
  });
});

describe('a start window in the live timeline', () => {
  // The key's first arrival at T0; the window lasts the gap timeout (10 s).
  const collecting = (leftMs: number) => ({ kind: 'collecting' as const, leftMs, held: 1495, openedAt: T0, windowMs: 10_000 });

  it('is a band from the first arrival to now, inside the whole window, counting down', () => {
    const b = openGapBand(2, collecting(7_000))!;
    assert.deepEqual({ ...b }, { kind: 'start', key: 2, t0: T0, tNow: T0 + 3_000, tDeadline: T0 + 10_000, fraction: 0.3, label: 'collecting: 7 s left' });
    // The words count down as the band grows.
    const labels = [10_000, 7_000, 6_500, 1, 0].map((left) => openGapBand(2, collecting(left))!.label);
    assert.deepEqual(labels, ['collecting: 10 s left', 'collecting: 7 s left', 'collecting: 7 s left', 'collecting: 1 s left', 'collecting: 0 s left']);
    const widths = [10_000, 7_000, 0].map((left) => openGapBand(2, collecting(left))!).map((x) => x.tNow - x.t0);
    assert.deepEqual(widths, [0, 3_000, 10_000]);
  });

  it('never reaches past the window, whatever the clocks say', () => {
    const b = openGapBand(0, { ...collecting(0), leftMs: -5 })!;
    assert.equal(b.tNow, T0 + 10_000);
    assert.equal(b.fraction, 1);
    assert.equal(openGapBand(0, { ...collecting(0), leftMs: 20_000 })!.tNow, T0, 'more left than the window: nothing waited yet');
  });

  it('extends where the data ends, as an open gap does', () => {
    assert.equal(liveDataEnd(T0 + 1_000, [openGapBand(0, collecting(6_000))!]), T0 + 4_000);
  });

  it('a hole among the first arrivals is drawn as an open gap from the arrival above it, saying when the key starts', () => {
    const s = new Sequencer<number>(
      { gapTimeoutMs: 10_000, capacity: 1000, seqBits: 64, sequenced: true },
      { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} },
    );
    s.advance(T0);
    s.offer('A', 7100, 'a', 0);
    s.advance(T0 + 2_000);
    s.offer('A', 7102, 'b', 0);
    const b = openGapBand(0, openStateOf(s, s.key('A')!, T0 + 3_000))!;
    assert.deepEqual(
      { ...b },
      {
        kind: 'gap',
        key: 0,
        t0: T0 + 2_000,
        tNow: T0 + 3_000,
        tDeadline: T0 + 12_000,
        fraction: 0.1,
        label: 'waiting for #7101 · 1 s of 10 s · starts in 7 s',
      },
    );
  });

  it('is the state the host sends: the sequencer in its start window, then gone when it closes', () => {
    const s = new Sequencer<number>(
      { gapTimeoutMs: 10_000, capacity: 1000, seqBits: 64, sequenced: true },
      { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} },
    );
    s.advance(T0);
    s.offer('A', 7100, 'a', 0);
    s.offer('A', 7102, 'b', 0);
    s.offer('A', 7101, 'c', 0);
    const k = s.key('A')!;
    const b = openGapBand(0, openStateOf(s, k, T0 + 3_000))!;
    assert.equal(b.kind, 'start');
    assert.equal(b.label, 'collecting: 7 s left');
    assert.equal(b.t0, T0);
    assert.equal(b.tDeadline, T0 + 10_000);
    s.advance(T0 + 10_000); // the window closes: 7100–7102 delivered
    assert.equal(openGapBand(0, openStateOf(s, k, T0 + 10_000)), undefined, 'no band once the window is closed');
  });
});

describe('follow live', () => {
  const live = (window: FollowWindow = 'all') => {
    const v = new Viewport(T0, T0 + 60_000, 1000);
    v.setFollow(true, window);
    return v;
  };
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a} vs ${b}`);

  it('whole session: the window widens with the data, whatever width it had before', () => {
    const v = live();
    for (let end = 61_000.419; end <= 12 * 60_000; end += 1_013.37) {
      v.setDomain(T0, T0 + end);
      v.followEnd();
      assert.ok(v.isFitAll(), `the whole session in view at ${end} ms`);
    }
    assert.ok(v.t0 < T0 && v.t1 > T0 + 12 * 60_000);
    assert.equal(v.state, 'following');
  });

  it('last N seconds: the window keeps N and ends where the data ends; shorter data shows whole', () => {
    const v = new Viewport(T0, T0 + 4_000, 1000);
    v.setFollow(true, 10_000);
    assert.ok(v.isFitAll(), 'less than 10 s of data: all of it');
    v.setDomain(T0, T0 + 90_000);
    v.followEnd();
    near(v.span, 10_000, 'width');
    near(v.t1, T0 + 90_000 + 90_000 * FIT_PAD, 'end (with the fit padding)');
    assert.equal(v.followWindow, 10_000);
  });

  it("a zoom by the user pauses following and says so; the data growing leaves the user's window", () => {
    const v = live();
    v.zoomAt(4, 500);
    assert.equal(v.follow, false);
    assert.equal(v.state, 'paused');
    const { t0, t1 } = v;
    v.setDomain(T0, T0 + 90_000);
    v.followEnd();
    near(v.t0, t0, 'start kept');
    near(v.t1, t1, 'end kept');
  });

  it('panning back or going to a finding pauses; panning forward at the live end does not', () => {
    const v = live(10_000);
    v.panPx(100); // already at the end: nothing moves
    assert.equal(v.state, 'following');
    v.panPx(-200);
    assert.equal(v.state, 'paused');
    const w = live(10_000);
    w.centerOn(T0 + 5_000);
    assert.equal(w.state, 'paused');
  });

  it('one call resumes: the window goes to the data at once, with the window picked before', () => {
    const v = live(10_000);
    v.panPx(-300);
    v.setDomain(T0, T0 + 120_000);
    v.setFollow(true);
    assert.equal(v.state, 'following');
    near(v.span, 10_000, 'width');
    near(v.t1, T0 + 120_000 + 120_000 * FIT_PAD, 'end');
  });

  it('turned off by its toggle is off, not paused', () => {
    const v = live();
    v.setFollow(false);
    assert.equal(v.state, 'off');
  });

  it('a live domain is never degenerate: no arrival yet, one arrival, an epoch start', () => {
    const now = T0 + 3_000;
    for (const [start, end] of [
      [0, now],
      [now, now],
      [Number.NaN, now],
      [now + 1, now],
    ]) {
      const d = liveDomain(start, end);
      assert.equal(d.t1, now);
      near(d.t1 - d.t0, LIVE_MIN_SPAN_MS, `span for start ${start}`);
    }
    const grown = liveDomain(T0, T0 + 60_000);
    assert.deepEqual(grown, { t0: T0, t1: T0 + 60_000 }, 'a longer session is its own range');
  });

  it('a capture (never following) zooms around the pointer as before', () => {
    const v = new Viewport(T0, T0 + 60_000, 1000);
    const at = v.xToTime(250);
    v.zoomAt(2, 250);
    assert.ok(Math.abs(v.xToTime(250) - at) < 1e-6);
    assert.equal(v.state, 'off');
  });
});
