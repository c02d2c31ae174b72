/**
 * The paging maths both sides share: the narrowest and the fitted window, and which page and
 * lanes to ask for to draw a window. The webview's viewport requests by it; the host's first view
 * (and a standalone page's preview) answers the very page the webview will ask for first.
 */

/** Narrowest window: 10 µs (CME bursts are ~0.2 ms apart; doubles resolve ~0.4 µs at today's epoch). */
export const MIN_SPAN_MS = 0.01;
/** Fit-all leaves this share of the session empty on each side, so edge marks are not clipped. */
export const FIT_PAD = 0.01;

export interface TimeWindow {
  t0: number;
  t1: number;
}

/** The window that shows all of [domainT0, domainT1] with a pad of FIT_PAD each side. */
export function fitWindow(domainT0: number, domainT1: number): TimeWindow {
  const t1 = domainT1 > domainT0 ? domainT1 : domainT0 + 1;
  const pad = (t1 - domainT0) * FIT_PAD;
  return { t0: domainT0 - pad, t1: t1 + pad };
}

// ---------------------------------------------------------------------------------------------
// Which page to request

/** Lanes are requested in blocks, so scrolling a lane or two reuses the page. */
export const LANE_BLOCK = 16;

export interface PageWindow {
  /** Zoom level: the page's resolution; pages of one level are interchangeable. */
  level: number;
  t0: number;
  t1: number;
  buckets: number;
}

/**
 * The page to ask for to draw `view` at `widthPx`: the window padded by about half a screen on
 * each side (so panning draws from the page already here), snapped to a grid of quarter-page
 * steps and zoom levels a half-octave apart, so that nearby views ask for the very same page and
 * hit the cache. Buckets give about one per pixel at this level.
 */
export function pageWindow(view: TimeWindow, widthPx: number): PageWindow {
  const span = Math.max(MIN_SPAN_MS, view.t1 - view.t0);
  const level = Math.ceil(Math.log2(span) * 2) / 2;
  // 2^level (≥ span, < span·√2) as a power of two times √2: the same double in every engine, so
  // the host's pages ahead match the webview's requests to the bit (engines' pow(2, k + ½) differ
  // in the last bit).
  const levelSpan = 2 ** Math.floor(level) * (level % 1 ? Math.SQRT2 : 1);
  const step = levelSpan / 2;
  const pageSpan = levelSpan * 2 + step;
  // Start on the grid, at least half a level span before the view starts.
  const t0 = Math.floor((view.t0 - levelSpan / 2) / step) * step;
  const buckets = Math.max(1, Math.min(8192, Math.round((Math.max(1, widthPx) * pageSpan) / levelSpan)));
  return { level, t0, t1: t0 + pageSpan, buckets };
}

/** Lanes to request for the visible range [first, end) of `order` (lane position → key index). */
export function laneBlock(order: readonly number[], first: number, end: number): number[] {
  const a = Math.floor(first / LANE_BLOCK) * LANE_BLOCK;
  const b = Math.min(order.length, Math.ceil(end / LANE_BLOCK) * LANE_BLOCK);
  return order.slice(a, Math.max(a, b));
}
