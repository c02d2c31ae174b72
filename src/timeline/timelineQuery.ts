/**
 * The timeline's data, a visible window at a time. For each requested lane (key) it returns the
 * events in the window — individually when there are few enough to draw one by one, otherwise
 * as message counts per horizontal bucket — plus gaps, duplicates and late messages, which are
 * always individual (up to a cap) because they are what the user is looking for.
 * Browser-safe: the standalone HTML export runs it in the page.
 */
import { lowerBound } from './binarySearch';
import { CaptureSession } from './captureSession';
import { bucketOf, emptyMarks, FINDINGS_MAX, MARKS_PER_BUCKET, pageBuckets, pushCompared, pushMark } from './laneMarks';
import { isCompareKind, Kind, KindCode } from '../shared/timelineModel';
import { overlapsNumberRange } from '../core/trace/traceFilter';
import type { LanePage, MarkList, Overview, TimelinePage } from '../shared/timelineModel';

export interface EventFilter {
  /** Key indexes to keep (all when absent). */
  keys?: ReadonlySet<number>;
  kinds?: ReadonlySet<KindCode>;
  /** Inclusive raw number range (gaps match when they overlap it). */
  seqFrom?: number;
  seqTo?: number;
  /** Arrivals to keep (1) by arrival index, from an attribute filter; gaps and a comparison's ranges always pass. */
  arrivals?: Uint8Array;
}

export interface TimelineQuery {
  t0: number;
  t1: number;
  /** Horizontal resolution: how many columns the window is drawn in. */
  buckets: number;
  lanes: readonly number[];
  /** Replay position: show only what was emitted before it. */
  position?: number;
}

export function matches(session: CaptureSession, id: number, f: EventFilter | undefined): boolean {
  if (!f) return true;
  const s = session.store;
  const kind = s.kind.data[id] as KindCode;
  if (f.kinds && !f.kinds.has(kind)) return false;
  const key = s.key.data[id];
  if (f.keys && kind !== Kind.invalid && !f.keys.has(key)) return false;
  if (f.seqFrom !== undefined || f.seqTo !== undefined) {
    const from = s.seq.data[id];
    const range = kind === Kind.gap || isCompareKind(kind);
    const to = range ? s.seqTo.data[id] : from;
    if (from !== from || !overlapsNumberRange(from, to, f.seqFrom, f.seqTo)) return false;
  }
  if (f.arrivals && kind !== Kind.gap && !isCompareKind(kind)) {
    const a = s.arrival.data[id];
    if (a < 0 || !f.arrivals[a]) return false;
  }
  return true;
}

export function queryTimeline(session: CaptureSession, q: TimelineQuery, filter?: EventFilter): TimelinePage {
  const s = session.store;
  const t1d = s.t1.data;
  const t0d = s.t0.data;
  const kinds = s.kind.data;
  const cause = s.cause.data;
  const position = q.position ?? Infinity;
  const buckets = pageBuckets(q.buckets);
  const width = q.t1 - q.t0 || 1;
  const page: TimelinePage = { t0: q.t0, t1: q.t1, buckets, lanes: [], invalid: emptyMarks() };

  const push = (m: MarkList, id: number) => pushMark(m, s, id);

  for (const key of q.lanes) {
    const ke = s.keys[key];
    const lane: LanePage = { key, findings: emptyMarks(), findingsOmitted: 0 };
    page.lanes.push(lane);
    if (!ke || (filter?.keys && !filter.keys.has(key))) continue;
    const list = ke.all.data;
    // Events sorted by t1; a span reaching into the window ends at most maxSpan after it.
    const from = lowerBound((i) => t1d[list[i]], 0, ke.all.length, q.t0);
    const to = lowerBound((i) => t1d[list[i]], from, ke.all.length, q.t1 + ke.maxSpan + 1e-9);
    let messages = 0;
    for (let i = from; i < to; i++) {
      const id = list[i];
      if (kinds[id] === Kind.message && cause[id] < position && t0d[id] <= q.t1 && matches(session, id, filter)) messages++;
    }
    const individual = messages <= buckets * MARKS_PER_BUCKET;
    if (individual) lane.marks = emptyMarks();
    else lane.density = new Array<number>(buckets).fill(0);
    for (let i = from; i < to; i++) {
      const id = list[i];
      if (cause[id] >= position || t0d[id] > q.t1) continue;
      if (!matches(session, id, filter)) continue;
      if (kinds[id] === Kind.message) {
        if (lane.marks) push(lane.marks, id);
        else {
          const t = t1d[id];
          if (t < q.t0 || t > q.t1) continue;
          const b = bucketOf(t, q.t0, width, buckets);
          (lane.density as number[])[b]++;
        }
      } else if (lane.findings.id.length < FINDINGS_MAX) {
        push(lane.findings, id);
      } else {
        lane.findingsOmitted++;
      }
    }
    pushCompared(lane, s, key, q.t0, q.t1, filter && ((id) => matches(session, id, filter)));
  }

  const inv = s.invalid;
  for (let i = 0; i < inv.length && page.invalid.id.length < FINDINGS_MAX; i++) {
    const id = inv.data[i];
    const t = t1d[id];
    if (cause[id] >= position || !(t >= q.t0 && t <= q.t1)) continue;
    if (matches(session, id, filter)) push(page.invalid, id);
  }
  return page;
}

/** Arrivals and findings over the whole session, in `bins` bins: the minimap. */
export function overview(session: CaptureSession, bins: number, filter?: EventFilter): Overview {
  const { start, end } = session.timeRange;
  const n = Math.max(1, Math.floor(bins));
  const width = end - start || 1;
  const o: Overview = {
    t0: start,
    t1: end,
    arrivals: new Array(n).fill(0),
    gaps: new Array(n).fill(0),
    duplicates: new Array(n).fill(0),
    late: new Array(n).fill(0),
    reordered: new Array(n).fill(0),
  };
  const bin = (t: number) => Math.max(0, Math.min(n - 1, Math.floor(((t - start) / width) * n)));
  const log = session.log;
  for (let a = 0; a < log.count; a++) {
    const t = log.time.data[a];
    if (t !== t) continue;
    if (filter?.keys && !filter.keys.has(log.key.data[a])) continue;
    if (filter?.arrivals && !filter.arrivals[a]) continue;
    o.arrivals[bin(t)]++;
  }
  const s = session.store;
  session.store.keys.forEach((ke, key) => {
    if (filter?.keys && !filter.keys.has(key)) return;
    for (const [group, out] of [
      [ke.gap, o.gaps],
      [ke.duplicate, o.duplicates],
      [ke.late, o.late],
      [ke.reordered, o.reordered],
    ] as const) {
      for (let i = 0; i < group.length; i++) {
        const id = group.data[i];
        if (matches(session, id, filter)) out[bin(s.t1.data[id])]++;
      }
    }
  });
  return o;
}
