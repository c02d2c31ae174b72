/**
 * Builds a comparison of two captures as a session of its own: the merged (arbitrated) stream of
 * `seqscope compare` (compareRun.ts), whose arrivals the session logs, and beside it two more
 * engines fed only side A's and only side B's copies. Every arrival's events — on its side's
 * lane and on the merged lane — point back to it, so step-through replay runs over the merged
 * stream and shows the side lanes as they stood. Records stay in their files, read back as in
 * any session.
 */
import { CaptureEntry } from '../../core/capture/captureRecord';
import { CompareRunResult, runCompare, sideProblem } from '../../core/compare/compareRun';
import { SideIndex } from '../../core/compare/keyMatch';
import { KeySummary, ReplayEngine, ReplaySummary } from '../../core/replay/replayEngine';
import { zeroCounts } from '../../core/sequencer/keyState';
import { SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { CaptureSession } from '../captureSession';
import { CompareLanes, ComparisonFacts, LaneSide } from '../compareLanes';
import { recordComparedRanges } from '../comparedRanges';
import { CrossSideCopies, DroppedCopies } from '../crossSideCopies';
import { SessionBuilder } from '../sessionBuilder';
import { ArchiveCopy } from './archiveCopy';
import { LoadOptions, LoadResult } from './loadSession';

/** What to compare: side A's files, side B's, and what to call each. */
export interface CompareSides {
  readonly a: readonly string[];
  readonly b: readonly string[];
  readonly labels: readonly [string, string];
}

/** How the extension names what to check when a side cannot be sequenced. */
const OPTION_NAMES = 'the options the comparison was opened with: seqscope.preset, seqscope.key, seqscope.seq';

export async function loadComparison(
  sides: CompareSides,
  options: SequencingOptions,
  load: LoadOptions = {},
): Promise<LoadResult & { comparison: ComparisonFacts }> {
  const lanes = new CompareLanes(sides.labels);
  const paths = [...sides.a, ...sides.b];
  const copy = load.copyTo === undefined ? undefined : new ArchiveCopy(load.copyTo, paths);
  try {
    return await compareInto(sides, options, load, lanes, copy);
  } finally {
    copy?.close();
  }
}

async function compareInto(
  sides: CompareSides,
  options: SequencingOptions,
  load: LoadOptions,
  lanes: CompareLanes,
  copy: ArchiveCopy | undefined,
): Promise<LoadResult & { comparison: ComparisonFacts }> {
  const b = new SessionBuilder(copy, { laneOf: (key) => lanes.lane(key, 'merged') });
  const sideNames: LaneSide[] = ['a', 'b'];
  const recordings = sideNames.map((side) => b.recorder((key) => lanes.lane(key, side)));
  const copies = new CrossSideCopies(b.listener, b.forget);
  const engines = recordings.map((r) => new ReplayEngine(options, copies.side(r.listener)));
  const result = await runCompare({
    a: { paths: sides.a },
    b: { paths: sides.b },
    options,
    signal: load.signal,
    heapGuard: load.heapGuard,
    heapReservePerKey: 576 * 3,
    onProgress: load.onProgress,
    // An archive's copy writes each arrival's record (archives are not read in parallel anyway).
    scanPool: copy === undefined ? load.scanPool : undefined,
    listener: copies.merged,
    onEngine: (engine) => b.attach(engine),
    beforePush: (e: CaptureEntry) => {
      b.beforePush(e);
      copies.pushing(e);
    },
    afterPush: (e: CaptureEntry, valid: boolean, side: SideIndex) => {
      if (valid) {
        recordings[side].pushing(e);
        engines[side].push(e);
      }
      copies.settle();
      b.afterPush(e, valid);
    },
    beforeFinish: () => {
      b.beforeAdvance();
      for (const en of engines) en.finish();
    },
  });
  recordComparedRanges(b.store, result.comparison.ranges, (key) => lanes.find(key, 'merged'), b.arrivals);
  const paths = [...sides.a, ...sides.b];
  const summary = laneSummary(withoutCopies(result.merged, copies.dropped), [engines[0].summary(), engines[1].summary()], lanes);
  const session = new CaptureSession(paths, summary, b.store, b.log, lanes.names, load.copyTo);
  const comparison: ComparisonFacts = {
    labels: sides.labels,
    paths: [sides.a, sides.b],
    comparison: result.comparison,
    sides: result.sides,
    spread: result.spread,
    options: result.merged.options,
    roles: lanes.roles,
    problem: whyNotCompared(result, sides),
  };
  return { session, cancelled: result.cancelled, heapStop: result.heapStop, notes: result.notes, comparison };
}

/** Why the comparison says nothing, naming the side and what to do, or undefined. */
function whyNotCompared(result: CompareRunResult, sides: CompareSides): string | undefined {
  const problem = sideProblem(result, sides.labels, [sides.a, sides.b], (p) => p.split(/[\\/]/).pop() as string, OPTION_NAMES);
  if (problem === undefined) return undefined;
  const empty = result.sides.findIndex((s) => s.valid + s.invalid === 0);
  return empty < 0 ? problem : `${problem}: compare with a capture that holds records for side ${empty === 0 ? 'A' : 'B'}`;
}

/** The merged stream's summary without the other side's copies, which are not recorded (crossSideCopies.ts). */
function withoutCopies(merged: ReplaySummary, dropped: ReadonlyMap<string, DroppedCopies>): ReplaySummary {
  let duplicates = 0;
  let redeliveries = 0;
  const byKey = merged.byKey.map((k) => {
    const d = dropped.get(k.key);
    if (!d) return k;
    duplicates += d.duplicates;
    redeliveries += d.redeliveries;
    return { ...k, duplicates: k.duplicates - d.duplicates, redeliveries: k.redeliveries - d.redeliveries };
  });
  return { ...merged, duplicates: merged.duplicates - duplicates, redeliveries: merged.redeliveries - redeliveries, byKey };
}

/** The merged stream's summary with a key summary per lane, in lane order (a side without the key: all zero). */
function laneSummary(merged: ReplaySummary, sides: readonly [ReplaySummary, ReplaySummary], lanes: CompareLanes): ReplaySummary {
  const bySide = [merged, ...sides].map((s) => new Map(s.byKey.map((k) => [k.key, k])));
  const byKey: KeySummary[] = lanes.roles.map((r, i) => {
    const k = bySide[r.side === 'merged' ? 0 : r.side === 'a' ? 1 : 2].get(r.key);
    const name = lanes.names[i];
    return k ? { ...k, key: name } : { key: name, ...zeroCounts(), maxHoldMs: 0, maxHeld: 0, percentiles: {} };
  });
  return { ...merged, keys: byKey.length, byKey };
}
