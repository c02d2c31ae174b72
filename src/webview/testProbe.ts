/**
 * The read-only test hook's side in the app (`window.__seqscopeTimeline.snapshot()`, main.ts):
 * the draw times it reports, and the snapshot put together from the app's parts. Tests and the
 * benchmark read it; nothing in the app depends on it.
 */
import type { ReplayInfo, SessionInfo } from '../shared/protocol';
import type { DetailPane } from './detailPane';
import type { Selection } from './findingNav';
import type { PageRequester } from './pageRequester';
import type { FrameStats } from './timelineView';
import type { DataDraw, TimelineSnapshot } from './timelineSnapshot';
import type { Viewport } from './viewport';

const DRAW_TIMES_KEPT = 4096;

/** Frame times, the last DRAW_TIMES_KEPT of them, and when data was first painted. */
export class DrawLog {
  private readonly times = new Float32Array(DRAW_TIMES_KEPT);
  private readonly layerTimes = new Float32Array(DRAW_TIMES_KEPT);
  private readonly overviewTimes = new Float32Array(DRAW_TIMES_KEPT);
  draws = 0;
  lastDrawMs = 0;
  private readonly dataDraws: DataDraw[] = [];
  /** The live state last taken: when the host sent it and when it arrived here (epoch ms). */
  private live: { sentAt: number; receivedAt: number } | undefined;
  private dataDrawCount = 0;
  private lastDataEnd = Number.NEGATIVE_INFINITY;
  /** performance.now() when a frame first drew data from the host. */
  firstPaintMs: number | undefined;

  record(ms: number, parts?: { layer: number; overview: number }): void {
    this.lastDrawMs = ms;
    const i = this.draws % DRAW_TIMES_KEPT;
    this.times[i] = ms;
    this.layerTimes[i] = parts?.layer ?? 0;
    this.overviewTimes[i] = parts?.overview ?? 0;
    this.draws++;
  }

  /** A live state arrived, sent by the host at `sentAt` (epoch ms). */
  liveReceived(sentAt: number): void {
    this.live = { sentAt, receivedAt: performance.timeOrigin + performance.now() };
  }

  /** The data drawn reached `end` (a live session grows): kept when it reached further than before. */
  drewData(end: number): void {
    if (end <= this.lastDataEnd) return;
    this.lastDataEnd = end;
    this.dataDraws[this.dataDrawCount % DRAW_TIMES_KEPT] = { at: performance.timeOrigin + performance.now(), end, ...this.live };
    this.dataDrawCount++;
  }

  /** The frames that first drew data up to a later end, oldest first (epoch ms; the benchmark's arrival-to-drawn). */
  recentDataDraws(): DataDraw[] {
    const n = Math.min(this.dataDrawCount, DRAW_TIMES_KEPT);
    const out: DataDraw[] = [];
    for (let i = this.dataDrawCount - n; i < this.dataDrawCount; i++) out.push(this.dataDraws[i % DRAW_TIMES_KEPT]);
    return out;
  }

  recent(times = this.times): number[] {
    const n = Math.min(this.draws, DRAW_TIMES_KEPT);
    const out: number[] = [];
    for (let i = this.draws - n; i < this.draws; i++) out.push(times[i % DRAW_TIMES_KEPT]);
    return out;
  }

  /** The recent frames' parts (see FrameStats.partsMs), as `recent`. */
  recentParts(): { layer: number[]; overview: number[] } {
    return { layer: this.recent(this.layerTimes), overview: this.recent(this.overviewTimes) };
  }
}

/** What the snapshot is read from. */
export interface ProbeParts {
  canvas: HTMLCanvasElement;
  session: SessionInfo | undefined;
  viewport: Viewport | undefined;
  stats: FrameStats | undefined;
  log: DrawLog;
  pages: PageRequester<unknown>;
  replay: ReplayInfo;
  selected: Selection | undefined;
  detail: DetailPane;
  focusedLane: number;
  background: string;
  error: string | undefined;
}

export function probeSnapshot(p: ProbeParts): TimelineSnapshot {
  const st = p.stats;
  const vp = p.viewport;
  const r = p.canvas.getBoundingClientRect();
  const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  return {
    ready: !!p.session,
    standalone: !!p.session?.standalone,
    firstPaintMs: p.log.firstPaintMs,
    draws: p.log.draws,
    lastDrawMs: p.log.lastDrawMs,
    drawMs: p.log.recent(),
    drawPartsMs: p.log.recentParts(),
    dataDraws: p.log.recentDataDraws(),
    window: vp ? { t0: vp.t0, t1: vp.t1 } : undefined,
    domain: vp ? { t0: vp.domainT0, t1: vp.domainT1 } : undefined,
    fitAll: !!vp?.isFitAll(),
    lanes: copy(st?.lanes ?? []),
    marks: st ? copy(st.marks) : undefined,
    findings: copy(st?.findings ?? []),
    messages: copy(st?.messages ?? []),
    labels: copy(st?.labels ?? []),
    ...(p.session?.live ? { followLive: !!vp?.follow } : {}),
    allFresh: !!st?.allFresh,
    selectedId: p.selected?.id,
    cursorTime: p.replay.active ? p.replay.state?.time : undefined,
    replayPosition: p.replay.active ? p.replay.state?.position : undefined,
    detailOpen: p.detail.isOpen,
    detailEventId: p.detail.isOpen && p.detail.root.dataset.eventId !== undefined ? Number(p.detail.root.dataset.eventId) : undefined,
    focusedLane: p.focusedLane,
    canvasFocused: document.activeElement === p.canvas,
    pendingRequests: p.pages.pendingCount,
    pagesRequested: p.pages.pagesRequested,
    cachedPages: p.pages.cache.size,
    generation: p.pages.generation,
    background: p.background,
    error: p.error,
    canvas: { x: r.left, y: r.top, width: r.width, height: r.height },
  };
}
