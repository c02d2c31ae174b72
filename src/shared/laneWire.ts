/**
 * A session's lanes as they cross to the webview in its `init` message: one string holding the
 * lanes as columns (names, then six counts a lane, then the hot ones), instead of an object a
 * lane.
 *
 * Why: VS Code passes a webview message through JSON.stringify with a replacer function, called
 * once for every value in it. As objects, a lane is nine values and ~110 characters, so 100 000
 * keys made an 11 MB `init` of ~900 000 values, sent before the first paint (and embedded in the
 * panel's page by Show Timeline). As one string it is one value and ~25 characters a lane; the
 * webview parses it with one native JSON.parse.
 *
 * Browser-safe: the webview unpacks. Exact: counts are integers and names go through JSON.
 */
import type { LaneInfo } from './timelineModel';

/** The packed lanes: `columns` is the JSON of a LaneColumns. */
export interface WireLanes {
  readonly columns: string;
}

/** What `columns` holds. */
type LaneColumns = [
  names: string[],
  /** Per lane: received, delivered, gaps, lost, duplicates, late, reordered, resets. */
  counts: number[],
  /** Indices (in `names`) of the hot lanes. */
  hot: number[],
  /** Each lane's key index; absent when it is the lane's own index (always, from lanesOf). */
  keys?: number[],
];

const COUNTS_PER_LANE = 8;

export function packLanes(lanes: readonly LaneInfo[]): WireLanes {
  const names = new Array<string>(lanes.length);
  const counts = new Array<number>(lanes.length * COUNTS_PER_LANE);
  const hot: number[] = [];
  let identity = true;
  for (let i = 0, c = 0; i < lanes.length; i++) {
    const l = lanes[i];
    names[i] = l.name;
    counts[c++] = l.received;
    counts[c++] = l.delivered;
    counts[c++] = l.gaps;
    counts[c++] = l.lost;
    counts[c++] = l.duplicates;
    counts[c++] = l.late;
    counts[c++] = l.reordered;
    counts[c++] = l.resets;
    if (l.hot) hot.push(i);
    if (l.key !== i) identity = false;
  }
  const columns: LaneColumns = identity ? [names, counts, hot] : [names, counts, hot, lanes.map((l) => l.key)];
  return { columns: JSON.stringify(columns) };
}

export function unpackLanes(w: WireLanes): LaneInfo[] {
  const [names, counts, hot, keys] = JSON.parse(w.columns) as LaneColumns;
  const lanes = new Array<LaneInfo>(names.length);
  for (let i = 0, c = 0; i < names.length; i++, c += COUNTS_PER_LANE) {
    lanes[i] = {
      key: keys ? keys[i] : i,
      name: names[i],
      received: counts[c],
      delivered: counts[c + 1],
      gaps: counts[c + 2],
      lost: counts[c + 3],
      duplicates: counts[c + 4],
      late: counts[c + 5],
      reordered: counts[c + 6],
      resets: counts[c + 7],
      hot: false,
    };
  }
  for (const i of hot) lanes[i].hot = true;
  return lanes;
}
