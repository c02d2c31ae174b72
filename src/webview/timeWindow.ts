/**
 * The timeline's time window: the viewport (viewport.ts) made when a session arrives, or kept
 * when the same live session grows (with each live update), and what the toolbar and the keys
 * do to it: zoom, pan, fit all, follow live and what following keeps in view. Each of those
 * reports the change, so the view redraws and asks for pages once it settles.
 */
import type { PageFollow, SessionInfo } from '../shared/protocol';
import { liveDataEnd, OpenGapBand } from '../shared/openGapBand';
import { FollowWindow, liveDomain, Viewport } from './viewport';

/** The factor one zoom step (the toolbar's buttons, the + and − keys) zooms by. */
export const ZOOM_STEP = 1.5;

export class TimeWindow {
  /** The viewport, once a session has arrived. */
  vp: Viewport | undefined;
  /** What "Follow live" keeps in view (the user's pick, kept across the session's re-inits). */
  private followWindow: FollowWindow = 'all';
  /** The session shown while it loads (its window is kept as it grows). */
  private loading: string | undefined;

  constructor(private readonly changed: () => void) {}

  /**
   * The window for `session` (`bands`: its open gaps; `previous`: the session shown until now).
   * The same live session, grown: the window stays the user's, or follows the data. Another
   * session: a new window, following a live session's data. Returns whether the window was kept.
   */
  open(session: SessionInfo, bands: readonly OpenGapBand[], previous: string | undefined, plotW: number): boolean {
    // A live session's data ends where its last wait is now (a wait goes on past the last arrival).
    const { t0, t1 } = session.live ? liveDomain(session.start, liveDataEnd(session.end, bands)) : { t0: session.start, t1: session.end };
    // A capture loading grows as a live session does, up to its last `init` (without `loading`).
    const grows = !!session.live || session.loading !== undefined;
    const grown = (grows || this.loading === session.id) && this.vp && previous === session.id;
    this.loading = session.loading !== undefined ? session.id : undefined;
    if (grown && this.vp) {
      this.vp.setDomain(t0, t1);
      this.vp.followEnd();
      return true;
    }
    this.vp = new Viewport(t0, t1, plotW);
    this.vp.setFollow(grows, session.live ? this.followWindow : 'all');
    return false;
  }

  /** What a page request says while the window follows a live session (see PageFollow); nothing otherwise. */
  pageFollow(live: boolean, plotW: number | undefined): { follow?: PageFollow } {
    const vp = this.vp;
    return live && vp?.follow && plotW !== undefined ? { follow: { window: vp.followWindow, widthPx: plotW } } : {};
  }

  zoom(factor: number): void {
    this.vp?.zoomAt(factor);
    this.changed();
  }

  pan(dt: number): void {
    this.vp?.panTime(dt);
    this.changed();
  }

  /** Fit all; on a live session that is following the whole session as it grows. */
  fitAll(live: boolean): void {
    if (live) this.vp?.setFollow(true, 'all');
    else this.vp?.fitAll();
    this.changed();
  }

  /** "Follow live" on (the window goes where the data is) or off. */
  toggleFollow(): void {
    const vp = this.vp;
    if (!vp) return;
    vp.setFollow(!vp.follow);
    this.changed();
  }

  /** The user picked what following keeps in view: following resumes with it. */
  setFollowWindow(window: FollowWindow): void {
    this.followWindow = window;
    this.vp?.setFollow(true, window);
    this.changed();
  }
}
