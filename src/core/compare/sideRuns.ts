/**
 * One side's numbers of one key in a comparison, cut into runs at resets (a publisher that starts
 * its numbers again, CME's weekly start): number 7 before a reset and number 7 after it are two
 * messages. Each side finds its own resets by the sequencer's rule (docs/sequencing-rules.md,
 * "Reset"), so run k of A is matched with run k of B whichever side got there first. Within a
 * run a number is unwrapped against the run's highest one, as the sequencer unwraps against what
 * it expects.
 */
import type { SerialSpace } from '../sequencer/serial';

/** When a jump down starts a run: the distance a candidate needs, the capacity that confirms it, `--reset-to`. */
export interface RunRule {
  readonly far: number;
  readonly capacity: number;
  readonly resetTo?: number;
}

/** A copy placed: its run and its position in it. */
export interface Placed<C> {
  readonly run: number;
  readonly abs: number;
  readonly copy: C;
}

export class SideRuns<C> {
  private run = 0;
  /** The highest position of the run so far (NaN before the first copy). */
  private high = NaN;
  /** A jump down waiting for the side's next number to say whether it started a run, with its copies. */
  private candidate: { raw: number; copies: C[] } | undefined;

  constructor(
    private readonly space: SerialSpace,
    /** Undefined: no resets (`--no-resets`), one run. */
    private readonly rule: RunRule | undefined,
  ) {}

  /** The run copies are placed in now. */
  get current(): number {
    return this.run;
  }

  /**
   * The position of a copy of `raw` in the current run, placed, when nothing holds it back (no
   * candidate waiting, no jump down); else NaN and nothing done: then `take` it.
   */
  position(raw: number): number {
    if (this.candidate !== undefined) return NaN;
    if (this.high === this.high && this.rule !== undefined && this.jump(raw) !== undefined) return NaN;
    return this.place(raw);
  }

  /** One copy of number `raw`: the copies placed now (none while a candidate waits; its copies once it is settled). */
  take(raw: number, copy: C): Placed<C>[] {
    const c = this.candidate;
    if (c === undefined) return this.fresh(raw, copy);
    const d = this.space.wraps ? this.space.unwrap(raw, c.raw) - c.raw : raw - c.raw;
    if (d === 0) {
      c.copies.push(copy);
      return [];
    }
    this.candidate = undefined;
    const placed =
      d > 0 && d <= this.rule!.capacity ? this.startRun(c.raw, c.copies) : c.copies.map((x) => ({ run: this.run, abs: this.place(c.raw), copy: x }));
    return placed.concat(this.fresh(raw, copy));
  }

  /** End of input: a candidate nothing contradicted starts a run, as the sequencer takes it. */
  finish(): Placed<C>[] {
    const c = this.candidate;
    this.candidate = undefined;
    return c === undefined ? [] : this.startRun(c.raw, c.copies);
  }

  private fresh(raw: number, copy: C): Placed<C>[] {
    const jump = this.high === this.high && this.rule !== undefined ? this.jump(raw) : undefined;
    if (jump === 'now') return this.startRun(raw, [copy]);
    if (jump === 'candidate') {
      this.candidate = { raw, copies: [copy] };
      return [];
    }
    return [{ run: this.run, abs: this.place(raw), copy }];
  }

  /** Whether `raw` went down (its raw value) far from the run's highest: a run starts at once (`--reset-to`), or maybe. */
  private jump(raw: number): 'now' | 'candidate' | undefined {
    const rule = this.rule!;
    const high = this.high;
    if (raw >= this.space.wrap(high)) return undefined;
    const abs = this.space.wraps ? this.space.unwrap(raw, high) : raw;
    const exact = raw === rule.resetTo;
    if (Math.abs(high - abs) <= (exact ? rule.capacity : rule.far)) return undefined;
    return exact ? 'now' : 'candidate';
  }

  /** Places a number in the current run: its position there. */
  private place(raw: number): number {
    const high = this.high;
    const abs = high !== high || !this.space.wraps ? raw : this.space.unwrap(raw, high);
    if (!(abs <= high)) this.high = abs;
    return abs;
  }

  private startRun(raw: number, copies: readonly C[]): Placed<C>[] {
    this.run++;
    this.high = raw;
    return copies.map((copy) => ({ run: this.run, abs: raw, copy }));
  }
}
