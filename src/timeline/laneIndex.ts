/**
 * The very lane pages queryTimeline() answers, for the common case of no filter and no replay
 * position, without walking every event of the window.
 *
 * queryTimeline walks the lane's events from the window's start to its end plus the lane's
 * longest span (a message held 10 s behind a gap makes every query scan 10 s more): zoomed out
 * on a million events that is a million steps per page, zoomed in it is still tens of
 * thousands, and the standalone page spends them on its only thread. Here, per lane (kept by the
 * EventStore as events arrive, so there is nothing to build):
 *   - the release times of its messages, sorted: a density page costs two binary searches per
 *     bucket, and counting messages in the window costs two;
 *   - its "long" events (span > LONG_SPAN_MS), sorted: the only ones that can reach into the
 *     window from beyond the short stretch after its end that is scanned.
 * Findings come from the lane's own gap / duplicate / late lists. Anything with a filter or a
 * position goes to queryTimeline; a unit test checks the two agree on random windows.
 *
 * A session that grows (live, or loading) asks for the same page again and again: its window
 * snaps to a grid (shared/paging.ts), and only its end fills. Releases are only ever appended, in
 * t1 order, so a density lane is counted again only from the bucket of the last release counted
 * the time before (`grew()` keeps that, and drops the rest).
 *
 * Browser-safe: TimelineService uses it in the extension host, and the standalone page's host
 * (src/webview/standaloneHost.ts) in the browser.
 */
import type { CaptureSession } from './captureSession';
import { lowerBound, upperBound } from './binarySearch';
import { LONG_SPAN_MS } from './eventStore';
import { bucketOf, emptyMarks, FINDINGS_MAX, MARKS_PER_BUCKET, pageBuckets, pushCompared, pushMark } from './laneMarks';
import { Kind } from '../shared/timelineModel';
import type { LanePage, MarkList } from '../shared/timelineModel';

interface LaneData {
  /** Release times (t1) of the lane's messages, ascending. */
  releases: Float64Array;
  /** Ids of the lane's events longer than LONG_SPAN_MS, ascending (= by t1). */
  long: Int32Array;
}

/** Windows a lane's density is kept for: the page a live view follows, and one other (the webview's own). */
const COUNTED_WINDOWS = 2;
/** Lanes whose densities are kept: a view's lanes, several times over; past it all is let go (a session of 100 000 keys scrolled through would otherwise keep a page of each). */
const COUNTED_LANES = 256;

/** A density lane as last counted: its window, its releases [a, b), and the counts. */
interface CountedDensity {
  /** The lane's releases it was counted from, and the last of them: the same list, grown, or counted afresh. */
  releases: unknown;
  lastRelease: number;
  t0: number;
  t1: number;
  buckets: number;
  a: number;
  b: number;
  density: number[];
}

export class LaneIndex {
  private lanes: (LaneData | undefined)[] = [];
  /** Per key, the densities last counted, the latest first (see `grew`). */
  private readonly counted = new Map<number, CountedDensity[]>();

  constructor(private readonly session: CaptureSession) {}

  /** The session grew (events appended): the lanes' lists are read again; what was counted stays, to go on from. */
  grew(): void {
    this.lanes = [];
  }

  private data(key: number): LaneData {
    let d = this.lanes[key];
    if (d) return d;
    // The store keeps both lists as events arrive (KeyEvents.releases / .long).
    const ke = this.session.store.keys[key];
    d = ke
      ? { releases: ke.releases.data.subarray(0, ke.releases.length), long: ke.long.data.subarray(0, ke.long.length) }
      : { releases: new Float64Array(0), long: new Int32Array(0) };
    this.lanes[key] = d;
    return d;
  }

  /** The lane page queryTimeline would return for `key` over [t0, t1] (no filter, no position). */
  lane(key: number, t0: number, t1: number, requestedBuckets: number): LanePage {
    const s = this.session.store;
    const ke = s.keys[key];
    const lane: LanePage = { key, findings: emptyMarks(), findingsOmitted: 0 };
    if (!ke) return lane;
    const buckets = pageBuckets(requestedBuckets);
    const { releases: rel, long } = this.data(key);
    const t0d = s.t0.data;
    const t1d = s.t1.data;
    const kinds = s.kind.data;
    const all = ke.all.data;
    const n = ke.all.length;
    const hiAll = t1 + ke.maxSpan + 1e-9;

    // Events past the window's end whose span reaches back into it: the short stretch after
    // the end is scanned, longer spans come from the index.
    const mid = upperBound((i) => t1d[all[i]], 0, n, t1);
    const shortHi = Math.min(hiAll, t1 + LONG_SPAN_MS + 1e-6);
    const shortEnd = lowerBound((i) => t1d[all[i]], mid, n, shortHi);
    const extras: number[] = [];
    for (let i = mid; i < shortEnd; i++) if (t0d[all[i]] <= t1) extras.push(all[i]);
    const l0 = lowerBound((i) => t1d[long[i]], 0, long.length, shortHi);
    const l1 = lowerBound((i) => t1d[long[i]], l0, long.length, hiAll);
    for (let i = l0; i < l1; i++) if (t0d[long[i]] <= t1) extras.push(long[i]);

    // As many messages as queryTimeline counts: released in the window, plus held across its end.
    const a = lowerBound((i) => rel[i], 0, rel.length, t0);
    const b = upperBound((i) => rel[i], a, rel.length, t1);
    let messages = b - a;
    for (const id of extras) if (kinds[id] === Kind.message) messages++;

    if (messages <= buckets * MARKS_PER_BUCKET) {
      // One by one: every event released in the window, then those reaching into it.
      lane.marks = emptyMarks();
      const from = lowerBound((i) => t1d[all[i]], 0, mid, t0);
      const take = (id: number) => {
        if (kinds[id] === Kind.message) pushMark(lane.marks as MarkList, s, id);
        else if (lane.findings.id.length < FINDINGS_MAX) pushMark(lane.findings, s, id);
        else lane.findingsOmitted++;
      };
      for (let i = from; i < mid; i++) take(all[i]);
      for (const id of extras) take(id);
      pushCompared(lane, s, key, t0, t1);
      return lane;
    }

    lane.density = this.density(key, ke.releases, rel, t0, t1, buckets, a, b);
    this.findings(key, t0, t1, hiAll, lane);
    pushCompared(lane, s, key, t0, t1);
    return lane;
  }

  /**
   * Releases rel[a, b) counted into `buckets` over [t0, t1]: bucket boundaries found with the very
   * formula queryTimeline bins with, so the counts agree to the bit. From the last count of the
   * same window when the lane only grew since: the buckets before the one that held its last
   * release are as they were.
   */
  private density(key: number, list: unknown, rel: Float64Array, t0: number, t1: number, buckets: number, a: number, b: number): number[] {
    const width = t1 - t0 || 1;
    const counted = this.counted.get(key) ?? [];
    const last = counted.find((c) => c.releases === list && c.t0 === t0 && c.t1 === t1 && c.buckets === buckets && c.a === a && c.b <= b);
    let density: number[];
    let bk = 0;
    let start = a;
    if (last && (last.b === 0 || rel[last.b - 1] === last.lastRelease)) {
      density = last.density.slice();
      if (last.b > a) {
        bk = bucketOf(rel[last.b - 1], t0, width, buckets);
        start = last.b - density[bk];
      }
    } else density = new Array<number>(buckets).fill(0);
    for (; bk < buckets && start < b; bk++) {
      const end = bk === buckets - 1 ? b : lowerBound((i) => bucketOf(rel[i], t0, width, buckets), start, b, bk + 1);
      density[bk] = end - start;
      start = end;
    }
    // Its own copy: the page's goes to the webview (and the live state the next update is told from).
    const now = { releases: list, lastRelease: b > 0 ? rel[b - 1] : Number.NaN, t0, t1, buckets, a, b, density: density.slice() };
    if (this.counted.size >= COUNTED_LANES && !this.counted.has(key)) this.counted.clear();
    this.counted.set(key, [now, ...counted.filter((c) => c !== last)].slice(0, COUNTED_WINDOWS));
    return density;
  }

  /** Gaps, duplicates, late and reordered events reaching into the window, in event order, capped. */
  private findings(key: number, t0: number, t1: number, hi: number, lane: LanePage): void {
    const s = this.session.store;
    const ke = s.keys[key];
    const t0d = s.t0.data;
    const t1d = s.t1.data;
    const lists = [ke.gap, ke.duplicate, ke.late, ke.reordered];
    const pos = lists.map((l) => lowerBound((i) => t1d[l.data[i]], 0, l.length, t0));
    const ends = lists.map((l, j) => lowerBound((i) => t1d[l.data[i]], pos[j], l.length, hi));
    const out = lane.findings;
    // Merge the lists by event id: that is the lane's event order.
    for (;;) {
      let best = -1;
      let bestId = Infinity;
      for (let j = 0; j < lists.length; j++) {
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
      if (out.id.length < FINDINGS_MAX) pushMark(out, s, bestId);
      else lane.findingsOmitted++;
    }
  }
}
