import * as vscode from 'vscode';
import { describeOptions, SequencingOptions } from '../core/sequencer/sequencingOptions';
import type { OpenState } from '../core/sequencer/openState';
import { CaptureSession, captureTitle } from '../timeline/captureSession';
import { SessionFiles } from '../timeline/node/sessionFiles';
import { lanesOf, TimelineService } from '../timeline/timelineService';
import type { LaneInfo, LiveConnection } from '../shared/protocol';
import type { SessionMeta } from '../shared/timelineModel';
import { basename } from 'node:path';
import { isFilterActive, TraceFilterSpec } from '../core/trace/traceFilter';
import { KeyOrder, listKeys } from '../core/trace/keyOrder';
import { Disposable } from './dispose';
import type { InputFormat } from '../core/capture/captureReader';
import { ReplayController } from './replayController';
import type { OutageWords } from './outageWords';
import type { ComparisonFacts } from '../timeline/compareLanes';
import { detailDecoder } from '../timeline/decodedPayload';
/** What a live session shows about its source (src/extension/liveSession.ts keeps it current). */
export interface LiveStatus {
  state: 'connecting' | 'live' | 'disconnected' | 'stopped';
  detail: string;
  /** projects/P/subscriptions/S (`, `-separated: one tap per topic) */
  subscription: string;
  /** The topic (`, `-separated when several), when the session reads through taps SeqScope made. */
  tapOf?: string;
  /** The file the session records into (a timeline restored after a reload offers it). */
  recording?: string;
  /** Messages per second over the last few seconds. */
  rate: number;
  received: number;
  /** Redeliveries seen since the last reconnect (what the server re-sent after an outage). */
  redeliveredSinceReconnect: number;
  reconnects: number;
  /** In-memory windows so far: past 1, the views show the latest window (the recording has all). */
  windows: number;
  /** What a key waits for right now (its start window, or an open gap), or undefined. */
  openState(key: number): OpenState | undefined;
  /** Keys holding messages now (start window or open gap), as of the last refresh. */
  openKeys: number;
  /** The key that has waited longest, as of the last refresh (shown in the status bar). */
  longestOpen: { key: number; state: OpenState } | undefined;
  /** Set when the tap's subscription vanished (the server lost it): Re-tap makes a new one. */
  tapGone?: boolean;
  /** While disconnected: what is wrong and what comes next, in a few words (outageWords.ts). */
  outage?: OutageWords;
}

/**
 * One opened capture (or a live subscription, recorded as it arrives): the sequenced session, its files (records are read back on demand), the
 * timeline service, the replay controller and the active filter. Closing it releases all of it.
 */
export class Session extends Disposable {
  readonly files: SessionFiles;
  readonly timeline: TimelineService;
  readonly replay: ReplayController;
  private filterSpec: TraceFilterSpec = {};
  private lanesCache: LaneInfo[] | undefined;
  private listedCache: { lanes: LaneInfo[]; filter: TraceFilterSpec; order: KeyOrder; keys: number[] } | undefined;
  /** Set for a live session, undefined for a capture. */
  live: LiveStatus | undefined;
  /**
   * The files the user opened, when the session reads others (a gzip capture is read from a
   * decompressed copy: `data.paths`). Shown with the session and used to name exports.
   */
  sources: readonly string[] | undefined;
  /**
   * The captures as they were when loaded (see captureVersion): opening them again unchanged,
   * sequenced alike, shows this session instead of repeating it. Undefined for a live session.
   */
  version: string | undefined;
  /** Damage found decompressing a gzip capture: the session holds what came before it. */
  damage: readonly string[] | undefined;
  /** What the load could not know about its captures (archives without ids or times). */
  notes: readonly string[] | undefined;
  /** `text` when the captures were read as text archives (bare payloads), as the user chose. */
  inputFormat: InputFormat | undefined;
  /** Set when the session is a comparison of two captures (Compare with…): its sides, counts and ranges. */
  comparison: ComparisonFacts | undefined;
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Fired once, when the session is closed. */
  readonly onDidDispose = this.disposed.event;
  private readonly afterClose: (() => Promise<void>)[] = [];
  private settleClosed!: () => void;
  /** Settles once the session is closed, its files too, and what `whenFilesClosed` asked done. */
  readonly closed = new Promise<void>((resolve) => (this.settleClosed = resolve));
  /**
   * While the capture loads (shown from its first chunk on: SessionManager.load), the share of
   * its bytes read, 0–1; undefined once it is whole (or ended partial).
   */
  loading: number | undefined;
  private readonly grown = this._register(new vscode.EventEmitter<void>());
  /** The session grew: a live session refreshed, a loading capture took a chunk or ended. */
  readonly onDidGrow = this.grown.event;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Counts, filter, key order or replay position changed: views refresh. */
  readonly onDidChange = this.changed.event;
  private readonly viewChanged = this._register(new vscode.EventEmitter<'filter' | 'keyOrder'>());
  /** The filter or the key order changed, from wherever (a timeline shows it: see TimelinePanel). */
  readonly onDidChangeView = this.viewChanged.event;

  constructor(
    readonly id: string,
    readonly data: CaptureSession,
    readonly options: SequencingOptions,
    /**
     * True when loading was cancelled (or stopped for memory): the session holds what was read
     * until then. Set when a session shown while it loads (`loading`) ends so.
     */
    public partial: boolean,
    /** The title, when not the files' names (a folder of archive files: the folder's name). */
    private readonly name?: string,
  ) {
    super();
    this.files = new SessionFiles(data);
    // Read when the timeline asks: a live session's title, source and connection change as it
    // runs, a loading capture's title and share read as it loads.
    const now = { title: () => this.title + (this.loading === undefined ? '' : ` — ${this.loadingWords}`), live: () => this.live, loading: () => this.loading };
    const meta: SessionMeta = {
      id,
      get title() {
        return now.title();
      },
      get source() {
        const live = now.live();
        return live && liveSource(live);
      },
      get connection() {
        const live = now.live();
        return live && liveConnection(live);
      },
      get loading() {
        return now.loading();
      },
      options: describeOptions(options),
      seqBits: options.seqBits,
      ...(options.payload ? { payload: options.payload } : {}),
    };
    this.timeline = new TimelineService(
      data,
      meta,
      (a) => this.files.read(a),
      (name, value) => this.files.attributeMask(name, value),
      detailDecoder(options.schemas),
    );
    this.replay = this._register(new ReplayController(data, options));
    this._register(
      this.replay.onDidChange(() => {
        this.timeline.position = this.replay.active ? this.replay.position : undefined;
        this.changed.fire();
      }),
    );
    this._register({
      dispose: () =>
        void this.files
          .close()
          .catch(() => undefined)
          .then(() => Promise.all(this.afterClose.splice(0).map((task) => task().catch(() => undefined))))
          .then(() => this.settleClosed()),
    });
  }

  /** Runs `task` once the session is closed and its files are (deleting a decompressed copy). */
  whenFilesClosed(task: () => Promise<void>): void {
    if (this.isDisposed) void this.closed.then(task);
    else this.afterClose.push(task);
  }

  /** The files the user opened (see `sources`). */
  get sourcePaths(): readonly string[] {
    return this.sources ?? this.data.paths;
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  /** A live session grew (or a loading one): cached lanes and overview are stale, views refresh. */
  grew(): void {
    this.lanesCache = undefined;
    this.timeline.invalidate();
    this.grown.fire();
    this.changed.fire();
  }

  get title(): string {
    if (this.live) return this.live.tapOf ? `tap · ${tappedWords(this.live.tapOf)}` : `subscription · ${this.live.subscription.split('/').pop()}`;
    if (this.name !== undefined) return this.name + (this.partial ? ' (partial)' : '');
    return captureTitle(this.data.paths, this.partial);
  }

  /** While the capture loads: "loading 42 %…" (the tree, the status bar and the timeline's header say it). */
  get loadingWords(): string | undefined {
    return this.loading === undefined ? undefined : `loading ${Math.floor(this.loading * 100)} %…`;
  }

  /** Per-key counts and hot flags (computed once). */
  get lanes(): LaneInfo[] {
    return (this.lanesCache ??= lanesOf(this.data));
  }

  get filter(): TraceFilterSpec {
    return this.filterSpec;
  }

  get filterActive(): boolean {
    return isFilterActive(this.filterSpec);
  }

  async setFilter(filter: TraceFilterSpec): Promise<void> {
    await this.timeline.setFilter(filter);
    this.filterSpec = filter;
    this.viewChanged.fire('filter');
    this.changed.fire();
  }

  /** How the tree and the timeline list this session's keys (the `seqscope.keyOrder` setting). */
  get keyOrder(): KeyOrder {
    return this.timeline.keyOrder;
  }

  setKeyOrder(order: KeyOrder): void {
    if (order === this.timeline.keyOrder) return;
    this.timeline.setKeyOrder(order);
    this.viewChanged.fire('keyOrder');
    this.changed.fire();
  }

  /**
   * The keys the tree lists, in order: those the filter lists, in the key order — as the timeline
   * lists its lanes. Kept until the lanes (a live session grew), the filter or the order change:
   * the tree asks on every refresh, and ordering 100 000 names takes a tenth of a second.
   */
  listedKeys(): number[] {
    const lanes = this.lanes;
    const c = this.listedCache;
    if (c && c.lanes === lanes && c.filter === this.filterSpec && c.order === this.keyOrder) return c.keys;
    const keys = listKeys(lanes, this.filterSpec, this.keyOrder, (l) => l.name);
    this.listedCache = { lanes, filter: this.filterSpec, order: this.keyOrder, keys };
    return keys;
  }

  /** Replay position to count up to: the cursor when replaying, else everything. */
  get position(): number {
    return this.replay.active ? this.replay.position : Infinity;
  }
}

/** The topics of a tap session, by id: "md-310", "md-310 + md-318", "md-310 + 3 more". */
function tappedWords(tapOf: string): string {
  const ids = tapOf.split(', ').map((p) => p.split('/').pop());
  return ids.length <= 2 ? ids.join(' + ') : `${ids[0]} + ${ids.length - 1} more`;
}

/** A live session's line under its title: the recording, and the subscriptions read. */
function liveSource(live: LiveStatus): string | undefined {
  const subs = live.subscription
    .split(', ')
    .map((p) => p.split('/').pop())
    .join(', ');
  return [live.recording && `recording ${basename(live.recording)}`, `${live.tapOf ? 'through ' : 'consuming '}${subs}`].filter(Boolean).join(' · ');
}

/** A live session that is not receiving, for the timeline's header (undefined while it is). */
function liveConnection(live: LiveStatus): LiveConnection | undefined {
  if (live.state === 'live' && !live.tapGone) return undefined;
  if (live.outage) return { state: live.state === 'live' ? 'disconnected' : live.state, ...live.outage };
  if (live.state === 'connecting') return { state: 'connecting', reason: 'connecting', next: 'the first messages show as they arrive' };
  if (live.state === 'stopped') return { state: 'stopped', reason: 'detached', next: 'the recording opens as a capture' };
  return undefined;
}
