/**
 * What "Follow live" shows of a live session, worked out from the session alone: its time range
 * (where the data or a wait ends), the window following keeps in view, and the page that window
 * asks for. The webview's viewport follows by it; the host answers with each refresh the page the
 * webview will ask for next, so a refresh is drawn without a round trip.
 */
import type { OpenState } from '../core/sequencer/openState';
import { liveDataEnd, openGapBand } from './openGapBand';
import { FIT_PAD, fitWindow, MIN_SPAN_MS, PageWindow, pageWindow, TimeWindow } from './paging';

/** What "Follow live" keeps in view: the whole session, or its last N milliseconds. */
export type FollowWindow = 'all' | number;

/** The narrowest window a live session shows: its first arrivals are not a degenerate span. */
export const LIVE_MIN_SPAN_MS = 5_000;

/** A webview following a live session: what it keeps in view, how wide its plot is (CSS px), the lanes it asks for. */
export interface LiveFollow {
  window: FollowWindow;
  widthPx: number;
  lanes: number[];
}

/**
 * A live session's time range: it ends where the data (or a wait) ends and spans at least
 * LIVE_MIN_SPAN_MS; a start that is not a time yet (nothing has arrived) is not taken as one.
 */
export function liveDomain(start: number, end: number): TimeWindow {
  const t1 = Number.isFinite(end) && end > 0 ? end : start;
  const t0 = Number.isFinite(start) && start > 0 && start <= t1 ? start : t1;
  return { t0: Math.min(t0, t1 - LIVE_MIN_SPAN_MS), t1 };
}

/** The widest span a window on [domainT0, domainT1] shows: the session with its padding. */
export function maxSpanOf(domainT0: number, domainT1: number): number {
  return (domainT1 - domainT0) * (1 + 2 * FIT_PAD);
}

/** A window's span kept between the narrowest window and `max`. */
export function clampSpan(span: number, max: number): number {
  if (!(span > 0)) return MIN_SPAN_MS;
  return Math.min(max, Math.max(MIN_SPAN_MS, span));
}

/**
 * The window following keeps in view on [domainT0, domainT1] (domainT1 > domainT0): the whole
 * session with its padding, or its last `window` ms ending at the padded end.
 */
export function followView(domainT0: number, domainT1: number, window: FollowWindow): TimeWindow {
  if (window === 'all') return fitWindow(domainT0, domainT1);
  const pad = (domainT1 - domainT0) * FIT_PAD;
  const span = clampSpan(window, maxSpanOf(domainT0, domainT1));
  const t0 = Math.max(domainT0 - pad, domainT1 + pad - span);
  return { t0, t1: t0 + span };
}

/** A live session as an `init` describes it: its first and last arrival, and the keys waiting now. */
export interface LiveExtent {
  start: number;
  end: number;
  open?: readonly { key: number; state: OpenState }[];
}

/** The time range a live session's view spans (as the webview sets its viewport's domain). */
export function liveExtent(s: LiveExtent): TimeWindow {
  const bands = (s.open ?? []).flatMap((o) => openGapBand(o.key, o.state) ?? []);
  const { t0, t1 } = liveDomain(s.start, liveDataEnd(s.end, bands));
  return { t0, t1: t1 > t0 ? t1 : t0 + 1 };
}

/** The page a webview following `s` as `follow` says asks for next. */
export function followPageWindow(s: LiveExtent, follow: Pick<LiveFollow, 'window' | 'widthPx'>): PageWindow {
  const d = liveExtent(s);
  return pageWindow(followView(d.t0, d.t1, follow.window), follow.widthPx);
}
