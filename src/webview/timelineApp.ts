/**
 * The timeline webview: owns the view state (window, lane scroll, selection, filter, replay),
 * talks to the host through a HostChannel, keeps pages in a cache, and redraws the canvas on
 * animation frames when something changed. Which host it talks to (VS Code or the standalone
 * page) is main.ts's business.
 *
 * Data flow: the view changes → a frame draws from cached pages at once (scaled stand-ins where
 * the right page is missing) → once the view settles, the page for it is requested → the reply,
 * if not stale, goes into the cache → another frame.
 */
import { noun } from '../core/util/plural';
import { KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, isKeyOrder, KeyOrder, listKeys } from '../core/trace/keyOrder';
import type {
  EventView,
  HostMessage,
  LaneInfo,
  MarkList,
  Overview,
  PanelRestore,
  ReplayInfo,
  SessionInfo,
  TimelineFilter,
  TimelinePage,
} from '../shared/protocol';
import { IDLE_REPLAY } from '../shared/protocol';
import { unpackLanes } from '../shared/laneWire';
import { unpackPage } from '../shared/pageWire';
import { attachCanvasInput } from './canvasInput';
import { DetailPane } from './detailPane';
import { button, el } from './dom';
import { FilterBar } from './filterBar';
import { clockTime, count, duration } from './format';
import type { HostChannel } from './hostChannel';
import { RequestIds } from './hostChannel';
import { computeLayout, Layout, LANE_HEIGHT } from './layout';
import { legend } from './legend';
import { PageCache, PageKey, pageKeyString } from './pageCache';
import { ReplayBar } from './replayBar';
import { readTheme, Theme, watchTheme } from './theme';
import { countsShown, FrameStats, kindName, TimelineView } from './timelineView';
import type { TimelineSnapshot } from './timelineSnapshot';
import { laneBlock, pageWindow } from '../shared/paging';
import { LaneScroll, Viewport } from './viewport';
import { displayKey } from '../core/trace/keyLabel';

/** Wait this long after the last view change before asking for a page… */
const REQUEST_DEBOUNCE_MS = 60;
/**
 * …but no longer than this while the view keeps moving, when the host is another process (the
 * extension). The standalone page's host computes on this very thread: there, pages wait for
 * the gesture to pause, and the layer is copied scaled meanwhile.
 */
const REQUEST_MAX_WAIT_MS = 250;
/** Replay position changes re-request pages at most this often (≤ 10 Hz). */
const REPLAY_REFRESH_MS = 100;
const ZOOM_STEP = 1.5;
/** A gesture counts as settled this long after the last view change. */
const SETTLE_MS = 120;
const DRAW_TIMES_KEPT = 4096;

interface Selection {
  id: number;
  /** Where to centre it. */
  t: number;
  /** Key index of its lane, −1 for the invalid lane. */
  key: number;
  kind: string;
}

interface SavedState {
  sessionId?: string;
  t0?: number;
  t1?: number;
  scrollY?: number;
  /** What the host needs to reopen the panel after a window reload (its `persist` message). */
  restore?: PanelRestore;
}

export class TimelineApp {
  private readonly canvas: HTMLCanvasElement;
  private readonly canvasWrap: HTMLElement;
  private readonly view: TimelineView;
  private readonly detail: DetailPane;
  private readonly replayBar: ReplayBar;
  private readonly filterBar: FilterBar;
  private readonly legendBox: HTMLElement;
  private readonly status: HTMLElement;
  private readonly errorBar: HTMLElement;
  private readonly errorText: HTMLElement;
  private readonly titleText: HTMLElement;
  private readonly optionsText: HTMLElement;
  private readonly filterToggle: HTMLButtonElement;
  private readonly filterSummary: HTMLElement;
  /** The lanes' order (the host's `keyOrder`; the select asks the host to change it). */
  private keyOrder: KeyOrder = 'arrival';
  private readonly keyOrderSelect: HTMLSelectElement;

  private session: SessionInfo | undefined;
  private overview: Overview | undefined;
  private filter: TimelineFilter = {};
  private replay: ReplayInfo = IDLE_REPLAY;
  /** The last session whose first frame with data was drawn (reported to the host once). */
  private paintedSession: string | undefined;
  /** Whether the filter chose the lanes shown (see keyListing). */
  private lanesFiltered = false;
  /** Lanes shown, in display order (the filter's keys only, when it names keys). */
  private lanes: LaneInfo[] = [];
  /** The lanes' keys, in lane order: asked for on every frame (what to request, what is fresh). */
  private laneKeys: number[] = [];
  private vp: Viewport | undefined;
  private readonly scroll = new LaneScroll(LANE_HEIGHT, 0, 0);
  private layout: Layout | undefined;
  private theme: Theme;

  private readonly cache = new PageCache<TimelinePage>(24);
  /** Bumped whenever the host's answer for the same window would change (filter, replay position). */
  private generation = 0;
  /** Page requests in flight; a reply whose id is not here is stale and dropped. */
  private readonly pending = new Map<number, PageKey>();
  private readonly ids = new RequestIds();
  private pagesRequested = 0;
  private requestTimer: number | undefined;
  private firstChange = 0;
  private lastChange = 0;
  private replayTimer: number | undefined;
  private lastReplayRefresh = 0;
  private replayPositionKey = 'all';

  private selected: Selection | undefined;
  private detailRequest = 0;
  private focusedLane = 0;
  /** After an overview jump, pick the next finding once the page arrives. */
  private pendingNav: { dir: 1 | -1; from: number } | undefined;

  private frameQueued = false;
  private lastViewChange = -Infinity;
  private settleTimer: number | undefined;
  private stats: FrameStats | undefined;
  private firstPaintMs: number | undefined;
  private readonly drawTimes = new Float32Array(DRAW_TIMES_KEPT);
  private draws = 0;
  private lastDrawMs = 0;
  private saveTimer: number | undefined;
  private lastError: string | undefined;
  /** The host's restore descriptor (persist), saved with the view state. */
  private restore: PanelRestore | undefined;

  constructor(
    private readonly channel: HostChannel,
    container: HTMLElement,
  ) {
    // Kept from before a reload until the host says it again.
    this.restore = (channel.getState?.() as SavedState | undefined)?.restore;
    this.theme = readTheme();
    this.canvas = el('canvas', {
      class: 'ss-canvas',
      attrs: {
        tabindex: 0,
        role: 'application',
        'aria-roledescription': 'timeline',
        'aria-label': 'Timeline. Plus and minus zoom, arrow keys pan and move between lanes, 0 fits all, N and P go to the next and previous finding, Enter opens its detail, Escape closes it.',
        'aria-describedby': 'ss-status',
      },
    });
    this.canvasWrap = el('div', { class: 'ss-canvas-wrap' }, [this.canvas]);
    this.view = new TimelineView(this.canvas);
    this.detail = new DetailPane(() => {
      this.detail.hide();
      this.canvas.focus();
      this.requestFrame();
    });
    this.replayBar = new ReplayBar((m) => this.channel.post(m));
    this.replayBar.root.hidden = true;
    this.filterBar = new FilterBar((f) => this.channel.post({ type: 'setFilter', filter: f }));
    this.legendBox = el('div', { class: 'ss-legend-box' });
    this.status = el('div', { class: 'ss-status', attrs: { id: 'ss-status', role: 'status', 'aria-live': 'polite' }, text: 'Loading the session…' });
    this.errorText = el('span', { class: 'ss-error-text' });
    this.errorBar = el('div', { class: 'ss-error', attrs: { role: 'alert', hidden: true } }, [
      this.errorText,
      button('Dismiss', 'Dismiss the error', () => {
        this.errorBar.hidden = true;
        this.lastError = undefined;
      }),
    ]);
    this.titleText = el('h1', { class: 'ss-title', text: 'SeqScope timeline' });
    this.optionsText = el('span', { class: 'ss-options ss-muted' });
    this.filterToggle = button('Filter', 'Show the filter bar', () => this.toggleFilter());
    this.filterToggle.setAttribute('aria-expanded', 'false');
    this.filterSummary = el('span', { class: 'ss-filter-summary ss-muted' });
    this.keyOrderSelect = el(
      'select',
      { class: 'ss-select', attrs: { 'aria-label': 'Order of the lanes' }, title: 'Order of the lanes' },
      KEY_ORDERS.map((o) => el('option', { text: `Keys: ${KEY_ORDER_LABELS[o]}`, title: KEY_ORDER_DETAILS[o], attrs: { value: o } })),
    );
    this.keyOrderSelect.addEventListener('change', () => {
      const order = this.keyOrderSelect.value;
      // Shown once the host answers (`keyOrder`): until then the select says what is drawn.
      this.keyOrderSelect.value = this.keyOrder;
      if (isKeyOrder(order)) this.channel.post({ type: 'setKeyOrder', order });
    });
    const toolbar = el('div', { class: 'ss-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [
      this.titleText,
      this.optionsText,
      el('span', { class: 'ss-spacer' }),
      button('−', 'Zoom out', () => this.zoom(1 / ZOOM_STEP)),
      button('+', 'Zoom in', () => this.zoom(ZOOM_STEP)),
      button('Fit all', 'Fit all: show the whole session', () => this.fitAll()),
      button('◀ Finding', 'Previous finding', () => this.navigate(-1)),
      button('Finding ▶', 'Next finding', () => this.navigate(1)),
      this.keyOrderSelect,
      this.filterToggle,
      this.filterSummary,
    ]);
    const main = el('div', { class: 'ss-main' }, [this.canvasWrap, this.detail.root, this.replayBar.statePanel]);
    container.append(el('div', { class: 'ss-app' }, [this.errorBar, toolbar, this.replayBar.root, this.filterBar.root, this.legendBox, main, this.status]));

    attachCanvasInput(this.canvas, {
      layout: () => this.layout,
      viewport: () => this.vp,
      scroll: () => this.scroll,
      changed: () => this.viewChanged(),
      click: (x, y) => this.clickAt(x, y),
      overMark: (x, y) => this.view.hitAt(x, y) !== undefined,
    });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('focus', () => this.requestFrame());
    this.canvas.addEventListener('blur', () => this.requestFrame());
    new ResizeObserver(() => this.resize()).observe(this.canvasWrap);
    watchTheme(() => {
      this.theme = readTheme();
      this.requestFrame();
    });
    channel.onMessage((m) => this.onHost(m));
    channel.post({ type: 'ready' });
  }

  // -------------------------------------------------------------------------------------------
  // Host messages

  private onHost(m: HostMessage): void {
    switch (m.type) {
      case 'init':
        this.init({ ...m.session, lanes: unpackLanes(m.session.lanes) }, m.overview, m.filter, m.keyOrder, m.replay);
        break;
      case 'keyOrder':
        this.setKeyOrder(m.order);
        break;
      case 'page': {
        const key = this.pending.get(m.requestId);
        // Replies come in request order: older requests still pending were superseded (a host
        // may skip those), and their late replies will be dropped.
        for (const id of this.pending.keys()) if (id <= m.requestId) this.pending.delete(id);
        // Stale: superseded by a filter or replay change, or never ours.
        if (!key || key.generation !== this.generation) return;
        // The first page's round trip, for the first-paint breakdown (DevTools, the benchmark).
        if (performance.getEntriesByName('seqscope:first-page').length === 0) performance.mark('seqscope:first-page');
        this.cache.put(key, unpackPage(m.page));
        this.requestFrame();
        if (this.pendingNav && this.isFresh()) {
          const nav = this.pendingNav;
          this.pendingNav = undefined;
          this.navigate(nav.dir, nav.from, false);
        }
        break;
      }
      case 'detail':
        if (m.requestId !== this.detailRequest) return;
        this.detail.show(m.detail);
        break;
      case 'replay':
        this.onReplay(m.replay);
        break;
      case 'filter':
        this.filter = m.filter;
        this.overview = m.overview;
        this.filterBar.set(m.filter);
        this.filterSummary.textContent = FilterBar.describe(m.filter);
        this.updateLanes();
        this.bumpGeneration();
        break;
      case 'reveal':
        this.reveal(m.event);
        break;
      case 'error':
        this.showError(m.message);
        break;
      case 'persist':
        // Kept at once: a reload right after would otherwise lose it.
        this.restore = m.restore;
        this.channel.setState?.({ ...(this.channel.getState?.() as SavedState | undefined), restore: m.restore } satisfies SavedState);
        break;
      case 'loading':
        // Until the session arrives (init): the panel opened with the load, so its first paint
        // follows the load's end at once instead of a webview start-up later.
        this.titleText.textContent = `Loading ${m.title}… ${Math.floor(m.fraction * 100)} %`;
        this.status.textContent = `${m.detail} — the timeline appears as soon as the capture is sequenced.`;
        // How long the host's messages take to arrive during a load (DevTools, the benchmark).
        performance.mark('seqscope:loading', { detail: { sentAt: m.sentAt } });
        // From here to the first paint is what the user waits once the file is read (benchmark).
        if (m.fraction >= 1 && performance.getEntriesByName('seqscope:capture-read').length === 0) performance.mark('seqscope:capture-read', { detail: { sentAt: m.sentAt } });
        break;
    }
  }

  private init(session: SessionInfo, overview: Overview, filter: TimelineFilter, keyOrder: KeyOrder, replay: ReplayInfo): void {
    performance.mark('seqscope:init');
    // Another session (a detached live session's recording, reopened): an error about the one
    // before — "detach the live session first" — no longer holds.
    if (this.session && this.session.id !== session.id) {
      this.errorBar.hidden = true;
      this.lastError = undefined;
    }
    this.session = session;
    this.overview = overview;
    this.filter = filter;
    this.keyOrder = keyOrder;
    this.keyOrderSelect.value = this.keyOrder;
    // In VS Code the order is a setting the Sessions tree follows too; a standalone page has only itself.
    this.keyOrderSelect.title = session.standalone ? 'Order of the lanes' : 'Order of the lanes, and of the keys in the Sessions tree (seqscope.keyOrder)';
    this.titleText.textContent = session.title;
    this.optionsText.textContent = session.options;
    document.title = `SeqScope — ${session.title}`;
    const width = this.layout?.plotW ?? 800;
    this.vp = new Viewport(session.start, session.end, width);
    this.filterBar.setup(session.lanes.map((l) => l.name), !session.standalone, session.seqBits);
    this.filterBar.set(filter);
    this.filterSummary.textContent = FilterBar.describe(filter);
    this.legendBox.replaceChildren(legend(!session.standalone));
    this.replayBar.root.hidden = !!session.standalone;
    this.updateLanes();
    const saved = this.channel.getState?.() as SavedState | undefined;
    if (saved && saved.sessionId === session.id && saved.t0 !== undefined && saved.t1 !== undefined && saved.t1 > saved.t0) {
      this.vp.show(saved.t0, saved.t1);
      this.scroll.scrollTo(saved.scrollY ?? 0);
    }
    this.cache.clear();
    this.pending.clear();
    this.generation++;
    this.onReplay(replay);
    this.resize();
    this.scheduleRequest(true);
    this.updateStatus();
  }

  private onReplay(info: ReplayInfo): void {
    this.replay = info;
    if (this.session && !this.session.standalone) this.replayBar.update(info, this.session);
    const key = info.active && info.state ? String(info.state.position) : 'all';
    if (key !== this.replayPositionKey) {
      this.replayPositionKey = key;
      // The host now answers pages up to the new position: re-request, at most 10 times a second.
      const wait = REPLAY_REFRESH_MS - (performance.now() - this.lastReplayRefresh);
      if (wait <= 0) this.refreshForReplay();
      else if (this.replayTimer === undefined) this.replayTimer = window.setTimeout(() => this.refreshForReplay(), wait);
    }
    this.requestFrame();
  }

  private refreshForReplay(): void {
    this.replayTimer = undefined;
    this.lastReplayRefresh = performance.now();
    this.bumpGeneration();
  }

  /** What the host would answer changed: pages in flight are stale, cached ones only stand in. */
  private bumpGeneration(): void {
    this.generation++;
    this.pending.clear();
    this.cache.dropBefore(this.generation, 8);
    this.scheduleRequest(true);
    this.requestFrame();
  }

  /** The same lanes in another order: the pages of the lanes now in view are asked for (cached ones stand in). */
  private setKeyOrder(order: KeyOrder): void {
    this.keyOrder = order;
    this.keyOrderSelect.value = order;
    this.updateLanes();
    this.scheduleRequest(true);
    this.requestFrame();
  }

  private updateLanes(): void {
    const s = this.session;
    if (!s) return;
    // The keys the filter names, or (findings only) those with such a finding, in the key order: as the tree lists them.
    const keys = listKeys(s.lanes, this.filter, this.keyOrder, (l) => l.name);
    this.lanesFiltered = keys.length !== s.lanes.length;
    this.lanes = keys.map((i) => s.lanes[i]);
    this.laneKeys = this.lanes.map((l) => l.key);
    this.focusedLane = Math.min(this.focusedLane, Math.max(0, this.lanes.length - 1));
    this.resize();
  }

  // -------------------------------------------------------------------------------------------
  // Pages

  private neededKey(): PageKey | undefined {
    const vp = this.vp;
    const L = this.layout;
    if (!vp || !L) return undefined;
    const { first, end } = this.scroll.visible();
    const lanes = laneBlock(this.laneKeys, first, end);
    return { ...pageWindow(vp, L.plotW), generation: this.generation, lanes };
  }

  private isFresh(): boolean {
    const k = this.neededKey();
    return !!k && !!this.vp && this.cache.fresh(this.vp, k.level, k.generation, this.visibleKeys()) !== undefined;
  }

  private visibleKeys(): number[] {
    const { first, end } = this.scroll.visible();
    return this.laneKeys.slice(first, end);
  }

  /** Asks for the page the view needs once it has settled (debounced, with a maximum wait). */
  private scheduleRequest(now = false): void {
    const t = performance.now();
    if (now) {
      if (this.requestTimer !== undefined) clearTimeout(this.requestTimer);
      this.requestTimer = undefined;
      this.requestPage();
      return;
    }
    this.lastChange = t;
    if (this.requestTimer !== undefined) return;
    this.firstChange = t;
    const tick = () => {
      const n = performance.now();
      const idle = n - this.lastChange;
      const maxWait = this.session?.standalone ? Infinity : REQUEST_MAX_WAIT_MS;
      if (idle < REQUEST_DEBOUNCE_MS && n - this.firstChange < maxWait) {
        this.requestTimer = window.setTimeout(tick, Math.min(REQUEST_DEBOUNCE_MS - idle, maxWait - (n - this.firstChange)));
        return;
      }
      this.requestTimer = undefined;
      this.requestPage();
    };
    this.requestTimer = window.setTimeout(tick, REQUEST_DEBOUNCE_MS);
  }

  private requestPage(): void {
    const key = this.neededKey();
    if (!key || !this.vp || !this.session) return;
    if (this.cache.fresh(this.vp, key.level, key.generation, this.visibleKeys())) return;
    const id = pageKeyString(key);
    for (const k of this.pending.values()) if (pageKeyString(k) === id) return;
    const requestId = this.ids.next();
    this.pending.set(requestId, key);
    // Replies to requests long superseded may never come (a host may skip them): forget the oldest.
    if (this.pending.size > 8) this.pending.delete(this.pending.keys().next().value as number);
    this.pagesRequested++;
    if (this.pagesRequested === 1) performance.mark('seqscope:first-request');
    this.channel.post({ type: 'requestPage', requestId, t0: key.t0, t1: key.t1, buckets: key.buckets, lanes: [...key.lanes] });
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  private resize(): void {
    const r = this.canvasWrap.getBoundingClientRect();
    const w = Math.max(1, Math.floor(r.width));
    const h = Math.max(1, Math.floor(r.height));
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    this.view.resize(w, h, window.devicePixelRatio || 1);
    this.layout = computeLayout(w, h, (this.session?.invalid ?? 0) > 0);
    this.vp?.setWidth(this.layout.plotW);
    this.scroll.setSize(this.lanes.length, this.layout.lanes.h);
    this.requestFrame();
    this.scheduleRequest();
  }

  private requestFrame(): void {
    if (this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      this.draw();
    });
  }

  private draw(): void {
    const session = this.session;
    const vp = this.vp;
    const L = this.layout;
    if (!session || !vp || !L || !this.overview) return;
    const start = performance.now();
    const key = this.neededKey() as PageKey;
    const pages = new Map<number, { page: TimelinePage; fresh: boolean } | undefined>();
    const pageFor = (k: number) => {
      if (!pages.has(k)) pages.set(k, this.cache.bestFor(k, vp, key.level, this.generation));
      return pages.get(k);
    };
    this.stats = this.view.draw({
      session,
      lanes: this.lanes,
      overview: this.overview,
      viewport: vp,
      scroll: this.scroll,
      layout: L,
      theme: this.theme,
      pageFor,
      selectedId: this.selected?.id,
      cursorTime: this.replay.active ? this.replay.state?.time : undefined,
      focusedLane: document.activeElement === this.canvas ? this.focusedLane : undefined,
      message: this.lanesFiltered ? 'No key matches the filter' : this.session?.arrivals === 0 ? 'Nothing has arrived yet: waiting for the first message' : 'This session has no keys',
      // Mid-gesture, copy the lane layer shifted or scaled; render it again once settled.
      allowStale: start - this.lastViewChange < SETTLE_MS,
    });
    if (this.stats.stale) this.frameAfter(SETTLE_MS - (start - this.lastViewChange) + 1);
    const end = performance.now();
    this.lastDrawMs = end - start;
    this.drawTimes[this.draws % DRAW_TIMES_KEPT] = this.lastDrawMs;
    this.draws++;
    const painted = this.stats.anyData || (this.lanes.length === 0 && !!pageFor(-1));
    if (this.firstPaintMs === undefined && painted) {
      this.firstPaintMs = end;
      performance.mark('seqscope:first-paint');
    }
    if (painted && this.paintedSession !== session.id) {
      // The host holds heavy work back until then (the session after a load's first view).
      this.paintedSession = session.id;
      this.channel.post({ type: 'painted', session: session.id });
    }
    if (!this.stats.allFresh) this.scheduleRequest();
  }

  // -------------------------------------------------------------------------------------------
  // View operations

  /** A frame once a gesture has settled (to render the lane layer for where it ended). */
  private frameAfter(ms: number): void {
    if (this.settleTimer !== undefined) return;
    this.settleTimer = window.setTimeout(() => {
      this.settleTimer = undefined;
      this.requestFrame();
    }, Math.max(0, ms));
  }

  private viewChanged(): void {
    this.lastViewChange = performance.now();
    this.requestFrame();
    this.scheduleRequest();
    this.updateStatusSoon();
    this.saveSoon();
  }

  private zoom(factor: number): void {
    this.vp?.zoomAt(factor);
    this.viewChanged();
  }

  private fitAll(): void {
    this.vp?.fitAll();
    this.viewChanged();
  }

  private toggleFilter(): void {
    this.filterBar.toggle();
    this.filterToggle.setAttribute('aria-expanded', String(this.filterBar.visible));
    this.filterToggle.setAttribute('aria-label', this.filterBar.visible ? 'Hide the filter bar' : 'Show the filter bar');
    this.resize();
  }

  private onKey(e: KeyboardEvent): void {
    const vp = this.vp;
    if (!vp || e.altKey || e.metaKey || (e.ctrlKey && e.key !== '0')) return;
    const pan = vp.span * (e.shiftKey ? 0.5 : 0.1);
    let handled = true;
    switch (e.key) {
      case '+':
      case '=':
        this.zoom(ZOOM_STEP);
        break;
      case '-':
      case '_':
        this.zoom(1 / ZOOM_STEP);
        break;
      case 'ArrowLeft':
        vp.panTime(-pan);
        this.viewChanged();
        break;
      case 'ArrowRight':
        vp.panTime(pan);
        this.viewChanged();
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        this.focusLane(this.focusedLane + (e.key === 'ArrowUp' ? -1 : 1));
        break;
      case 'PageUp':
      case 'PageDown':
        this.focusLane(this.focusedLane + (e.key === 'PageUp' ? -1 : 1) * Math.max(1, Math.floor(this.scroll.viewHeight / this.scroll.laneHeight) - 1));
        break;
      case 'Home':
        vp.panTime(vp.domainT0 - vp.t1);
        this.viewChanged();
        break;
      case 'End':
        vp.panTime(vp.domainT1 - vp.t0);
        this.viewChanged();
        break;
      case '0':
      case 'f':
        this.fitAll();
        break;
      case 'n':
      case 'N':
        this.navigate(e.key === 'N' ? -1 : 1);
        break;
      case 'p':
        this.navigate(-1);
        break;
      case 'Enter':
        if (this.selected) this.openDetail(this.selected.id);
        else this.navigate(1);
        break;
      case 'Escape':
        if (this.detail.isOpen) this.detail.hide();
        else this.selected = undefined;
        this.requestFrame();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }

  private focusLane(i: number): void {
    if (!this.lanes.length) return;
    this.focusedLane = Math.max(0, Math.min(this.lanes.length - 1, i));
    this.scroll.ensureVisible(this.focusedLane);
    this.viewChanged();
    const lane = this.lanes[this.focusedLane];
    const key = this.neededKey();
    const got = key && this.vp ? this.cache.bestFor(lane.key, this.vp, key.level, this.generation) : undefined;
    const c = countsShown(lane, got?.page, this.replay.active);
    const where = c === lane ? '' : ' at the replay position';
    this.status.textContent = `Lane ${displayKey(lane.name)}${where}: ${count(c.received)} received, ${count(c.delivered)} delivered, ${count(c.gaps)} ${noun(c.gaps, 'gap')} (${count(c.lost)} lost), ${count(c.duplicates)} ${noun(c.duplicates, 'duplicate')}, ${count(c.late)} late${lane.hot ? ', hot' : ''}`;
  }

  private clickAt(x: number, y: number): void {
    this.canvas.focus();
    const hit = this.view.hitAt(x, y);
    if (!hit) {
      const L = this.layout;
      if (L && y >= L.lanes.y) {
        const lane = this.scroll.laneAt(y - L.lanes.y);
        if (lane >= 0) this.focusedLane = lane;
      }
      this.requestFrame();
      return;
    }
    const L = this.layout as Layout;
    const laneIndex = L && y >= L.lanes.y ? this.scroll.laneAt(y - L.lanes.y) : -1;
    const key = laneIndex >= 0 ? this.lanes[laneIndex].key : -1;
    if (laneIndex >= 0) this.focusedLane = laneIndex;
    this.select({ id: hit.id, t: hit.t, key, kind: kindName(hit.kind) });
    this.openDetail(hit.id);
  }

  private select(s: Selection): void {
    this.selected = s;
    this.channel.post({ type: 'select', eventId: s.id });
    this.requestFrame();
  }

  private openDetail(id: number): void {
    this.detailRequest = this.ids.next();
    this.detail.loading({ id });
    this.channel.post({ type: 'requestDetail', requestId: this.detailRequest, eventId: id });
  }

  /** Host asked to show an event: centre it (whole, for a gap), select it, open its detail. */
  private reveal(e: EventView): void {
    const vp = this.vp;
    if (!vp) return;
    const at = e.kind === 'gap' ? (e.t0 + e.t1) / 2 : e.t1;
    if (e.kind === 'gap' && e.t1 - e.t0 > vp.span * 0.8) vp.show(e.t0 - (e.t1 - e.t0) * 0.2, e.t1 + (e.t1 - e.t0) * 0.2);
    // Zoomed out over most of the session, centring would be clamped: show a tenth of it around the event.
    else if (vp.span > (vp.domainT1 - vp.domainT0) / 2) vp.show(at - (vp.domainT1 - vp.domainT0) / 20, at + (vp.domainT1 - vp.domainT0) / 20);
    else vp.centerOn(at);
    const lane = this.lanes.findIndex((l) => l.key === e.keyIndex);
    if (lane >= 0) {
      this.focusedLane = lane;
      this.scroll.ensureVisible(lane);
    }
    this.select({ id: e.id, t: e.t1, key: e.keyIndex, kind: e.kind });
    this.openDetail(e.id);
    this.viewChanged();
  }

  /**
   * Next / previous finding (gap, duplicate, late, invalid) from the selection, over the pages of
   * the visible lanes; past their end, jump through the overview to the next bin with findings.
   */
  private navigate(dir: 1 | -1, fromT?: number, mayJump = true): void {
    const vp = this.vp;
    if (!vp) return;
    const from = fromT !== undefined ? { t: fromT, id: dir > 0 ? -1 : Infinity } : this.selected ? { t: this.selected.t, id: this.selected.id } : { t: dir > 0 ? vp.t0 : vp.t1, id: dir > 0 ? -1 : Infinity };
    let best: Selection | undefined;
    const key = this.neededKey();
    const consider = (list: MarkList, laneKey: number) => {
      for (let i = 0; i < list.id.length; i++) {
        const kind = list.kind[i];
        const t = kind === 1 ? (list.t0[i] + list.t1[i]) / 2 : list.t1[i];
        const id = list.id[i];
        const after = dir > 0 ? t > from.t || (t === from.t && id > from.id) : t < from.t || (t === from.t && id < from.id);
        if (!after) continue;
        const better = !best || (dir > 0 ? t < best.t || (t === best.t && id < best.id) : t > best.t || (t === best.t && id > best.id));
        if (better) best = { id, t, key: laneKey, kind: kindName(kind) };
      }
    };
    if (key) {
      for (const lane of this.lanes.slice(this.scroll.visible().first, this.scroll.visible().end)) {
        const got = this.cache.bestFor(lane.key, vp, key.level, this.generation);
        const lp = got?.page.lanes.find((l) => l.key === lane.key);
        if (lp) consider(lp.findings, lane.key);
      }
      const inv = this.cache.bestFor(-1, vp, key.level, this.generation);
      if (inv && this.session?.invalid) consider(inv.page.invalid, -1);
    }
    const found = best as Selection | undefined;
    if (found) {
      if (found.t < vp.t0 + vp.span * 0.05 || found.t > vp.t1 - vp.span * 0.05) vp.centerOn(found.t);
      const lane = this.lanes.findIndex((l) => l.key === found.key);
      if (lane >= 0) {
        this.focusedLane = lane;
        this.scroll.ensureVisible(lane);
      }
      this.select(found);
      this.openDetail(found.id);
      this.viewChanged();
      this.status.textContent = `Selected ${found.kind} (event ${found.id}) at ${clockTime(found.t)}`;
      return;
    }
    if (!mayJump) return;
    const t = this.nextFindingBin(dir, dir > 0 ? Math.max(from.t, key?.t1 ?? vp.t1) : Math.min(from.t, key?.t0 ?? vp.t0));
    if (t === undefined) {
      this.status.textContent = dir > 0 ? 'No further findings.' : 'No earlier findings.';
      return;
    }
    vp.centerOn(t.center);
    this.pendingNav = { dir, from: dir > 0 ? t.start - 1e-9 : t.end + 1e-9 };
    this.viewChanged();
    this.scheduleRequest(true);
  }

  /** The next overview bin after (or before) time `t` that has findings. */
  private nextFindingBin(dir: 1 | -1, t: number): { start: number; end: number; center: number } | undefined {
    const o = this.overview;
    if (!o) return undefined;
    const n = o.arrivals.length;
    const w = (o.t1 - o.t0) / n;
    const has = (i: number) => o.gaps[i] + o.duplicates[i] + o.late[i] > 0;
    let i = Math.floor((t - o.t0) / w);
    for (i = Math.max(-1, Math.min(n, i)) + dir; i >= 0 && i < n; i += dir) {
      if (has(i)) return { start: o.t0 + i * w, end: o.t0 + (i + 1) * w, center: o.t0 + (i + 0.5) * w };
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Status, errors, persisted state

  private statusTimer: number | undefined;

  private updateStatusSoon(): void {
    if (this.statusTimer !== undefined) return;
    this.statusTimer = window.setTimeout(() => {
      this.statusTimer = undefined;
      this.updateStatus();
    }, 250);
  }

  private updateStatus(): void {
    const vp = this.vp;
    const s = this.session;
    if (!vp || !s) return;
    const sel = this.selected ? ` · selected ${this.selected.kind} ${this.selected.id}` : '';
    if (s.arrivals === 0 && s.events === 0) {
      this.status.textContent = 'Nothing has arrived yet: the timeline starts with the first message.';
      return;
    }
    this.status.textContent = `${clockTime(vp.t0)} – ${clockTime(vp.t1)} (${duration(vp.span)}) · ${count(this.lanes.length)} of ${count(s.lanes.length)} keys · ${count(s.events)} events${sel}`;
  }

  private showError(message: string): void {
    this.lastError = message;
    this.errorText.textContent = message;
    this.errorBar.hidden = false;
  }

  private saveSoon(): void {
    if (!this.channel.setState || this.saveTimer !== undefined) return;
    this.saveTimer = window.setTimeout(() => {
      this.saveTimer = undefined;
      if (!this.vp || !this.session) return;
      const st: SavedState = { sessionId: this.session.id, t0: this.vp.t0, t1: this.vp.t1, scrollY: this.scroll.scrollY, restore: this.restore };
      this.channel.setState?.(st);
    }, 500);
  }

  // -------------------------------------------------------------------------------------------
  // Test hook

  snapshot(): TimelineSnapshot {
    const st = this.stats;
    const r = this.canvas.getBoundingClientRect();
    const n = Math.min(this.draws, DRAW_TIMES_KEPT);
    const drawMs: number[] = [];
    for (let i = this.draws - n; i < this.draws; i++) drawMs.push(this.drawTimes[i % DRAW_TIMES_KEPT]);
    const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    return {
      ready: !!this.session,
      standalone: !!this.session?.standalone,
      firstPaintMs: this.firstPaintMs,
      draws: this.draws,
      lastDrawMs: this.lastDrawMs,
      drawMs,
      window: this.vp ? { t0: this.vp.t0, t1: this.vp.t1 } : undefined,
      domain: this.vp ? { t0: this.vp.domainT0, t1: this.vp.domainT1 } : undefined,
      fitAll: !!this.vp?.isFitAll(),
      lanes: copy(st?.lanes ?? []),
      marks: st ? copy(st.marks) : undefined,
      findings: copy(st?.findings ?? []),
      messages: copy(st?.messages ?? []),
      allFresh: !!st?.allFresh,
      selectedId: this.selected?.id,
      cursorTime: this.replay.active ? this.replay.state?.time : undefined,
      detailOpen: this.detail.isOpen,
      detailEventId: this.detail.isOpen && this.detail.root.dataset.eventId !== undefined ? Number(this.detail.root.dataset.eventId) : undefined,
      focusedLane: this.focusedLane,
      canvasFocused: document.activeElement === this.canvas,
      pendingRequests: this.pending.size,
      pagesRequested: this.pagesRequested,
      cachedPages: this.cache.size,
      generation: this.generation,
      background: this.theme.background,
      error: this.lastError,
      canvas: { x: r.left, y: r.top, width: r.width, height: r.height },
    };
  }
}

