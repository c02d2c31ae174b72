/**
 * Draws the timeline on one canvas: overview strip, time axis, the invalid lane and the visible
 * key lanes, from whatever pages are cached. A frame's work is bounded by what is on screen —
 * visible lanes × (page buckets + capped findings), marks deduplicated per pixel column — never
 * by the number of events in the session.
 *
 * Marks: message = a tick at release; hold = a thin line arrival → release; gap = a band from
 * opened to declared lost (labelled with the missing range when wide enough); duplicate = a
 * ring (redelivery: the same Pub/Sub message again) or a diamond (republish: the same number
 * under a new messageId); late = a triangle; invalid = a cross on the top lane.
 */
import type { LaneInfo, LanePage, MarkList, Overview, SessionInfo, TimelinePage } from '../shared/protocol';
import { Kind } from '../core/session/eventStore';
import { count, dateTime, missingRange, shortCount, tickLabel, tickStep, ticks } from './format';
import { HitList, Layout, Rect, scrollThumb } from './layout';
import { Theme, withAlpha } from './theme';
import type { DrawnLane, DrawnMark, MarkCounts } from './timelineSnapshot';
import type { LaneScroll, Viewport } from './viewport';

/** Bit 0 of a duplicate's aux: it was a redelivery (same messageId). */
const REDELIVERY = 1;

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
}

export interface FrameStats {
  lanes: DrawnLane[];
  marks: MarkCounts;
  /** Findings and (individually drawn) messages with where they were drawn, capped. */
  findings: DrawnMark[];
  messages: DrawnMark[];
  allFresh: boolean;
  anyData: boolean;
}

const MARKS_LISTED = 300;
const KIND_NAME = ['message', 'gap', 'duplicate', 'late', 'invalid'];

export class TimelineView {
  readonly hits = new HitList();
  private readonly ctx: CanvasRenderingContext2D;
  private dpr = 1;
  private cssW = 0;
  private cssH = 0;

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

  draw(f: FrameInput): FrameStats {
    const ctx = this.ctx;
    const { theme: th, layout: L } = f;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = th.background;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    ctx.font = th.font;
    ctx.textBaseline = 'middle';
    this.hits.clear();
    const stats: FrameStats = {
      lanes: [],
      marks: { message: 0, hold: 0, density: 0, gap: 0, duplicate: 0, redelivery: 0, republish: 0, late: 0, invalid: 0 },
      findings: [],
      messages: [],
      allFresh: true,
      anyData: false,
    };

    this.drawOverview(f);
    this.drawAxis(f);

    // Key lanes, clipped to their scrolled area.
    const { first, end } = f.scroll.visible();
    ctx.save();
    clip(ctx, f.layout.lanes);
    for (let i = first; i < end; i++) {
      const lane = f.lanes[i];
      const y = L.lanes.y + i * f.scroll.laneHeight - f.scroll.scrollY;
      this.drawLane(f, lane, i, y, stats);
    }
    if (f.lanes.length === 0) {
      ctx.fillStyle = th.muted;
      ctx.textAlign = 'center';
      ctx.fillText(f.message ?? 'No keys to show', L.plotX + L.plotW / 2, L.lanes.y + 40);
      ctx.textAlign = 'left';
    }
    ctx.restore();
    if (L.invalidLane) this.drawInvalidLane(f, L.invalidLane, stats);
    this.drawGridOverLanes(f);
    this.drawCursor(f);
    this.drawScrollbar(f);
    // Separator under the header.
    ctx.fillStyle = th.grid;
    ctx.fillRect(0, L.axis.y + L.axis.h - 1, L.width, 1);
    return stats;
  }

  // -------------------------------------------------------------------------------------------

  private drawOverview(f: FrameInput): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, overview: o, viewport: vp } = f;
    const r = L.overview;
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'left';
    ctx.fillText('Overview', 8, r.y + 12);
    ctx.fillText(`${count(f.session.arrivals)} arrivals`, 8, r.y + 30);
    const n = o.arrivals.length;
    if (n === 0) return;
    const ox = (t: number) => r.x + ((t - o.t0) / (o.t1 - o.t0 || 1)) * r.w;
    const barW = r.w / n;
    let max = 1;
    for (let i = 0; i < n; i++) if (o.arrivals[i] > max) max = o.arrivals[i];
    const top = r.y + 3;
    const h = r.h - 14;
    // Rate over time: one path of columns.
    ctx.fillStyle = withAlpha(th.message, 0.45);
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const v = o.arrivals[i];
      if (!v) continue;
      const bh = Math.max(1, (h * v) / max);
      ctx.rect(r.x + i * barW, top + h - bh, Math.max(1, barW), bh);
    }
    ctx.fill();
    // Finding ticks under the rate: gaps, duplicates, late, each its own row.
    const rows: [number[], string][] = [
      [o.gaps, th.gap],
      [o.duplicates, th.redelivery],
      [o.late, th.late],
    ];
    rows.forEach(([bins, color], row) => {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let i = 0; i < n; i++) if (bins[i]) ctx.rect(r.x + i * barW - (barW < 3 ? 1 : 0), r.y + r.h - 10 + row * 3, Math.max(3, barW), 3);
      ctx.fill();
    });
    // The visible window: a rectangle the user can drag.
    const x0 = Math.max(r.x, ox(vp.t0));
    const x1 = Math.min(r.x + r.w, ox(vp.t1));
    const w = Math.max(4, x1 - x0);
    ctx.fillStyle = withAlpha(th.focus, 0.16);
    ctx.fillRect(x0, r.y + 1, w, r.h - 2);
    ctx.strokeStyle = th.focus;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 + 0.5, r.y + 1.5, w - 1, r.h - 3);
    if (f.cursorTime !== undefined && Number.isFinite(f.cursorTime)) {
      ctx.fillStyle = th.cursor;
      ctx.fillRect(ox(f.cursorTime) - 1, r.y, 2, r.h);
    }
  }

  private drawAxis(f: FrameInput): void {
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
    for (const t of ticks(vp.t0, vp.t1, step)) {
      const x = r.x + vp.timeToX(t);
      ctx.fillRect(Math.round(x), r.y + r.h - 5, 1, 5);
      ctx.fillText(tickLabel(t, step), x + 3, r.y + r.h / 2 - 1);
    }
    ctx.restore();
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

  private drawLane(f: FrameInput, lane: LaneInfo, index: number, y: number, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L } = f;
    const h = f.scroll.laneHeight;
    if (index % 2 === 1) {
      ctx.fillStyle = th.laneAlt;
      ctx.fillRect(0, y, L.lanes.w, h);
    }
    ctx.fillStyle = withAlpha(th.grid, 0.6);
    ctx.fillRect(0, y + h - 1, L.lanes.w, 1);
    const parts = [`${shortCount(lane.received)} rcv`];
    if (lane.gaps) parts.push(`${lane.gaps} gap${lane.gaps === 1 ? '' : 's'}`);
    if (lane.duplicates) parts.push(`${shortCount(lane.duplicates)} dup`);
    if (lane.late) parts.push(`${shortCount(lane.late)} late`);
    this.drawLaneLabel(f, y, h, lane.name, parts.join(' · '), lane.hot);
    if (f.focusedLane === index) {
      ctx.strokeStyle = th.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(1.5, y + 1.5, L.plotX - 6, h - 3);
    }
    const got = f.pageFor(lane.key);
    const drawn: DrawnLane = { key: lane.key, name: lane.name, y, height: h, fresh: !!got?.fresh, hasData: !!got };
    stats.lanes.push(drawn);
    if (!got) {
      stats.allFresh = false;
      ctx.fillStyle = th.muted;
      ctx.fillText('…', L.plotX + 6, y + h / 2);
      return;
    }
    if (!got.fresh) stats.allFresh = false;
    stats.anyData = true;
    const lp = got.page.lanes.find((l) => l.key === lane.key);
    if (!lp) return;
    ctx.save();
    clip(ctx, { x: L.plotX, y, w: L.plotW, h });
    this.drawLanePage(f, got.page, lp, y, h, stats);
    ctx.restore();
  }

  private drawLanePage(f: FrameInput, page: TimelinePage, lp: LanePage, y: number, h: number, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const X = L.plotX;
    const W = L.plotW;
    const mid = y + h / 2;
    const px = (t: number) => X + vp.timeToX(t);

    // Gap bands first: everything else draws over them.
    const fl = lp.findings;
    this.drawGaps(f, fl, y, h, stats);

    if (lp.density) {
      // Messages per bucket: columns, height by share of the lane's busiest bucket.
      const d = lp.density;
      const bw = (page.t1 - page.t0) / page.buckets;
      const b0 = Math.max(0, Math.floor((vp.t0 - page.t0) / bw));
      const b1 = Math.min(d.length, Math.ceil((vp.t1 - page.t0) / bw) + 1);
      let max = 1;
      for (let b = b0; b < b1; b++) if (d[b] > max) max = d[b];
      ctx.fillStyle = th.message;
      ctx.beginPath();
      let lastX = -Infinity;
      let lastH = 0;
      const hMax = h - 10;
      for (let b = b0; b < b1; b++) {
        const c = d[b];
        if (!c) continue;
        const x0 = px(page.t0 + b * bw);
        const x1 = px(page.t0 + (b + 1) * bw);
        const bh = Math.max(2, hMax * Math.sqrt(c / max));
        // Several buckets in one pixel column: keep the tallest.
        if (Math.floor(x0) === Math.floor(lastX) && bh <= lastH) continue;
        ctx.rect(Math.floor(x0), mid - bh / 2, Math.max(1, x1 - x0), bh);
        lastX = x0;
        lastH = bh;
        stats.marks.density++;
      }
      ctx.fill();
    } else if (lp.marks) {
      this.drawMessages(f, lp.marks, mid, stats);
    }

    // Point findings over the messages: positions first, then one path per kind (a path per
    // mark costs a raster pass each; a thousand duplicates would cost a frame).
    const rings: number[] = [];
    const diamonds: number[] = [];
    const triangles: number[] = [];
    let lastDupCol = NaN;
    let lastLateCol = NaN;
    let selectedX: number | undefined;
    for (let i = 0; i < fl.id.length; i++) {
      const kind = fl.kind[i];
      if (kind !== Kind.duplicate && kind !== Kind.late) continue;
      const t = fl.t1[i];
      if (t < vp.t0 || t > vp.t1) continue;
      const x = px(t);
      const col = Math.round(x);
      const id = fl.id[i];
      const selected = id === f.selectedId;
      if (selected) selectedX = x;
      if (kind === Kind.duplicate) {
        // One mark per pixel column and kind is all the eye can tell apart.
        if (col === lastDupCol && !selected) continue;
        lastDupCol = col;
        const redelivery = (fl.aux[i] & REDELIVERY) !== 0;
        (redelivery ? rings : diamonds).push(x);
        stats.marks[redelivery ? 'redelivery' : 'republish']++;
        stats.marks.duplicate++;
        this.hits.push(id, kind, x, mid, 0, 2);
        this.list(stats.findings, { id, kind: redelivery ? 'redelivery' : 'republish', x, y: mid });
      } else {
        if (col === lastLateCol && !selected) continue;
        lastLateCol = col;
        triangles.push(x);
        stats.marks.late++;
        this.hits.push(id, kind, x, mid, 0, 2);
        this.list(stats.findings, { id, kind: 'late', x, y: mid });
      }
    }
    if (rings.length) {
      ctx.strokeStyle = th.redelivery;
      ctx.lineWidth = 2;
      ctx.beginPath();
      for (const x of rings) {
        ctx.moveTo(x + 4.5, mid);
        ctx.arc(x, mid, 4.5, 0, Math.PI * 2);
      }
      ctx.stroke();
    }
    if (diamonds.length) {
      ctx.fillStyle = th.republish;
      ctx.beginPath();
      for (const x of diamonds) {
        ctx.moveTo(x, mid - 6);
        ctx.lineTo(x + 5, mid);
        ctx.lineTo(x, mid + 6);
        ctx.lineTo(x - 5, mid);
        ctx.closePath();
      }
      ctx.fill();
    }
    if (triangles.length) {
      ctx.fillStyle = th.late;
      ctx.beginPath();
      for (const x of triangles) {
        ctx.moveTo(x - 5, mid - 6);
        ctx.lineTo(x + 5, mid - 6);
        ctx.lineTo(x, mid + 4);
        ctx.closePath();
      }
      ctx.fill();
    }
    if (selectedX !== undefined) this.drawSelection(f, selectedX, mid);
    if (lp.findingsOmitted > 0) {
      ctx.fillStyle = th.muted;
      ctx.textAlign = 'right';
      ctx.fillText(`+${count(lp.findingsOmitted)} findings (zoom in)`, X + W - 4, y + 8);
      ctx.textAlign = 'left';
    }
  }

  private drawGaps(f: FrameInput, fl: MarkList, y: number, h: number, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const px = (t: number) => L.plotX + vp.timeToX(t);
    const mid = y + h / 2;
    let lastEnd = -Infinity;
    for (let i = 0; i < fl.id.length; i++) {
      if (fl.kind[i] !== Kind.gap) continue;
      const t0 = fl.t0[i];
      const t1 = fl.t1[i];
      if (t1 < vp.t0 || t0 > vp.t1) continue;
      let x0 = px(t0);
      let x1 = px(t1);
      // A gap declared at once (capacity, end of input) is still at least a visible sliver.
      if (x1 - x0 < 3) {
        const c = (x0 + x1) / 2;
        x0 = c - 1.5;
        x1 = c + 1.5;
      }
      const id = fl.id[i];
      const selected = id === f.selectedId;
      if (x1 <= lastEnd && !selected) continue;
      lastEnd = x1;
      const cx0 = Math.max(L.plotX - 2, x0);
      const cx1 = Math.min(L.plotX + L.plotW + 2, x1);
      ctx.fillStyle = withAlpha(th.gap, 0.22);
      ctx.fillRect(cx0, y + 3, cx1 - cx0, h - 6);
      ctx.fillStyle = th.gap;
      ctx.fillRect(x0, y + 3, 1.5, h - 6);
      ctx.fillRect(x1 - 1.5, y + 3, 1.5, h - 6);
      const visibleW = cx1 - cx0;
      if (visibleW > 24) {
        // The missing range if it fits, else how many are missing.
        const from = fl.seq[i];
        const to = fl.aux[i];
        const n = to >= from ? to - from + 1 : undefined;
        const range = missingRange(from, to);
        const labels = [`missing ${range}`, range, ...(n !== undefined && n > 1 ? [`${count(n)} lost`, `×${count(n)}`] : [])];
        const text = labels.find((l) => ctx.measureText(l).width <= visibleW - 8);
        if (text) {
          ctx.fillStyle = th.foreground;
          ctx.textAlign = 'center';
          ctx.fillText(text, (cx0 + cx1) / 2, mid);
          ctx.textAlign = 'left';
        }
      }
      stats.marks.gap++;
      // Hit anywhere across the visible part of the band.
      this.hits.push(id, Kind.gap, (cx0 + cx1) / 2, mid, Math.max(2, (cx1 - cx0) / 2), 1);
      this.list(stats.findings, { id, kind: 'gap', x: (cx0 + cx1) / 2, y: mid, w: cx1 - cx0 });
      if (selected) {
        ctx.strokeStyle = th.focus;
        ctx.lineWidth = 2;
        ctx.strokeRect(cx0 - 1, y + 2, cx1 - cx0 + 2, h - 4);
      }
    }
  }

  private drawMessages(f: FrameInput, m: MarkList, mid: number, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    const X = L.plotX;
    const scale = L.plotW / vp.span;
    const n = m.id.length;
    // Hold spans (arrival → release) as one stroked path, under the ticks.
    ctx.strokeStyle = withAlpha(th.message, 0.55);
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const a = m.t0[i];
      const r = m.t1[i];
      if (r < vp.t0 || a > vp.t1) continue;
      const xa = X + (a - vp.t0) * scale;
      const xr = X + (r - vp.t0) * scale;
      if (xr - xa < 2) continue;
      ctx.moveTo(Math.max(X - 1, xa), mid + 7.5);
      ctx.lineTo(Math.min(X + L.plotW + 1, xr), mid + 7.5);
      // The arrival end gets a short stem, so a hold reads as "from here".
      ctx.moveTo(xa + 0.5, mid + 4);
      ctx.lineTo(xa + 0.5, mid + 10);
      stats.marks.hold++;
    }
    ctx.stroke();
    // Release ticks, one per pixel column.
    ctx.fillStyle = th.message;
    ctx.beginPath();
    let lastCol = -Infinity;
    let selectedX: number | undefined;
    for (let i = 0; i < n; i++) {
      const t = m.t1[i];
      if (t < vp.t0 || t > vp.t1) continue;
      const x = X + (t - vp.t0) * scale;
      const col = Math.round(x);
      const id = m.id[i];
      if (col === lastCol && id !== f.selectedId) continue;
      lastCol = col;
      ctx.rect(col - 0.75, mid - 7, 1.5, 12);
      stats.marks.message++;
      this.hits.push(id, Kind.message, x, mid, 0, 0);
      this.list(stats.messages, { id, kind: 'message', x, y: mid });
      if (id === f.selectedId) selectedX = x;
    }
    ctx.fill();
    // After the fill: drawing the ring starts a new path.
    if (selectedX !== undefined) this.drawSelection(f, selectedX, mid);
  }

  private drawInvalidLane(f: FrameInput, r: Rect, stats: FrameStats): void {
    const ctx = this.ctx;
    const { theme: th, layout: L, viewport: vp } = f;
    ctx.fillStyle = withAlpha(th.invalid, 0.06);
    ctx.fillRect(r.x, r.y, r.w, r.h);
    ctx.fillStyle = th.grid;
    ctx.fillRect(0, r.y + r.h - 1, r.w, 1);
    this.drawLaneLabel(f, r.y, r.h, 'invalid records', `${count(f.session.invalid)} not sequenced`, false);
    const got = f.pageFor(-1);
    if (!got) return;
    const m = got.page.invalid;
    const mid = r.y + r.h / 2;
    ctx.save();
    clip(ctx, { x: L.plotX, y: r.y, w: L.plotW, h: r.h });
    ctx.strokeStyle = th.invalid;
    ctx.lineWidth = 2;
    ctx.beginPath();
    let lastCol = NaN;
    let selectedX: number | undefined;
    for (let i = 0; i < m.id.length; i++) {
      const t = m.t1[i];
      if (t < vp.t0 || t > vp.t1) continue;
      const x = L.plotX + vp.timeToX(t);
      const id = m.id[i];
      if (id === f.selectedId) selectedX = x;
      if (Math.round(x) === lastCol && id !== f.selectedId) continue;
      lastCol = Math.round(x);
      ctx.moveTo(x - 4, mid - 4);
      ctx.lineTo(x + 4, mid + 4);
      ctx.moveTo(x + 4, mid - 4);
      ctx.lineTo(x - 4, mid + 4);
      stats.marks.invalid++;
      this.hits.push(id, Kind.invalid, x, mid, 0, 2);
      this.list(stats.findings, { id, kind: 'invalid', x, y: mid });
    }
    ctx.stroke();
    if (selectedX !== undefined) this.drawSelection(f, selectedX, mid);
    ctx.restore();
  }

  private drawSelection(f: FrameInput, x: number, y: number): void {
    const ctx = this.ctx;
    ctx.strokeStyle = f.theme.focus;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, 9, 0, Math.PI * 2);
    ctx.stroke();
  }

  private list(into: DrawnMark[], m: DrawnMark): void {
    if (into.length < MARKS_LISTED) into.push(m);
  }
}

export function kindName(code: number): string {
  return KIND_NAME[code] ?? 'event';
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

