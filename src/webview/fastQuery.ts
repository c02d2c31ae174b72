/**
 * A faster way to the very page queryTimeline() answers, for the common case of no filter and
 * no replay position, when a lane has too many messages in the window to list them one by one.
 *
 * queryTimeline walks every event of the lane in the window: for a zoomed-out view of a million
 * events that is a million steps per page, which the standalone page would spend on its only
 * thread. Here the lane's message release times are kept in one sorted array (built once per
 * lane, on first use), so a density page costs two binary searches per bucket, and findings come
 * from the lane's own gap / duplicate / late lists. Anything else (few messages, a filter, a
 * replay position) goes to queryTimeline, so the answer is always the same as TimelineService's;
 * a unit test checks that on random windows.
 *
 * DOM-free. If the extension host wants the same speed, this belongs next to queryTimeline.
 */
import { lowerBound } from '../core/session/columns';
import type { CaptureSession } from '../core/session/captureSession';
import { Kind } from '../core/session/eventStore';
import type { LanePage, MarkList } from '../core/session/timelineQuery';

/** queryTimeline's caps (timelineQuery.ts): findings listed per lane, and marks per bucket. */
export const FINDINGS_MAX = 2000;
const MARKS_PER_BUCKET = 2;

export class LaneIndex {
  /** Per key: release times (t1) of its messages, ascending. */
  private readonly releases: (Float64Array | undefined)[] = [];

  constructor(private readonly session: CaptureSession) {}

  private releasesOf(key: number): Float64Array {
    let r = this.releases[key];
    if (r) return r;
    const s = this.session.store;
    const ke = s.keys[key];
    const kinds = s.kind.data;
    const t1 = s.t1.data;
    const list = ke ? ke.all.data : new Int32Array(0);
    const n = ke ? ke.all.length : 0;
    let m = 0;
    for (let i = 0; i < n; i++) if (kinds[list[i]] === Kind.message) m++;
    r = new Float64Array(m);
    for (let i = 0, j = 0; i < n; i++) if (kinds[list[i]] === Kind.message) r[j++] = t1[list[i]];
    this.releases[key] = r;
    return r;
  }

  /**
   * The lane page queryTimeline would return for `key` (no filter, no position), or undefined
   * when the lane is one queryTimeline answers cheaply anyway (few messages in the window).
   */
  densityLane(key: number, t0: number, t1: number, requestedBuckets: number): LanePage | undefined {
    const ke = this.session.store.keys[key];
    if (!ke) return { key, findings: emptyMarks(), findingsOmitted: 0 };
    const buckets = Math.max(1, Math.min(8192, Math.floor(requestedBuckets)));
    const rel = this.releasesOf(key);
    // Messages released inside the window are a lower bound of what queryTimeline counts (it
    // also counts messages held across the window's end): above the limit, it draws density.
    const a = lowerBound((i) => rel[i], 0, rel.length, t0);
    const b = upperBound(rel, a, rel.length, t1);
    if (b - a <= buckets * MARKS_PER_BUCKET) return undefined;
    const width = t1 - t0 || 1;
    const bucketOf = (t: number) => Math.min(buckets - 1, Math.floor(((t - t0) / width) * buckets));
    const density = new Array<number>(buckets).fill(0);
    // Bucket boundaries found with the very formula queryTimeline bins with, so they agree to the bit.
    let start = a;
    for (let bk = 0; bk < buckets && start < b; bk++) {
      const end = bk === buckets - 1 ? b : lowerBound((i) => bucketOf(rel[i]), start, b, bk + 1);
      density[bk] = end - start;
      start = end;
    }
    const lane: LanePage = { key, density, findings: emptyMarks(), findingsOmitted: 0 };
    this.findings(key, t0, t1, lane);
    return lane;
  }

  /** Gaps, duplicates and late events reaching into the window, in event order, capped. */
  private findings(key: number, t0: number, t1: number, lane: LanePage): void {
    const s = this.session.store;
    const ke = s.keys[key];
    const t0d = s.t0.data;
    const t1d = s.t1.data;
    const hi = t1 + ke.maxSpan + 1e-9;
    const lists = [ke.gap, ke.duplicate, ke.late];
    const pos = lists.map((l) => lowerBound((i) => t1d[l.data[i]], 0, l.length, t0));
    const ends = lists.map((l, j) => lowerBound((i) => t1d[l.data[i]], pos[j], l.length, hi));
    const out = lane.findings;
    // Merge the three lists by event id: that is the lane's event order.
    for (;;) {
      let best = -1;
      let bestId = Infinity;
      for (let j = 0; j < 3; j++) {
        if (pos[j] < ends[j]) {
          const id = lists[j].data[pos[j]];
          if (id < bestId) {
            bestId = id;
            best = j;
          }
        }
      }
      if (best < 0) break;
      pos[best]++;
      if (t0d[bestId] > t1) continue;
      if (out.id.length < FINDINGS_MAX) push(out, s, bestId);
      else lane.findingsOmitted++;
    }
  }
}

function push(m: MarkList, s: CaptureSession['store'], id: number): void {
  const kind = s.kind.data[id];
  m.id.push(id);
  m.kind.push(kind);
  m.t0.push(s.t0.data[id]);
  m.t1.push(s.t1.data[id]);
  m.seq.push(s.seq.data[id]);
  m.aux.push(kind === Kind.gap ? s.seqTo.data[id] : s.flags.data[id]);
}

function emptyMarks(): MarkList {
  return { id: [], kind: [], t0: [], t1: [], seq: [], aux: [] };
}

/** First index in [lo, hi) whose value is > x. */
function upperBound(a: Float64Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
