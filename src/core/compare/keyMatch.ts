/**
 * One key of a comparison while the captures stream in: each side's counts, and the identities
 * seen on one side and not yet on the other. An identity is a number (unwrapped to an absolute
 * position, as the sequencer does: serial.ts) or, with `--seq none`, a messageId. Once both
 * sides have an identity it leaves the pending map for `matched`, which for numbers is a
 * RangeSet: memory follows what is unmatched, not how long the capture is.
 */
import { SerialSpace } from '../sequencer/serial';
import { CompareRow } from './compareRow';
import { KeyRanges, MissedRange } from './compareResult';
import { RangeSet } from './rangeSet';

/** 0 = A, 1 = B. */
export type SideIndex = 0 | 1;

/** An identity one side has had and the other not (yet). */
class Pending {
  constructor(
    readonly side: SideIndex,
    /** Its first arrival (ms). */
    readonly at: number,
    readonly messageId: string,
    /** The raw number and its absolute position (0 and NaN with `--seq none`). */
    readonly seq: number,
    readonly abs: number,
    /** Its place among its side's identities of the key (0, 1, 2…): runs with `--seq none`. */
    readonly ordinal: number,
  ) {}
}

export class KeyMatch {
  readonly received: [number, number] = [0, 0];
  readonly duplicates: [number, number] = [0, 0];
  /** Identities each side has had. */
  private readonly distinct: [number, number] = [0, 0];
  both = 0;
  firstA = 0;
  firstB = 0;
  private lastAbs = NaN;
  private minAbs = Infinity;
  private maxAbs = -Infinity;
  private readonly pending = new Map<number | string, Pending>();
  private readonly matchedNumbers = new RangeSet();
  /** With `--seq none`: the messageIds both sides have had (duplicates are found by them). */
  private readonly matchedIds: Set<string> | undefined;

  constructor(
    readonly name: string,
    /** The key's number in the comparison (0, 1, 2… in order of first arrival). */
    readonly index: number,
    private readonly space: SerialSpace | undefined,
    /** Whether pending identities keep their messageIds (for export rows; identities with `--seq none` are them). */
    private readonly keepIds: boolean,
  ) {
    if (space === undefined) this.matchedIds = new Set();
  }

  /**
   * One valid copy from `side`. Returns Δt (B − A, ms) when it was the first copy of an
   * identity the other side had already, else NaN; `onRow` gets that identity's row.
   */
  observe(side: SideIndex, seq: number, messageId: string, at: number, onRow?: (r: CompareRow) => void): number {
    this.received[side]++;
    let id: number | string;
    if (this.space !== undefined) {
      const abs = this.lastAbs !== this.lastAbs ? seq : this.space.unwrap(seq, this.lastAbs);
      this.lastAbs = abs;
      if (abs < this.minAbs) this.minAbs = abs;
      if (abs > this.maxAbs) this.maxAbs = abs;
      if (this.matchedNumbers.has(abs)) {
        this.duplicates[side]++;
        return NaN;
      }
      id = abs;
    } else {
      if (this.matchedIds!.has(messageId)) {
        this.duplicates[side]++;
        return NaN;
      }
      id = messageId;
    }
    const p = this.pending.get(id);
    if (p === undefined) {
      const kept = this.keepIds ? ownString(messageId) : '';
      this.pending.set(typeof id === 'number' ? id : kept, new Pending(side, at, kept, seq, typeof id === 'number' ? id : NaN, this.distinct[side]++));
      return NaN;
    }
    if (p.side === side) {
      this.duplicates[side]++;
      return NaN;
    }
    this.distinct[side]++;
    this.both++;
    this.pending.delete(id);
    if (typeof id === 'number') this.matchedNumbers.add(id);
    else this.matchedIds!.add(ownString(id));
    const atA = side === 0 ? at : p.at;
    const atB = side === 0 ? p.at : at;
    const delta = atB - atA;
    if (delta > 0) this.firstA++;
    else if (delta < 0) this.firstB++;
    if (onRow) {
      const idA = side === 0 ? messageId : p.messageId;
      const idB = side === 0 ? p.messageId : messageId;
      onRow({
        key: this.name,
        seq: this.space ? seq : null,
        inA: true,
        inB: true,
        arrivedA: atA,
        arrivedB: atB,
        deltaMs: delta,
        messageIdA: idA,
        messageIdB: idB,
      });
    }
    return delta;
  }

  /** Identities held pending (what this key costs beyond its counters). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Ranges the matched numbers take (what they cost). */
  get matchedRanges(): number {
    return this.matchedNumbers.ranges;
  }

  /** Identities only A had / only B had. */
  only(side: SideIndex): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.side === side) n++;
    return n;
  }

  /** Numbers neither side had between the lowest and the highest either had. */
  get lostBoth(): number {
    if (this.space === undefined || this.maxAbs < this.minAbs) return 0;
    return this.maxAbs - this.minAbs + 1 - this.both - this.pending.size;
  }

  /**
   * End of input: the ranges each side missed and both lost; `onRow` gets the one-sided
   * identities and the runs both lost, in number order (arrival order with `--seq none`).
   */
  finish(onRow?: (r: CompareRow) => void): KeyRanges {
    const onlyA: Pending[] = [];
    const onlyB: Pending[] = [];
    for (const p of this.pending.values()) (p.side === 0 ? onlyA : onlyB).push(p);
    const space = this.space;
    if (space === undefined) {
      if (onRow) for (const p of this.pending.values()) onRow(oneSidedRow(this.name, p, null));
      return { key: this.name, aMissed: ordinalRuns(onlyB), bMissed: ordinalRuns(onlyA), lostBoth: [] };
    }
    const absOf = (p: Pending) => p.abs;
    const a = onlyA.map(absOf).sort((x, y) => x - y);
    const b = onlyB.map(absOf).sort((x, y) => x - y);
    const lost = this.lostRuns(a, b);
    if (onRow) {
      const rows: [number, CompareRow][] = [];
      for (const p of this.pending.values()) rows.push([absOf(p), oneSidedRow(this.name, p, p.seq)]);
      for (const [from, to] of lost)
        rows.push([
          from,
          {
            key: this.name,
            seq: space.wrap(from),
            to: space.wrap(to),
            count: to - from + 1,
            inA: false,
            inB: false,
            arrivedA: null,
            arrivedB: null,
            deltaMs: null,
            messageIdA: null,
            messageIdB: null,
          },
        ]);
      rows.sort((x, y) => x[0] - y[0]);
      for (const [, r] of rows) onRow(r);
    }
    const asRange = ([from, to]: [number, number]): MissedRange => ({ from: space.wrap(from), to: space.wrap(to), count: to - from + 1 });
    return { key: this.name, aMissed: numberRuns(b).map(asRange), bMissed: numberRuns(a).map(asRange), lostBoth: lost.map(asRange) };
  }

  /** The runs between minAbs and maxAbs that no side had: the holes between matched ranges and pending numbers. */
  private lostRuns(a: readonly number[], b: readonly number[]): [number, number][] {
    const had: [number, number][] = [...this.matchedNumbers.entries()];
    for (const x of a) had.push([x, x]);
    for (const x of b) had.push([x, x]);
    had.sort((x, y) => x[0] - y[0]);
    const lost: [number, number][] = [];
    let next = this.minAbs;
    for (const [from, to] of had) {
      if (from > next) lost.push([next, from - 1]);
      if (to + 1 > next) next = to + 1;
    }
    return lost;
  }
}

/**
 * `s` as a string of its own. A messageId read on a scanning thread is a slice of its batch's
 * string of ids (parallelReader.ts), and V8 keeps that whole string alive for as long as the
 * slice lives: kept pending, a few thousand ids held most of the batches' ids in memory. Prefixed
 * and sliced again, it holds only its own short parent.
 */
function ownString(s: string): string {
  return (' ' + s).slice(1);
}

function oneSidedRow(key: string, p: Pending, seq: number | null): CompareRow {
  const inA = p.side === 0;
  return {
    key,
    seq,
    inA,
    inB: !inA,
    arrivedA: inA ? p.at : null,
    arrivedB: inA ? null : p.at,
    deltaMs: null,
    messageIdA: inA ? p.messageId : null,
    messageIdB: inA ? null : p.messageId,
  };
}

/** Runs of consecutive numbers in a sorted list, as [first, last]. */
function numberRuns(sorted: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const x of sorted) {
    const last = runs[runs.length - 1];
    if (last !== undefined && x === last[1] + 1) last[1] = x;
    else runs.push([x, x]);
  }
  return runs;
}

/** Runs of consecutive places in the side's arrival order (`--seq none`); `pending` is in that order. */
function ordinalRuns(pending: readonly Pending[]): MissedRange[] {
  const runs: MissedRange[] = [];
  let last = NaN;
  for (const p of pending) {
    if (p.ordinal === last + 1) runs[runs.length - 1].count++;
    else runs.push({ count: 1 });
    last = p.ordinal;
  }
  return runs;
}
