/**
 * Frames: the canvas is redrawn on an animation frame when something changed, at most once per
 * frame. Mid-gesture a frame may copy the lane layer shifted or scaled ("stale"); once the
 * gesture has settled, another frame renders it for where it ended. Keeps the draw times for
 * the test hook and marks the first paint with data.
 */
import { DrawLog } from './drawLog';

/** A gesture counts as settled this long after the last view change. */
export const SETTLE_MS = 120;

export interface Drawn {
  /** Parts were copied from the last frame rather than rendered (mid-gesture). */
  stale: boolean;
  /** Data from the host was drawn. */
  painted: boolean;
  /** Where the session's data ended, when every page in view was fresh (what the frame showed). */
  dataEnd?: number;
  /** How long the frame's parts took (see FrameStats.partsMs). */
  partsMs?: { layer: number; overview: number };
}

export class Frames {
  readonly log = new DrawLog();
  private queued = false;
  private lastViewChange = -Infinity;
  private settleTimer: number | undefined;

  /** @param draw Draws a frame (`allowStale`: mid-gesture); undefined when there is nothing to draw yet. */
  constructor(private readonly draw: (allowStale: boolean) => Drawn | undefined) {}

  request(): void {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.run();
    });
  }

  /** The view moved (a gesture): the next frames may copy the lane layer until it settles. */
  viewChanged(): void {
    this.lastViewChange = performance.now();
    this.request();
  }

  private run(): void {
    const start = performance.now();
    const drawn = this.draw(start - this.lastViewChange < SETTLE_MS);
    if (!drawn) return;
    if (drawn.stale && this.settleTimer === undefined) {
      this.settleTimer = window.setTimeout(
        () => {
          this.settleTimer = undefined;
          this.request();
        },
        Math.max(0, SETTLE_MS - (start - this.lastViewChange) + 1),
      );
    }
    const end = performance.now();
    this.log.record(end - start, drawn.partsMs);
    if (drawn.dataEnd !== undefined) this.log.drewData(drawn.dataEnd);
    if (this.log.firstPaintMs === undefined && drawn.painted) {
      this.log.firstPaintMs = end;
      performance.mark('seqscope:first-paint');
    }
  }
}
