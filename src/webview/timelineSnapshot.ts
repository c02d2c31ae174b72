/**
 * What the timeline's read-only test hook (`window.__seqscopeTimeline.snapshot()`) reports:
 * what the last frame drew and the view state. Types only and DOM-free, so Node-side tests and
 * the benchmark can import them.
 */

/**
 * A frame that first drew data up to `end` (the data's clock), drawn at `at` (epoch ms); in a
 * live session, when the state it drew was sent by the host and arrived here.
 */
export interface DataDraw {
  at: number;
  end: number;
  sentAt?: number;
  receivedAt?: number;
}

export interface MarkCounts {
  message: number;
  hold: number;
  density: number;
  gap: number;
  /** A live session's open gaps, drawn as bands growing while they wait. */
  openGap: number;
  /** A live session's start windows, drawn as bands with their countdown ("collecting: 7 s left"). */
  startWindow: number;
  duplicate: number;
  redelivery: number;
  republish: number;
  conflict: number;
  late: number;
  /** First copies that came after one of their key published later (`--seq publishTime`). */
  reordered: number;
  /** Sequence resets: a key's numbers starting again. */
  reset: number;
  /** A comparison's ranges on its merged lanes: only A had them, only B, neither. */
  onlyA: number;
  onlyB: number;
  lostBoth: number;
  invalid: number;
}

export interface DrawnLane {
  key: number;
  name: string;
  /** The counts drawn under the name ("1k rcv · 1 gap · 2 dup"). */
  label: string;
  y: number;
  height: number;
  /** Drawn from a page for this very view (not a scaled stand-in). */
  fresh: boolean;
  /** Drawn from a page at all. */
  hasData: boolean;
}

/** A mark as drawn, in CSS px relative to the canvas. */
export interface DrawnMark {
  id: number;
  /** message, gap, redelivery, republish, conflict, late, reordered, reset, onlyA, onlyB, lostBoth, invalid. */
  kind: string;
  x: number;
  y: number;
  /** Gap bands: their visible width. */
  w?: number;
}

/** A text label as drawn (gap labels in the lanes, the axis's tick labels), CSS px relative to the canvas. */
export interface DrawnLabel {
  text: string;
  /** Left edge and the text's middle line. */
  x: number;
  y: number;
  w: number;
}

/**
 * What a reader has already taken of the draw history (`snapshot(since)`): a reader that polls
 * through a long live session takes only what is new, not 4 096 frames each time.
 */
export interface SnapshotSince {
  /** Frames drawn (the `draws` of an earlier snapshot). */
  readonly draws?: number;
  /** Frames that first drew data (its `dataDrawsTotal`). */
  readonly dataDraws?: number;
}

export interface TimelineSnapshot {
  ready: boolean;
  standalone: boolean;
  /** performance.now() (ms since navigation) when a frame first drew data from the host. */
  firstPaintMs?: number;
  draws: number;
  lastDrawMs: number;
  /** The most recent per-frame draw times, ms (up to 4096; with `since.draws`, only the frames after that many). */
  drawMs: number[];
  /** Of those frames, the time spent on the lane layer and on the overview and axis, ms. */
  drawPartsMs: { layer: number[]; overview: number[] };
  /**
   * The frames that first showed the session's data up to a later end (a live session growing):
   * when (epoch ms) and up to where (engine clock), oldest first, up to 4096 (with
   * `since.dataDraws`, only those after that many).
   */
  dataDraws: DataDraw[];
  /** How many frames so far first showed data up to a later end (what `since.dataDraws` counts). */
  dataDrawsTotal: number;
  window?: { t0: number; t1: number };
  domain?: { t0: number; t1: number };
  fitAll: boolean;
  lanes: DrawnLane[];
  marks?: MarkCounts;
  /** Findings and individually drawn messages of the last frame (capped at 300 each). */
  findings: DrawnMark[];
  messages: DrawnMark[];
  /** Labels of the last frame: in the lanes (gaps, open gaps) and on the axis; none overlaps another. */
  labels?: DrawnLabel[];
  /** A live session's "follow live": the window follows where the data ends (absent: not live). */
  followLive?: boolean;
  /** Every drawn lane came from a page for this exact view. */
  allFresh: boolean;
  selectedId?: number;
  /** Replay position's clock time, when the replay cursor is drawn. */
  cursorTime?: number;
  /** Replay position (arrivals replayed), while replaying. */
  replayPosition?: number;
  detailOpen: boolean;
  detailEventId?: number;
  focusedLane: number;
  canvasFocused: boolean;
  pendingRequests: number;
  pagesRequested: number;
  cachedPages: number;
  generation: number;
  /** The canvas background colour in use (follows the theme). */
  background: string;
  error?: string;
  /** Canvas position in the page (CSS px), to turn mark positions into click coordinates. */
  canvas: { x: number; y: number; width: number; height: number };
}
