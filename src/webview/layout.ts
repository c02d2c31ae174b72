/**
 * Where each part of the timeline canvas is, in CSS pixels: the overview strip on top, the time
 * axis, the fixed lane of invalid records, then the scrolled key lanes; lane names in a gutter on
 * the left, a scrollbar on the right. Pure (no DOM), shared by the renderer and the pointer code
 * so that what is drawn and what is hit agree.
 */

export const OVERVIEW_HEIGHT = 46;
export const AXIS_HEIGHT = 22;
export const LANE_HEIGHT = 36;
export const GUTTER_WIDTH = 176;
export const SCROLLBAR_WIDTH = 10;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Layout {
  width: number;
  height: number;
  overview: Rect;
  axis: Rect;
  /** The fixed top lane of invalid records, when the session has any. */
  invalidLane?: Rect;
  /** The scrolled key lanes (plot and gutter). */
  lanes: Rect;
  /** Plot columns (shared by overview, axis and lanes). */
  plotX: number;
  plotW: number;
  scrollbar: Rect;
}

export function computeLayout(width: number, height: number, hasInvalidLane: boolean): Layout {
  const gutter = Math.min(GUTTER_WIDTH, Math.max(80, Math.floor(width * 0.3)));
  const plotX = gutter;
  const plotW = Math.max(1, width - gutter - SCROLLBAR_WIDTH);
  let y = 0;
  const overview = { x: plotX, y, w: plotW, h: OVERVIEW_HEIGHT };
  y += OVERVIEW_HEIGHT;
  const axis = { x: plotX, y, w: plotW, h: AXIS_HEIGHT };
  y += AXIS_HEIGHT;
  let invalidLane: Rect | undefined;
  if (hasInvalidLane) {
    invalidLane = { x: 0, y, w: width - SCROLLBAR_WIDTH, h: LANE_HEIGHT };
    y += LANE_HEIGHT;
  }
  const lanes = { x: 0, y, w: width - SCROLLBAR_WIDTH, h: Math.max(0, height - y) };
  const scrollbar = { x: width - SCROLLBAR_WIDTH, y, w: SCROLLBAR_WIDTH, h: lanes.h };
  return { width, height, overview, axis, invalidLane, lanes, plotX, plotW, scrollbar };
}

export function inside(r: Rect | undefined, x: number, y: number): boolean {
  return !!r && x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

/** Scrollbar thumb for `scrollY` of `content` in a track of height `track`, or undefined when all fits. */
export function scrollThumb(track: Rect, content: number, scrollY: number): Rect | undefined {
  if (content <= track.h || track.h <= 0) return undefined;
  const h = Math.max(24, (track.h * track.h) / content);
  const y = track.y + ((track.h - h) * scrollY) / (content - track.h);
  return { x: track.x + 1, y, w: track.w - 2, h };
}

// ---------------------------------------------------------------------------------------------
// Hit testing

/**
 * The marks drawn in the last frame, for clicks: filled while drawing, so it never holds more
 * than was drawn (and drawing dedupes marks per pixel column). Findings are pushed after
 * messages and win ties, since they are what the user is after.
 */
export class HitList {
  id = new Int32Array(1024);
  kind = new Uint8Array(1024);
  x = new Float32Array(1024);
  y = new Float32Array(1024);
  /** Half-width of a band (gaps); 0 for point marks. */
  halfW = new Float32Array(1024);
  priority = new Uint8Array(1024);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  push(id: number, kind: number, x: number, y: number, halfW: number, priority: number): void {
    if (this.length === this.id.length) this.grow();
    const i = this.length++;
    this.id[i] = id;
    this.kind[i] = kind;
    this.x[i] = x;
    this.y[i] = y;
    this.halfW[i] = halfW;
    this.priority[i] = priority;
  }

  /** Index of the mark nearest (x, y) within `radius` px (bands: anywhere across them), or −1. */
  nearest(x: number, y: number, radius = 6, laneHalfHeight = 12): number {
    let best = -1;
    let bestScore = Infinity;
    for (let i = 0; i < this.length; i++) {
      const dy = Math.abs(this.y[i] - y);
      let dx = Math.abs(this.x[i] - x);
      if (this.halfW[i] > 0) {
        if (dy > laneHalfHeight) continue;
        dx = Math.max(0, dx - this.halfW[i]);
      } else if (dy > radius + 4) continue;
      const band = this.halfW[i] > 0;
      const d = band ? dx : Math.hypot(dx, dy);
      if (d > radius) continue;
      // Point findings (duplicates, late, invalid) beat everything near them; a message tick
      // right under the pointer beats the band it sits on (a gap's edge is where the held
      // messages are released); otherwise the band; then the nearest.
      const p = this.priority[i];
      const score = p >= 2 ? d - 100 : band ? d + 2 : d;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return best;
  }

  private grow(): void {
    const n = this.id.length * 2;
    const g = <T extends Int32Array | Uint8Array | Float32Array>(a: T, C: new (n: number) => T): T => {
      const b = new C(n);
      b.set(a);
      return b;
    };
    this.id = g(this.id, Int32Array);
    this.kind = g(this.kind, Uint8Array);
    this.x = g(this.x, Float32Array);
    this.y = g(this.y, Float32Array);
    this.halfW = g(this.halfW, Float32Array);
    this.priority = g(this.priority, Uint8Array);
  }
}
