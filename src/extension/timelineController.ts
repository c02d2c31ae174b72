/**
 * The timeline panel's host side without VS Code: what the webview is showing (a typed state,
 * changed only by the transitions here), what it is told, and how its requests are answered (one
 * request channel, shared/timelineChannel.ts). The panel (timelinePanel.ts) is the VS Code glue
 * around it: the webview panel, its HTML, the session manager, settings and notifications.
 *
 * States, with the transitions that lead to them:
 * - `notice`: no session to show; says `text` (or that none is open). `say`, or `attach(undefined)`.
 * - `loading`: a capture is being read for this panel; its progress is shown. `load`.
 * - `ready`: a session is shown and answers everything. `attach`, or `finish` from a load (as
 *   soon as its first chunk is in: the session grows meanwhile).
 */
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { assertNever } from '../core/util/assertNever';
import type { EventView, HostMessage, KeyOrder, PanelRestore, ReplayAction, ReplayInfo, ReplaySpeed, TimelineFilter, WebviewMessage } from '../shared/protocol';
import { TimelineAnswerer, TimelineChannel, timelineChannel } from '../shared/timelineChannel';
import type { LiveFollow } from '../shared/liveWindow';
import { LiveSender } from '../shared/liveUpdates';
import type { TimelineService } from '../timeline/timelineService';

/** Replay can move 20 times a second; the webview needs at most ~10 updates. */
export const REPLAY_POST_MS = 100;
/**
 * A capture grows while it loads: the webview gets its new extent and lanes at once, then at most
 * this often. (A live session's updates go as the webview draws them: see LiveSender.)
 */
export const LIVE_POST_MS = 400;

interface Subscription {
  dispose(): void;
}
type Event<T> = (listener: (e: T) => unknown) => Subscription;

/** What the controller needs of a session (the extension's Session is one). */
export interface ControlledSession {
  readonly id: string;
  readonly title: string;
  readonly live: { recording?: string } | undefined;
  /** While a capture loads, the share read: it grows meanwhile (see `onDidGrow`). */
  readonly loading: number | undefined;
  readonly options: SequencingOptions;
  readonly sourcePaths: readonly string[];
  /** Set for a comparison (Compare with…), which a window reload does not bring back: run it again. */
  readonly comparison?: unknown;
  readonly filter: TimelineFilter;
  readonly keyOrder: KeyOrder;
  readonly timeline: Pick<TimelineService, 'handle' | 'firstView' | 'initMessage' | 'liveInit' | 'overview'>;
  readonly replay: {
    readonly active: boolean;
    readonly position: number;
    info(): ReplayInfo;
    run(action: ReplayAction): unknown;
    setSpeed(speed: ReplaySpeed): void;
    seek(position: number): unknown;
    readonly onDidChange: Event<void>;
  };
  setFilter(filter: TimelineFilter): Promise<void>;
  readonly onDidChange: Event<void>;
  /** It grew: a live session refreshed, a loading capture took in a chunk or ended. */
  readonly onDidGrow: Event<void>;
  readonly onDidChangeView: Event<'filter' | 'keyOrder'>;
}

export interface ControllerTimers {
  /** The wall clock (ms since epoch): when a loading message is sent, for the webview to see how long it took. */
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the controller asks of the panel around it. */
export interface TimelineHost<S extends ControlledSession> {
  post(m: HostMessage): void;
  /** Sets the webview's page (once per panel), embedding `session`'s first view when there is one. */
  setHtml(session: S | undefined): void;
  /** Whether the panel is in view (a hidden one paints nothing). */
  visible(): boolean;
  /** The panel now shows `session` (its tab's title follows). */
  showing(session: S | undefined): void;
  /** The user clicked a mark. */
  select(session: S, eventId: number): void;
  /** The user picked a key order: a setting, for every session. */
  setKeyOrder(order: KeyOrder): Promise<void>;
  /** The key order sessions are shown in now. */
  keyOrder(): KeyOrder;
  /** The session to show when a load ends with none. */
  active(): S | undefined;
  /** Nothing to show: the panel closes. */
  close(): void;
  /** A webview message failed (said in the webview already). */
  failed(m: WebviewMessage, e: unknown): void;
  /** Whether the webview keeps what brings the panel back after a reload (the window's timeline, not an editor). */
  readonly persists: boolean;
  readonly timers: ControllerTimers;
}

type Loading = Extract<HostMessage, { type: 'loading' }>;

export type TimelineState<S> =
  | { kind: 'notice'; text: string | undefined }
  /** `behind`: the session shown before the load, which answers until it ends. */
  | { kind: 'loading'; progress: Loading; behind: S | undefined }
  | { kind: 'ready'; session: S };

/** The webview's page: not set yet, starting (its script not yet ready), ready for messages. */
export type WebviewStage = 'blank' | 'starting' | 'ready';

const NO_SESSION = 'No session is open. Run "SeqScope: Open Capture…" or "SeqScope: Open Sample Capture".';

export class TimelineController<S extends ControlledSession> {
  private current: TimelineState<S> = { kind: 'notice', text: undefined };
  private webview: WebviewStage = 'blank';
  private readonly requests: TimelineChannel;
  private sessionSubs: Subscription[] = [];
  /** How the webview follows the live session shown, as its last page request said (undefined: it does not). */
  private follow: LiveFollow | undefined;
  /** What the webview keeps for a reload (see PanelRestore). */
  restore: PanelRestore | undefined;
  private readonly replayPost: Throttle;
  private readonly livePost: Throttle;
  /** A live session's state as the webview has it: updates carry what changed since. */
  private readonly live = new LiveSender();
  private disposed = false;

  constructor(private readonly host: TimelineHost<S>) {
    this.requests = timelineChannel(
      (reply) => this.post(reply),
      (m, e) => {
        this.post({ type: 'error', message: (e as Error).message });
        host.failed(m, e);
      },
      false,
    );
    this.requests.answerWith(NOTHING);
    this.replayPost = new Throttle(host.timers, REPLAY_POST_MS, () => {
      const s = this.session;
      if (!s) return;
      this.post({ type: 'replay', replay: s.replay.info() });
      this.persist();
    });
    this.livePost = new Throttle(
      host.timers,
      LIVE_POST_MS,
      () => {
        if (this.session && this.webview === 'ready') this.postInit();
      },
      true,
    );
  }

  get state(): TimelineState<S> {
    return this.current;
  }

  /** The session shown and answering (a load's until it ends: the one before it). */
  get session(): S | undefined {
    const st = this.current;
    return st.kind === 'ready' ? st.session : st.kind === 'loading' ? st.behind : undefined;
  }

  /** Whether a load is under way, nothing of it shown yet. */
  get loading(): boolean {
    return this.current.kind === 'loading';
  }

  /** A capture titled `title` starts loading for this panel: its progress is shown. */
  load(title: string): void {
    if (this.disposed) return;
    this.current = {
      kind: 'loading',
      progress: { type: 'loading', title, fraction: 0, detail: 'Starting', sentAt: this.host.timers.now() },
      behind: this.session,
    };
    this.show();
  }

  /** The load's progress (the session manager reports it at most twice a second). */
  progress(fraction: number, detail: string): void {
    const st = this.current;
    if (st.kind !== 'loading' || this.disposed) return;
    st.progress = { ...st.progress, fraction, detail, sentAt: this.host.timers.now() };
    if (this.webview === 'ready') this.post(st.progress);
  }

  /**
   * The load ended: shows its session, or — cancelled with nothing read, or failed — whatever
   * session is active, closing the panel when there is none.
   */
  finish(session: S | undefined): void {
    const st = this.current;
    if (st.kind !== 'loading' || this.disposed) return;
    const next = session ?? this.host.active();
    if (!next) {
      this.host.close();
      return;
    }
    this.enter(next);
  }

  /** Shows a session (or the notice). While a load is under way, the load decides what is shown next (`finish`). */
  attach(session: S | undefined): void {
    if (this.disposed) return;
    const st = this.current;
    if (st.kind === 'loading') {
      // Meanwhile this one answers.
      st.behind = session;
      this.answerFrom(session, true);
      return;
    }
    if (st.kind === 'ready' && st.session === session && this.webview === 'ready') return;
    this.enter(session);
  }

  /** The transition to `ready` (or to the notice, with no session). */
  private enter(session: S | undefined): void {
    const st = this.current;
    this.current = session ? { kind: 'ready', session } : { kind: 'notice', text: st.kind === 'notice' ? st.text : undefined };
    this.answerFrom(session, true);
    this.watch(session);
    this.host.showing(session);
    if (this.webview === 'blank') this.setHtml(session);
    else if (this.webview === 'ready') this.postInit();
    this.persist();
  }

  /** Says `text` where the session would be (the webview's error bar). */
  say(text: string): void {
    if (this.disposed) return;
    this.current = { kind: 'notice', text };
    this.answerFrom(undefined, true);
    this.watch(undefined);
    this.show();
  }

  /** Centers the timeline on an event of `session` and opens its detail. */
  reveal(session: S, event: EventView): void {
    if (session !== this.session) this.attach(session);
    this.post({ type: 'reveal', event });
  }

  /** A message from the webview. */
  receive(m: WebviewMessage): void {
    if (this.disposed) return;
    if (m.type === 'painted') return;
    if (m.type === 'liveDrawn') {
      if (this.live.drawn(m.seq)) this.postLive();
      return;
    }
    if (m.type === 'liveResync') {
      this.live.reset();
      this.postLive();
      return;
    }
    if (m.type === 'ready') {
      this.webview = 'ready';
      this.live.reset();
      // Shown from the first view embedded in the page, unless the session changed since.
      if (!m.shown || m.shown !== this.session?.id) this.postInit();
      this.persist();
      return;
    }
    this.requests.request(m);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.watch(undefined);
    this.requests.dispose();
    this.replayPost.dispose();
    this.livePost.dispose();
  }

  /** The notice, the loading progress or the first view: said, or the page set up to say it. */
  private show(): void {
    if (this.webview === 'blank') this.setHtml(undefined);
    else if (this.webview === 'ready') this.postInit();
  }

  private setHtml(session: S | undefined): void {
    this.webview = 'starting';
    this.host.setHtml(session);
  }

  /** Requests go to `session` from now on (none: nothing is answered); `drop`: what waits was about another view. */
  private answerFrom(session: S | undefined, drop: boolean): void {
    this.follow = undefined;
    this.live.reset();
    this.requests.answerWith(session ? this.answerer(session) : NOTHING, drop);
  }

  /** Follows what changes in a session: replay, a live session's growth, the filter and key order. */
  private watch(session: S | undefined): void {
    for (const sub of this.sessionSubs) sub.dispose();
    this.sessionSubs = [];
    if (!session) return;
    this.sessionSubs.push(session.replay.onDidChange(() => this.replayPost.schedule()));
    // A live session grows, and a capture while it loads: the webview gets the new extent and
    // lanes (it keeps the user's zoom, or follows the data, and re-requests its pages); a live
    // session's refresh as soon as the webview has drawn the one before (see LiveSender).
    this.sessionSubs.push(session.onDidGrow(() => (session.live ? this.postLive() : this.livePost.schedule())));
    // The filter and the key order change from the webview, the tree's title, the Command Palette
    // and the settings alike: the webview hears of each here, whoever made it.
    this.sessionSubs.push(
      session.onDidChangeView((what) => {
        if (this.webview !== 'ready' || this.session !== session) return;
        if (what === 'filter') this.post({ type: 'filter', filter: session.filter, overview: session.timeline.overview() });
        else this.post({ type: 'keyOrder', order: session.keyOrder });
      }),
    );
  }

  private post(m: HostMessage): void {
    if (this.disposed) return;
    this.host.post(m);
  }

  /** Tells the webview what the state shows. */
  private postInit(): void {
    const st = this.current;
    switch (st.kind) {
      case 'loading':
        this.post({ ...st.progress, sentAt: this.host.timers.now() });
        return;
      case 'notice':
        this.post({ type: 'error', message: st.text ?? NO_SESSION });
        return;
      case 'ready': {
        const s = st.session;
        // A live session's whole state, numbered (updates follow it: postLive), with the page of the
        // window the webview follows; a capture while it loads, with no page ahead (it would be stale).
        if (s.live) this.post({ ...this.live.full(s.timeline.liveInit(s.replay.info(), this.follow)), sentAt: this.host.timers.now() });
        else if (s.loading !== undefined) this.post(s.timeline.initMessage(s.replay.info()));
        else {
          // With the page the webview asks for first, computed ahead after the load: no round trip.
          const view = s.timeline.firstView(s.replay.info());
          this.post({ ...view.init, firstPage: view.page });
        }
        return;
      }
      default:
        return assertNever(st, 'timeline state');
    }
  }

  /**
   * A live session grew: what changed goes to the webview, unless it is still drawing the last
   * update (then this goes when it has) or nothing changed.
   */
  private postLive(): void {
    const st = this.current;
    if (st.kind !== 'ready' || !st.session.live || this.webview !== 'ready' || this.disposed) return;
    if (!this.live.mayPost()) return;
    if (!this.live.started) {
      this.postInit();
      return;
    }
    const s = st.session;
    const m = this.live.update(s.timeline.liveInit(s.replay.info(), this.follow));
    if (m) this.post({ ...m, sentAt: this.host.timers.now() });
  }

  /** Tells the webview what to keep for a reload (the timeline panel's session, its replay position). */
  private persist(): void {
    if (!this.host.persists || this.webview !== 'ready') return;
    const s = this.session;
    if (!s) {
      // A notice (a capture gone, a live session over): what was restored stays, to say it again.
      if (this.restore) this.post({ type: 'persist', restore: this.restore });
      return;
    }
    if (s.comparison) {
      this.restore = undefined;
    } else if (s.live) {
      this.restore = s.live.recording ? { kind: 'live', title: s.title, recording: s.live.recording, options: persistedOptions(s.options) } : undefined;
    } else {
      this.restore = {
        kind: 'capture',
        paths: [...s.sourcePaths],
        options: persistedOptions(s.options),
        ...(s.replay.active ? { position: s.replay.position } : {}),
      };
    }
    this.post({ type: 'persist', restore: this.restore });
  }

  /** How a session answers the webview's messages (all but `ready` and `painted`, handled in `receive`). */
  private answerer(s: S): TimelineAnswerer {
    return async (m) => {
      switch (m.type) {
        case 'ready':
        case 'painted':
        case 'liveDrawn':
        case 'liveResync':
          // Handled as they arrive (`receive`).
          return {};
        case 'replay':
          s.replay.run(m.action);
          return {};
        case 'setSpeed':
          s.replay.setSpeed(m.speed);
          return {};
        case 'seek':
          s.replay.seek(m.position);
          return {};
        case 'select':
          this.host.select(s, m.eventId);
          return {};
        case 'setFilter':
          // The webview hears of it through onDidChangeView, as of a filter set anywhere else.
          await s.setFilter(m.filter);
          return {};
        case 'setKeyOrder':
          // The order is a setting, for every session: the tree and every timeline follow it.
          // Said again in case the setting was that already: nothing changes then.
          await this.host.setKeyOrder(m.order).finally(() => this.post({ type: 'keyOrder', order: s.keyOrder }));
          return {};
        case 'requestPage':
          // The view's next page comes with each refresh while it follows the data.
          this.follow = s.live && m.follow ? { ...m.follow, lanes: m.lanes } : undefined;
          return { reply: await s.timeline.handle(m) };
        case 'requestDetail':
          return { reply: await s.timeline.handle(m) };
        default:
          // Every message type is handled above: a new one fails to compile here until it is.
          return assertNever(m, 'message from the timeline');
      }
    };
  }
}

/** No session: every request is handled with nothing to say. */
const NOTHING: TimelineAnswerer = () => ({});

/** Runs `run` at most once per `ms`, `ms` after the first call of a burst. */
class Throttle {
  private handle: unknown;
  private pending = false;
  /** When it last ran (leading: a call within `ms` of it waits for the rest of the interval). */
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly timers: ControllerTimers,
    private readonly ms: number,
    private readonly run: () => void,
    /** Run at once when idle (the latest state now), then at most every `ms`; else only after `ms`. */
    private readonly leading = false,
  ) {}

  schedule(): void {
    if (this.pending) return;
    const now = this.timers.now();
    if (this.leading && now - this.lastRun >= this.ms) {
      this.fire(now);
      return;
    }
    this.pending = true;
    const wait = this.leading ? this.lastRun + this.ms - now : this.ms;
    this.handle = this.timers.setTimeout(() => {
      this.pending = false;
      this.fire(this.timers.now());
    }, wait);
  }

  private fire(now: number): void {
    this.lastRun = now;
    this.run();
  }

  dispose(): void {
    if (this.pending) this.timers.clearTimeout(this.handle);
    this.pending = false;
  }
}

/**
 * Options as the webview keeps them for a restore: without the schema definitions, which stay on
 * the host (a restored session reads them from seqscope.schemas again).
 */
function persistedOptions(o: SequencingOptions): SequencingOptions {
  if (!o.schemas) return o;
  const { schemas: _dropped, ...rest } = o;
  return rest;
}
