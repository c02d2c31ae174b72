/**
 * A comparison's ranges as events on its merged lanes (Kind.onlyA / onlyB / lostBoth), recorded
 * once both captures are read: numbers only side A had (B missed them), only side B had, and
 * neither had. Each spans the time its numbers took on the merged lane: a one-side range from
 * the arrival of its first number to that of its last; a range both lost as the merged lane's gap
 * over it (from when it opened to when it was declared lost), or else between the numbers around
 * it. Ranges without numbers (`--seq none`) are not drawn. Browser-safe.
 */
import type { KeyRanges, MissedRange } from '../core/compare/compareResult';
import { Kind, type KindCode } from '../shared/timelineModel';
import type { EventStore } from './eventStore';

interface RangeEvent {
  kind: KindCode;
  from: number;
  to: number;
  count: number;
  t0: number;
  t1: number;
}

/**
 * Adds the ranges of each key to `store` on the key's merged lane (`mergedLane`: −1 for a key
 * without lanes), sorted by t1, caused by `cause` (the arrival count: the end of input).
 */
export function recordComparedRanges(store: EventStore, ranges: readonly KeyRanges[], mergedLane: (key: string) => number, cause: number): void {
  for (const r of ranges) {
    const lane = mergedLane(r.key);
    if (lane < 0) continue;
    const events = rangeEvents(store, lane, r);
    events.sort((x, y) => x.t1 - y.t1 || x.t0 - y.t0);
    for (const ev of events) store.add(ev.kind, lane, ev.from, ev.to, ev.count, ev.t0, ev.t1, 0, -1, cause);
  }
}

/** The key's ranges placed in time on its merged lane (those that cannot be placed are left out). */
function rangeEvents(store: EventStore, lane: number, r: KeyRanges): RangeEvent[] {
  const times = arrivalTimes(store, lane);
  const out: RangeEvent[] = [];
  const side = (kind: KindCode, list: readonly MissedRange[]) => {
    for (const m of list) {
      if (m.from === undefined || m.to === undefined) continue;
      const a = times.get(m.from);
      const b = times.get(m.to);
      const t0 = Math.min(a ?? Infinity, b ?? Infinity);
      const t1 = Math.max(a ?? -Infinity, b ?? -Infinity);
      if (t0 <= t1) out.push({ kind, from: m.from, to: m.to, count: m.count, t0, t1 });
    }
  };
  // What B missed is what only A had, and the other way round.
  side(Kind.onlyA, r.bMissed);
  side(Kind.onlyB, r.aMissed);
  for (const m of r.lostBoth) {
    if (m.from === undefined || m.to === undefined) continue;
    const span = gapOver(store, lane, m.from) ?? around(times, m.from, m.to);
    if (span) out.push({ kind: Kind.lostBoth, from: m.from, to: m.to, count: m.count, t0: span[0], t1: span[1] });
  }
  return out;
}

/** When each number first came on the lane (a message's arrival, or a late copy's), by number. */
function arrivalTimes(store: EventStore, lane: number): Map<number, number> {
  const times = new Map<number, number>();
  const ke = store.keys[lane];
  if (!ke) return times;
  for (let i = 0; i < ke.all.length; i++) {
    const id = ke.all.get(i);
    const kind = store.kind.get(id);
    if (kind !== Kind.message && kind !== Kind.late) continue;
    const seq = store.seq.get(id);
    const t = store.t0.get(id);
    if (seq === seq && !(t >= (times.get(seq) ?? Infinity))) times.set(seq, t);
  }
  return times;
}

/** The lane's gap holding number `n` (raw; a gap's `from` above its `to` runs through the wrap): its [opened, declared]. */
function gapOver(store: EventStore, lane: number, n: number): [number, number] | undefined {
  const gaps = store.keys[lane]?.gap;
  for (let i = 0; gaps && i < gaps.length; i++) {
    const id = gaps.get(i);
    const from = store.seq.get(id);
    const to = store.seqTo.get(id);
    if (from <= to ? n >= from && n <= to : n >= from || n <= to) return [store.t0.get(id), store.t1.get(id)];
  }
  return undefined;
}

/** Between the arrivals of the numbers just below `from` and just above `to`, when either came. */
function around(times: ReadonlyMap<number, number>, from: number, to: number): [number, number] | undefined {
  const before = times.get(from - 1);
  const after = times.get(to + 1);
  if (before === undefined && after === undefined) return undefined;
  return [before ?? (after as number), after ?? (before as number)];
}
