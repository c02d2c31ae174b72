/**
 * Answers the timeline webview's data requests for one session: pages, message details, the
 * filter and the overview. The extension host runs it behind postMessage; the standalone HTML
 * export runs the very same class inside the page. Replay actions are not handled here: the
 * extension's replay controller owns the cursor and tells the service the current position.
 */
import { decodeMdp3Base64, isMdp3Error } from '../core/capture/mdp3';
import type { ReceivedMessage } from '../core/capture/captureRecord';
import type { HostMessage, LaneInfo, MessageDetail, ReplayInfo, TimelineFilter, WebviewMessage, WireSessionInfo } from '../shared/protocol';
import { PREVIEW_BUCKETS, PREVIEW_LANES, StandalonePreview } from '../shared/standaloneEmbed';
import { followPageWindow, LiveFollow } from '../shared/liveWindow';
import { fitWindow, laneBlock, pageWindow } from '../shared/paging';
import { KeyOrder, listKeys } from '../core/trace/keyOrder';
import { CaptureSession } from './captureSession';
import { COMPARE_KINDS, isCompareKind, Kind, KIND_NAMES, KindCode } from '../shared/timelineModel';
import { LaneIndex } from './laneIndex';
import { LiveOverview } from './liveOverview';
import { assertNever } from '../core/util/assertNever';
import { packLanes } from '../shared/laneWire';
import { packPage } from '../shared/pageWire';
import { EventFilter, overview, queryTimeline, TimelineQuery } from './timelineQuery';
import { LaneCounts, Overview, TimelinePage } from '../shared/timelineModel';
import type { SessionMeta } from '../shared/timelineModel';

/** Reads a record back from where the session found it. */
export type RecordSource = (arrival: number) => Promise<ReceivedMessage | undefined>;
/** Marks the arrivals whose attribute `name` equals `value` (1 = match). */
export type AttributeIndex = (name: string, value: string) => Promise<Uint8Array>;
/**
 * A record's payload decoded by its schema, for the detail pane; undefined when no schema applies.
 * Injected, so that the standalone export's page does not carry the schema decoders.
 */
export type PayloadDecode = (rm: ReceivedMessage) => Pick<MessageDetail, 'decoded' | 'decodeError'> | undefined;

const OVERVIEW_BINS = 600;

/** The webview messages the service answers: data requests (replay, selection and the rest are the host's). */
export type TimelineRequest = Extract<WebviewMessage, { type: 'requestPage' | 'requestDetail' | 'setFilter' | 'setKeyOrder' }>;

export class TimelineService {
  private filter: TimelineFilter = {};
  private order: KeyOrder;
  private compiled: EventFilter | undefined;
  private overviewCache: Overview | undefined;
  /** A live session's overview, kept as it grows (under the filter it was made for). */
  private liveOverview: LiveOverview | undefined;
  private laneIndex: LaneIndex | undefined;
  private firstPageCache: { position: number | undefined; page: NonNullable<StandalonePreview['page']> } | undefined;
  /** Replay position to show up to, or undefined for everything. */
  position: number | undefined;
  /**
   * A second lane each valid arrival counts on, besides its own: a comparison's arrivals are
   * logged on the merged lane and received by their side's lane too (compareLanes.ts).
   */
  alsoReceivedOn: ((arrival: number) => number) | undefined;
  /** Arrivals per key before `position` (see receivedAt). */
  private received: { position: number; perKey: Int32Array } | undefined;

  constructor(
    readonly session: CaptureSession,
    readonly meta: SessionMeta,
    private readonly records?: RecordSource,
    private readonly attributeIndex?: AttributeIndex,
    private readonly decode?: PayloadDecode,
  ) {
    this.order = meta.keyOrder ?? 'arrival';
  }

  /** The order of the lanes; the webview applies it (see listKeys), the host's first view follows it. */
  get keyOrder(): KeyOrder {
    return this.order;
  }

  setKeyOrder(order: KeyOrder): void {
    if (order === this.order) return;
    this.order = order;
    this.firstPageCache = undefined;
  }

  get currentFilter(): TimelineFilter {
    return this.filter;
  }

  /** The compiled filter (for the tree and exports to apply the same one). */
  get eventFilter(): EventFilter | undefined {
    return this.compiled;
  }

  /** The session for a webview's `init`, its lanes packed (see laneWire.ts). */
  info(): WireSessionInfo {
    const s = this.session;
    const { start, end } = s.timeRange;
    return {
      id: this.meta.id,
      title: this.meta.title,
      options: this.meta.options,
      ...(this.meta.seqBits ? { seqBits: this.meta.seqBits } : {}),
      start,
      end,
      arrivals: s.arrivalCount,
      events: s.store.count,
      lanes: packLanes(lanesOf(s)),
      invalid: s.summary.invalid,
      ...(this.meta.standalone ? { standalone: true } : {}),
      ...(s.openNow ? { live: true, open: s.openNow() } : {}),
      ...(this.meta.source ? { source: this.meta.source } : {}),
      ...(this.meta.connection ? { connection: this.meta.connection } : {}),
      ...(this.meta.loading !== undefined ? { loading: this.meta.loading } : {}),
    };
  }

  /** The session grew (live, or a capture loading): the overview is computed again on the next request. */
  invalidate(): void {
    this.overviewCache = undefined;
    this.firstPageCache = undefined;
    this.laneIndex?.grew();
  }

  /**
   * A page. Without a filter or a replay position, lanes come from the LaneIndex (a few binary
   * searches per bucket in each lane's own release times instead of a walk over every event in
   * the window — zoomed out on 1 M events, a few ms a page instead of ~120–250 ms, the walk
   * missing the cache at every event); otherwise from queryTimeline. Both give the same page
   * (tested).
   */
  private query(q: TimelineQuery): TimelinePage {
    if (q.position !== undefined) {
      const page = queryTimeline(this.session, q, this.compiled);
      for (const lane of page.lanes) lane.countsAt = this.countsAt(lane.key, q.position);
      return page;
    }
    if (this.compiled) return queryTimeline(this.session, q, this.compiled);
    const index = (this.laneIndex ??= new LaneIndex(this.session));
    // The page's frame and its invalid records, which are not per lane.
    const head = queryTimeline(this.session, { ...q, lanes: [] });
    return { ...head, lanes: q.lanes.map((k) => index.lane(k, q.t0, q.t1, q.buckets)) };
  }

  /** A key's counts up to a replay position: what the tree's key row shows there, and arrivals. */
  private countsAt(key: number, position: number): LaneCounts {
    const c = this.session.keyCountsAt(key, position);
    return {
      received: this.receivedAt(position)[key] ?? 0,
      delivered: c.delivered,
      gaps: c.gaps,
      lost: c.lost,
      duplicates: c.duplicates,
      late: c.late,
      reordered: c.reordered,
      resets: c.resets,
      ...withCompared(this.session, key),
    };
  }

  /**
   * Arrivals per key before `position`. Moved from the last position asked rather than counted
   * from the start: replay steps a few arrivals at a time, each step asks for its pages.
   */
  private receivedAt(position: number): Int32Array {
    const log = this.session.log;
    const keys = log.key;
    const to = Math.min(position, log.count);
    const r = (this.received ??= { position: 0, perKey: new Int32Array(this.session.keyNames.length) });
    if (r.perKey.length < this.session.keyNames.length) {
      // A live session's keys grow.
      const grown = new Int32Array(this.session.keyNames.length);
      grown.set(r.perKey);
      r.perKey = grown;
    }
    const also = this.alsoReceivedOn;
    for (let i = r.position; i < to; i++) {
      if (keys.get(i) < 0) continue;
      r.perKey[keys.get(i)]++;
      if (also) r.perKey[also(i)]++;
    }
    for (let i = r.position - 1; i >= to; i--) {
      if (keys.get(i) < 0) continue;
      r.perKey[keys.get(i)]--;
      if (also) r.perKey[also(i)]--;
    }
    r.position = to;
    return r.perKey;
  }

  overview(): Overview {
    if (this.session.openNow) return (this.overviewCache ??= (this.liveOverview ??= new LiveOverview(this.session, this.compiled)).overview());
    return (this.overviewCache ??= overview(this.session, OVERVIEW_BINS, this.compiled));
  }

  /** The `init` message for a webview: the session, its overview and filter, and `replay`. */
  initMessage(replay: ReplayInfo): StandalonePreview['init'] {
    return { type: 'init', session: this.info(), overview: this.overview(), filter: this.filter, keyOrder: this.order, replay };
  }

  /**
   * A live session's `init` for a webview following it as `follow` says (absent: not following),
   * with the page that webview asks for next as its `firstPage` (shared/liveWindow.ts): the
   * refresh is drawn without a round trip for its page.
   */
  liveInit(replay: ReplayInfo, follow: LiveFollow | undefined): StandalonePreview['init'] {
    const init = this.initMessage(replay);
    if (!follow) return init;
    const win = followPageWindow(init.session, follow);
    const lanes = follow.lanes;
    const page = packPage(this.query({ t0: win.t0, t1: win.t1, buckets: win.buckets, lanes, position: this.position }));
    return { ...init, firstPage: { t0: win.t0, t1: win.t1, lanes, page } };
  }

  /**
   * The `init` reply and the first page a webview asks for, as this service answers them now
   * (filter and replay position included): what a standalone export embeds, and what the VS Code
   * panel embeds so its first paint waits for no round trip. The page is kept until the session,
   * the filter or the replay position changes.
   */
  firstView(replay: ReplayInfo): StandalonePreview {
    const init = this.initMessage(replay);
    const info = init.session;
    const cached = this.firstPageCache;
    if (cached && cached.position === this.position) return { init, page: cached.page };
    // The same arithmetic as the webview's first request (its window does not depend on width).
    const win = pageWindow(fitWindow(info.start, info.end), 1000);
    // The first lanes the webview lists (the filter's, in the key order), in whole blocks as it asks for them.
    const first = listKeys(lanesOf(this.session), this.filter, this.order, (l) => l.name);
    const lanes = laneBlock(first, 0, PREVIEW_LANES);
    // What a requestPage for it gets, at a resolution that covers wide screens.
    const page = {
      t0: win.t0,
      t1: win.t1,
      lanes,
      page: packPage(this.query({ t0: win.t0, t1: win.t1, buckets: PREVIEW_BUCKETS, lanes, position: this.position })),
    };
    this.firstPageCache = { position: this.position, page };
    return { init, page };
  }

  /**
   * The work to do ahead once a session has loaded, so the first timeline a user opens has it
   * ready: the first view (overview and first page). In steps, so the caller can run them between
   * other work — a long synchronous run would hold up the extension host's messages to the window.
   */
  warmUpSteps(replay: ReplayInfo): (() => void)[] {
    return [() => void this.overview(), () => void this.firstView(replay)];
  }

  /** Handles a data request; returns the reply, if the message wants one. */
  async handle(msg: TimelineRequest): Promise<HostMessage | undefined> {
    switch (msg.type) {
      case 'requestPage': {
        const page = this.query({ t0: msg.t0, t1: msg.t1, buckets: msg.buckets, lanes: msg.lanes, position: this.position });
        return { type: 'page', requestId: msg.requestId, page: packPage(page) };
      }
      case 'requestDetail':
        return { type: 'detail', requestId: msg.requestId, detail: await this.detail(msg.eventId) };
      case 'setFilter':
        await this.setFilter(msg.filter);
        return { type: 'filter', filter: this.filter, overview: this.overview() };
      case 'setKeyOrder':
        this.setKeyOrder(msg.order);
        return { type: 'keyOrder', order: this.order };
      default:
        return assertNever(msg, 'timeline request');
    }
  }

  async setFilter(filter: TimelineFilter): Promise<void> {
    const s = this.session;
    const f: EventFilter = {};
    let any = false;
    if (filter.keys?.length) {
      f.keys = new Set(filter.keys.map((k) => s.keyIndex(k)).filter((k) => k >= 0));
      any = true;
    }
    if (filter.kinds?.length || filter.compared) {
      const kinds = filter.kinds?.length ? filter.kinds : KIND_NAMES.filter((k) => !isCompareKind(Kind[k]));
      f.kinds = new Set([...kinds, ...(filter.compared ?? COMPARE_KINDS)].map((k) => Kind[k] as KindCode));
      any = true;
    }
    if (filter.seqFrom !== undefined) {
      f.seqFrom = filter.seqFrom;
      any = true;
    }
    if (filter.seqTo !== undefined) {
      f.seqTo = filter.seqTo;
      any = true;
    }
    if (filter.attribute && filter.attribute.name) {
      if (!this.attributeIndex) throw new Error('filtering by attribute is not available here');
      f.arrivals = await this.attributeIndex(filter.attribute.name, filter.attribute.value);
      any = true;
    }
    this.filter = filter;
    this.compiled = any ? f : undefined;
    this.overviewCache = undefined;
    this.liveOverview = undefined;
    this.firstPageCache = undefined;
  }

  async detail(eventId: number): Promise<MessageDetail> {
    const event = this.session.event(eventId);
    const d: MessageDetail = { event };
    const summary = this.session.summary;
    d.percentiles = { all: summary.percentiles };
    if (event.kind !== 'invalid') {
      const k = summary.byKey[event.keyIndex]?.percentiles;
      if (k) d.percentiles.key = k;
    }
    if (event.arrival === undefined || event.arrival < 0 || !this.records) {
      // A gap and a comparison's ranges are about numbers, not a record.
      if (event.kind !== 'gap' && !isCompareKind(Kind[event.kind])) d.unavailable = this.records ? 'no record' : 'the record is not embedded in this export';
      return d;
    }
    let rm: ReceivedMessage | undefined;
    try {
      rm = await this.records(event.arrival);
    } catch (e) {
      d.unavailable = (e as Error).message;
      return d;
    }
    if (!rm) {
      d.unavailable = 'the record is not available';
      return d;
    }
    const m = rm.message;
    d.attributes = m.attributes;
    d.data = m.data;
    d.publishTime = m.publishTime;
    d.receivedAt = rm.receivedAt;
    d.orderingKey = m.orderingKey;
    d.deliveryAttempt = rm.deliveryAttempt;
    d.latency = latencyOf(rm);
    if (this.meta.payload === 'mdp3') {
      const p = decodeMdp3Base64(m.data);
      if (isMdp3Error(p)) d.mdp3Error = p.error;
      else d.mdp3 = p;
    }
    const decoded = this.decode?.(rm);
    if (decoded) Object.assign(d, decoded);
    return d;
  }

  /** Kinds in the order the legend lists them. */
  static readonly kinds = KIND_NAMES;
}

function latencyOf(rm: ReceivedMessage): MessageDetail['latency'] {
  const sent = Number(rm.message.attributes?.SendingTime);
  const pub = rm.message.publishTime ? Date.parse(rm.message.publishTime) : NaN;
  const recv = rm.receivedAt ? Date.parse(rm.receivedAt) : NaN;
  const l: NonNullable<MessageDetail['latency']> = {};
  if (sent === sent && rm.message.attributes?.SendingTime !== undefined && pub === pub) l.sendToPublishMs = pub - sent;
  if (pub === pub && recv === recv) l.publishToReceiveMs = recv - pub;
  if (sent === sent && rm.message.attributes?.SendingTime !== undefined && recv === recv) l.sendToReceiveMs = recv - sent;
  return Object.keys(l).length ? l : undefined;
}

/**
 * Lanes with their counts. A key is hot when it carries over 3× the mean traffic (and ≥ 100), or
 * holds a backlog of 1 000+ behind an open gap — live, while it holds them (the start window does
 * not count: holding is its rule); in a capture, which has ended, when it ever held that many.
 */
export function lanesOf(s: CaptureSession): LaneInfo[] {
  const byKey = s.summary.byKey;
  const heldNow = s.heldNow;
  // Over the lanes' own counts: a comparison's lanes hold each copy twice (its side's and the merged lane).
  let received = 0;
  for (const k of byKey) received += k.received;
  const mean = byKey.length ? received / byKey.length : 0;
  return byKey.map((k, i) => ({
    key: i,
    name: k.key,
    received: k.received,
    delivered: k.delivered,
    gaps: k.gaps,
    lost: k.lost,
    duplicates: k.duplicates,
    late: k.late,
    reordered: k.reordered,
    resets: k.resets,
    hot: (byKey.length > 1 && k.received >= 100 && k.received > 3 * mean) || (heldNow ? heldNow(i) : k.maxHeld) >= 1000,
    ...withCompared(s, i),
  }));
}

/** A comparison's merged lane's range counts, as a LaneCounts field (nothing for other lanes). */
function withCompared(s: CaptureSession, key: number): Pick<LaneCounts, 'compared'> {
  const compared = s.comparedCounts(key);
  return compared ? { compared } : {};
}
