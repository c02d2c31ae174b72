/**
 * How a lane page is built, shared by queryTimeline (any filter, any replay position) and
 * LaneIndex (the fast path without either): the caps, the bucket a time falls in and the mark a
 * page lists for an event. Both must answer the same page to the bit (a unit test compares them),
 * so each rule is written once, here. Browser-safe.
 */
import type { EventStore } from './eventStore';
import { Kind } from '../shared/timelineModel';
import type { MarkList } from '../shared/timelineModel';

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

/** Appends event `id` to `m`: a gap carries its last missing number, anything else its flags. */
export function pushMark(m: MarkList, s: EventStore, id: number): void {
  const kind = s.kind.data[id];
  m.id.push(id);
  m.kind.push(kind);
  m.t0.push(s.t0.data[id]);
  m.t1.push(s.t1.data[id]);
  m.seq.push(s.seq.data[id]);
  m.aux.push(kind === Kind.gap ? s.seqTo.data[id] : s.flags.data[id]);
}
