/**
 * How a lane page is built, shared by queryTimeline (any filter, any replay position) and
 * LaneIndex (the fast path without either): the caps, the bucket a time falls in and the mark a
 * page lists for an event. Both must answer the same page to the bit (a unit test compares them),
 * so each rule is written once, here. Browser-safe.
 */
import type { EventStore } from './eventStore';
import { lowerBound } from './binarySearch';
import { isCompareKind, Kind } from '../shared/timelineModel';
import type { LanePage, MarkList } from '../shared/timelineModel';

/** Findings (gaps, duplicates, late) listed per lane; the rest are counted as omitted. */
export const FINDINGS_MAX = 2000;
/** Individual marks per lane up to this many per bucket on average; density beyond. */
export const MARKS_PER_BUCKET = 2;
/** The most buckets a page is drawn in. */
const BUCKETS_MAX = 8192;

export function emptyMarks(): MarkList {
  return { id: [], kind: [], t0: [], t1: [], seq: [], aux: [] };
}

/** The buckets a page has for a requested resolution: a whole number in [1, 8192]. */
export function pageBuckets(requested: number): number {
  return Math.max(1, Math.min(BUCKETS_MAX, Math.floor(requested)));
}

/** The bucket time `t` falls in, for a window starting at `t0` and `width` wide cut into `buckets`. */
export function bucketOf(t: number, t0: number, width: number, buckets: number): number {
  return Math.min(buckets - 1, Math.floor(((t - t0) / width) * buckets));
}

/** Appends event `id` to `m`: a gap or a comparison's range carries its last number, anything else its flags. */
export function pushMark(m: MarkList, s: EventStore, id: number): void {
  const kind = s.kind.data[id];
  m.id.push(id);
  m.kind.push(kind);
  m.t0.push(s.t0.data[id]);
  m.t1.push(s.t1.data[id]);
  m.seq.push(s.seq.data[id]);
  m.aux.push(kind === Kind.gap || isCompareKind(kind) ? s.seqTo.data[id] : s.flags.data[id]);
}

/**
 * Appends to the lane's findings a comparison's ranges on lane `key` reaching into [t0, t1]
 * (KeyEvents.compared, by t1), those `keep` passes, capped as the other findings. At any replay
 * position: they are facts of both captures whole.
 */
export function pushCompared(lane: LanePage, s: EventStore, key: number, t0: number, t1: number, keep?: (id: number) => boolean): void {
  const ke = s.keys[key];
  if (!ke || ke.compared.length === 0) return;
  const list = ke.compared.data;
  const t0d = s.t0.data;
  const t1d = s.t1.data;
  const from = lowerBound((i) => t1d[list[i]], 0, ke.compared.length, t0);
  const to = lowerBound((i) => t1d[list[i]], from, ke.compared.length, t1 + ke.comparedSpan + 1e-9);
  for (let i = from; i < to; i++) {
    const id = list[i];
    if (t0d[id] > t1 || (keep && !keep(id))) continue;
    if (lane.findings.id.length < FINDINGS_MAX) pushMark(lane.findings, s, id);
    else lane.findingsOmitted++;
  }
}
