/**
 * The read-only test hook's side in the app (`window.__seqscopeTimeline.snapshot()`, main.ts):
 * the snapshot put together from the app's parts and its draw history (drawLog.ts). Tests and the
 * benchmark read it; nothing in the app depends on it.
 */
import type { ReplayInfo, SessionInfo } from '../shared/protocol';
import type { DetailPane } from './detailPane';
import type { Selection } from './findingNav';
import type { PageRequester } from './pageRequester';
import type { FrameStats } from './timelineView';
import type { DrawLog } from './drawLog';
import type { SnapshotSince, TimelineSnapshot } from './timelineSnapshot';
import type { Viewport } from './viewport';

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
  /** What the reader already took of the draw history. */
  since?: SnapshotSince;
}

export function probeSnapshot(p: ProbeParts): TimelineSnapshot {
  const since = p.since ?? {};
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
    drawMs: p.log.recent(since.draws),
    drawPartsMs: p.log.recentParts(since.draws),
    dataDraws: p.log.recentDataDraws(since.dataDraws),
    dataDrawsTotal: p.log.dataDrawsTotal,
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
