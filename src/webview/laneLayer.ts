/**
 * The lanes' marks, rendered into an offscreen canvas three screens wide (the view and one
 * screen either side; the view alone while it follows a live session) for a range of lanes. The visible canvas copies from it: while the user
 * drags or zooms, a frame is one image copy (shifted, or scaled while zooming) instead of
 * thousands of marks to rasterise, which is what costs a frame, not the JavaScript. The layer is
 * rendered again when the gesture settles, when new pages or a new selection change what it
 * shows, or when the view leaves it.
 *
 * Marks: message = a tick at release; hold = a thin line arrival → release; gap = a band from
 * opened to declared lost (labelled with the missing range when wide enough); duplicate = a
 * ring (redelivery: the same Pub/Sub message again) or a diamond (republish: the same number
 * under a new messageId) or a hollow diamond in the error colour (conflict: the first copy's
 * messageId with other content); late = a triangle; reordered = a double chevron pointing back
 * (it belonged earlier); reset = a line across the lane with a circular arrow (the numbers start
 * again); invalid = a cross on the top lane. Marks are
 * deduplicated per pixel column, so the work is bounded by pixels and capped page contents.
 */
import type { LaneInfo, LanePage, MarkList, TimelinePage } from '../shared/protocol';
import { Kind } from '../shared/timelineModel';
import { ColumnHeights, TickRuns } from './columnRuns';
import { comparedStyle, paintRibbons, ribbons } from './comparedRibbons';
import { count, missingRange } from './format';
import { placeLabels } from './labelPlacement';
import { HitList } from './layout';
import { emptyStats, LayerStats } from './layerStats';
import { markerSprites, SPRITE, Sprites } from './markerSprites';
import type { OpenGapBand } from '../shared/openGapBand';
import { PointMarks } from './pointMarks';
import { Theme, withAlpha } from './theme';
import type { DrawnMark } from './timelineSnapshot';

const MARKS_LISTED = 300;

export interface LayerSpec {
  lanes: readonly LaneInfo[];
  /** Lane indexes to render: [first, end). */
  first: number;
  end: number;
  laneHeight: number;
  /** Height of the invalid lane's row on top (0: none). */
  invalidHeight: number;
  /** Time at the layer's left edge, and its resolution. */
  t0: number;
  msPerPx: number;
  widthPx: number;
  /** The view when rendered: marks inside it are counted for the test hook. */
  viewT0: number;
  viewT1: number;
  pageFor(key: number): { page: TimelinePage; fresh: boolean } | undefined;
  selectedId?: number;
  theme: Theme;
  dpr: number;
  /** A live session's open gaps and start windows by lane key: bands growing while they wait (openGapBand.ts). */
  openBands?: ReadonlyMap<number, OpenGapBand>;
  /** Identifies what the layer shows besides geometry (pages, selection, theme, lanes, open gaps). */
  content: string;
}

/** Rows gap labels may stack into in a lane, and how far apart (px) their middles are. */
const LABEL_ROWS = 2;
const LABEL_ROW_STEP = 11;

/** A gap's (or an open band's) label, measured, before placement. */
interface GapLabel {
  x: number;
  w: number;
  text: string;
  keep: boolean;
}

export class LaneLayer {
  private readonly canvas: OffscreenCanvas | HTMLCanvasElement;
  private readonly ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;
  readonly hits = new HitList();
  spec: LayerSpec | undefined;
  stats: LayerStats = emptyStats();
  private sprites: Sprites | undefined;
  /** A lane's point findings by marker (collectPoints, then stampPoints). */
  private readonly points = new PointMarks();
  /** A lane's bars by pixel column (density), and its ticks as runs of columns (messages). */
  private readonly columns = new ColumnHeights();
  private tickMid = 0;
  private readonly ticks = new TickRuns((c0, c1) => this.ctx.rect(c0 - 0.75, this.tickMid - 7, c1 - c0 + 0.5, 12));

  constructor() {
    this.canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const ctx = this.canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
  }

  /**
   * The rendered layer, to copy from; its size is the layer's in device pixels. The canvas itself,
   * not a bitmap taken from it: the browser keeps its snapshot until the next render, while a
   * transferred bitmap has the marks rasterised at the transfer and a new backing store made
   * for the next render, which cost more than the marks.
   */
  get image(): CanvasImageSource & { width: number; height: number } {
    return this.canvas;
  }

  get t1(): number {
    const s = this.spec;
    return s ? s.t0 + s.widthPx * s.msPerPx : NaN;
  }

  /** Layer y of the top of lane `index` (its row must be in the layer). */
  rowY(index: number): number {
    const s = this.spec as LayerSpec;
    return s.invalidHeight + (index - s.first) * s.laneHeight;
  }

  render(spec: LayerSpec): void {
    this.spec = spec;
    const ctx = this.ctx;
    const w = Math.max(1, Math.round(spec.widthPx * spec.dpr));
    const h = Math.max(1, Math.round((spec.invalidHeight + (spec.end - spec.first) * spec.laneHeight) * spec.dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    } else {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, w, h);
    }
    ctx.setTransform(spec.dpr, 0, 0, spec.dpr, 0, 0);
    ctx.font = spec.theme.font;
    ctx.textBaseline = 'middle';
    this.hits.clear();
    this.stats = emptyStats();
    for (let i = spec.first; i < spec.end; i++) {
      const lane = spec.lanes[i];
      const got = spec.pageFor(lane.key);
      const open = spec.openBands?.get(lane.key);
      if (got) {
        this.stats.lanesWithData++;
        if (got.fresh) this.stats.lanesFresh++;
      }
      const lp = got?.page.lanes.find((l) => l.key === lane.key);
      if (!lp && !open) continue;
      const y = this.rowY(i);
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, y, spec.widthPx, spec.laneHeight);
      ctx.clip();
      if (got && lp) this.drawLanePage(spec, got.page, lp, y, spec.laneHeight, open);
      else this.drawGaps(spec, undefined, y, spec.laneHeight, open);
      ctx.restore();
    }
    if (spec.invalidHeight > 0) {
      const got = spec.pageFor(-1);
      if (got) this.drawInvalid(spec, got.page.invalid, spec.invalidHeight / 2);
    }
  }

  private x(t: number): number {
    const s = this.spec as LayerSpec;
    return (t - s.t0) / s.msPerPx;
  }

  private visible(t: number): boolean {
    const s = this.spec as LayerSpec;
    return t >= s.viewT0 && t <= s.viewT1;
  }

  private list(into: DrawnMark[], m: DrawnMark, t: number): void {
    if (into.length < MARKS_LISTED && this.visible(t)) into.push(m);
  }

  private drawLanePage(s: LayerSpec, page: TimelinePage, lp: LanePage, y: number, h: number, open: OpenGapBand | undefined): void {
    const mid = y + h / 2;
    // A comparison's ribbons, then gap bands: everything else draws over them (ribbons win a click on a gap).
    this.drawCompared(s, lp.findings, y);
    this.drawGaps(s, lp.findings, y, h, open);
    if (lp.density) this.drawDensity(s, page, lp.density, mid, h);
    else if (lp.marks) this.drawMessages(s, lp.marks, mid);
    // Point findings over the messages: positions first, then one path per kind (a path per
    // mark is a raster pass each).
    const selectedX = this.collectPoints(s, lp.findings, mid);
    this.stampPoints(s, y, h, mid);
    if (selectedX !== undefined) this.drawSelection(s.theme, selectedX, mid);
    if (lp.findingsOmitted > 0) this.sayOmitted(s, lp.findingsOmitted, y);
  }

  private drawCompared(s: LayerSpec, fl: MarkList, y: number): void {
    const rs = ribbons(fl, (t) => this.x(t), -2, s.widthPx + 2, s.selectedId);
    if (rs.length) paintRibbons(this.ctx, s.theme, fl, rs, y, s.selectedId);
    for (const { index: i, x0, x1 } of rs) {
      const { mark } = comparedStyle(fl.kind[i], s.theme);
      const [t0, t1, id, w] = [fl.t0[i], fl.t1[i], fl.id[i], x1 - x0];
      if (t1 >= s.viewT0 && t0 <= s.viewT1) this.stats.marks[mark]++;
      this.hits.push(id, fl.kind[i], (x0 + x1) / 2, y + 6, w / 2, 1);
      this.list(this.stats.findings, { id, kind: mark, x: (x0 + x1) / 2, y: y + 6, w }, Math.max(t0, s.viewT0));
    }
  }

  /**
   * Messages per bucket: columns, height by share of the busiest bucket in view; each column
   * keeps its tallest bucket and columns of one height fill as one rectangle (columnRuns.ts).
   */
  private drawDensity(s: LayerSpec, page: TimelinePage, d: readonly number[], mid: number, h: number): void {
    const ctx = this.ctx;
    const bw = (page.t1 - page.t0) / page.buckets;
    const b0 = Math.max(0, Math.floor((s.t0 - page.t0) / bw));
    const b1 = Math.min(d.length, Math.ceil((this.t1 - page.t0) / bw) + 1);
    const v0 = Math.max(0, Math.floor((s.viewT0 - page.t0) / bw));
    const v1 = Math.min(d.length, Math.ceil((s.viewT1 - page.t0) / bw) + 1);
    let max = 1;
    for (let b = v0; b < v1; b++) if (d[b] > max) max = d[b];
    const cols = this.columns;
    cols.reset(s.widthPx);
    const hMax = h - 10;
    for (let b = b0; b < b1; b++) {
      const c = d[b];
      if (!c) continue;
      const x0 = Math.floor(this.x(page.t0 + b * bw));
      cols.bar(x0, Math.max(x0 + 1, Math.round(this.x(page.t0 + (b + 1) * bw))), Math.max(2, hMax * Math.sqrt(Math.min(1, c / max))));
    }
    ctx.fillStyle = s.theme.message;
    ctx.beginPath();
    cols.runs((c0, c1, bh) => ctx.rect(c0, Math.round(mid - bh / 2), c1 - c0, bh));
    ctx.fill();
    // Columns in view holding a bar, for the test hook.
    const st = this.stats.marks;
    for (let c = Math.max(0, Math.floor(this.x(s.viewT0))), e = Math.min(s.widthPx, Math.ceil(this.x(s.viewT1))); c < e; c++) if (cols.at(c) > 0) st.density++;
  }

  /**
   * Puts the lane's point findings (duplicates, late, reordered, resets) in `points` by marker,
   * with their hits, counts and test-hook entries; returns the selected finding's x when it is
   * among them.
   */
  private collectPoints(s: LayerSpec, fl: MarkList, mid: number): number | undefined {
    const pts = this.points;
    pts.clear();
    const st = this.stats.marks;
    const t1 = this.t1;
    let selectedX: number | undefined;
    for (let i = 0; i < fl.id.length; i++) {
      const kind = fl.kind[i];
      if (kind !== Kind.duplicate && kind !== Kind.late && kind !== Kind.reordered && kind !== Kind.reset) continue;
      const t = fl.t1[i];
      if (t < s.t0 || t > t1) continue;
      const x = this.x(t);
      const id = fl.id[i];
      const selected = id === s.selectedId;
      if (selected) selectedX = x;
      const mark = pts.add(kind, fl.aux[i], x, selected);
      if (!mark) continue;
      if (this.visible(t)) {
        st[mark]++;
        if (kind === Kind.duplicate) st.duplicate++;
      }
      this.hits.push(id, kind, x, mid, 0, 2);
      this.list(this.stats.findings, { id, kind: mark, x, y: mid }, t);
    }
    return selectedX;
  }

  /**
   * Draws the markers collectPoints put in `points`, stamped from pre-rendered sprites: a bitmap
   * copy per marker instead of a path to stroke (anti-aliased curves were most of what a render
   * cost). A reset concerns the whole key: a line across its lane, under the mark.
   */
  private stampPoints(s: LayerSpec, y: number, h: number, mid: number): void {
    const ctx = this.ctx;
    const pts = this.points.x;
    const sp = this.spritesFor(s);
    if (pts.reset.length) {
      ctx.strokeStyle = s.theme.reset;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const x of pts.reset) {
        const px = Math.round(x) + 0.5;
        ctx.moveTo(px, y + 1);
        ctx.lineTo(px, y + h - 1);
      }
      ctx.stroke();
    }
    for (const x of pts.redelivery) this.stamp(sp.ring, x, mid);
    for (const x of pts.republish) this.stamp(sp.diamond, x, mid);
    for (const x of pts.conflict) this.stamp(sp.conflict, x, mid);
    for (const x of pts.late) this.stamp(sp.triangle, x, mid);
    for (const x of pts.reordered) this.stamp(sp.chevrons, x, mid);
    for (const x of pts.reset) this.stamp(sp.reset, x, mid);
  }

  /** "+N findings (zoom in)" for a page that left findings out: once per screen of the layer, so one is always in view. */
  private sayOmitted(s: LayerSpec, omitted: number, y: number): void {
    const ctx = this.ctx;
    ctx.fillStyle = s.theme.muted;
    ctx.textAlign = 'right';
    const third = s.widthPx / 3;
    for (let k = 1; k <= 3; k++) ctx.fillText(`+${count(omitted)} findings (zoom in)`, k * third - 4, y + 8);
    ctx.textAlign = 'left';
  }

  /**
   * Gap bands, the open gap's band growing while it waits, then their labels: measured and placed
   * so that none overlaps another (bands of gaps opened close together overlap; a label that fits
   * in no row is left out, the band keeps its tooltip).
   */
  private drawGaps(s: LayerSpec, fl: MarkList | undefined, y: number, h: number, open: OpenGapBand | undefined): void {
    const ctx = this.ctx;
    const th = s.theme;
    const mid = y + h / 2;
    const t1 = this.t1;
    const vx0 = this.x(s.viewT0);
    const vx1 = this.x(s.viewT1);
    const labels: GapLabel[] = [];
    let lastEnd = -Infinity;
    for (let i = 0; fl && i < fl.id.length; i++) {
      if (fl.kind[i] !== Kind.gap) continue;
      const g0 = fl.t0[i];
      const g1 = fl.t1[i];
      if (g1 < s.t0 || g0 > t1) continue;
      let x0 = this.x(g0);
      let x1 = this.x(g1);
      // A gap declared at once (capacity, end of input) is still at least a visible sliver.
      if (x1 - x0 < 3) {
        const c = (x0 + x1) / 2;
        x0 = c - 1.5;
        x1 = c + 1.5;
      }
      const id = fl.id[i];
      const selected = id === s.selectedId;
      if (x1 <= lastEnd && !selected) continue;
      lastEnd = x1;
      // Clip bands to the part of the layer in view at render time, so labels centre on what shows.
      const cx0 = Math.max(-2, x0);
      const cx1 = Math.min(s.widthPx + 2, x1);
      ctx.fillStyle = withAlpha(th.gap, 0.22);
      ctx.fillRect(cx0, y + 3, cx1 - cx0, h - 6);
      ctx.fillStyle = th.gap;
      ctx.fillRect(x0, y + 3, 1.5, h - 6);
      ctx.fillRect(x1 - 1.5, y + 3, 1.5, h - 6);
      const lx0 = Math.max(cx0, vx0);
      const lx1 = Math.min(cx1, vx1);
      const visibleW = lx1 - lx0;
      if (visibleW > 24) {
        // The missing range if it fits, else how many are missing.
        const from = fl.seq[i];
        const to = fl.aux[i];
        const n = to >= from ? to - from + 1 : undefined;
        const range = missingRange(from, to);
        const texts = [`missing ${range}`, range, ...(n !== undefined && n > 1 ? [`${count(n)} lost`, `×${count(n)}`] : [])];
        const text = texts.find((l) => ctx.measureText(l).width <= visibleW - 8);
        if (text) labels.push({ x: (lx0 + lx1) / 2, w: ctx.measureText(text).width, text, keep: selected });
      }
      if (g1 >= s.viewT0 && g0 <= s.viewT1) this.stats.marks.gap++;
      // Hit anywhere across the band.
      this.hits.push(id, Kind.gap, (cx0 + cx1) / 2, mid, Math.max(2, (cx1 - cx0) / 2), 1);
      if (visibleW > 0) this.list(this.stats.findings, { id, kind: 'gap', x: (lx0 + lx1) / 2, y: mid, w: visibleW }, Math.max(g0, s.viewT0));
      if (selected) {
        ctx.strokeStyle = th.focus;
        ctx.lineWidth = 2;
        ctx.strokeRect(cx0 - 1, y + 2, cx1 - cx0 + 2, h - 4);
      }
    }
    if (open && open.tDeadline >= s.t0 && open.t0 <= t1) this.drawOpenBand(s, open, y, h, vx0, vx1, labels);
    if (labels.length) this.drawGapLabels(th, labels, mid, vx0, vx1);
  }

  /**
   * A live lane's open gap or start window: the whole wait outlined (dashed, to the timeout or
   * the window's end), the part waited so far filled: red for an open gap, the muted colour for
   * a start window (waiting by rule). Its label goes into `labels`, placed with the gaps'.
   */
  private drawOpenBand(s: LayerSpec, open: OpenGapBand, y: number, h: number, vx0: number, vx1: number, labels: GapLabel[]): void {
    const ctx = this.ctx;
    const colour = open.kind === 'gap' ? s.theme.gap : s.theme.muted;
    const x0 = this.x(open.t0);
    const xNow = Math.max(x0 + 2, this.x(open.tNow));
    const xEnd = Math.max(xNow, this.x(open.tDeadline));
    ctx.fillStyle = withAlpha(colour, open.kind === 'gap' ? 0.35 : 0.22);
    ctx.fillRect(Math.max(-2, x0), y + 3, Math.min(s.widthPx + 2, xNow) - Math.max(-2, x0), h - 6);
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.strokeRect(x0 + 0.5, y + 3.5, xEnd - x0 - 1, h - 7);
    ctx.setLineDash([]);
    ctx.fillStyle = colour;
    ctx.fillRect(x0, y + 3, 1.5, h - 6);
    ctx.fillRect(xNow - 1.5, y + 3, 1.5, h - 6);
    if (open.kind === 'gap') this.stats.marks.openGap++;
    else this.stats.marks.startWindow++;
    // Its words may be wider than the band: centred on what is in view of the whole wait.
    const lx0 = Math.max(x0, vx0);
    const lx1 = Math.min(xEnd, vx1);
    if (lx1 > lx0) labels.push({ x: (lx0 + lx1) / 2, w: ctx.measureText(open.label).width, text: open.label, keep: true });
  }

  /** Draws the lane's gap labels where placeLabels puts them (in view, stacked in up to LABEL_ROWS rows). */
  private drawGapLabels(th: Theme, labels: readonly GapLabel[], mid: number, vx0: number, vx1: number): void {
    const ctx = this.ctx;
    ctx.fillStyle = th.foreground;
    ctx.textAlign = 'left';
    for (const p of placeLabels(labels, { rows: LABEL_ROWS, pad: 8, minX: vx0, maxX: vx1 })) {
      ctx.fillText(p.label.text, p.left, mid + p.row * LABEL_ROW_STEP);
      this.stats.labels.push({ text: p.label.text, x: p.left, y: mid + p.row * LABEL_ROW_STEP, w: p.label.w });
    }
  }

  private drawMessages(s: LayerSpec, m: MarkList, mid: number): void {
    const ctx = this.ctx;
    const th = s.theme;
    const t1 = this.t1;
    const st = this.stats.marks;
    const n = m.id.length;
    // Hold spans (arrival → release) as one stroked path, under the ticks.
    ctx.strokeStyle = withAlpha(th.message, 0.55);
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const a = m.t0[i];
      const r = m.t1[i];
      if (r < s.t0 || a > t1) continue;
      const xa = this.x(a);
      const xr = this.x(r);
      if (xr - xa < 2) continue;
      ctx.moveTo(Math.max(-1, xa), mid + 7.5);
      ctx.lineTo(Math.min(s.widthPx + 1, xr), mid + 7.5);
      // The arrival end gets a short stem, so a hold reads as "from here".
      ctx.moveTo(xa + 0.5, mid + 4);
      ctx.lineTo(xa + 0.5, mid + 10);
      if (r >= s.viewT0 && a <= s.viewT1) st.hold++;
    }
    ctx.stroke();
    // Release ticks, one per pixel column; adjacent columns fill as one rectangle (columnRuns.ts).
    ctx.fillStyle = th.message;
    ctx.beginPath();
    this.tickMid = mid;
    let lastCol = NaN;
    let selectedX: number | undefined;
    for (let i = 0; i < n; i++) {
      const t = m.t1[i];
      if (t < s.t0 || t > t1) continue;
      const x = this.x(t);
      const col = Math.round(x);
      const id = m.id[i];
      if (id === s.selectedId) selectedX = x;
      if (col === lastCol && id !== s.selectedId) continue;
      lastCol = col;
      this.ticks.add(col);
      if (this.visible(t)) st.message++;
      this.hits.push(id, Kind.message, x, mid, 0, 0);
      this.list(this.stats.messages, { id, kind: 'message', x, y: mid }, t);
    }
    this.ticks.flush();
    ctx.fill();
    // After the fill: the ring is a path of its own.
    if (selectedX !== undefined) this.drawSelection(th, selectedX, mid);
  }

  private drawInvalid(s: LayerSpec, m: MarkList, mid: number): void {
    const t1 = this.t1;
    const cross = this.spritesFor(s).cross;
    let lastCol = NaN;
    let selectedX: number | undefined;
    for (let i = 0; i < m.id.length; i++) {
      const t = m.t1[i];
      if (t < s.t0 || t > t1) continue;
      const x = this.x(t);
      const id = m.id[i];
      if (id === s.selectedId) selectedX = x;
      if (Math.round(x) === lastCol && id !== s.selectedId) continue;
      lastCol = Math.round(x);
      this.stamp(cross, x, mid);
      if (this.visible(t)) this.stats.marks.invalid++;
      this.hits.push(id, Kind.invalid, x, mid, 0, 2);
      this.list(this.stats.findings, { id, kind: 'invalid', x, y: mid }, t);
    }
    if (selectedX !== undefined) this.drawSelection(s.theme, selectedX, mid);
  }

  /** Draws a sprite centred on (x, y), on whole device pixels (no resampling blur). */
  private stamp(sprite: CanvasImageSource, x: number, y: number): void {
    const d = (this.spec as LayerSpec).dpr;
    const half = SPRITE / 2;
    this.ctx.drawImage(sprite, Math.round((x - half) * d) / d, Math.round((y - half) * d) / d, SPRITE, SPRITE);
  }

  /** The marker sprites for this theme and pixel ratio, rendered once. */
  private spritesFor(s: LayerSpec): Sprites {
    return (this.sprites = markerSprites(s.theme, s.dpr, this.sprites));
  }

  private drawSelection(th: Theme, x: number, y: number): void {
    const ctx = this.ctx;
    ctx.strokeStyle = th.focus;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, 9, 0, Math.PI * 2);
    ctx.stroke();
  }
}
