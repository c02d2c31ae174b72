/**
 * The one protocol between the timeline webview and whoever feeds it: the extension host in
 * VS Code, or the in-page data source of a standalone HTML export. Both sides import these
 * types; nothing else crosses the boundary. No `vscode` import here (lint-enforced).
 *
 * Requests carry a `requestId` the reply echoes, so the webview can drop stale pages when the
 * user pans faster than pages arrive.
 */
import type { Mdp3Packet } from '../core/capture/mdp3';
import type { OpenState } from '../core/sequencer/openState';
import type { SeqBits } from '../core/sequencer/serial';
import type { TimePercentiles } from '../core/replay/timePercentiles';
import type { KeyOrder } from '../core/trace/keyOrder';
import type { TraceFilterSpec } from '../core/trace/traceFilter';
import type { WireLanes } from './laneWire';
import type { LiveFollow } from './liveWindow';
import type { PanelRestore } from './panelRestore';
import type { WirePage } from './pageWire';
import type { TailPatch } from './tailPatch';
import type { CompareKind, CursorState, EventView, LaneInfo, LiveConnection, Overview } from './timelineModel';

// The model the messages carry, re-exported so the webview reads the protocol from one file.
export type { KeyOrder } from '../core/trace/keyOrder';
export type { WireLanes } from './laneWire';
export type { WirePage } from './pageWire';
export type { PanelRestore } from './panelRestore';
export type {
  CursorState,
  EventView,
  KeyStateView,
  KindName,
  LaneCounts,
  LaneInfo,
  LanePage,
  LiveConnection,
  MarkList,
  Overview,
  TimelinePage,
} from './timelineModel';

export interface SessionInfo {
  id: string;
  title: string;
  /** How the session was sequenced, in words. */
  options: string;
  /** Width of its sequence numbers, for the filter bar to check a range (absent: not known). */
  seqBits?: SeqBits;
  start: number;
  end: number;
  arrivals: number;
  events: number;
  lanes: LaneInfo[];
  invalid: number;
  /** Present in a standalone export: there is no live host to drive replay. */
  standalone?: boolean;
  /** A live session: it grows (the timeline follows it, "follow live"). */
  live?: boolean;
  /**
   * A capture still loading: the share of its bytes read (0–1). It grows as a live session does
   * (the timeline follows the whole of it unless the user zooms) until an `init` without it.
   */
  loading?: number;
  /** A live session's keys waiting now: an open gap (a band growing while it waits), a start window. */
  open?: { key: number; state: OpenState }[];
  /** A line under the title: a live session's recording and the subscriptions it reads. */
  source?: string;
  /** A live session that is not receiving: why and what comes next (shown in the header). */
  connection?: LiveConnection;
}

/** SessionInfo as it crosses: its lanes packed (shared/laneWire.ts: one string, not an object a lane); the webview unpacks. */
export interface WireSessionInfo extends Omit<SessionInfo, 'lanes'> {
  lanes: WireLanes;
}

/** A page request's view following a live session: what it keeps in view and its plot's width (CSS px). */
export type PageFollow = Pick<LiveFollow, 'window' | 'widthPx'>;

/**
 * Keys, kinds, number range, attribute value: one filter for tree, timeline and exports; and in a
 * comparison's timeline, which of its range marks to show (all when absent).
 */
export type TimelineFilter = TraceFilterSpec & { compared?: CompareKind[] };

export type ReplaySpeed = 1 | 10 | 'max';
export type ReplayAction =
  | 'play'
  | 'pause'
  | 'stepForward'
  | 'stepBack'
  | 'toStart'
  | 'toEnd'
  | 'nextGap'
  | 'nextDuplicate'
  | 'nextLate'
  | 'nextReordered'
  | 'nextReset';

export interface ReplayInfo {
  playing: boolean;
  speed: ReplaySpeed;
  /** False until the user starts stepping: the timeline then shows everything. */
  active: boolean;
  state?: CursorState;
}

/** Replay as a session starts: not stepping, everything shown. */
export const IDLE_REPLAY: ReplayInfo = Object.freeze({ playing: false, speed: 1, active: false });

/** A payload decoded by its schema: the record as indented JSON text, and the schema's source (a file, `projects/P/schemas/S@rev`). */
export interface DecodedRecord {
  text: string;
  source: string;
}

/** Decoded record for the detail pane. */
export interface MessageDetail {
  event: EventView;
  attributes?: Record<string, string>;
  /** Base64 payload; the webview renders it as JSON, text or hex. */
  data?: string;
  /** The payload's MDP 3.0 packet header and SBE message headers, when the session reads MDP 3.0. */
  mdp3?: Mdp3Packet;
  /** Why the payload is not a whole MDP 3.0 packet, when the session reads MDP 3.0. */
  mdp3Error?: string;
  /** The record the payload's schema decodes (as JSON text, decoded on the host), and where the schema came from. */
  decoded?: DecodedRecord;
  /** Why the payload does not read by its schema (it does not match it, or the schema has no definition here). */
  decodeError?: string;
  publishTime?: string;
  receivedAt?: string;
  orderingKey?: string;
  deliveryAttempt?: number;
  /** SendingTime → publish → receive, in ms, where known. */
  latency?: { sendToPublishMs?: number; publishToReceiveMs?: number; sendToReceiveMs?: number };
  /** The record could not be read back (file changed or gone). */
  unavailable?: string;
  /**
   * Hold and latency percentiles over the whole session: of the event's key (absent for an
   * invalid record) and of all keys; a measure the records lack is absent.
   */
  percentiles?: { key?: TimePercentiles; all: TimePercentiles };
}

/** A page the host computed before it was asked: the fit-all window and the first lanes, or a live view's next page. */
export interface FirstPage {
  t0: number;
  t1: number;
  lanes: number[];
  page: WirePage;
}

/** Messages to the webview. */
export type HostMessage =
  /** `firstPage`: the page the webview will ask for first, sent along so it need not ask. */
  /** `keyOrder`: the order of the lanes (after the filter's choice of them; see core/trace/keyOrder.ts listKeys). */
  /** `liveSeq`: a live session's state, numbered: the `liveUpdate`s that follow change it (shared/liveUpdates.ts). */
  /** `sentAt`: a live state's, the host's clock (ms since epoch) when sent: how long it took to be drawn (the test hook). */
  | {
      type: 'init';
      session: WireSessionInfo;
      overview: Overview;
      filter: TimelineFilter;
      keyOrder: KeyOrder;
      replay: ReplayInfo;
      firstPage?: FirstPage;
      liveSeq?: number;
      sentAt?: number;
    }
  /**
   * A live session grew: what changed in its last `init` (or the update before, `seq` − 1): the
   * webview applies it and draws the `init` it makes, then answers `liveDrawn`. One that does not
   * follow the last it has asks for the whole state (`liveResync`).
   */
  | { type: 'liveUpdate'; seq: number; patch: TailPatch; sentAt?: number }
  /**
   * A capture is being loaded for this panel: `fraction` of it read so far; `sentAt` is the
   * host's clock (ms since epoch) when sent, to see how long messages take to arrive.
   */
  | { type: 'loading'; title: string; fraction: number; detail: string; sentAt: number }
  /** Pages cross packed (shared/pageWire.ts: marks as differences, about half the size); the webview unpacks them. */
  | { type: 'page'; requestId: number; page: WirePage }
  | { type: 'detail'; requestId: number; detail: MessageDetail }
  | { type: 'replay'; replay: ReplayInfo }
  | { type: 'filter'; filter: TimelineFilter; overview: Overview }
  /** The lanes' order changed (the webview's choice, or the setting): the same lanes, reordered. */
  | { type: 'keyOrder'; order: KeyOrder }
  /** Show this event: center it and open its detail. */
  | { type: 'reveal'; event: EventView }
  | { type: 'error'; message: string }
  /**
   * What the panel needs to come back after a window reload: the webview keeps it in its state
   * (setState) at once, and VS Code hands that state to the extension's panel serializer.
   */
  | { type: 'persist'; restore: PanelRestore | undefined };

/** Messages from the webview. */
export type WebviewMessage =
  /** `shown`: the session the webview already shows from the first view embedded in its page. */
  | { type: 'ready'; shown?: string }
  /**
   * `follow`: the view follows a live session (what it keeps in view, its plot's width): with each
   * refresh the host sends the page the view will ask for next along with the `init` (its
   * `firstPage`), so a refresh draws without a round trip.
   */
  | { type: 'requestPage'; requestId: number; t0: number; t1: number; buckets: number; lanes: number[]; follow?: PageFollow }
  | { type: 'requestDetail'; requestId: number; eventId: number }
  | { type: 'replay'; action: ReplayAction }
  | { type: 'setSpeed'; speed: ReplaySpeed }
  | { type: 'seek'; position: number }
  | { type: 'select'; eventId: number }
  | { type: 'setFilter'; filter: TimelineFilter }
  /** The user picked an order for the lanes; the host answers `keyOrder` (VS Code: to every timeline, and the tree follows). */
  | { type: 'setKeyOrder'; order: KeyOrder }
  /** The first frame with data of this session was drawn (the host may then do heavier work). */
  | { type: 'painted'; session: string }
  /** The live state numbered `seq` (an `init` or a `liveUpdate`) was drawn: the next update may come. */
  | { type: 'liveDrawn'; seq: number }
  /** A live update did not follow the state the webview has: the host sends the whole state again. */
  | { type: 'liveResync' };

export const TIMELINE_VIEW_TYPE = 'seqscope.timeline';
