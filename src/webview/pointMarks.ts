/**
 * One lane's point findings (duplicates, late, reordered, resets) as the lane layer collects
 * them before drawing any: their x by marker, so that each marker is stamped in one pass, and
 * thinned to one marker every MARKER_GAP px per kind. Reused from lane to lane, so a render
 * allocates no lists for them.
 */
import { Kind, KIND_NAMES } from '../shared/timelineModel';

/** Bit 0 of a duplicate's aux: it was a redelivery (same messageId). */
const REDELIVERY = 1;
/** Bit 3 of a duplicate's aux: a conflict (the first copy's messageId, other content); see Flag. */
const CONFLICT = 8;
/** Point findings of one kind closer than this (px) are drawn once (markers are ~10 px wide). */
const MARKER_GAP = 5;

/** The point findings' markers, by the names the stats and the test hook use. */
export type PointMark = 'redelivery' | 'republish' | 'conflict' | 'late' | 'reordered' | 'reset';

export class PointMarks {
  /** The x of each marker to draw, by marker, in the order added. */
  readonly x: Readonly<Record<PointMark, number[]>> = { redelivery: [], republish: [], conflict: [], late: [], reordered: [], reset: [] };
  /** By kind code: the x of the kind's last marker (the three duplicate markers share one). */
  private readonly lastX = new Float64Array(KIND_NAMES.length).fill(-Infinity);

  /** Empties the lists for the next lane. */
  clear(): void {
    const x = this.x;
    x.redelivery.length = x.republish.length = x.conflict.length = 0;
    x.late.length = x.reordered.length = x.reset.length = 0;
    this.lastX.fill(-Infinity);
  }

  /**
   * Adds a point finding of `kind` at x and returns its marker; undefined when one of its kind
   * is closer than MARKER_GAP (one every few px is all the eye can tell apart), unless it is
   * the selected one.
   */
  add(kind: number, aux: number, x: number, selected: boolean): PointMark | undefined {
    if (x - this.lastX[kind] < MARKER_GAP && !selected) return undefined;
    this.lastX[kind] = x;
    const mark = kind === Kind.duplicate ? duplicateMark(aux) : kind === Kind.reset ? 'reset' : kind === Kind.reordered ? 'reordered' : 'late';
    this.x[mark].push(x);
    return mark;
  }
}

/** A duplicate's marker, from its aux bits. */
function duplicateMark(aux: number): PointMark {
  return (aux & CONFLICT) !== 0 ? 'conflict' : (aux & REDELIVERY) !== 0 ? 'redelivery' : 'republish';
}
