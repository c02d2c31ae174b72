/**
 * The draw history the test hook reports (testProbe.ts): each frame's draw time and its parts,
 * and the frames that first drew data up to a later end. Tests and the benchmark read it; nothing
 * in the app depends on it.
 */
import type { DataDraw } from './timelineSnapshot';

const DRAW_TIMES_KEPT = 4096;

/** Of `total` entries, how many came after the first `since` and are still kept. */
function kept(total: number, since: number): number {
  return Math.min(total - Math.max(0, Math.min(since, total)), DRAW_TIMES_KEPT);
}

/** Frame times, the last DRAW_TIMES_KEPT of them, and when data was first painted. */
export class DrawLog {
  private readonly times = new Float32Array(DRAW_TIMES_KEPT);
  private readonly layerTimes = new Float32Array(DRAW_TIMES_KEPT);
  private readonly overviewTimes = new Float32Array(DRAW_TIMES_KEPT);
  draws = 0;
  lastDrawMs = 0;
  private readonly dataDraws: DataDraw[] = [];
  /** The live state last taken: when the host sent it and when it arrived here (epoch ms). */
  private live: { sentAt: number; receivedAt: number } | undefined;
  private dataDrawCount = 0;
  private lastDataEnd = Number.NEGATIVE_INFINITY;
  /** performance.now() when a frame first drew data from the host. */
  firstPaintMs: number | undefined;

  record(ms: number, parts?: { layer: number; overview: number }): void {
    this.lastDrawMs = ms;
    const i = this.draws % DRAW_TIMES_KEPT;
    this.times[i] = ms;
    this.layerTimes[i] = parts?.layer ?? 0;
    this.overviewTimes[i] = parts?.overview ?? 0;
    this.draws++;
  }

  /** A live state arrived, sent by the host at `sentAt` (epoch ms). */
  liveReceived(sentAt: number): void {
    this.live = { sentAt, receivedAt: performance.timeOrigin + performance.now() };
  }

  /** The data drawn reached `end` (a live session grows): kept when it reached further than before. */
  drewData(end: number): void {
    if (end <= this.lastDataEnd) return;
    this.lastDataEnd = end;
    this.dataDraws[this.dataDrawCount % DRAW_TIMES_KEPT] = { at: performance.timeOrigin + performance.now(), end, ...this.live };
    this.dataDrawCount++;
  }

  get dataDrawsTotal(): number {
    return this.dataDrawCount;
  }

  /** The frames that first drew data up to a later end, after the first `since`, oldest first (epoch ms; the benchmark's arrival-to-drawn). */
  recentDataDraws(since = 0): DataDraw[] {
    const n = kept(this.dataDrawCount, since);
    const out: DataDraw[] = [];
    for (let i = this.dataDrawCount - n; i < this.dataDrawCount; i++) out.push(this.dataDraws[i % DRAW_TIMES_KEPT]);
    return out;
  }

  /** The recent frames' draw times (`times`: one of the parts), after the first `since` frames. */
  recent(since = 0, times = this.times): number[] {
    const n = kept(this.draws, since);
    const out: number[] = [];
    for (let i = this.draws - n; i < this.draws; i++) out.push(times[i % DRAW_TIMES_KEPT]);
    return out;
  }

  /** The recent frames' parts (see FrameStats.partsMs), as `recent`. */
  recentParts(since = 0): { layer: number[]; overview: number[] } {
    return { layer: this.recent(since, this.layerTimes), overview: this.recent(since, this.overviewTimes) };
  }
}
