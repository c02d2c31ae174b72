/**
 * Matches the identities of two captures as their copies stream in (merged by the arrival
 * clock), key by key, and makes the comparison's result once the merged stream's own summary
 * is known.
 */
import { KeySummary } from '../replay/replayEngine';
import { SerialSpace } from '../sequencer/serial';
import { DurationStats, KeyedDurations } from '../util/durationStats';
import { CompareRow } from './compareRow';
import { CompareResult, DeltaPercentiles, KeyComparison, KeyRanges, sumCounts } from './compareResult';
import { KeyMatch, SideIndex } from './keyMatch';
import type { RunRule } from './sideRuns';

/** p10 and p90 of Δt over all keys: how widely it spreads (see clockOffset.ts). */
export interface DeltaSpread {
  count: number;
  p10: number;
  p50: number;
  p90: number;
}

export class CompareMatcher {
  private readonly keys = new Map<string, KeyMatch>();
  private readonly order: KeyMatch[] = [];
  private readonly deltas = new KeyedDurations();
  /** −Δt over all keys: its p90 is −(Δt's p10). */
  private readonly negated = new DurationStats(true);
  private last: KeyMatch | undefined;
  /** Per key (by index): where its Δt go. */
  private readonly onDelta: ((delta: number) => void)[] = [];

  constructor(
    /** The numbers' width; undefined when identities are messageIds (`--seq none`). */
    private readonly space: SerialSpace | undefined,
    /** Receives each matched identity's row as it is matched, and the rest at `finish`. */
    private readonly onRow?: (row: CompareRow) => void,
    /** When a side's numbers start a new run (a reset); undefined: never (`--no-resets`). */
    private readonly rule?: RunRule,
  ) {}

  /** Records one matched identity's Δt for its key (set per call: the key is the one observed). */
  private deltaOf(k: KeyMatch): (delta: number) => void {
    return (delta) => {
      this.deltas.record(k.index, delta);
      this.negated.record(-delta);
    };
  }

  /** One valid copy from `side` (0 = A, 1 = B), in the merged arrival order. */
  observe(side: SideIndex, key: string, seq: number, messageId: string, at: number): void {
    let k = this.last;
    if (k === undefined || k.name !== key) {
      k = this.keys.get(key);
      if (k === undefined) {
        k = new KeyMatch(key, this.order.length, this.space, this.space === undefined || this.onRow !== undefined, this.rule);
        this.onDelta.push(this.deltaOf(k));
        this.keys.set(key, k);
        this.order.push(k);
      }
      this.last = k;
    }
    k.observe(side, seq, messageId, at, this.onDelta[k.index], this.onRow);
  }

  /** Identities pending over all keys (for the bench's memory figure and tests). */
  get pending(): number {
    let n = 0;
    for (const k of this.order) n += k.pendingCount;
    return n;
  }

  /** Ranges of matched numbers held over all keys. */
  get matchedRanges(): number {
    let n = 0;
    for (const k of this.order) n += k.matchedRanges;
    return n;
  }

  /** Δt's spread over all keys, or undefined when no identity was on both sides. */
  spread(): DeltaSpread | undefined {
    const all = this.deltas.total();
    const neg = this.negated.percentiles();
    if (all === undefined || neg === undefined) return undefined;
    return { count: all.count, p10: -neg.p90, p50: all.p50, p90: all.p90 };
  }

  /**
   * End of input. `merged` is the merged stream's summary by key (the keys are the same: every
   * valid copy went to both).
   */
  finish(merged: readonly KeySummary[]): CompareResult {
    for (const k of this.order) k.settle(this.onDelta[k.index], this.onRow);
    const mergedByKey = new Map(merged.map((k) => [k.key, k]));
    const byKey: KeyComparison[] = [];
    const ranges: KeyRanges[] = [];
    let sharedKeys = 0;
    for (const k of this.order) {
      const r = k.finish(this.onRow);
      ranges.push(r);
      const m = mergedByKey.get(k.name);
      const onlyA = k.only(0);
      const onlyB = k.only(1);
      if (k.received[0] > 0 && k.received[1] > 0) sharedKeys++;
      byKey.push({
        key: k.name,
        both: k.both,
        onlyA,
        onlyB,
        lostBoth: k.lostBoth,
        firstA: k.firstA,
        firstB: k.firstB,
        deltaMs: delta(this.deltas.percentiles(k.index)),
        a: { received: k.received[0], duplicates: k.duplicates[0], missed: onlyB, incidents: r.aMissed.length },
        b: { received: k.received[1], duplicates: k.duplicates[1], missed: onlyA, incidents: r.bMissed.length },
        merged: { delivered: m?.delivered ?? 0, gaps: m?.gaps ?? 0, lost: m?.lost ?? 0, late: m?.late ?? 0 },
      });
    }
    return { byKey, ranges, totals: sumCounts(byKey, delta(this.deltas.total())), sharedKeys };
  }
}

function delta(p: { p50: number; p90: number; p99: number; max: number } | undefined): DeltaPercentiles {
  // A histogram's value at a rank can round past the exact max (3 significant digits).
  return p === undefined ? null : { p50: Math.min(p.p50, p.max), p90: Math.min(p.p90, p.max), p99: Math.min(p.p99, p.max), max: p.max };
}
