/**
 * A lane's messages as runs of pixel columns, for the lane layer to fill one rectangle per run
 * instead of one per column. A software rasteriser's cost is in the edges it anti-aliases: a
 * zoomed-out lane of thousands of messages fills nearly every column, and thousands of
 * overlapping 1.5 px ticks become a handful of rectangles with the very same outline. Pure (no
 * DOM), reused from lane to lane, so a render allocates nothing per lane.
 */

/** Called once per run: columns [c0, c1) (c1 > c0) at height `h` (px; for ticks, 1). */
export type RunSink = (c0: number, c1: number, h: number) => void;

/**
 * Ticks, one per column they fall in, added left to right (a column out of order starts a run of
 * its own). Consecutive columns make one run.
 */
export class TickRuns {
  private start = Number.NaN;
  private end = Number.NaN;

  constructor(private readonly sink: RunSink) {}

  /** A tick in column `col` (a whole number). */
  add(col: number): void {
    // In the run, or the column just after it.
    if (col >= this.start && col <= this.end) {
      if (col + 1 > this.end) this.end = col + 1;
      return;
    }
    this.flush();
    this.start = col;
    this.end = col + 1;
  }

  /** Ends the lane: the last run goes to the sink. */
  flush(): void {
    if (this.end > this.start) this.sink(this.start, this.end, 1);
    this.start = this.end = Number.NaN;
  }
}

/**
 * Bars by column: each column keeps the tallest bar that covers it, heights in whole pixels; the
 * runs of equal height are handed out left to right.
 */
export class ColumnHeights {
  private h = new Uint16Array(0);
  private width = 0;

  /** Starts a lane `width` columns wide, every column empty. */
  reset(width: number): void {
    this.width = Math.max(0, Math.ceil(width));
    if (this.h.length < this.width) this.h = new Uint16Array(this.width);
    else this.h.fill(0, 0, this.width);
  }

  /** A bar of height `height` (px, rounded; at least 1) over columns [c0, c1), clipped to the lane. */
  bar(c0: number, c1: number, height: number): void {
    const hh = Math.max(1, Math.min(0xffff, Math.round(height)));
    const a = Math.max(0, c0);
    const b = Math.min(this.width, c1);
    for (let c = a; c < b; c++) if (this.h[c] < hh) this.h[c] = hh;
  }

  /** Hands each run of equal non-zero height to `sink`, left to right; returns how many columns hold a bar. */
  runs(sink: RunSink): number {
    const h = this.h;
    let filled = 0;
    let c = 0;
    while (c < this.width) {
      const v = h[c];
      let e = c + 1;
      while (e < this.width && h[e] === v) e++;
      if (v > 0) {
        sink(c, e, v);
        filled += e - c;
      }
      c = e;
    }
    return filled;
  }

  /** The height of column `c` (0: empty). */
  at(c: number): number {
    return c >= 0 && c < this.width ? this.h[c] : 0;
  }
}
