/**
 * The pages the host has sent, most recently used last, and the choice of which one to draw a
 * lane from. Pure (no DOM), unit-tested in plain Node.
 *
 * A page is "fresh" for a view when it is of the current generation (filter and replay position
 * unchanged), of the view's zoom level, covers the view and holds the lane. While the fresh page
 * is on its way, the renderer draws the best other one — an older generation, another zoom level,
 * a window that only overlaps — scaled to the view, instead of a blank lane.
 */
import type { PageWindow, TimeWindow } from '../shared/paging';

export interface PageKey extends PageWindow {
  /** Bumped when what the host would answer changes (filter, replay position). */
  generation: number;
  lanes: readonly number[];
}

export function pageKeyString(k: PageKey): string {
  return `${k.generation}|${k.level}|${k.t0}|${k.t1}|${k.buckets}|${k.lanes.join(',')}`;
}

interface Entry<P> {
  key: PageKey;
  id: string;
  lanes: ReadonlySet<number>;
  page: P;
}

export class PageCache<P> {
  private readonly entries = new Map<string, Entry<P>>();

  constructor(readonly capacity = 24) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: PageKey): boolean {
    return this.entries.has(pageKeyString(key));
  }

  put(key: PageKey, page: P): void {
    const id = pageKeyString(key);
    this.entries.delete(id);
    this.entries.set(id, { key, id, lanes: new Set(key.lanes), page });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Marks a page as just used, so eviction takes others first. */
  private touch(e: Entry<P>): void {
    this.entries.delete(e.id);
    this.entries.set(e.id, e);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops pages of generations before `generation` (they can no longer be fresh). */
  dropBefore(generation: number, keep = 0): void {
    let kept = 0;
    // Newest first: keep the `keep` most recent stale pages to draw from while waiting.
    for (const e of [...this.entries.values()].reverse()) {
      if (e.key.generation >= generation) continue;
      if (kept < keep) kept++;
      else this.entries.delete(e.id);
    }
  }

  /** A fresh page holding every lane in `lanes` for `view` at `level`, if any. */
  fresh(view: TimeWindow, level: number, generation: number, lanes: readonly number[]): P | undefined {
    for (const e of this.entries.values()) {
      const k = e.key;
      if (k.generation !== generation || k.level !== level || k.t0 > view.t0 || k.t1 < view.t1) continue;
      if (lanes.every((l) => e.lanes.has(l))) {
        this.touch(e);
        return e.page;
      }
    }
    return undefined;
  }

  /**
   * The best page to draw lane `lane` from for `view`: fresh if there is one, otherwise the
   * one scoring highest on generation, coverage of the view and closeness of zoom level.
   * Returns whether it is fresh, so the caller knows whether to keep asking.
   */
  bestFor(lane: number, view: TimeWindow, level: number, generation: number): { page: P; fresh: boolean } | undefined {
    let best: Entry<P> | undefined;
    let bestScore = -Infinity;
    const span = view.t1 - view.t0 || 1;
    for (const e of this.entries.values()) {
      if (lane >= 0 && !e.lanes.has(lane)) continue;
      const k = e.key;
      const overlap = Math.min(k.t1, view.t1) - Math.max(k.t0, view.t0);
      if (overlap <= 0) continue;
      const coverage = overlap / span;
      const fresh = k.generation === generation && k.level === level && coverage >= 1 - 1e-12;
      const score = (fresh ? 1000 : 0) + (k.generation === generation ? 100 : 0) + coverage * 10 - Math.abs(k.level - level);
      // Later entries are more recent: ≥ prefers them on ties.
      if (score >= bestScore) {
        bestScore = score;
        best = e;
      }
    }
    if (!best) return undefined;
    const k = best.key;
    return { page: best.page, fresh: k.generation === generation && k.level === level && k.t0 <= view.t0 && k.t1 >= view.t1 };
  }
}
