// The pure layout of a live timeline: labels that never overlap, an open gap's growing band, and
// the window that follows the data.
import assert from 'node:assert/strict';
import { FIT_PAD } from '../../../src/shared/paging';
import { placeLabels } from '../../../src/webview/labelPlacement';
import { liveDataEnd, openGapBand } from '../../../src/webview/openGapBand';
import { Sequencer } from '../../../src/core/sequencer/sequencer';
import { openStateOf } from '../../../src/core/sequencer/openState';
import { Viewport } from '../../../src/webview/viewport';

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
    const placed = placeLabels([{ x: 50, w: 60 }, { x: 90, w: 60 }, { x: 200, w: 60 }], { pad: 6 });
    assert.deepEqual(placed.map((p) => [p.label.x, p.left, p.row]), [[50, 20, 0], [200, 170, 0]]);
  });

  it('stacks into a second row before skipping, and skips once the rows are full', () => {
    const labels = [{ x: 50, w: 60 }, { x: 60, w: 60 }, { x: 70, w: 60 }];
    const placed = placeLabels(labels, { rows: 2, pad: 4 });
    assert.deepEqual(placed.map((p) => [p.label.x, p.row]), [[50, 0], [60, 1]]);
    assertNoOverlap(placed, 4);
  });

  it('places a kept label (the selected finding) first, even when an earlier one was in its way', () => {
    const placed = placeLabels([{ x: 50, w: 60 }, { x: 70, w: 60, keep: true }], { pad: 6 });
    assert.deepEqual(placed.map((p) => p.label.x), [70]);
  });

  it('left-aligned labels (the axis ticks) shift inside the plot and are skipped when they do not fit', () => {
    const placed = placeLabels([{ x: 0, w: 50 }, { x: 40, w: 50 }, { x: 110, w: 50 }, { x: 190, w: 50 }], { align: 'left', minX: 0, maxX: 220, pad: 8 });
    assert.deepEqual(placed.map((p) => p.left), [0, 110, 170]);
    const wide = placeLabels([{ x: 0, w: 300 }], { align: 'left', minX: 0, maxX: 220 });
    assert.deepEqual(wide, [], 'wider than the plot: left out');
  });

  it('never overlaps, whatever the labels (random bands of gaps opened close together)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
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
    assert.deepEqual({ ...b }, { kind: 'gap', key: 3, t0: T0, tNow: T0 + 3_250, tDeadline: T0 + 10_000, fraction: 0.325, label: 'waiting for #400 · 3.2 s of 10 s' });
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

  it('is the state the host sends: the sequencer in its start window, then gone when it closes', () => {
    const s = new Sequencer<number>({ gapTimeoutMs: 10_000, capacity: 1000, seqBits: 64, sequenced: true }, { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} });
    s.advance(T0);
    s.offer('A', 7100, 'a', 0);
    s.offer('A', 7102, 'b', 0);
    const k = s.key('A')!;
    const b = openGapBand(0, openStateOf(s, k, T0 + 3_000))!;
    assert.equal(b.kind, 'start');
    assert.equal(b.label, 'collecting: 7 s left');
    assert.equal(b.t0, T0);
    assert.equal(b.tDeadline, T0 + 10_000);
    s.advance(T0 + 10_000); // the window closes: 7100 delivered; 7102 has waited the timeout, so 7101 is declared lost at once
    assert.equal(openGapBand(0, openStateOf(s, k, T0 + 10_000)), undefined, 'no band once the window is closed');
  });
});

describe('follow live', () => {
  const live = () => {
    const v = new Viewport(T0, T0 + 60_000, 1000);
    v.setFollow(true);
    return v;
  };

  it('keeps a zoomed window its width and moves it to where the data now ends', () => {
    const v = live();
    v.zoomAt(6); // the last 10 s or so: the end stays pinned while following
    const span = v.span;
    assert.ok(v.follow, 'zooming keeps following');
    v.setDomain(T0, T0 + 90_000); // 30 s more arrived
    v.followEnd(false);
    assert.ok(Math.abs(v.span - span) < 1e-6, `width kept: ${v.span}`);
    assert.ok(Math.abs(v.t1 - (T0 + 90_000 + 90_000 * FIT_PAD)) < 1e-6, 'ends at the new end (with the fit padding)');
  });

  it('a window that showed everything goes on showing everything', () => {
    const v = live();
    const wasFit = v.isFitAll();
    v.setDomain(T0, T0 + 600_000);
    v.followEnd(wasFit);
    assert.ok(v.isFitAll());
    assert.ok(v.t0 < T0 && v.t1 > T0 + 600_000);
  });

  it('panning back in time turns it off; the data growing then leaves the window where the user put it', () => {
    const v = live();
    v.zoomAt(4);
    v.panPx(-200);
    assert.equal(v.follow, false);
    const { t0, t1 } = v;
    v.setDomain(T0, T0 + 90_000);
    v.followEnd(false);
    assert.ok(Math.abs(v.t0 - t0) < 1e-6 && Math.abs(v.t1 - t1) < 1e-6);
  });

  it('going to a finding away from the end turns it off; panning forward at the end does not', () => {
    const v = live();
    v.zoomAt(4);
    v.panPx(100); // already at the end: nothing moves
    assert.ok(v.follow);
    v.centerOn(T0 + 5_000);
    assert.equal(v.follow, false);
  });

  it('the toggle turns it back on and brings the window to the end', () => {
    const v = live();
    v.zoomAt(4);
    v.panPx(-300);
    v.setDomain(T0, T0 + 120_000);
    v.setFollow(true);
    assert.ok(v.follow);
    assert.ok(Math.abs(v.t1 - (T0 + 120_000 + 120_000 * FIT_PAD)) < 1e-6);
  });

  it('a capture (never following) zooms around the pointer as before', () => {
    const v = new Viewport(T0, T0 + 60_000, 1000);
    const at = v.xToTime(250);
    v.zoomAt(2, 250);
    assert.ok(Math.abs(v.xToTime(250) - at) < 1e-6);
    assert.equal(v.follow, false);
  });
});
