/**
 * The sequencer's state and how it is addressed: its keys, their numbers (keySlots.ts), their
 * delivery history, lost ranges and timers, and what views read of it. The rules that change it
 * are in SequencerFindings and Sequencer.
 */
import { refArray } from '../util/arrayKinds';
import { ArrivalQueue, HeldQueue } from './heldQueue';
import { HistoryArena } from './historyArena';
import { KEY_NUMBERS_SHIFT, KeySlot } from './keySlots';
import { KeyFindings, KeyState, LostRange, NOTHING_HELD, SequenceCounts, zeroCounts } from './keyState';
import { ContentHash, NO_CONTENT } from './messageHashes';
import { PublishOrder } from './publishOrder';
import { resetDistance } from './resets';
import { IdMemory } from './seenIds';
import { SequencerConfig } from './sequencerConfig';
import type { SequencerSink } from './sequencerReports';
import { SerialSpace } from './serial';
import { TimerQueue } from './timerQueue';

const DEFAULT_HISTORY = 65_536;
/** Spare queues kept at most: enough for the keys that hold at once, not a burst's worth. */
const SPARE_QUEUES = 1024;
const NO_LOST_RANGES: readonly LostRange[] = [];

/** The state a Sequencer keeps, the reads it answers, and the helpers its rules share to reach a key's parts. */
export abstract class SequencerState<T> {
  readonly space: SerialSpace;
  protected keys = new Map<string, KeyState<T>>();
  /**
   * Per key, at 8 × its creation order, the numbers that are not small integers (see
   * keySlots.ts). Positions go up to 2^53 and times are fractional milliseconds, and V8 keeps such
   * a number in an object field as a separate boxed object: one more cache miss per key on every
   * delivery. Here they are unboxed, 64 bytes a key, one cache line.
   */
  protected keyNumbers = new Float64Array(64 << KEY_NUMBERS_SHIFT);
  protected keyList = refArray<KeyState<T>>();
  /** The key of the latest arrival. */
  protected lastKey: KeyState<T> | undefined;
  protected timers = new TimerQueue<KeyState<T>>();
  protected readonly history: HistoryArena;
  protected readonly historySize: number;
  /** Unsequenced keys' messageIds (see seenIds.ts). */
  protected idMemory: IdMemory<KeyState<T>>;
  protected nowMs = -Infinity;
  /** See `releasingStart`. */
  protected inStart = false;
  protected cascadeCount = 0;
  /** Empty queues for keys that start holding (see recycleQueues). */
  protected readonly spareHeld = refArray<HeldQueue<T>>();
  protected readonly spareArrivals = refArray<ArrivalQueue>();
  protected totalsState: SequenceCounts = zeroCounts();
  /** Unsequenced keys' publish order, when judged (config.publishOrder). */
  protected publishOrder: PublishOrder<T> | undefined;
  /** How far a jump to a lower number must go to be a reset candidate (resets.ts), or Infinity with resets off. */
  protected readonly resetFar: number;

  constructor(
    readonly config: SequencerConfig,
    protected readonly sink: SequencerSink<T>,
    /** How an item's content is hashed, to tell a conflicting copy from a redelivery. */
    protected readonly contentOf: ContentHash<T> = NO_CONTENT,
  ) {
    if (!(config.gapTimeoutMs >= 0)) throw new RangeError('gapTimeoutMs must be ≥ 0');
    if (!(config.capacity >= 1)) throw new RangeError('capacity must be ≥ 1');
    this.space = new SerialSpace(config.seqBits);
    // A power of two, so the history ring index is a mask.
    this.historySize = 2 ** Math.ceil(Math.log2(Math.max(2, config.historySize ?? DEFAULT_HISTORY)));
    this.history = new HistoryArena(this.historySize, config.historyTotal);
    this.idMemory = new IdMemory(config.idsKept);
    if (config.publishOrder === true && !config.sequenced) this.publishOrder = new PublishOrder<T>();
    this.resetFar = config.resets === false ? Infinity : resetDistance(config.seqBits, config.capacity);
  }

  /** Counters summed over every key. */
  get totals(): SequenceCounts {
    return this.totalsState;
  }

  /** Deliveries of `--seq none` keys whose messageIds the engine remembers (see seenIds.ts): what a copy of it carries. */
  get idMemorySize(): number {
    return this.idMemory.size;
  }

  /** The engine clock: the latest time passed to `advance`. */
  get now(): number {
    return this.nowMs;
  }

  /**
   * True while the sink hears the messages a key's start window releases (they waited by the
   * window's rule, not for a missing number: see `start`).
   */
  get releasingStart(): boolean {
    return this.inStart;
  }

  /** Keys in the order they first appeared. */
  get keyStates(): readonly KeyState<T>[] {
    return this.keyList;
  }

  key(name: string): KeyState<T> | undefined {
    return this.keys.get(name);
  }

  /** Earliest pending deadline (a gap or a key's start window), or Infinity. */
  get nextDeadline(): number {
    return this.timers.peekDeadline();
  }

  /** Numbers currently held by a key, raw, lowest first. */
  heldNumbers(k: KeyState<T>): number[] {
    return k.held.positions().map((a) => this.space.wrap(a));
  }

  /** The largest displacement of a key's reordered messages (zeros when none, or not judged by publish order). */
  maxReorderOf(k: KeyState<T>): { readonly byMs: number; readonly byPosition: number } {
    return this.publishOrder?.worst(k.order) ?? { byMs: 0, byPosition: 0 };
  }

  /** The next number a key expects (raw), or undefined during its start window. */
  expectedNumber(k: KeyState<T>): number | undefined {
    return k.started ? this.space.wrap(this.expected(k)) : undefined;
  }

  /**
   * A key in its start window with a hole in what it holds: the first missing number above the
   * lowest held, and when the earliest message above it arrived. Once the window closes the key
   * starts at its lowest number and waits for the missing one, counting from that arrival.
   */
  startWindowHole(k: KeyState<T>): { expected: number; since: number } | undefined {
    if (k.started || k.held.size < 2) return undefined;
    const hole = k.held.firstHole();
    return hole && { expected: this.space.wrap(hole.missing), since: hole.since };
  }

  /**
   * The longest time a message of the key was held for a missing number (reordering or a gap),
   * ms. Releases at the end of the start window do not count: they waited by rule.
   */
  maxHoldMsOf(k: KeyState<T>): number {
    return this.keyNumbers[this.slot(k, KeySlot.MaxHold)];
  }

  /** When a key's lowest open gap (or start window) times out, or Infinity. */
  deadlineOf(k: KeyState<T>): number {
    if (!k.started) return k.held.size > 0 ? this.keyNumbers[this.slot(k, KeySlot.StartDeadline)] : Infinity;
    const pending = k.findings?.pending;
    const gap = k.held.size === 0 ? Infinity : ((k.arrivals as ArrivalQueue).oldest(this.expected(k)) as number) + this.config.gapTimeoutMs;
    return pending === undefined ? gap : Math.min(gap, pending.at + this.config.gapTimeoutMs);
  }

  /**
   * Takes the queues of a key that holds nothing any more, for the next key that holds. With
   * many keys few hold at once, so a handful of queues, warm in the caches, serve them all.
   */
  protected recycleQueues(k: KeyState<T>): void {
    if (k.held !== NOTHING_HELD) {
      if (this.spareHeld.length < SPARE_QUEUES) this.spareHeld.push(k.held);
      k.held = NOTHING_HELD;
    }
    const arrivals = k.arrivals;
    if (arrivals !== undefined) {
      arrivals.clear();
      if (this.spareArrivals.length < SPARE_QUEUES) this.spareArrivals.push(arrivals);
      k.arrivals = undefined;
    }
  }

  protected findingsOf(k: KeyState<T>): KeyFindings {
    return (k.findings ??= new KeyFindings());
  }

  /** Index of one of a key's numbers in keyNumbers. */
  protected slot(k: KeyState<T>, which: KeySlot): number {
    return (k.order << KEY_NUMBERS_SHIFT) + which;
  }

  protected expected(k: KeyState<T>): number {
    return this.keyNumbers[this.slot(k, KeySlot.Expected)];
  }

  /** Moves a key's expected number other than by a delivery (which steps it itself). */
  protected setExpected(k: KeyState<T>, abs: number): void {
    this.keyNumbers[this.slot(k, KeySlot.Expected)] = abs;
    this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)] = this.space.wrap(abs);
  }

  protected createKey(name: string): KeyState<T> {
    const order = this.keyList.length;
    if ((order + 1) << KEY_NUMBERS_SHIFT > this.keyNumbers.length) {
      const grown = new Float64Array(this.keyNumbers.length * 2);
      grown.set(this.keyNumbers);
      this.keyNumbers = grown;
    }
    const at = order << KEY_NUMBERS_SHIFT;
    this.keyNumbers[at + KeySlot.Queued] = Infinity;
    this.keyNumbers[at + KeySlot.StartDeadline] = this.nowMs + this.config.gapTimeoutMs;
    const k = new KeyState<T>(name, order);
    k.histMask = this.historySize - 1;
    this.keys.set(name, k);
    this.keyList.push(k);
    this.publishOrder?.addKey(order);
    return k;
  }

  /** The kept lost range holding `abs`, latest first, or undefined. */
  protected lostRangeOf(k: KeyState<T>, abs: number): LostRange | undefined {
    const ranges = k.findings?.lostRanges ?? NO_LOST_RANGES;
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i];
      if (abs >= r.from && abs <= r.to) return r;
    }
    return undefined;
  }

  /** The history slot remembering a position behind the expected one, or -1 when none does. */
  protected historySlot(k: KeyState<T>, abs: number): number {
    if (k.histLen > 0 && abs >= this.keyNumbers[this.slot(k, KeySlot.HistoryBase)] && this.expected(k) - abs <= k.histMask + 1) return this.histSlot(k, abs);
    return -1;
  }

  protected schedule(k: KeyState<T>, deadline: number): void {
    const at = this.slot(k, KeySlot.Queued);
    if (deadline === Infinity || deadline >= this.keyNumbers[at]) return;
    this.keyNumbers[at] = deadline;
    this.timers.push(deadline, k);
  }

  private histSlot(k: KeyState<T>, abs: number): number {
    const d = abs - this.keyNumbers[this.slot(k, KeySlot.HistoryBase)];
    // Bitwise ops truncate to 32 bits; 64-bit numbers can jump further than that.
    return d <= 0x7fffffff ? d & k.histMask : d % (k.histMask + 1);
  }

  /** Records the messageId and content hashes of a delivered position. */
  protected remember(k: KeyState<T>, abs: number, hash: number, content: number): void {
    if (k.histLen === 0) this.keyNumbers[this.slot(k, KeySlot.HistoryBase)] = abs; // the key's first delivery
    // Slots fill in order (lost ranges included), so the ring grows by appending until it
    // reaches the history size, then wraps.
    this.history.set(k, this.histSlot(k, abs), hash, content);
  }

  /** Lost numbers were never delivered: their history slots must not name an older message. */
  protected forgetHistory(k: KeyState<T>, from: number, to: number): void {
    const last = Math.min(to, from + k.histMask);
    for (let abs = from; abs <= last; abs++) this.remember(k, abs, 0, 0);
  }
}
