/**
 * What a comparison of two captures of one stream found: per key, what both sides had, what one
 * side had and the other did not, what neither had, which side was first, and the merged
 * (arbitrated) stream's own summary. The CLI prints it; a view pages `byKey` and its ranges.
 */
import { Percentiles } from '../util/durationStats';

export type Side = 'a' | 'b';

/** One side of one key, as feed handlers report a feed. */
export interface SideFacts {
  /** Copies read (lines), duplicates included, invalid records not. */
  received: number;
  /** Copies after the first of an identity on this side. */
  duplicates: number;
  /** Identities the other side had and this one did not. */
  missed: number;
  /** Runs of consecutive numbers this side missed and the other had (with `--seq none`: of the other side's messages, in its arrival order). */
  incidents: number;
}

/** The merged stream's summary, as `replay` counts it. */
export interface MergedFacts {
  delivered: number;
  gaps: number;
  lost: number;
  late: number;
}

/** (B's first arrival − A's), ms, over the identities both sides had; null when none. */
export type DeltaPercentiles = Pick<Percentiles, 'p50' | 'p90' | 'p99' | 'max'> | null;

export interface CompareCounts {
  both: number;
  onlyA: number;
  onlyB: number;
  /** Numbers neither side had between the lowest and the highest either had (0 with `--seq none`). */
  lostBoth: number;
  /** Of `both`: first copy earlier in A / in B (a tie counts in neither). */
  firstA: number;
  firstB: number;
  deltaMs: DeltaPercentiles;
  a: SideFacts;
  b: SideFacts;
  merged: MergedFacts;
}

export interface KeyComparison extends CompareCounts {
  key: string;
}

/** A run of numbers (raw, as on the wire; `from` > `to` across a wrap), or of messages with `--seq none` (`from`/`to` undefined). */
export interface MissedRange {
  from?: number;
  to?: number;
  count: number;
}

/** Per key, what a view lists under it: the ranges each side missed and those both lost. */
export interface KeyRanges {
  key: string;
  /** What A missed (B had), in number order. */
  aMissed: MissedRange[];
  bMissed: MissedRange[];
  lostBoth: MissedRange[];
}

export interface CompareResult {
  byKey: KeyComparison[];
  /** `byKey`'s ranges, index for index. */
  ranges: KeyRanges[];
  totals: CompareCounts;
  /** Keys both sides had. */
  sharedKeys: number;
}

export function emptySide(): SideFacts {
  return { received: 0, duplicates: 0, missed: 0, incidents: 0 };
}

/** Sums of the keys' counts; Δt over all keys comes separately (percentiles do not add). */
export function sumCounts(keys: readonly CompareCounts[], deltaMs: DeltaPercentiles): CompareCounts {
  const t: CompareCounts = {
    both: 0,
    onlyA: 0,
    onlyB: 0,
    lostBoth: 0,
    firstA: 0,
    firstB: 0,
    deltaMs,
    a: emptySide(),
    b: emptySide(),
    merged: { delivered: 0, gaps: 0, lost: 0, late: 0 },
  };
  for (const k of keys) {
    t.both += k.both;
    t.onlyA += k.onlyA;
    t.onlyB += k.onlyB;
    t.lostBoth += k.lostBoth;
    t.firstA += k.firstA;
    t.firstB += k.firstB;
    for (const s of ['a', 'b'] as const) {
      t[s].received += k[s].received;
      t[s].duplicates += k[s].duplicates;
      t[s].missed += k[s].missed;
      t[s].incidents += k[s].incidents;
    }
    t.merged.delivered += k.merged.delivered;
    t.merged.gaps += k.merged.gaps;
    t.merged.lost += k.merged.lost;
    t.merged.late += k.merged.late;
  }
  return t;
}

/** Share of a side's identities it missed, in % (0 when the key had none). */
export function missedPercent(c: CompareCounts, side: Side): number {
  const all = c.both + c.onlyA + c.onlyB;
  return all === 0 ? 0 : (c[side].missed / all) * 100;
}

/** What one side held. */
export interface SideRead {
  /** Records sequenced (copies). */
  valid: number;
  invalid: number;
}
