/** What a render of the lane layer reports: mark counts and what it drew, for the test hook and the frame's stats. */
import type { DrawnLabel, DrawnMark, MarkCounts } from './timelineSnapshot';

export interface LayerStats {
  marks: MarkCounts;
  /** In layer coordinates. */
  findings: DrawnMark[];
  messages: DrawnMark[];
  /** The labels drawn in the lanes, in layer coordinates (the test hook checks none overlaps). */
  labels: DrawnLabel[];
  /** Lanes that had a page / a fresh page. */
  lanesWithData: number;
  lanesFresh: number;
}

/** Stats of a layer that drew nothing yet. */
export function emptyStats(): LayerStats {
  return {
    marks: {
      message: 0,
      hold: 0,
      density: 0,
      gap: 0,
      openGap: 0,
      startWindow: 0,
      duplicate: 0,
      redelivery: 0,
      republish: 0,
      conflict: 0,
      late: 0,
      reordered: 0,
      reset: 0,
      onlyA: 0,
      onlyB: 0,
      lostBoth: 0,
      invalid: 0,
    },
    labels: [],
    findings: [],
    messages: [],
    lanesWithData: 0,
    lanesFresh: 0,
  };
}
