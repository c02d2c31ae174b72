/**
 * One key of a comparison while the captures stream in: each side's counts, and the identities
 * seen on one side and not yet on the other. An identity is a number in its run (unwrapped to an
 * absolute position, as the sequencer does: serial.ts; a reset starts a run: sideRuns.ts) or,
 * with `--seq none`, a messageId. Once both sides have an identity it leaves the pending map for
 * `matched`, which for numbers is a RangeSet: memory follows what is unmatched, not how long the
 * capture is.
 */
import { SerialSpace } from '../sequencer/serial';
import { CompareRow } from './compareRow';
import { KeyRanges, MissedRange } from './compareResult';
import { RangeSet } from './rangeSet';
import { RunRule, SideRuns } from './sideRuns';

/**
 * Run k's positions are numbered from k · RUN_SPAN, so identities of all runs share one line
 * (and one RangeSet). 2^44 leaves room for 512 runs of positions below 2^44 within 2^53.
 */
const RUN_SPAN = 2 ** 44;

/** A copy waiting on its side's runs (sideRuns.ts) to be placed. */
interface Copy {
  readonly seq: number;
  readonly messageId: string;
  readonly at: number;
}

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
  /** Each side's runs of numbers (undefined with `--seq none`). */
  private readonly runs: [SideRuns<Copy>, SideRuns<Copy>] | undefined;
  /** The lowest and highest identity either side had, per run. */
  private readonly runLow: number[] = [];
  private readonly runHigh: number[] = [];
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
    /** When a side's numbers start a new run (undefined: `--no-resets`). */
    rule?: RunRule,
  ) {
    if (space === undefined) this.matchedIds = new Set();
    else this.runs = [new SideRuns(space, rule), new SideRuns(space, rule)];
  }

  /**
   * One valid copy from `side`. `onDelta` gets Δt (B − A, ms) for each identity the copy (or
   * copies its side held back until a reset was settled) matched first on this side, the other
   * side having had it; `onRow` gets that identity's row.
   */
  observe(side: SideIndex, seq: number, messageId: string, at: number, onDelta: (deltaMs: number) => void, onRow?: (r: CompareRow) => void): void {
    this.received[side]++;
    if (this.runs === undefined) {
      if (this.matchedIds!.has(messageId)) this.duplicates[side]++;
      else this.match(side, messageId, seq, NaN, messageId, at, onDelta, onRow);
      return;
    }
    const runs = this.runs[side];
    const abs = runs.position(seq);
    if (abs === abs) this.placed(side, runs.current, abs, seq, messageId, at, onDelta, onRow);
    else for (const p of runs.take(seq, { seq, messageId, at })) this.placed(side, p.run, p.abs, p.copy.seq, p.copy.messageId, p.copy.at, onDelta, onRow);
  }

  /** End of input, before `finish`: copies a side held back on a reset not yet settled. */
  settle(onDelta: (deltaMs: number) => void, onRow?: (r: CompareRow) => void): void {
    if (this.runs === undefined) return;
    for (const side of [0, 1] as const)
      for (const p of this.runs[side].finish()) this.placed(side, p.run, p.abs, p.copy.seq, p.copy.messageId, p.copy.at, onDelta, onRow);
  }

  private placed(
    side: SideIndex,
    run: number,
    abs: number,
    seq: number,
    messageId: string,
    at: number,
    onDelta: (deltaMs: number) => void,
    onRow?: (r: CompareRow) => void,
  ): void {
    const id = run * RUN_SPAN + abs;
    if (!(this.runLow[run] <= id)) this.runLow[run] = id;
    if (!(this.runHigh[run] >= id)) this.runHigh[run] = id;
    if (this.matchedNumbers.has(id)) this.duplicates[side]++;
    else this.match(side, id, seq, id, messageId, at, onDelta, onRow);
  }

  /** A copy of an identity not yet on both sides: pending, a duplicate of its side's, or matched. */
  private match(
    side: SideIndex,
    id: number | string,
    seq: number,
    abs: number,
    messageId: string,
    at: number,
    onDelta: (deltaMs: number) => void,
    onRow?: (r: CompareRow) => void,
  ): void {
    const p = this.pending.get(id);
    if (p === undefined) {
      const kept = this.keepIds ? ownString(messageId) : '';
      this.pending.set(typeof id === 'number' ? id : kept, new Pending(side, at, kept, seq, abs, this.distinct[side]++));
      return;
    }
    if (p.side === side) {
      this.duplicates[side]++;
      return;
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
    onDelta(delta);
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
    if (this.space === undefined) return 0;
    let span = 0;
    this.runLow.forEach((low, run) => (span += this.runHigh[run] - low + 1));
    return span - this.both - this.pending.size;
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
            seq: space.wrap(inRun(from)),
            to: space.wrap(inRun(to)),
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
    const asRange = ([from, to]: [number, number]): MissedRange => ({ from: space.wrap(inRun(from)), to: space.wrap(inRun(to)), count: to - from + 1 });
    return { key: this.name, aMissed: numberRuns(b).map(asRange), bMissed: numberRuns(a).map(asRange), lostBoth: lost.map(asRange) };
  }

  /** The stretches of each run, between its lowest and highest identity, that no side had: the holes between matched ranges and pending numbers. */
  private lostRuns(a: readonly number[], b: readonly number[]): [number, number][] {
    const had: [number, number][] = [...this.matchedNumbers.entries()];
    for (const x of a) had.push([x, x]);
    for (const x of b) had.push([x, x]);
    had.sort((x, y) => x[0] - y[0]);
    const lost: [number, number][] = [];
    let next = NaN;
    let run = -1;
    for (const [from, to] of had) {
      const r = runOf(from);
      if (r !== run) {
        run = r;
        next = this.runLow[r];
      }
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

/** The run an identity is in, and its position in that run. */
function runOf(id: number): number {
  return Math.floor((id + RUN_SPAN / 2) / RUN_SPAN);
}
function inRun(id: number): number {
  return id - runOf(id) * RUN_SPAN;
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
