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
  keys?: number[] | null,
  /** A comparison's merged lanes: lane index, onlyA, onlyB, lostBoth, one lane after another (see LaneCounts.compared). */
  compared?: number[],
];

const COUNTS_PER_LANE = 8;

export function packLanes(lanes: readonly LaneInfo[]): WireLanes {
  const names = new Array<string>(lanes.length);
  const counts = new Array<number>(lanes.length * COUNTS_PER_LANE);
  const hot: number[] = [];
  const compared: number[] = [];
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
    if (l.compared) compared.push(i, l.compared.onlyA, l.compared.onlyB, l.compared.lostBoth);
    if (l.key !== i) identity = false;
  }
  const keys = identity ? null : lanes.map((l) => l.key);
  const columns: LaneColumns = compared.length ? [names, counts, hot, keys, compared] : keys ? [names, counts, hot, keys] : [names, counts, hot];
  return { columns: JSON.stringify(columns) };
}

export function unpackLanes(w: WireLanes): LaneInfo[] {
  const [names, counts, hot, keys, compared] = JSON.parse(w.columns) as LaneColumns;
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
  for (let j = 0; compared && j < compared.length; j += 4)
    lanes[compared[j]].compared = { onlyA: compared[j + 1], onlyB: compared[j + 2], lostBoth: compared[j + 3] };
  return lanes;
}
