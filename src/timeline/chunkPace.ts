/**
 * When a loading worker sends the next chunk of its session (sessionChunk.ts): the first soon,
 * so the views show the capture within a moment of the choice, then less and less often. Each
 * chunk refreshes the views, and a refresh costs the extension host time in proportion to what
 * the session holds (lanes, overview, pages): spaced in proportion to the time the load has
 * taken, the refreshes of a whole load cost a few passes over the final session, not one per
 * half second. A chunk is due after `firstMs` of the load's clock, then after `everyMs` or
 * `growth` × the time since the load began, whichever is longer — or after `everyArrivals`
 * arrivals since the last, which also bounds what the worker holds; arrivals make the number of
 * chunks of a capture certain (tests rely on it). Pure: the clock is the caller's.
 */
export interface ChunkPace {
  readonly firstMs: number;
  readonly everyMs: number;
  readonly growth: number;
  readonly everyArrivals: number;
}

/** The extension's pace: a first chunk within a fifth of a second, then at 0.7, 1.05, 1.6, 2.4… s. */
export const DEFAULT_CHUNK_PACE: ChunkPace = { firstMs: 200, everyMs: 500, growth: 0.5, everyArrivals: 1_000_000 };

export class ChunkPacer {
  private readonly start: number;
  private lastAt: number;
  private lastArrivals = 0;
  private sent = 0;

  constructor(
    private readonly pace: ChunkPace,
    private readonly now: () => number,
  ) {
    this.start = this.lastAt = now();
  }

  /** Whether a chunk is due with `arrivals` recorded in all; if so, counts it as sent. */
  due(arrivals: number): boolean {
    if (arrivals === this.lastArrivals) return false;
    const t = this.now();
    const wait = this.sent === 0 ? this.pace.firstMs : Math.max(this.pace.everyMs, this.pace.growth * (t - this.start));
    if (t - this.lastAt < wait && arrivals - this.lastArrivals < this.pace.everyArrivals) return false;
    this.lastAt = t;
    this.lastArrivals = arrivals;
    this.sent++;
    return true;
  }
}
