/**
 * Asking the host for the pages the view needs, and keeping what comes back: request scheduling
 * (debounced while the view moves, with a maximum wait), the generation (what the host would
 * answer for a window: bumped by a filter or a replay move), requests in flight, and dropping
 * replies that went stale on the way. Pure (no DOM): the clock and timers are injected, so it is
 * unit-tested in plain Node.
 */
import type { Timers } from '../core/util/timers';
import { laneBlock, pageWindow, PageWindow, TimeWindow } from '../shared/paging';
import { PageCache, PageKey, pageKeyString } from './pageCache';

/** Wait this long after the last view change before asking for a page… */
export const REQUEST_DEBOUNCE_MS = 60;
/**
 * …but no longer than this while the view keeps moving, when the host is another process (the
 * extension). The standalone page's host computes on this very thread: there, pages wait for
 * the gesture to pause, and the layer is copied scaled meanwhile.
 */
export const REQUEST_MAX_WAIT_MS = 250;
/** Replay position changes re-request pages at most this often (≤ 10 Hz). */
export const REPLAY_REFRESH_MS = 100;
/** Requests kept in flight; older ones are forgotten (a host may never answer superseded ones). */
export const MAX_PENDING = 8;
/** Pages of older generations kept to draw from (scaled stand-ins) while fresh ones are on their way. */
const STALE_PAGES_KEPT = 8;

/** What the view shows now, for choosing the page to ask for. */
export interface ViewNeed {
  /** The visible time range. */
  view: TimeWindow;
  /** The page window for it (shared/paging.ts pageWindow). */
  window: PageWindow;
  /** The lanes to ask for (a block around the visible ones). */
  lanes: readonly number[];
  /** The lanes on screen: a page is fresh when it holds every one. */
  visible: readonly number[];
}

/** What a view of `view` in a plot `plotW` px wide needs, showing lanes [first, end) of `laneKeys`. */
export function viewNeed(view: TimeWindow, plotW: number, laneKeys: readonly number[], first: number, end: number): ViewNeed {
  return {
    view: { t0: view.t0, t1: view.t1 },
    window: pageWindow(view, plotW),
    lanes: laneBlock(laneKeys, first, end),
    visible: laneKeys.slice(first, end),
  };
}

export interface PageRequest {
  requestId: number;
  t0: number;
  t1: number;
  buckets: number;
  lanes: number[];
}

export interface PageRequesterHost {
  /** What the view needs, or undefined before there is a view (no session, no layout). */
  need(): ViewNeed | undefined;
  /** Sends a page request to the host. */
  send(request: PageRequest): void;
  /** The next request id (shared with the app's other requests). */
  nextId(): number;
  /** Longest a request waits while the view keeps moving (Infinity: until it pauses). */
  maxWaitMs(): number;
  /** The generation changed from a timer (a throttled replay move): redraw. */
  invalidated(): void;
}

export class PageRequester<P> {
  readonly cache: PageCache<P>;
  /** Bumped whenever the host's answer for the same window would change (filter, replay position). */
  private gen = 0;
  /** Requests in flight; a reply whose id is not here is stale and dropped. */
  private readonly pending = new Map<number, PageKey>();
  private requested = 0;
  private requestTimer: number | undefined;
  private firstChange = 0;
  private lastChange = 0;
  private replayTimer: number | undefined;
  private lastReplayRefresh = -Infinity;
  private replayKey = 'all';

  constructor(
    private readonly host: PageRequesterHost,
    /** The window's clock and timers in the webview; a manual one in tests. */
    private readonly clock: Timers<number>,
    cacheCapacity = 24,
  ) {
    this.cache = new PageCache<P>(cacheCapacity);
  }

  get generation(): number {
    return this.gen;
  }

  /** Requests in flight. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Requests sent so far. */
  get pagesRequested(): number {
    return this.requested;
  }

  /** The page the view needs now (of the current generation). */
  needed(): PageKey | undefined {
    const n = this.host.need();
    return n && { ...n.window, generation: this.gen, lanes: n.lanes };
  }

  /** Whether a page for the view as it is now is in the cache. */
  isFresh(): boolean {
    const n = this.host.need();
    return !!n && this.cache.fresh(n.view, n.window.level, this.gen, n.visible) !== undefined;
  }

  /** The best cached page to draw lane `lane` (−1: the invalid lane) from, and whether it is fresh. */
  bestFor(lane: number): { page: P; fresh: boolean } | undefined {
    const n = this.host.need();
    return n && this.cache.bestFor(lane, n.view, n.window.level, this.gen);
  }

  /** Asks for the page the view needs once it has settled (debounced, with a maximum wait). */
  schedule(): void {
    const t = this.clock.now();
    this.lastChange = t;
    if (this.requestTimer !== undefined) return;
    this.firstChange = t;
    const tick = () => {
      const n = this.clock.now();
      const idle = n - this.lastChange;
      const maxWait = this.host.maxWaitMs();
      if (idle < REQUEST_DEBOUNCE_MS && n - this.firstChange < maxWait) {
        this.requestTimer = this.clock.setTimeout(tick, Math.min(REQUEST_DEBOUNCE_MS - idle, maxWait - (n - this.firstChange)));
        return;
      }
      this.requestTimer = undefined;
      this.request();
    };
    this.requestTimer = this.clock.setTimeout(tick, REQUEST_DEBOUNCE_MS);
  }

  /** Asks for the page the view needs at once (a scheduled request is dropped). */
  requestNow(): void {
    if (this.requestTimer !== undefined) this.clock.clearTimeout(this.requestTimer);
    this.requestTimer = undefined;
    this.request();
  }

  private request(): void {
    const n = this.host.need();
    if (!n) return;
    const key: PageKey = { ...n.window, generation: this.gen, lanes: n.lanes };
    if (this.cache.fresh(n.view, key.level, key.generation, n.visible)) return;
    const id = pageKeyString(key);
    for (const k of this.pending.values()) if (pageKeyString(k) === id) return;
    const requestId = this.host.nextId();
    this.pending.set(requestId, key);
    // Replies to requests long superseded may never come (a host may skip them): forget the oldest.
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as number);
    this.requested++;
    this.host.send({ requestId, t0: key.t0, t1: key.t1, buckets: key.buckets, lanes: [...key.lanes] });
  }

  /**
   * A page reply: cached (`unpack` called) and true when it answers a request still current;
   * false when stale — superseded by a filter or replay change, forgotten, or never ours.
   */
  receive(requestId: number, unpack: () => P): boolean {
    const key = this.pending.get(requestId);
    // Replies come in request order: older requests still pending were superseded (a host may
    // skip those), and their late replies will be dropped.
    for (const id of this.pending.keys()) if (id <= requestId) this.pending.delete(id);
    if (!key || key.generation !== this.gen) return false;
    this.cache.put(key, unpack());
    return true;
  }

  /** What the host would answer changed (filter): pages in flight are stale, cached ones only stand in; the view's page is asked for. */
  invalidate(): void {
    this.gen++;
    this.pending.clear();
    this.cache.dropBefore(this.gen, STALE_PAGES_KEPT);
    this.requestNow();
  }

  /** Another session: nothing cached or in flight is of use. */
  reset(): void {
    this.cache.clear();
    this.pending.clear();
    this.gen++;
  }

  /**
   * The replay position is now `positionKey` ('all' when not replaying): the host answers pages up
   * to it, so the view's pages are asked for again — at most every REPLAY_REFRESH_MS.
   */
  replayAt(positionKey: string): void {
    if (positionKey === this.replayKey) return;
    this.replayKey = positionKey;
    const wait = REPLAY_REFRESH_MS - (this.clock.now() - this.lastReplayRefresh);
    if (wait <= 0) this.refreshForReplay();
    else if (this.replayTimer === undefined)
      this.replayTimer = this.clock.setTimeout(() => {
        this.refreshForReplay();
        this.host.invalidated();
      }, wait);
  }

  private refreshForReplay(): void {
    this.replayTimer = undefined;
    this.lastReplayRefresh = this.clock.now();
    this.invalidate();
  }
}
