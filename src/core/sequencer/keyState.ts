/**
 * What a sequencer keeps per key: its counters and small fields (KeyState), what it needs only
 * once it has findings (KeyFindings), and the lost ranges behind "late".
 */
import { ArrivalQueue, HeldQueue } from './heldQueue';
import { EMPTY_PAGE, HistoryArena, HistoryRing } from './historyArena';
import { ResetCandidate } from './resets';

/** Counters per key (and, summed, for the run). */
export interface SequenceCounts {
  received: number;
  delivered: number;
  duplicates: number;
  redeliveries: number;
  cascades: number;
  /** Duplicates (counted there too) whose content differs from the first copy's. */
  conflicts: number;
  gaps: number;
  lost: number;
  late: number;
  /** First copies delivered after one of their key published later (`--seq publishTime`; counted in delivered too). */
  reordered: number;
  resets: number;
}

export function zeroCounts(): SequenceCounts {
  return { received: 0, delivered: 0, duplicates: 0, redeliveries: 0, cascades: 0, conflicts: 0, gaps: 0, lost: 0, late: 0, reordered: 0, resets: 0 };
}

export interface LostRange {
  readonly from: number;
  readonly to: number;
  readonly declaredAt: number;
  /** Numbers of this range that have since arrived late, with the messageId and content hash they came with. */
  arrived?: Map<number, { readonly id: string; readonly content: number }>;
}

/**
 * What a key needs only once it has findings: the lost ranges behind "late", the open redelivery
 * cascade. Apart from KeyState so that a key with none (most keys of a healthy feed) carries
 * none of it: with 100 000 keys every byte of per-key state is cache footprint.
 */
export class KeyFindings {
  /** Last redelivered position of the open cascade, and the cascade's number. */
  cascadeLast = 0;
  cascadeId = 0;
  /** Created at the key's first gap. */
  lostRanges: LostRange[] | undefined;
  /** Numbers below the sequence's start that arrived (late, before the start): a second copy is a duplicate. */
  beforeStart: Map<number, { readonly id: string; readonly content: number }> | undefined;
  /** A reset candidate waiting for the next arrival (see Sequencer.offerOutOfTurn). */
  pending: ResetCandidate<unknown> | undefined;
  /** During the start window: the position of the latest jump that may be a reset, and when it arrived. */
  startJump: number | undefined;
  startJumpAt = 0;

  copy(): KeyFindings {
    const c = Object.assign(new KeyFindings(), this);
    c.lostRanges = this.lostRanges?.map((r) => ({ ...r, arrived: r.arrived && new Map(r.arrived) }));
    c.beforeStart = this.beforeStart && new Map(this.beforeStart);
    return c;
  }
}

/**
 * The queue of every key that holds nothing, shared: a queue is an object and four arrays, and
 * kept per key it was most of the per-key state. Never inserted into: `Sequencer.hold` gives the
 * key a queue of its own first, and `recycleQueues` takes it back once it is empty.
 */
export const NOTHING_HELD = new HeldQueue<never>();

export class KeyState<T> implements SequenceCounts, HistoryRing {
  // With many keys the cost of sequencing is cache misses on this state (each key's first touch
  // in a burst misses), so it is kept small — what is rarely needed lives in KeyFindings and in
  // the queues, created on demand — and field order is memory order: what an in-order delivery
  // touches comes first. V8 would keep a large or fractional number in a field as a boxed object
  // (one more miss each), so those live in SequencerState.keyNumbers and the fields here hold small
  // integers, booleans and references.

  /**
   * False during the start window, while the first expected number is not known yet. The next
   * position to deliver and the key's other large or fractional numbers are in the sequencer
   * (see SequencerState.keyNumbers).
   */
  started = false;
  /** What the key holds back; the shared empty queue while it holds nothing. */
  held: HeldQueue<T> = NOTHING_HELD;
  received = 0;
  delivered = 0;
  /** Whether a redelivery cascade is open (see KeyFindings.cascadeLast). */
  cascadeOpen = false;
  /**
   * Hashes of the messageIds of recent deliveries (0 = unknown), slot (abs − history base) mod size,
   * in the sequencer's HistoryArena. Hashes, not the strings: millions of string references
   * would cost the garbage collector more than sequencing itself.
   */
  histPage: Int32Array = EMPTY_PAGE;
  histOff = 0;
  histCap = 0;
  histLen = 0;
  /** Set by the sequencer to its history size − 1 (see HistoryRing.histMask). */
  histMask = 0;
  maxHeld = 0;
  duplicates = 0;
  redeliveries = 0;
  cascades = 0;
  conflicts = 0;
  gaps = 0;
  lost = 0;
  late = 0;
  reordered = 0;
  resets = 0;
  /** Arrival order of what is held after the start; present only while the key holds then. */
  arrivals: ArrivalQueue | undefined;
  findings: KeyFindings | undefined;

  constructor(
    readonly name: string,
    /** Creation order, for deterministic tie-breaks. */
    readonly order: number,
  ) {}

  /** A deep copy of the state (see Sequencer.clone), its history in `history`. */
  copy(history: HistoryArena, expected: number): KeyState<T> {
    // Field by field, through the constructor: Object.assign onto Object.create was half of a
    // 100 000-key clone's time (a checkpoint, step-back, the state at the end). A unit test
    // checks that every field is copied.
    const c = new KeyState<T>(this.name, this.order);
    c.started = this.started;
    c.received = this.received;
    c.delivered = this.delivered;
    c.cascadeOpen = this.cascadeOpen;
    c.maxHeld = this.maxHeld;
    c.duplicates = this.duplicates;
    c.redeliveries = this.redeliveries;
    c.cascades = this.cascades;
    c.conflicts = this.conflicts;
    c.gaps = this.gaps;
    c.lost = this.lost;
    c.late = this.late;
    c.reordered = this.reordered;
    c.resets = this.resets;
    c.held = this.held === NOTHING_HELD ? NOTHING_HELD : this.held.clone();
    // Before the start nothing is released (and positions may be below 0, unwrapped backwards).
    c.arrivals = this.arrivals?.clone(this.started ? expected : -Infinity);
    history.copy(this, c);
    c.findings = this.findings?.copy();
    return c;
  }
}
