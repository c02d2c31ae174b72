/**
 * The lanes of a comparison session: per key of the compared captures, an A lane, a B lane and
 * the merged (arbitrated) lane, made together at the key's first sight so that they sit one
 * above the other in arrival order (and in name order: "· A" < "· B" < "· merged"). Each lane's
 * name says its side and the side's label. Browser-safe.
 */
import type { CompareResult, KeyRanges, MissedRange, SideRead } from '../core/compare/compareResult';
import type { DeltaSpread } from '../core/compare/compareMatcher';

export type LaneSide = 'a' | 'b' | 'merged';

/** The lanes a key gets, in the order they are listed. */
export const LANE_SIDES: readonly LaneSide[] = ['a', 'b', 'merged'];

/** What a comparison session's lane stands for. */
export interface LaneRole {
  /** The key of the compared captures. */
  readonly key: string;
  readonly side: LaneSide;
}

/** A lane's name: `ES · A (feed-a.jsonl)`, `ES · B (feed-b.jsonl)`, `ES · merged`. */
export function compareLaneName(key: string, side: LaneSide, labels: readonly [string, string]): string {
  if (side === 'merged') return `${key} · merged`;
  return `${key} · ${side === 'a' ? 'A' : 'B'} (${side === 'a' ? labels[0] : labels[1]})`;
}

/**
 * The sides of a comparison as the lanes beside merged lane `merged` name them, e.g.
 * ['A (a.jsonl)', 'B (b.jsonl)'], or undefined when `merged` is no merged lane.
 */
export function sidesBeside(names: readonly string[], merged: number): [string, string] | undefined {
  const m = names[merged];
  const suffix = ' · merged';
  if (merged < 2 || m === undefined || !m.endsWith(suffix)) return undefined;
  const key = m.slice(0, -suffix.length);
  const side = (name: string, letter: string) => (name.startsWith(`${key} · ${letter} (`) ? name.slice(key.length + 3) : undefined);
  const a = side(names[merged - 2], 'A');
  const b = side(names[merged - 1], 'B');
  return a !== undefined && b !== undefined ? [a, b] : undefined;
}

export class CompareLanes {
  readonly names: string[] = [];
  readonly roles: LaneRole[] = [];
  /** A key's first lane (its A lane); B and merged follow it. */
  private readonly first = new Map<string, number>();

  constructor(readonly labels: readonly [string, string]) {}

  /** The lane of `key` on `side`, making the key's three lanes at its first sight. */
  lane(key: string, side: LaneSide): number {
    let at = this.first.get(key);
    if (at === undefined) {
      at = this.names.length;
      this.first.set(key, at);
      for (const s of LANE_SIDES) {
        this.names.push(compareLaneName(key, s, this.labels));
        this.roles.push({ key, side: s });
      }
    }
    return at + LANE_SIDES.indexOf(side);
  }

  /** The lane of `key` on `side`, or −1 when the key has none. */
  find(key: string, side: LaneSide): number {
    const at = this.first.get(key);
    return at === undefined ? -1 : at + LANE_SIDES.indexOf(side);
  }
}

/** What a comparison found, kept with its session: the counts and ranges by key, as `seqscope compare` has them. */
export interface ComparisonFacts {
  readonly labels: readonly [string, string];
  /** Side A's and side B's files (the session's paths are A's, then B's). */
  readonly paths: readonly [readonly string[], readonly string[]];
  readonly comparison: CompareResult;
  readonly sides: readonly [SideRead, SideRead];
  readonly spread: DeltaSpread | undefined;
  /** The merged stream's options, in words. */
  readonly options: string;
  /** Lanes by index. */
  readonly roles: readonly LaneRole[];
  /** Why the comparison says nothing (a side empty or unsequenced), naming the side; else undefined. */
  readonly problem: string | undefined;
}

/** Which side's misses a lane lists: A's lane what A missed, B's what B missed, the merged lane what both lost. */
export function missedOnLane(r: KeyRanges, side: LaneSide): readonly MissedRange[] {
  return side === 'a' ? r.aMissed : side === 'b' ? r.bMissed : r.lostBoth;
}

/** A comparison's facts looked up by key: its ranges, and its lanes by side. */
export class ComparisonIndex {
  private readonly ranges = new Map<string, KeyRanges>();
  private readonly first = new Map<string, number>();

  constructor(f: ComparisonFacts) {
    f.comparison.byKey.forEach((k, i) => this.ranges.set(k.key, f.comparison.ranges[i]));
    f.roles.forEach((r, lane) => {
      if (!this.first.has(r.key)) this.first.set(r.key, lane);
    });
  }

  rangesOf(key: string): KeyRanges | undefined {
    return this.ranges.get(key);
  }

  /** The lane of `key` on `side`, or −1. */
  readonly laneOf = (key: string, side: LaneSide): number => {
    const at = this.first.get(key);
    return at === undefined ? -1 : at + LANE_SIDES.indexOf(side);
  };
}

const indexes = new WeakMap<ComparisonFacts, ComparisonIndex>();

/** The index of `f`, made once. */
export function comparisonIndex(f: ComparisonFacts): ComparisonIndex {
  let i = indexes.get(f);
  if (!i) indexes.set(f, (i = new ComparisonIndex(f)));
  return i;
}

/**
 * The side lane an arrival of a comparison session came in on: its key's A or B lane, which sit
 * just above the merged lane it is logged on. `firstB`: the index of side B's first file.
 */
export function sideLaneOf(log: { readonly key: { get(i: number): number }; readonly file: { get(i: number): number } }, firstB: number) {
  return (arrival: number): number => log.key.get(arrival) - (log.file.get(arrival) < firstB ? 2 : 1);
}
