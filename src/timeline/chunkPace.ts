/**
 * When a loading worker sends the next chunk of its session (sessionChunk.ts): the first soon,
 * so the views show the capture within a moment of the choice, then at a steady pace, each a
 * refresh of the views. A chunk is due after `firstMs` (then `everyMs`) of the load's clock or
 * `everyArrivals` arrivals since the last one, whichever comes first — arrivals make the number
 * of chunks of a capture certain (tests rely on it), the clock keeps a slow load showing. Pure:
 * the clock is the caller's.
 */
export interface ChunkPace {
  readonly firstMs: number;
  readonly everyMs: number;
  readonly everyArrivals: number;
}

/** The extension's pace: a first chunk within a fifth of a second, then a refresh twice a second. */
export const DEFAULT_CHUNK_PACE: ChunkPace = { firstMs: 200, everyMs: 500, everyArrivals: 250_000 };

export class ChunkPacer {
  private lastAt: number;
  private lastArrivals = 0;
  private sent = 0;

  constructor(
    private readonly pace: ChunkPace,
    private readonly now: () => number,
  ) {
    this.lastAt = now();
  }

  /** Whether a chunk is due with `arrivals` recorded in all; if so, counts it as sent. */
  due(arrivals: number): boolean {
    if (arrivals === this.lastArrivals) return false;
    const t = this.now();
    const wait = this.sent === 0 ? this.pace.firstMs : this.pace.everyMs;
    if (t - this.lastAt < wait && arrivals - this.lastArrivals < this.pace.everyArrivals) return false;
    this.lastAt = t;
    this.lastArrivals = arrivals;
    this.sent++;
    return true;
  }
}
