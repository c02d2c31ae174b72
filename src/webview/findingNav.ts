/**
 * Finding navigation (N / P, the toolbar's "◀ Finding" / "Finding ▶"): the next or previous
 * finding (gap, duplicate, late, invalid) after the selection, over the cached pages of the
 * visible lanes; past their end, a jump through the overview to the next bin with findings, and
 * once that bin's pages have arrived, its first finding. DOM-free.
 */
import type { MarkList, Overview } from '../shared/protocol';
import { isCompareKind, Kind } from '../shared/timelineModel';
import type { TimeWindow } from '../shared/paging';
import { kindName } from './timelineView';
import type { Viewport } from './viewport';

/** A selected mark. */
export interface Selection {
  id: number;
  /** Where to centre it. */
  t: number;
  /** Key index of its lane, −1 for the invalid lane. */
  key: number;
  kind: string;
}

export interface NavigationHost {
  viewport(): Viewport | undefined;
  selected(): Selection | undefined;
  /** The findings of the visible lanes in the cached pages, with each list's lane key (−1: invalid). */
  visibleFindings(): [MarkList, number][];
  /** The page the view asks for (its findings have been looked through), if any. */
  pageWindow(): TimeWindow | undefined;
  overview(): Overview | undefined;
  /** Whether the pages for the view as it is now are in. */
  isFresh(): boolean;
  /** Select this finding, show it and its lane, open its detail. */
  goTo(found: Selection): void;
  /** The view jumped to another bin: ask for its pages now. */
  jumped(): void;
  say(status: string): void;
}

export class FindingNavigator {
  /** After an overview jump, pick the next finding once the page arrives. */
  private pending: { dir: 1 | -1; from: number } | undefined;

  constructor(private readonly host: NavigationHost) {}

  navigate(dir: 1 | -1, fromT?: number, mayJump = true): void {
    const h = this.host;
    const vp = h.viewport();
    if (!vp) return;
    const sel = h.selected();
    const edge = { t: dir > 0 ? vp.t0 : vp.t1, id: dir > 0 ? -1 : Infinity };
    const from = fromT !== undefined ? { t: fromT, id: edge.id } : sel ? { t: sel.t, id: sel.id } : edge;
    const found = nearestFinding(dir, from, h.visibleFindings());
    if (found) {
      if (found.t < vp.t0 + vp.span * 0.05 || found.t > vp.t1 - vp.span * 0.05) vp.centerOn(found.t);
      h.goTo(found);
      return;
    }
    if (!mayJump) return;
    const page = h.pageWindow();
    const bin = nextFindingBin(h.overview(), dir, dir > 0 ? Math.max(from.t, page?.t1 ?? vp.t1) : Math.min(from.t, page?.t0 ?? vp.t0));
    if (!bin) {
      h.say(dir > 0 ? 'No further findings.' : 'No earlier findings.');
      return;
    }
    vp.centerOn(bin.center);
    this.pending = { dir, from: dir > 0 ? bin.start - 1e-9 : bin.end + 1e-9 };
    h.jumped();
  }

  /** A page arrived: a jump under way picks its finding once the view's pages are all in. */
  pageArrived(): void {
    if (!this.pending || !this.host.isFresh()) return;
    const nav = this.pending;
    this.pending = undefined;
    this.navigate(nav.dir, nav.from, false);
  }
}

/** The first finding after `from` (before, for dir −1) in time, then id order. */
export function nearestFinding(dir: 1 | -1, from: { t: number; id: number }, lists: [MarkList, number][]): Selection | undefined {
  let best: Selection | undefined;
  for (const [list, laneKey] of lists) {
    for (let i = 0; i < list.id.length; i++) {
      const kind = list.kind[i];
      const t = kind === Kind.gap || isCompareKind(kind) ? (list.t0[i] + list.t1[i]) / 2 : list.t1[i];
      const id = list.id[i];
      const after = dir > 0 ? t > from.t || (t === from.t && id > from.id) : t < from.t || (t === from.t && id < from.id);
      if (!after) continue;
      const better = !best || (dir > 0 ? t < best.t || (t === best.t && id < best.id) : t > best.t || (t === best.t && id > best.id));
      if (better) best = { id, t, key: laneKey, kind: kindName(kind) };
    }
  }
  return best;
}

/** The next overview bin after (or before) time `t` that has findings. */
export function nextFindingBin(o: Overview | undefined, dir: 1 | -1, t: number): { start: number; end: number; center: number } | undefined {
  if (!o) return undefined;
  const n = o.arrivals.length;
  const w = (o.t1 - o.t0) / n;
  const has = (i: number) => o.gaps[i] + o.duplicates[i] + o.late[i] + (o.reordered?.[i] ?? 0) > 0;
  let i = Math.floor((t - o.t0) / w);
  for (i = Math.max(-1, Math.min(n, i)) + dir; i >= 0 && i < n; i += dir) {
    if (has(i)) return { start: o.t0 + i * w, end: o.t0 + (i + 1) * w, center: o.t0 + (i + 0.5) * w };
  }
  return undefined;
}
