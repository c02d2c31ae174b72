/**
 * Where a comparison session shows a range of numbers one side missed (or both lost): the gap
 * its own lane declared over it, else the first copy the other side had of it (a side that
 * started later or ended sooner declares no gap at its edges). Browser-safe.
 */
import type { MissedRange } from '../core/compare/compareResult';
import { Kind } from '../shared/timelineModel';
import type { CaptureSession } from './captureSession';
import type { LaneRole, LaneSide } from './compareLanes';

/** Whether raw number `x` is in the run `from`..`to` (across a wrap when `from` > `to`). */
export function inRun(x: number, from: number, to: number): boolean {
  return from <= to ? x >= from && x <= to : x >= from || x <= to;
}

/** The first gap on `lane` that covers `x`, or undefined. */
function gapCovering(s: CaptureSession, lane: number, x: number): number | undefined {
  const gaps = s.store.keys[lane]?.gap;
  if (!gaps) return undefined;
  for (let i = 0; i < gaps.length; i++) {
    const id = gaps.get(i);
    if (inRun(x, s.store.seq.get(id), s.store.seqTo.get(id))) return id;
  }
  return undefined;
}

/** The first message on `lane` numbered `x`, or undefined. */
function messageNumbered(s: CaptureSession, lane: number, x: number): number | undefined {
  const all = s.store.keys[lane]?.all;
  if (!all) return undefined;
  for (let i = 0; i < all.length; i++) {
    const id = all.get(i);
    if (s.store.kind.get(id) === Kind.message && s.store.seq.get(id) === x) return id;
  }
  return undefined;
}

/**
 * The event that shows `range` of `key` as missed on `side`'s lane ('merged': lost in both), or
 * undefined when none does (a range without numbers, with `--seq none`).
 * @param laneOf The lane of a key on a side, −1 when there is none.
 */
export function missedRangeEvent(s: CaptureSession, laneOf: (key: string, side: LaneSide) => number, role: LaneRole, range: MissedRange): number | undefined {
  const x = range.from;
  if (x === undefined) return undefined;
  const own = laneOf(role.key, role.side);
  const gap = own < 0 ? undefined : gapCovering(s, own, x);
  if (gap !== undefined || role.side === 'merged') return gap ?? sideGap(s, laneOf, role.key, x);
  const other = laneOf(role.key, role.side === 'a' ? 'b' : 'a');
  return other < 0 ? undefined : messageNumbered(s, other, x);
}

/** Lost in both but declared by no merged gap (at an edge): a side's gap over it. */
function sideGap(s: CaptureSession, laneOf: (key: string, side: LaneSide) => number, key: string, x: number): number | undefined {
  for (const side of ['a', 'b'] as const) {
    const lane = laneOf(key, side);
    const id = lane < 0 ? undefined : gapCovering(s, lane, x);
    if (id !== undefined) return id;
  }
  return undefined;
}
