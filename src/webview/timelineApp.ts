/**
 * The timeline webview's coordinator: owns the view state (window, lane scroll, selection,
 * filter, replay), answers the host's messages and turns user actions into view changes. Its
 * parts: the page requester (pageRequester.ts), the time window (timeWindow.ts), the selection
 * and its detail (eventSelection.ts), finding navigation (findingNav.ts), the keys (keymap.ts,
 * viewKeys.ts), the toolbar (toolbar.ts), the page around the canvas (shell.ts), frames
 * (frames.ts), the saved view (viewState.ts) and the test hook (testProbe.ts). Which host it
 * talks to (VS Code or the standalone page) is main.ts's business.
 *
 * Data flow: the view changes → a frame draws from cached pages at once (scaled stand-ins where
 * the right page is missing) → once the view settles, the page for it is requested → the reply,
 * if not stale, goes into the cache → another frame.
 */
import { CanvasSize } from './canvasSize';
import { KeyOrder, listKeys } from '../core/trace/keyOrder';
import type { HostMessage, LaneInfo, MarkList, Overview, ReplayInfo, SessionInfo, TimelineFilter, TimelinePage } from '../shared/protocol';
import { IDLE_REPLAY } from '../shared/protocol';
import { assertNever } from '../core/util/assertNever';
import { unpackLanes } from '../shared/laneWire';
import { unpackPage } from '../shared/pageWire';
import { attachCanvasInput } from './canvasInput';
import { EventSelection } from './eventSelection';
import { FilterBar } from './filterBar';
import { FindingNavigator } from './findingNav';
import { clockTime } from './format';
import { Drawn, Frames } from './frames';
import type { HostChannel } from './hostChannel';
import { RequestIds } from './hostChannel';
import { KeyAction, keyAction, keyHint } from './keymap';
import { computeLayout, Layout, LANE_HEIGHT } from './layout';
import { PageRequester, REQUEST_MAX_WAIT_MS, ViewNeed, viewNeed } from './pageRequester';
import { ReplayBar } from './replayBar';
import { Shell } from './shell';
import { ShortcutsHelp } from './shortcutsHelp';
import { probeSnapshot } from './testProbe';
import { readTheme, Theme, watchTheme } from './theme';
import { countsShown, FrameStats, kindName, TimelineView } from './timelineView';
import type { SnapshotSince, TimelineSnapshot } from './timelineSnapshot';
import { Toolbar } from './toolbar';
import { ViewState } from './viewState';
import { OpenGapBand, openGapBand } from '../shared/openGapBand';
import { TimeWindow } from './timeWindow';
import { runViewKey } from './viewKeys';
import { LaneScroll, Viewport } from './viewport';

const windowClock = {
  now: () => performance.now(),
  setTimeout: (f: () => void, ms: number) => window.setTimeout(f, ms),
  clearTimeout: (h: number) => window.clearTimeout(h),
};

export class TimelineApp {
  private readonly shell: Shell;
  private readonly canvas: HTMLCanvasElement;
  private readonly view: TimelineView;
  private readonly replayBar: ReplayBar;
  private readonly filterBar: FilterBar;
  private readonly toolbar: Toolbar;
  private readonly help: ShortcutsHelp;
  private readonly ids = new RequestIds();
  private readonly pages: PageRequester<TimelinePage>;
  private readonly nav: FindingNavigator;
  private readonly frames = new Frames((allowStale) => this.draw(allowStale));
  private readonly saved: ViewState;
  private readonly time = new TimeWindow(() => this.viewChanged());
  private readonly selection = new EventSelection({
    post: (m) => this.channel.post(m),
    nextId: () => this.ids.next(),
    viewport: () => this.vp,
    focusKey: (key) => this.focusKey(key),
    redraw: () => this.frames.request(),
    viewChanged: () => this.viewChanged(),
    focusCanvas: () => this.canvas.focus(),
  });

  private session: SessionInfo | undefined;
  private overview: Overview | undefined;
  private filter: TimelineFilter = {};
  /** The lanes' order (the host's `keyOrder`; the toolbar asks the host to change it). */
  private keyOrder: KeyOrder = 'arrival';
  private replay: ReplayInfo = IDLE_REPLAY;
  /** The last session whose first frame with data was drawn (reported to the host once). */
  private paintedSession: string | undefined;
  /** Whether the filter chose the lanes shown (see listKeys). */
  private lanesFiltered = false;
  /** Lanes shown, in display order (the filter's keys only, when it names keys). */
  private lanes: LaneInfo[] = [];
  /** The lanes' keys, in lane order: asked for on every frame (what to request, what is fresh). */
  private laneKeys: number[] = [];
  private readonly scroll = new LaneScroll(LANE_HEIGHT, 0, 0);
  private layout: Layout | undefined;
  private readonly size: CanvasSize;
  private theme: Theme = readTheme();
  private stats: FrameStats | undefined;
  /** A live session's open gaps by lane key, as the host last sent them. */
  private openBands = new Map<number, OpenGapBand>();
  private focusedLane = 0;
  private statusTimer: number | undefined;

  constructor(
    private readonly channel: HostChannel,
    container: HTMLElement,
  ) {
    this.replayBar = new ReplayBar((m) => this.channel.post(m));
    this.replayBar.root.hidden = true;
    this.filterBar = new FilterBar((f) => this.channel.post({ type: 'setFilter', filter: f }));
    this.toolbar = new Toolbar({
      zoom: (f) => this.time.zoom(f),
      fitAll: () => this.time.fitAll(!!this.session?.live),
      toggleFollow: () => this.time.toggleFollow(),
      followWindow: (w) => this.time.setFollowWindow(w),
      navigate: (dir) => this.nav.navigate(dir),
      keyOrder: (order) => this.channel.post({ type: 'setKeyOrder', order }),
      toggleFilter: () => {
        this.filterBar.toggle();
        this.toolbar.filterShown(this.filterBar.visible);
        this.resize();
      },
      shortcuts: () => this.help.open(this.hasReplay()),
    });
    this.help = new ShortcutsHelp(() => this.canvas.focus());
    this.shell = new Shell(container, {
      toolbar: this.toolbar.root,
      replayBar: this.replayBar.root,
      filterBar: this.filterBar.root,
      detail: this.selection.pane.root,
      statePanel: this.replayBar.statePanel,
      dialogs: [this.help.root],
    });
    this.canvas = this.shell.canvas;
    this.size = new CanvasSize(this.shell.canvasWrap, this.canvas);
    this.view = new TimelineView(this.canvas);
    this.saved = new ViewState(channel, () => this.session && this.vp && { sessionId: this.session.id, vp: this.vp, scroll: this.scroll });
    this.pages = new PageRequester<TimelinePage>(
      {
        need: () => this.need(),
        send: (r) => {
          if (this.pages.pagesRequested === 1) performance.mark('seqscope:first-request');
          this.channel.post({ type: 'requestPage', ...r, ...this.time.pageFollow(!!this.session?.live, this.layout?.plotW) });
        },
        nextId: () => this.ids.next(),
        maxWaitMs: () => (this.session?.standalone ? Infinity : REQUEST_MAX_WAIT_MS),
        invalidated: () => this.frames.request(),
      },
      windowClock,
    );
    this.nav = new FindingNavigator({
      viewport: () => this.vp,
      selected: () => this.selection.current,
      visibleFindings: () => this.visibleFindings(),
      pageWindow: () => this.pages.needed(),
      overview: () => this.overview,
      isFresh: () => this.pages.isFresh(),
      goTo: (found) => {
        this.selection.show(found);
        this.shell.say(`Selected ${found.kind} (event ${found.id}) at ${clockTime(found.t)}`);
      },
      jumped: () => {
        this.viewChanged();
        this.pages.requestNow();
      },
      say: (text) => this.shell.say(text),
    });
    this.listen();
    channel.onMessage((m) => this.onHost(m));
    channel.post({ type: 'ready' });
  }

  /** The canvas's pointer and keys, its focus and size, and the theme: each redraws what it changes. */
  private listen(): void {
    attachCanvasInput(this.canvas, {
      layout: () => this.layout,
      viewport: () => this.vp,
      scroll: () => this.scroll,
      changed: () => this.viewChanged(),
      click: (x, y) => this.clickAt(x, y),
      overMark: (x, y) => this.view.hitAt(x, y) !== undefined,
    });
    // Keys on the canvas only: typing anywhere else (the filter bar, the workbench) is never taken.
    this.canvas.addEventListener('keydown', (e) => {
      const action = keyAction(e, this.hasReplay());
      if (!action) return;
      e.preventDefault();
      this.onKey(action);
    });
    this.canvas.addEventListener('focus', () => this.frames.request());
    this.canvas.addEventListener('blur', () => this.frames.request());
    new ResizeObserver(() => this.resize()).observe(this.shell.canvasWrap);
    watchTheme(() => {
      this.theme = readTheme();
      this.frames.request();
    });
  }

  private get vp(): Viewport | undefined {
    return this.time.vp;
  }

  private hasReplay(): boolean {
    return !!this.session && !this.session.standalone;
  }

  // -------------------------------------------------------------------------------------------
  // Host messages

  private onHost(m: HostMessage): void {
    switch (m.type) {
      case 'init':
        if (m.sentAt !== undefined) this.frames.log.liveReceived(m.sentAt);
        this.init({ ...m.session, lanes: unpackLanes(m.session.lanes) }, m.overview, m.filter, m.keyOrder, m.replay);
        return;
      case 'liveUpdate':
        // The channel applies it to the last init, and passes on the init it makes (hostChannel.ts).
        return;
      case 'keyOrder':
        // The same lanes in another order: the pages of the lanes now in view are asked for (cached ones stand in).
        this.keyOrder = m.order;
        this.toolbar.keyOrder(m.order);
        this.updateLanes();
        this.pages.requestNow();
        this.frames.request();
        return;
      case 'page':
        if (!this.pages.receive(m.requestId, () => unpackPage(m.page))) return;
        // The first page's round trip, for the first-paint breakdown (DevTools, the benchmark).
        if (performance.getEntriesByName('seqscope:first-page').length === 0) performance.mark('seqscope:first-page');
        this.frames.request();
        this.nav.pageArrived();
        return;
      case 'detail':
        this.selection.detailArrived(m.requestId, m.detail);
        return;
      case 'replay':
        this.onReplay(m.replay);
        return;
      case 'filter':
        this.filter = m.filter;
        this.overview = m.overview;
        this.filterBar.set(m.filter);
        this.toolbar.filter(m.filter);
        this.updateLanes();
        this.pages.invalidate();
        this.frames.request();
        return;
      case 'reveal':
        this.selection.reveal(m.event);
        return;
      case 'error':
        this.shell.showError(m.message);
        return;
      case 'persist':
        this.saved.persist(m.restore);
        return;
      case 'loading':
        // Until the session arrives (init): the panel opened with the load, so its first paint
        // follows the load's end at once instead of a webview start-up later.
        this.toolbar.loading(m.title, m.fraction);
        this.shell.say(`${m.detail} — the timeline appears as soon as the capture is sequenced.`);
        // How long the host's messages take to arrive during a load (DevTools, the benchmark).
        performance.mark('seqscope:loading', { detail: { sentAt: m.sentAt } });
        // From here to the first paint is what the user waits once the file is read (benchmark).
        if (m.fraction >= 1 && performance.getEntriesByName('seqscope:capture-read').length === 0)
          performance.mark('seqscope:capture-read', { detail: { sentAt: m.sentAt } });
        return;
      default:
        // Every host message is handled above: a new one fails to compile here until it is.
        return assertNever(m, 'message from the host');
    }
  }

  private init(session: SessionInfo, overview: Overview, filter: TimelineFilter, keyOrder: KeyOrder, replay: ReplayInfo): void {
    performance.mark('seqscope:init');
    const previous = this.session?.id;
    const keysBefore = this.session?.lanes.length;
    // Another session (a live session's recording, reopened): an error about the one before no longer holds.
    if (this.session && this.session.id !== session.id) this.shell.clearError();
    this.session = session;
    this.overview = overview;
    this.filter = filter;
    this.keyOrder = keyOrder;
    this.toolbar.session(session, keyOrder, filter);
    if (document.title !== `SeqScope — ${session.title}`) document.title = `SeqScope — ${session.title}`;
    // A live session's open gaps: bands growing while they wait, and where its data ends.
    const bands = (session.open ?? []).flatMap((o) => openGapBand(o.key, o.state) ?? []);
    this.openBands = new Map(bands.map((b) => [b.key, b]));
    // The same live session, grown (each update makes an init), keeps its window.
    const grown = this.time.open(session, bands, previous, this.layout?.plotW ?? 800);
    // A live session grown keeps its keys (and gains some): its filter bar and legend stay as they are.
    const names = session.lanes.map((l) => l.name);
    const comparison = session.lanes.some((l) => l.compared);
    if (!grown || names.length !== keysBefore) this.filterBar.setup(names, !session.standalone, session.seqBits, comparison);
    this.filterBar.set(filter, grown && names.length === keysBefore);
    if (!grown) this.shell.legend(!session.standalone, keyHint(!session.standalone), comparison);
    this.replayBar.root.hidden = !!session.standalone;
    this.updateLanes();
    // A live session opens following its data, not on a window saved while it was smaller.
    if (!grown && !session.live && this.vp) this.saved.restore(session.id, this.vp, this.scroll);
    // A live session grown: its pages stand in until the new ones come; another session: nothing cached is of use.
    if (grown) this.pages.invalidate();
    else this.pages.reset();
    this.onReplay(replay);
    // Another session: measured and laid out again (its legend and any restored view). A live
    // update leaves the page as it was (the resize observer says when it changes), and
    // updateLanes has laid it out already.
    if (!grown) this.resize();
    this.pages.requestNow();
    this.updateStatus();
  }

  private onReplay(info: ReplayInfo): void {
    this.replay = info;
    if (this.session && !this.session.standalone) this.replayBar.update(info, this.session);
    this.pages.replayAt(info.active && info.state ? String(info.state.position) : 'all');
    this.frames.request();
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
    this.resize(false);
  }

  /** What the view needs from the host now (the page requester's question). */
  private need(): ViewNeed | undefined {
    const vp = this.vp;
    const L = this.layout;
    if (!vp || !L) return undefined;
    const { first, end } = this.scroll.visible();
    return viewNeed(vp, L.plotW, this.laneKeys, first, end);
  }

  private visibleFindings(): [MarkList, number][] {
    const { first, end } = this.scroll.visible();
    const out: [MarkList, number][] = [];
    for (const lane of this.lanes.slice(first, end)) {
      const lp = this.pages.bestFor(lane.key)?.page.lanes.find((l) => l.key === lane.key);
      if (lp) out.push([lp.findings, lane.key]);
    }
    const inv = this.pages.bestFor(-1);
    if (inv && this.session?.invalid) out.push([inv.page.invalid, -1]);
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  /** Lays the timeline out in the canvas's size, measured again (a layout of the page) unless `measure` is false and it was before. */
  private resize(measure = true): void {
    if (measure || !this.size.measured) this.size.measure();
    const { w, h } = this.size;
    this.view.resize(w, h, window.devicePixelRatio || 1);
    this.layout = computeLayout(w, h, (this.session?.invalid ?? 0) > 0);
    this.vp?.setWidth(this.layout.plotW);
    this.scroll.setSize(this.lanes.length, this.layout.lanes.h);
    this.frames.request();
    this.pages.schedule();
  }

  private draw(allowStale: boolean): Drawn | undefined {
    const session = this.session;
    const vp = this.vp;
    const L = this.layout;
    if (!session || !vp || !L || !this.overview) return undefined;
    const pages = new Map<number, { page: TimelinePage; fresh: boolean } | undefined>();
    const pageFor = (k: number) => {
      if (!pages.has(k)) pages.set(k, this.pages.bestFor(k));
      return pages.get(k);
    };
    const stats = this.view.draw({
      session,
      lanes: this.lanes,
      overview: this.overview,
      viewport: vp,
      scroll: this.scroll,
      layout: L,
      theme: this.theme,
      pageFor,
      selectedId: this.selection.current?.id,
      cursorTime: this.replay.active ? this.replay.state?.time : undefined,
      focusedLane: this.shell.canvasFocused ? this.focusedLane : undefined,
      message: this.lanesFiltered
        ? 'No key matches the filter'
        : session.arrivals === 0
          ? 'Nothing has arrived yet: waiting for the first message'
          : 'This session has no keys',
      // Mid-gesture, copy the lane layer shifted or scaled; render it again once settled.
      allowStale,
      openBands: this.openBands,
      following: !!session.live && vp.follow,
    });
    this.stats = stats;
    this.toolbar.follow(!!session.live, vp.state, vp.followWindow);
    const painted = stats.anyData || (this.lanes.length === 0 && !!pageFor(-1));
    if (painted && this.paintedSession !== session.id) {
      // The host holds heavy work back until then (the session after a load's first view).
      this.paintedSession = session.id;
      this.channel.post({ type: 'painted', session: session.id });
    }
    if (!stats.allFresh) this.pages.schedule();
    return { stale: stats.stale, painted, partsMs: stats.partsMs, ...(stats.allFresh ? { dataEnd: session.end } : {}) };
  }

  // -------------------------------------------------------------------------------------------
  // View operations

  private viewChanged(): void {
    this.frames.viewChanged();
    this.pages.schedule();
    if (this.statusTimer === undefined)
      this.statusTimer = window.setTimeout(() => {
        this.statusTimer = undefined;
        this.updateStatus();
      }, 250);
    this.saved.saveSoon();
  }

  private onKey(a: KeyAction): void {
    if ('replay' in a) {
      this.channel.post({ type: 'replay', action: a.replay === 'playPause' ? (this.replay.playing ? 'pause' : 'play') : a.replay });
      return;
    }
    const vp = this.vp;
    if (!vp) return;
    const selection = this.selection;
    runViewKey(a.view, {
      time: this.time,
      viewport: vp,
      live: !!this.session?.live,
      focusedLane: this.focusedLane,
      lanesPerScreen: Math.max(1, Math.floor(this.scroll.viewHeight / this.scroll.laneHeight) - 1),
      focusLane: (i) => this.focusLane(i),
      navigate: (dir) => this.nav.navigate(dir),
      openDetail: () => (selection.current ? selection.openDetail(selection.current.id) : this.nav.navigate(1)),
      dismiss: () => selection.dismiss(),
      help: () => this.help.open(this.hasReplay()),
    });
  }

  private focusLane(i: number): void {
    if (!this.lanes.length) return;
    this.focusedLane = Math.max(0, Math.min(this.lanes.length - 1, i));
    this.scroll.ensureVisible(this.focusedLane);
    this.viewChanged();
    const lane = this.lanes[this.focusedLane];
    this.shell.sayLane(lane, countsShown(lane, this.pages.bestFor(lane.key)?.page, this.replay.active));
  }

  /** Focuses the lane of `key` and scrolls it into view, when it is shown. */
  private focusKey(key: number): void {
    const lane = this.lanes.findIndex((l) => l.key === key);
    if (lane < 0) return;
    this.focusedLane = lane;
    this.scroll.ensureVisible(lane);
  }

  private clickAt(x: number, y: number): void {
    this.canvas.focus();
    const L = this.layout;
    const laneIndex = L && y >= L.lanes.y ? this.scroll.laneAt(y - L.lanes.y) : -1;
    if (laneIndex >= 0) this.focusedLane = laneIndex;
    const hit = this.view.hitAt(x, y);
    if (!hit) {
      this.frames.request();
      return;
    }
    this.selection.select({ id: hit.id, t: hit.t, key: laneIndex >= 0 ? this.lanes[laneIndex].key : -1, kind: kindName(hit.kind) });
    this.selection.openDetail(hit.id);
  }

  // -------------------------------------------------------------------------------------------
  // Status, persisted state, test hook

  private updateStatus(): void {
    if (this.vp && this.session) this.shell.sayView(this.vp, this.session, this.lanes.length, this.selection.current);
  }

  snapshot(since?: SnapshotSince): TimelineSnapshot {
    return probeSnapshot({
      canvas: this.canvas,
      session: this.session,
      viewport: this.vp,
      stats: this.stats,
      log: this.frames.log,
      pages: this.pages,
      replay: this.replay,
      selected: this.selection.current,
      detail: this.selection.pane,
      focusedLane: this.focusedLane,
      background: this.theme.background,
      error: this.shell.error,
      since,
    });
  }
}
