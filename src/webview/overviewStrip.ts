/**
 * The overview strip: its rate columns, finding ticks and labels come from a bitmap rendered
 * when the overview, theme or size change (they do not change with the view); each frame copies
 * it and draws the visible window and the replay cursor over it. Rasterising the columns (one
 * rect per bin) on every frame cost a frame in five while zooming a million-event session. The
 * bitmap is one canvas drawn again in place (a live session's overview changes with every update).
 */
import type { Overview } from '../shared/protocol';
import { count } from './format';
import type { Rect } from './layout';
import { Theme, withAlpha } from './theme';

/** What a frame of the strip shows. */
export interface StripFrame {
  rect: Rect;
  overview: Overview;
  theme: Theme;
  /** The session's arrivals (its label). */
  arrivals: number;
  /** The visible window, drawn as a rectangle the user can drag. */
  view: { t0: number; t1: number };
  cursorTime: number | undefined;
}

type StripCanvas = OffscreenCanvas | HTMLCanvasElement;

export class OverviewStrip {
  private canvas: StripCanvas | undefined;
  private key: string | undefined;

  /** Draws the strip; `key` names what its static part shows (rendered again when it changes). */
  draw(ctx: CanvasRenderingContext2D, f: StripFrame, dpr: number, key: string): void {
    const { theme: th, rect: r, overview: o, view: vp } = f;
    if (this.key !== key || !this.canvas) {
      this.canvas = render(f, dpr, this.canvas);
      this.key = key;
    }
    ctx.drawImage(this.canvas, 0, r.y, r.x + r.w, r.h);
    if (o.arrivals.length === 0) return;
    const ox = (t: number) => r.x + ((t - o.t0) / (o.t1 - o.t0 || 1)) * r.w;
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
}

/** The strip's static part, from x 0 to the plot's right edge, in device pixels: on `into` (cleared first), or a new canvas. */
function render(f: StripFrame, dpr: number, into: StripCanvas | undefined): StripCanvas {
  const { theme: th, rect: r, overview: o } = f;
  const pxW = Math.max(1, Math.round((r.x + r.w) * dpr));
  const pxH = Math.max(1, Math.round(r.h * dpr));
  const canvas = into ?? (typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(pxW, pxH) : document.createElement('canvas'));
  // A new size clears the canvas (and its state); the same size is cleared here.
  if (canvas.width !== pxW || canvas.height !== pxH) Object.assign(canvas, { width: pxW, height: pxH });
  const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, pxW, pxH);
  // The strip's own coordinates: the same drawing as on the canvas, moved up to y 0.
  ctx.setTransform(dpr, 0, 0, dpr, 0, -r.y * dpr);
  ctx.font = th.font;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = th.muted;
  ctx.textAlign = 'left';
  ctx.fillText('Overview', 8, r.y + 12);
  ctx.fillText(`${count(f.arrivals)} arrivals`, 8, r.y + 30);
  const n = o.arrivals.length;
  if (n === 0) return canvas;
  const barW = r.w / n;
  let max = 1;
  for (let i = 0; i < n; i++) if (o.arrivals[i] > max) max = o.arrivals[i];
  const top = r.y + 3;
  const h = r.h - 14;
  // Rate over time: a rectangle per column. Not one path of them: columns that touch at
  // fractional edges make the rasteriser's anti-aliasing of a path many times slower than
  // filling each rectangle on its own.
  ctx.fillStyle = withAlpha(th.message, 0.45);
  for (let i = 0; i < n; i++) {
    const v = o.arrivals[i];
    if (!v) continue;
    const bh = Math.max(1, (h * v) / max);
    ctx.fillRect(r.x + i * barW, top + h - bh, Math.max(1, barW), bh);
  }
  // Finding ticks under the rate: gaps, duplicates, late, reordered, each its own row.
  const rows: [number[], string][] = [
    [o.gaps, th.gap],
    [o.duplicates, th.redelivery],
    [o.late, th.late],
    [o.reordered ?? [], th.reordered],
  ];
  rows.forEach(([bins, color], row) => {
    ctx.fillStyle = color;
    for (let i = 0; i < n; i++) if (bins[i]) ctx.fillRect(r.x + i * barW - (barW < 3 ? 1 : 0), r.y + r.h - 12 + row * 3, Math.max(3, barW), 3);
  });
  return canvas;
}
