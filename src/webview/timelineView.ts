/**
 * Composes a frame of the timeline on its one canvas: the overview strip, the time axis, the
 * lane names, rows and grid, the replay cursor and the scrollbar are drawn directly (a few dozen
 * shapes); the marks come from the lane layer (laneLayer.ts), copied — shifted, or scaled while
 * zooming — so a frame costs the same whatever the session holds. The layer is rendered again
 * only when what it shows changed or the view settled somewhere it does not cover exactly.
 */
import { noun } from '../core/util/plural';
import type { LaneCounts, LaneInfo, Overview, SessionInfo, TimelinePage } from '../shared/protocol';
import { KIND_NAMES } from '../shared/timelineModel';
import { count, dateTime, shortCount, tickLabel, tickStep, ticks } from './format';
import { placeLabels } from './labelPlacement';
import { LaneLayer } from './laneLayer';
import { OverviewStrip } from './overviewStrip';
import type { OpenGapBand } from '../shared/openGapBand';
import { inside, Layout, Rect, scrollThumb } from './layout';
import { Theme, withAlpha } from './theme';
import type { DrawnLabel, DrawnLane, DrawnMark, MarkCounts } from './timelineSnapshot';
import type { LaneScroll, Viewport } from './viewport';
import { displayKey } from '../core/trace/keyLabel';

/** What the renderer needs for a frame (the app owns all of it). */
export interface FrameInput {
  session: SessionInfo;
  lanes: readonly LaneInfo[];
  overview: Overview;
  viewport: Viewport;
  scroll: LaneScroll;
  layout: Layout;
  theme: Theme;
  /** Page to draw a lane from (key index, or −1 for the invalid lane). */
  pageFor(key: number): { page: TimelinePage; fresh: boolean } | undefined;
  selectedId?: number;
  /** Replay position's clock time, drawn as a vertical line. */
  cursorTime?: number;
  /** Focus is on the canvas: draw the focused lane's outline. */
  focusedLane?: number;
  message?: string;
  /** A gesture is under way: copy the layer shifted or scaled rather than render it again. */
  allowStale: boolean;
  /** A live session's open gaps by lane key (bands growing while they wait). */
  openBands?: ReadonlyMap<number, OpenGapBand>;
  /** The view follows a live session: it moves only with the data, never by a pan the layer's sides would serve. */
  following?: boolean;
}

export interface FrameStats {
  lanes: DrawnLane[];
  marks: MarkCounts;
  /** Findings and (individually drawn) messages with where they were drawn, capped. */
  findings: DrawnMark[];
  messages: DrawnMark[];
  /** Labels drawn in the lanes and on the axis, in canvas coordinates. */
  labels: DrawnLabel[];
  /** Every visible lane drawn from a page for this view, by a layer rendered for this view. */
  allFresh: boolean;
  anyData: boolean;
  /** The layer was copied scaled or shifted beyond what it covers: render again when settled. */
  stale: boolean;
  /** The layer was rendered in this frame. */
  rendered: boolean;
  /** How long its parts took, ms: preparing the lane layer (rendered, copied or kept), the overview and axis. */
  partsMs: { layer: number; overview: number };
}

/** Lanes rendered above and below those in view, so a little vertical scrolling is a copy too. */
const LANE_MARGIN = 2;
/** While zooming, the layer may be copied scaled up to this factor before it is rendered again. */
const MAX_STALE_SCALE = 4;

/** The page to draw a lane from (as FrameInput.pageFor; a frame asks once per lane). */
type PageFor = FrameInput['pageFor'];
/** How a frame used the lane layer (see prepareLayer). */
type LayerUse = 'exact' | 'copied' | 'rendered';

export class TimelineView {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly layer = new LaneLayer();
  private dpr = 1;
  private cssW = 0;
  private cssH = 0;
  /** Identity numbers of pages and themes, for the layer's content key. */
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private last: { vp: { t0: number; msPerPx: number }; scrollY: number; layout: Layout } | undefined;
  private readonly overviewStrip = new OverviewStrip();

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
  }

  /** Sizes the backing store for the device pixel ratio; true when it changed. */
  resize(cssW: number, cssH: number, dpr: number): boolean {
    const w = Math.max(1, Math.round(cssW * dpr));
    const h = Math.max(1, Math.round(cssH * dpr));
    if (w === this.canvas.width && h === this.canvas.height && dpr === this.dpr) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    this.dpr = dpr;
    this.cssW = cssW;
    this.cssH = cssH;
    return true;
  }

  private idOf(o: object | undefined): number {
    if (!o) return 0;
    let id = this.ids.get(o);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(o, id);
    }
    return id;
  }

  draw(f: FrameInput): FrameStats {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp, scroll } = f;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = th.background;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    ctx.font = th.font;
    ctx.textBaseline = 'middle';

    const { first, end } = scroll.visible();
    const pages = new Map<number, ReturnType<PageFor>>();
    const pageFor = (k: number) => {
      if (!pages.has(k)) pages.set(k, f.pageFor(k));
      return pages.get(k);
    };
    const started = performance.now();
    const layer = this.prepareLayer(f, first, end, pageFor);
    const isExact = layer !== 'copied';
    const layerDone = performance.now();

    // Nothing arrived yet (a live session's first seconds): no time axis, whose range would be
    // made up (it read 1969, its span "508917 h"), only the empty state below.
    const empty = f.session.arrivals === 0 && f.session.events === 0;
    let axisLabels: DrawnLabel[] = [];
    if (!empty) {
      this.drawOverview(f);
      axisLabels = this.drawAxis(f);
    }
    const stats: FrameStats = {
      lanes: [],
      marks: this.layer.stats.marks,
      findings: [],
      messages: [],
      labels: axisLabels,
      allFresh: isExact,
      anyData: false,
      stale: !isExact,
      rendered: layer === 'rendered',
      partsMs: { layer: layerDone - started, overview: performance.now() - layerDone },
    };
    this.drawLanes(f, first, end, pageFor, stats);
    if (L.invalidLane) {
      this.drawInvalidRow(f, L.invalidLane);
      if (!pageFor(-1)) stats.allFresh = false;
    }
    this.blitLayer(f);
    this.drawGridOverLanes(f);
    this.drawCursor(f);
    this.drawScrollbar(f);
    ctx.fillStyle = th.grid;
    ctx.fillRect(0, L.axis.y + L.axis.h - 1, L.width, 1);
    if (isExact) this.addDrawnMarks(f, stats);
    this.last = { vp: { t0: vp.t0, msPerPx: vp.msPerPx }, scrollY: scroll.scrollY, layout: L };
    return stats;
  }

  /**
   * The lane layer for this frame: kept when it shows exactly this view (`exact`), copied shifted
   * or scaled while a gesture is under way and it still covers enough of the view (`copied`),
   * else rendered again for the lanes in view and LANE_MARGIN either side (`rendered`).
   */
  private prepareLayer(f: FrameInput, first: number, end: number, pageFor: PageFor): LayerUse {
    const { layout: L, viewport: vp, scroll } = f;
    const want = { first: Math.max(0, first - LANE_MARGIN), end: Math.min(f.lanes.length, end + LANE_MARGIN) };
    const invalidHeight = L.invalidLane ? L.invalidLane.h : 0;
    const content = this.layerContent(f, want.first, want.end, invalidHeight, pageFor);
    const spec = this.layer.spec;
    const W = L.plotW;
    const sameScale = !!spec && Math.abs(spec.msPerPx - vp.msPerPx) <= vp.msPerPx * 1e-9;
    const sameShape =
      !!spec && spec.lanes === f.lanes && spec.invalidHeight === invalidHeight && spec.dpr === this.dpr && spec.laneHeight === scroll.laneHeight;
    const covers = !!spec && vp.t0 >= spec.t0 - 1e-9 * vp.span && vp.t1 <= this.layer.t1 + 1e-9 * vp.span && first >= spec.first && end <= spec.end;
    if (sameShape && sameScale && covers && spec.content === content) return 'exact';
    const ratio = spec ? vp.msPerPx / spec.msPerPx : 0;
    const overlap = spec ? Math.min(vp.t1, this.layer.t1) - Math.max(vp.t0, spec.t0) : 0;
    const usable = sameShape && ratio >= 1 / MAX_STALE_SCALE && ratio <= MAX_STALE_SCALE && overlap >= vp.span * 0.5;
    if (f.allowStale && usable) return 'copied';
    // A screen either side to pan into; following live, the view alone (a third of the marks to draw).
    const side = f.following ? 0 : W;
    this.layer.render({
      lanes: f.lanes,
      first: want.first,
      end: want.end,
      laneHeight: scroll.laneHeight,
      invalidHeight,
      t0: vp.t0 - side * vp.msPerPx,
      msPerPx: vp.msPerPx,
      widthPx: W + 2 * side,
      viewT0: vp.t0,
      viewT1: vp.t1,
      pageFor,
      selectedId: f.selectedId,
      theme: f.theme,
      dpr: this.dpr,
      ...(f.openBands?.size ? { openBands: f.openBands } : {}),
      content,
    });
    return 'rendered';
  }

  /**
   * What the lanes [first, end) of the layer show besides geometry, as a key: the theme, the
   * lanes, the selection, the pixel ratio and row heights, each lane's page and whether it is
   * fresh, the open gaps.
   */
  private layerContent(f: FrameInput, first: number, end: number, invalidHeight: number, pageFor: PageFor): string {
    const parts: (number | string)[] = [this.idOf(f.theme), this.idOf(f.lanes), f.selectedId ?? -1, this.dpr, f.scroll.laneHeight, invalidHeight];
    for (let i = first; i < end; i++) {
      const got = pageFor(f.lanes[i].key);
      parts.push(this.idOf(got?.page), got?.fresh ? 1 : 0);
    }
    if (invalidHeight) parts.push(this.idOf(pageFor(-1)?.page));
    for (const b of f.openBands?.values() ?? []) parts.push(`o${b.key}:${b.t0}:${b.tNow}:${b.label}`);
    return parts.join(',');
  }

  /** The rows and names of the lanes in view (the layer's marks go over their plot part), each into `stats`. */
  private drawLanes(f: FrameInput, first: number, end: number, pageFor: PageFor, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, scroll } = f;
    ctx.save();
    clip(ctx, L.lanes);
    for (let i = first; i < end; i++) {
      const lane = f.lanes[i];
      const y = L.lanes.y + i * scroll.laneHeight - scroll.scrollY;
      const got = pageFor(lane.key);
      const label = this.drawLaneRow(f, lane, i, y, got?.page);
      stats.lanes.push({ key: lane.key, name: lane.name, label, y, height: scroll.laneHeight, fresh: !!got?.fresh, hasData: !!got });
      if (!got?.fresh) stats.allFresh = false;
      if (got) stats.anyData = true;
      else {
        ctx.fillStyle = th.muted;
        ctx.fillText('…', L.plotX + 6, y + scroll.laneHeight / 2);
      }
    }
    if (f.lanes.length === 0) {
      ctx.fillStyle = th.muted;
      ctx.textAlign = 'center';
      ctx.fillText(f.message ?? 'No keys to show', L.plotX + L.plotW / 2, L.lanes.y + 40);
      ctx.textAlign = 'left';
    }
    ctx.restore();
  }

  /** The layer's marks and labels as drawn, for the test hook: from layer to canvas coordinates (valid for this view). */
  private addDrawnMarks(f: FrameInput, stats: FrameStats): void {
    const L = f.layout;
    const toCanvas = (m: DrawnMark): DrawnMark => ({ ...m, ...this.layerToCanvas(f, m.x, m.y) });
    stats.findings = this.layer.stats.findings.map(toCanvas).filter((m) => inside(L.lanes, m.x, m.y) || inside(L.invalidLane, m.x, m.y));
    stats.messages = this.layer.stats.messages.map(toCanvas).filter((m) => inside(L.lanes, m.x, m.y));
    stats.labels.push(...this.layer.stats.labels.map((l) => ({ ...l, ...this.layerToCanvas(f, l.x, l.y) })).filter((l) => inside(L.lanes, l.x + l.w / 2, l.y)));
  }

  /** Copies the layer under the plot: shifted (and scaled, mid-zoom) to the current view. */
  private blitLayer(f: FrameInput): void {
    const spec = this.layer.spec;
    if (!spec) return;
    const ctx = this.ctx;
    const { layout: L, viewport: vp, scroll } = f;
    const k = spec.msPerPx / vp.msPerPx;
    const dx = L.plotX + ((spec.t0 - vp.t0) / spec.msPerPx) * k;
    const dw = spec.widthPx * k;
    const src = this.layer.image;
    const d = spec.dpr;
    const rows = spec.end - spec.first;
    if (rows > 0) {
      ctx.save();
      clip(ctx, { x: L.plotX, y: L.lanes.y, w: L.plotW, h: L.lanes.h });
      const dy = L.lanes.y + spec.first * spec.laneHeight - scroll.scrollY;
      ctx.drawImage(src, 0, spec.invalidHeight * d, src.width, rows * spec.laneHeight * d, dx, dy, dw, rows * spec.laneHeight);
      ctx.restore();
    }
    if (L.invalidLane && spec.invalidHeight) {
      ctx.save();
      clip(ctx, { x: L.plotX, y: L.invalidLane.y, w: L.plotW, h: L.invalidLane.h });
      ctx.drawImage(src, 0, 0, src.width, spec.invalidHeight * d, dx, L.invalidLane.y, dw, spec.invalidHeight);
      ctx.restore();
    }
  }

  private layerToCanvas(f: FrameInput, lx: number, ly: number): { x: number; y: number } {
    const spec = this.layer.spec!;
    const { layout: L, viewport: vp, scroll } = f;
    const k = spec.msPerPx / vp.msPerPx;
    const x = L.plotX + ((spec.t0 - vp.t0) / spec.msPerPx + lx) * k;
    const y =
      ly < spec.invalidHeight && L.invalidLane ? L.invalidLane.y + ly : L.lanes.y + spec.first * spec.laneHeight - scroll.scrollY + (ly - spec.invalidHeight);
    return { x, y };
  }

  /** The mark under canvas point (x, y) as last drawn: its id, kind code and time. */
  hitAt(x: number, y: number): { id: number; kind: number; t: number } | undefined {
    const spec = this.layer.spec;
    const last = this.last;
    if (!spec || !last) return undefined;
    const L = last.layout;
    if (x < L.plotX || x > L.plotX + L.plotW) return undefined;
    const k = spec.msPerPx / last.vp.msPerPx;
    const lx = (x - L.plotX) / k - (spec.t0 - last.vp.t0) / spec.msPerPx;
    let ly: number;
    if (L.invalidLane && inside(L.invalidLane, x, y)) ly = y - L.invalidLane.y;
    else if (inside(L.lanes, x, y)) ly = spec.invalidHeight + (y - L.lanes.y) + last.scrollY - spec.first * spec.laneHeight;
    else return undefined;
    const h = this.layer.hits;
    const i = h.nearest(lx, ly, 6 / k, spec.laneHeight / 2 - 3);
    if (i < 0) return undefined;
    return { id: h.id[i], kind: h.kind[i], t: spec.t0 + h.x[i] * spec.msPerPx };
  }

  // -------------------------------------------------------------------------------------------

  /** The overview strip (overviewStrip.ts): its bitmap kept while the overview, theme, session and size stay. */
  private drawOverview(f: FrameInput): void {
    const r = f.layout.overview;
    const key = [this.idOf(f.overview), this.idOf(f.theme), this.idOf(f.session), r.x, r.y, r.w, r.h, this.dpr].join(',');
    this.overviewStrip.draw(
      this.ctx,
      { rect: r, overview: f.overview, theme: f.theme, arrivals: f.session.arrivals, view: f.viewport, cursorTime: f.cursorTime },
      this.dpr,
      key,
    );
  }

  /** The date, then a tick per step with its label; labels are measured and one that would overlap the one before (or stick out of the plot) is left out. */
  private drawAxis(f: FrameInput): DrawnLabel[] {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const r = L.axis;
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'left';
    ctx.fillText(dateTime(vp.t0).slice(0, 10) + ' UTC', 8, r.y + r.h / 2);
    const step = tickStep(vp.msPerPx, 110);
    ctx.save();
    clip(ctx, { x: r.x, y: r.y, w: r.w, h: r.h });
    ctx.fillStyle = th.foreground;
    const labels: { x: number; w: number; text: string }[] = [];
    for (const t of ticks(vp.t0, vp.t1, step)) {
      const x = r.x + vp.timeToX(t);
      ctx.fillRect(Math.round(x), r.y + r.h - 5, 1, 5);
      const text = tickLabel(t, step);
      labels.push({ x: x + 3, w: ctx.measureText(text).width, text });
    }
    const y = r.y + r.h / 2 - 1;
    const drawn: DrawnLabel[] = [];
    for (const p of placeLabels(labels, { align: 'left', pad: 8 })) {
      ctx.fillText(p.label.text, p.left, y);
      drawn.push({ text: p.label.text, x: p.left, y, w: p.label.w });
    }
    ctx.restore();
    return drawn;
  }

  /** Faint vertical grid lines at the axis ticks, over the lane area. */
  private drawGridOverLanes(f: FrameInput): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const step = tickStep(vp.msPerPx, 110);
    ctx.fillStyle = withAlpha(th.grid, 0.5);
    const top = L.axis.y + L.axis.h;
    const bottom = Math.min(L.height, L.lanes.y + f.lanes.length * f.scroll.laneHeight - f.scroll.scrollY);
    if (bottom <= top) return;
    for (const t of ticks(vp.t0, vp.t1, step)) ctx.fillRect(Math.round(L.plotX + vp.timeToX(t)), top, 1, bottom - top);
  }

  private drawCursor(f: FrameInput): void {
    if (f.cursorTime === undefined || !Number.isFinite(f.cursorTime)) return;
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const x = L.plotX + vp.timeToX(f.cursorTime);
    if (x < L.plotX || x > L.plotX + L.plotW) return;
    ctx.fillStyle = th.cursor;
    ctx.fillRect(Math.round(x) - 1, L.axis.y, 2, L.height - L.axis.y);
    ctx.beginPath();
    ctx.moveTo(x - 5, L.axis.y);
    ctx.lineTo(x + 5, L.axis.y);
    ctx.lineTo(x, L.axis.y + 7);
    ctx.fill();
  }

  private drawScrollbar(f: FrameInput): void {
    const thumb = scrollThumb(f.layout.scrollbar, f.scroll.contentHeight, f.scroll.scrollY);
    if (!thumb) return;
    const ctx = this.ctx;
    ctx.fillStyle = withAlpha(f.theme.muted, 0.15);
    const t = f.layout.scrollbar;
    ctx.fillRect(t.x, t.y, t.w, t.h);
    ctx.fillStyle = withAlpha(f.theme.muted, 0.5);
    ctx.fillRect(thumb.x, thumb.y, thumb.w, thumb.h);
  }

  // -------------------------------------------------------------------------------------------

  private drawLaneLabel(f: FrameInput, y: number, h: number, name: string, detail: string, hot: boolean): void {
    const ctx = this.ctx;
    const th = f.theme;
    const gutter = f.layout.plotX;
    ctx.save();
    clip(ctx, { x: 0, y, w: gutter - 4, h });
    ctx.textAlign = 'left';
    ctx.fillStyle = th.foreground;
    const nameY = y + h / 2 - 7;
    ctx.fillText(name, 8, nameY);
    if (hot) {
      const w = ctx.measureText(name).width;
      const bx = Math.min(gutter - 34, 8 + w + 6);
      ctx.fillStyle = th.hot;
      roundRect(ctx, bx, nameY - 7, 26, 14, 3);
      ctx.fill();
      ctx.fillStyle = th.hotText;
      ctx.fillText('hot', bx + 4, nameY);
    }
    ctx.fillStyle = th.muted;
    ctx.fillText(detail, 8, y + h / 2 + 8);
    ctx.restore();
  }

  /** Draws a lane's row and name; returns the counts line drawn under the name. */
  private drawLaneRow(f: FrameInput, lane: LaneInfo, index: number, y: number, page: TimelinePage | undefined): string {
    const ctx = this.ctx;
    const { theme: th, layout: L } = f;
    const h = f.scroll.laneHeight;
    if (index % 2 === 1) {
      ctx.fillStyle = th.laneAlt;
      ctx.fillRect(0, y, L.lanes.w, h);
    }
    ctx.fillStyle = withAlpha(th.grid, 0.6);
    ctx.fillRect(0, y + h - 1, L.lanes.w, 1);
    // While replaying, the counts up to the position (as the tree's key rows), not the totals
    // beside marks that stop there.
    const c = countsShown(lane, page, f.cursorTime !== undefined);
    const parts = [`${shortCount(c.received)} rcv`];
    // A comparison's merged lane, first (the gutter is narrow): the numbers only A had, only B had
    // and both lost, by the glyphs of their marks.
    if (c.compared) parts.push(`A ${shortCount(c.compared.onlyA)} · B ${shortCount(c.compared.onlyB)} · × ${shortCount(c.compared.lostBoth)}`);
    if (c.gaps) parts.push(`${c.gaps} ${noun(c.gaps, 'gap')}`);
    if (c.duplicates) parts.push(`${shortCount(c.duplicates)} dup`);
    if (c.late) parts.push(`${shortCount(c.late)} late`);
    if (c.reordered) parts.push(`${shortCount(c.reordered)} reord`);
    if (c.resets) parts.push(`${c.resets} ${noun(c.resets, 'reset')}`);
    const label = parts.join(' · ');
    this.drawLaneLabel(f, y, h, displayKey(lane.name), label, lane.hot);
    if (f.focusedLane === index) {
      ctx.strokeStyle = th.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(1.5, y + 1.5, L.plotX - 6, h - 3);
    }
    return label;
  }

  private drawInvalidRow(f: FrameInput, r: Rect): void {
    const ctx = this.ctx;
    const th = f.theme;
    ctx.fillStyle = withAlpha(th.invalid, 0.06);
    ctx.fillRect(r.x, r.y, r.w, r.h);
    ctx.fillStyle = th.grid;
    ctx.fillRect(0, r.y + r.h - 1, r.w, 1);
    this.drawLaneLabel(f, r.y, r.h, 'invalid records', `${count(f.session.invalid)} not sequenced`, false);
  }
}

/** A lane's counts to show: up to the replay position while replaying (from its page), else the totals. */
export function countsShown(lane: LaneInfo, page: TimelinePage | undefined, replaying: boolean): LaneCounts {
  return (replaying && page?.lanes.find((l) => l.key === lane.key)?.countsAt) || lane;
}

export function kindName(code: number): string {
  return KIND_NAMES[code] ?? 'event';
}

function clip(ctx: CanvasRenderingContext2D, r: Rect): void {
  ctx.beginPath();
  ctx.rect(r.x, r.y, r.w, r.h);
  ctx.clip();
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
