/**
 * The visible window of the timeline: time ↔ pixel mapping of the plot area, zoom and pan on
 * the time axis, vertical scrolling of lanes, and which page to ask the host for. Pure (no DOM):
 * the maths every interaction goes through is unit-tested in plain Node.
 *
 * Times are the engine clock (ms since the epoch, fractional). At ~1.8e12 ms a double still
 * resolves ~0.0004 ms, so the narrowest window is kept well above that.
 */
import { clampSpan, FollowWindow, followView, maxSpanOf } from '../shared/liveWindow';
import { FIT_PAD, fitWindow } from '../shared/paging';

export { type FollowWindow, LIVE_MIN_SPAN_MS, liveDomain } from '../shared/liveWindow';

/** A live session's view: following the data, paused by the user's own move, or neither (a capture). */
export type FollowState = 'off' | 'following' | 'paused';

export class Viewport {
  /** The visible window. */
  t0: number;
  t1: number;
  private following = false;
  /** Following was on until the user zoomed or panned away. */
  private pausedByUser = false;
  private window: FollowWindow = 'all';

  constructor(
    /** The session's time range: what fit-all shows and what panning is kept near. */
    public domainT0: number,
    public domainT1: number,
    /** Plot area width in CSS pixels. */
    public widthPx: number,
  ) {
    if (!(domainT1 > domainT0)) this.domainT1 = domainT0 + 1;
    this.t0 = this.domainT0;
    this.t1 = this.domainT1;
    this.fitAll();
  }

  get span(): number {
    return this.t1 - this.t0;
  }

  get msPerPx(): number {
    return this.span / Math.max(1, this.widthPx);
  }

  /** Widest window: the session with its padding (zooming further out only shows emptiness). */
  get maxSpan(): number {
    return maxSpanOf(this.domainT0, this.domainT1);
  }

  setWidth(px: number): void {
    this.widthPx = Math.max(1, px);
  }

  setDomain(t0: number, t1: number): void {
    this.domainT0 = t0;
    this.domainT1 = t1 > t0 ? t1 : t0 + 1;
    this.clamp();
  }

  timeToX(t: number): number {
    return ((t - this.t0) / this.span) * this.widthPx;
  }

  xToTime(x: number): number {
    return this.t0 + (x / this.widthPx) * this.span;
  }

  /** Zooms by `factor` (> 1 zooms in) keeping the time under pixel `x` where it is. */
  zoomAt(factor: number, x = this.widthPx / 2): void {
    if (!(factor > 0)) return;
    this.pause();
    const anchor = this.xToTime(x);
    const span = clampSpan(this.span / factor, this.maxSpan);
    const frac = x / this.widthPx;
    this.t0 = anchor - frac * span;
    this.t1 = this.t0 + span;
    this.clamp();
  }

  /** Moves the window by `dx` pixels (positive: later times come into view). */
  panPx(dx: number): void {
    this.panTime(dx * this.msPerPx);
  }

  panTime(dt: number): void {
    this.t0 += dt;
    this.t1 += dt;
    this.clamp();
    this.moved();
  }

  /** Centres the window on `t` (going to a finding, the overview): pauses following. */
  centerOn(t: number): void {
    const half = this.span / 2;
    this.t0 = t - half;
    this.t1 = t + half;
    this.clamp();
    this.pause();
  }

  /** Shows [t0, t1] (widened to the minimum span, narrowed to the session): pauses following. */
  show(t0: number, t1: number): void {
    const span = clampSpan(t1 - t0, this.maxSpan);
    const mid = (t0 + t1) / 2;
    this.t0 = mid - span / 2;
    this.t1 = mid + span / 2;
    this.clamp();
    this.pause();
  }

  fitAll(): void {
    ({ t0: this.t0, t1: this.t1 } = fitWindow(this.domainT0, this.domainT1));
  }

  /**
   * "Follow live" (a live session): as the data grows the window shows the whole session, or its
   * last N ms ending where the data ends — worked out from the data alone, so it never keeps a
   * width from before. The user's own zoom, pan or jump pauses it (`state` says so); `setFollow`
   * resumes it.
   */
  get follow(): boolean {
    return this.following;
  }

  get state(): FollowState {
    return this.following ? 'following' : this.pausedByUser ? 'paused' : 'off';
  }

  get followWindow(): FollowWindow {
    return this.window;
  }

  /** Turns following on (optionally with another window) or off; on, the window goes there at once. */
  setFollow(on: boolean, window: FollowWindow = this.window): void {
    this.following = on;
    this.pausedByUser = false;
    this.window = window === 'all' || window > 0 ? window : 'all';
    this.followEnd();
  }

  /** The data grew (after setDomain): when following, the window goes where the rule puts it. */
  followEnd(): void {
    if (!this.following) return;
    ({ t0: this.t0, t1: this.t1 } = followView(this.domainT0, this.domainT1, this.window));
  }

  /** The latest a window may end: the data's end and its padding. */
  private get liveEnd(): number {
    return this.domainT1 + (this.domainT1 - this.domainT0) * FIT_PAD;
  }

  /** The user moved the view: following pauses (a capture, never following, is unaffected). */
  private pause(): void {
    if (!this.following) return;
    this.following = false;
    this.pausedByUser = true;
  }

  /** A pan that leaves the live end behind pauses following; one that stays at the end does not. */
  private moved(): void {
    if (this.following && this.t1 < this.liveEnd - this.span * 1e-6) this.pause();
  }

  isFitAll(): boolean {
    return this.span >= this.maxSpan * (1 - 1e-6);
  }

  /** Keeps the window on the session: at most its padding may show beyond either end. */
  private clamp(): void {
    const pad = (this.domainT1 - this.domainT0) * FIT_PAD;
    const lo = this.domainT0 - pad;
    const hi = this.domainT1 + pad;
    let span = clampSpan(this.span, this.maxSpan);
    if (!(span > 0)) span = this.maxSpan;
    if (this.t0 < lo) this.t0 = lo;
    if (this.t0 + span > hi) this.t0 = hi - span;
    this.t1 = this.t0 + span;
  }
}

/** Vertical scrolling of lanes (the canvas draws only the lanes in view). */
export class LaneScroll {
  scrollY = 0;

  constructor(
    public laneHeight: number,
    public count: number,
    /** Height of the scrolled lane area, CSS px. */
    public viewHeight: number,
  ) {}

  get contentHeight(): number {
    return this.count * this.laneHeight;
  }

  get maxScroll(): number {
    return Math.max(0, this.contentHeight - this.viewHeight);
  }

  scrollBy(dy: number): void {
    this.scrollTo(this.scrollY + dy);
  }

  scrollTo(y: number): void {
    this.scrollY = Math.max(0, Math.min(this.maxScroll, y));
  }

  setSize(count: number, viewHeight: number): void {
    this.count = count;
    this.viewHeight = Math.max(0, viewHeight);
    this.scrollTo(this.scrollY);
  }

  /** Lane indexes at least partly in view: [first, end). */
  visible(): { first: number; end: number } {
    const first = Math.max(0, Math.floor(this.scrollY / this.laneHeight));
    const end = Math.min(this.count, Math.ceil((this.scrollY + this.viewHeight) / this.laneHeight));
    return { first, end: Math.max(first, end) };
  }

  /** Scrolls as little as possible to bring lane `i` fully into view. */
  ensureVisible(i: number): void {
    const top = i * this.laneHeight;
    if (top < this.scrollY) this.scrollTo(top);
    else if (top + this.laneHeight > this.scrollY + this.viewHeight) this.scrollTo(top + this.laneHeight - this.viewHeight);
  }

  /** Lane index at a y inside the lane area, or −1. */
  laneAt(y: number): number {
    const i = Math.floor((y + this.scrollY) / this.laneHeight);
    return y >= 0 && i >= 0 && i < this.count ? i : -1;
  }
}
