/**
 * A live session's overview (arrivals and findings over time, the minimap), kept as it grows
 * instead of computed again over every event at each refresh. Its bins start at the session's
 * first arrival and are a power of two milliseconds wide; when the data outgrows OVERVIEW_BINS of
 * them, they merge in pairs and the width doubles. A bin so holds what falls in it whatever the
 * order the points came in: kept over many refreshes, it is the overview one pass makes (a unit
 * test holds it), and an update carries only its changed tail (shared/tailPatch.ts).
 *
 * The same counts as `overview()` (timelineQuery.ts): arrivals at their time, findings at their t1,
 * under the same filter. Browser-safe.
 */
import type { Overview } from '../shared/timelineModel';
import type { CaptureSession } from './captureSession';
import { EventFilter, matches } from './timelineQuery';

/** At most this many bins (at least half as many once the data spans them). */
export const LIVE_OVERVIEW_BINS = 600;

type Row = 'arrivals' | 'gaps' | 'duplicates' | 'late' | 'reordered';
const FINDING_ROWS = ['gaps', 'duplicates', 'late', 'reordered'] as const satisfies readonly Row[];

export class LiveOverview {
  private start = Number.NaN;
  private width = 1;
  private n = 0;
  private rows!: Record<Row, number[]>;
  /** Arrivals counted so far. */
  private arrivalsDone = 0;
  /** Per key, per finding row (FINDING_ROWS), the events counted so far. */
  private findingsDone: number[][] = [];

  constructor(
    private readonly session: CaptureSession,
    private readonly filter: EventFilter | undefined,
  ) {}

  /** The overview now (new arrays: the caller may keep it). */
  overview(): Overview {
    const start = this.session.timeRange.start;
    if (start !== this.start) this.restart(start);
    this.catchUp();
    const r = this.rows;
    const n = this.n;
    return {
      t0: start,
      t1: start + n * this.width,
      arrivals: r.arrivals.slice(0, n),
      gaps: r.gaps.slice(0, n),
      duplicates: r.duplicates.slice(0, n),
      late: r.late.slice(0, n),
      reordered: r.reordered.slice(0, n),
    };
  }

  private restart(start: number): void {
    this.start = start;
    this.width = 1;
    this.n = 0;
    const zeros = () => new Array<number>(LIVE_OVERVIEW_BINS).fill(0);
    this.rows = { arrivals: zeros(), gaps: zeros(), duplicates: zeros(), late: zeros(), reordered: zeros() };
    this.arrivalsDone = 0;
    this.findingsDone = [];
  }

  private catchUp(): void {
    const { log, store } = this.session;
    const f = this.filter;
    const times = log.time.data;
    const keys = log.key.data;
    for (let a = this.arrivalsDone; a < log.count; a++) {
      const t = times[a];
      if (t !== t) continue;
      if (f?.keys && !f.keys.has(keys[a])) continue;
      if (f?.arrivals && !f.arrivals[a]) continue;
      this.add('arrivals', t);
    }
    this.arrivalsDone = log.count;
    const t1 = store.t1.data;
    store.keys.forEach((ke, key) => {
      if (f?.keys && !f.keys.has(key)) return;
      const done = (this.findingsDone[key] ??= [0, 0, 0, 0]);
      [ke.gap, ke.duplicate, ke.late, ke.reordered].forEach((group, g) => {
        for (let i = done[g]; i < group.length; i++) {
          const id = group.data[i];
          if (matches(this.session, id, f)) this.add(FINDING_ROWS[g], t1[id]);
        }
        done[g] = group.length;
      });
    });
  }

  private add(row: Row, t: number): void {
    if (t !== t) return;
    let bin = t > this.start ? Math.floor((t - this.start) / this.width) : 0;
    while (bin >= LIVE_OVERVIEW_BINS) {
      this.merge();
      bin = Math.floor((t - this.start) / this.width);
    }
    this.rows[row][bin]++;
    if (bin >= this.n) this.n = bin + 1;
  }

  /** Bins twice as wide: each pair of bins becomes one. */
  private merge(): void {
    const half = Math.ceil(this.n / 2);
    for (const row of Object.values(this.rows)) {
      for (let i = 0; i < half; i++) row[i] = row[2 * i] + row[2 * i + 1];
      row.fill(0, half);
    }
    this.n = half;
    this.width *= 2;
  }
}
