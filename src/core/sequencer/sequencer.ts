/**
 * The sequencer: orders messages per key, drops and reports duplicates, waits for and then
 * reports gaps. The rules are the contract documented in docs/sequencing-rules.md.
 *
 * It owns no clock: callers pass the time with `advance(now)` (the capture's own time on replay,
 * the wall clock live), so the same input always gives the same output — replay and step-back
 * rely on that. Everything it finds goes to a `SequencerSink`; it keeps per-key counters itself.
 *
 * Hot path: a message that is the next expected number of a key holding nothing is delivered
 * with a few comparisons and one store into the history arena — no allocation, and no map
 * lookup when it is of the same key as the previous arrival. With many keys the cost is memory
 * latency (each key's first touch misses the caches) and the garbage collector, so per-key state
 * is laid out and allocated with both in mind (see KeyState, HeldQueue, HistoryArena).
 *
 * Resets (resets.ts) are decided off the hot path: while a key holds a reset candidate its raw
 * expected number is a value no arrival has (-1), so the in-order test fails and the slow path
 * settles the candidate first. The file is over 500 lines because the rules share the per-key
 * state laid out here; the parts that need none of it are in the modules imported below.
 */
import { refArray } from '../util/arrayKinds';
import { ArrivalQueue, HeldQueue } from './heldQueue';
import { EMPTY_PAGE, HistoryArena, HistoryRing } from './historyArena';
import { Displacement, PublishOrder } from './publishOrder';
import { resetDistance, ResetCandidate, ResetHow, ResetInfo } from './resets';
import { IdMemory } from './seenIds';
import { SeqBits, SerialSpace } from './serial';
import { TimerQueue } from './timerQueue';

export interface SequencerConfig {
  /** How long a gap (and the start of a key) waits, in clock milliseconds. */
  readonly gapTimeoutMs: number;
  /** Held messages per key above which the lowest gap is declared lost at once. */
  readonly capacity: number;
  readonly seqBits: SeqBits;
  /** False for `--seq none`: no numbers, so arrival order is kept and duplicates are found by messageId. */
  readonly sequenced: boolean;
  /**
   * Unsequenced keys judged by publish order (`--seq publishTime`): `offer`'s number is then the
   * record's publish time in ms (NaN when it has none), and a first copy that arrives after one
   * of its key published later is reported as reordered (see publishOrder.ts).
   */
  readonly publishOrder?: boolean;
  /**
   * How many recent deliveries per key remember their messageId, to tell a redelivery (same id)
   * from a second publish of a number. Older duplicates are still found, but their first id is
   * unknown (reported as not a redelivery).
   */
  readonly historySize?: number;
  /**
   * How many delivery hashes all keys keep together (default 2^22, 16 MiB): past it a key's
   * history stops growing and keeps the latest deliveries it has room for, at least 16.
   */
  readonly historyTotal?: number;
  /**
   * Unsequenced keys (`sequenced: false`): how many of the latest deliveries of all keys remember
   * their messageId, to find duplicates (default 2^20; see seenIds.ts).
   */
  readonly idsKept?: number;
  /** False turns reset detection off (`--no-resets`); default on (docs/sequencing-rules.md, "Reset"). */
  readonly resets?: boolean;
  /** A jump to exactly this number from farther than the capacity is a reset at once (`--reset-to`). */
  readonly resetTo?: number;
}

/** `reset`: declared when the key's sequence was reset (see ResetInfo). */
export type GapReason = 'timeout' | 'capacity' | 'end' | 'reset';

export interface GapInfo {
  /** First and last missing numbers (raw, inclusive, in serial order: may span the wrap). */
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Arrival of the earliest message held above the gap: when the wait started. */
  readonly openedAt: number;
  readonly declaredAt: number;
  readonly reason: GapReason;
}

export interface DuplicateInfo<T> {
  readonly seq: number | undefined;
  readonly messageId: string;
  /** True when the first copy carried the same messageId (a Pub/Sub redelivery). */
  readonly redelivery: boolean;
  /** messageId of the copy that was delivered or held, when still remembered. */
  readonly firstMessageId: string | undefined;
  /** Whether the first copy was already delivered (else it is still held). */
  readonly firstDelivered: boolean;
  /** Cascade number (1-based, over the whole run) when this is a redelivery. */
  readonly cascade: number | undefined;
  /**
   * Same messageId as the first copy but different content (data, attributes or ordering key):
   * not a redelivery (Pub/Sub never changes a message it re-sends). See docs/sequencing-rules.md.
   */
  readonly conflict: boolean;
  /** The first copy, when a conflict's first copy is still at hand (held), to say what differs. */
  readonly firstItem: T | undefined;
  readonly at: number;
  readonly item: T;
}

export interface LateInfo<T> {
  readonly seq: number;
  readonly messageId: string;
  /** When the number was declared lost (before the key's start: when the key started). */
  readonly lostAt: number;
  /** True when the number is below the first one the key's sequence started with. */
  readonly beforeStart: boolean;
  readonly at: number;
  readonly item: T;
}

export interface ReorderInfo<T> extends Displacement<T> {
  readonly messageId: string;
  /** Its own publish time, ms. */
  readonly publishedMs: number;
  readonly at: number;
  readonly item: T;
}

export interface SequencerSink<T> {
  message(key: KeyState<T>, seq: number | undefined, item: T, arrivedAt: number, releasedAt: number): void;
  gap(key: KeyState<T>, gap: GapInfo): void;
  duplicate(key: KeyState<T>, dup: DuplicateInfo<T>): void;
  late(key: KeyState<T>, late: LateInfo<T>): void;
  /** A first copy judged by publish order came after one of its key published later (heard right after its message). */
  reordered(key: KeyState<T>, info: ReorderInfo<T>): void;
  /** Optional: a sink that leaves it out still hears the gaps and messages a reset releases. */
  reset?(key: KeyState<T>, reset: ResetInfo): void;
}

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

interface LostRange {
  readonly from: number;
  readonly to: number;
  readonly declaredAt: number;
  /** Numbers of this range that have since arrived late, with the messageId and content hash they came with. */
  arrived?: Map<number, { readonly id: string; readonly content: number }>;
}

/** Lost ranges remembered per key for "late" detection; older ones age out. */
const LOST_RANGES_KEPT = 1024;
const NO_LOST_RANGES: readonly LostRange[] = [];

/** A hash of an item's content (data, attributes, ordering key), to find conflicts; see contentHash.ts. */
export type ContentHash<T> = (item: T) => number;
/** Without a content hash every copy has the same content: no conflicts. */
const NO_CONTENT: ContentHash<unknown> = () => 0;

/** FNV-1a of a messageId, never 0 (0 marks an unknown slot). */
export function hashId(id: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}
const DEFAULT_HISTORY = 65_536;

/** Which of a key's numbers, in Sequencer.keyNumbers. */
const enum KeySlot {
  /** Absolute position of the next number to deliver (valid once the key started). */
  Expected = 0,
  /** Position of history slot 0 (valid once the key has history). */
  HistoryBase = 1,
  /** Deadline the key has in the timer heap, or Infinity. */
  Queued = 2,
  /** End of the key's start window: its first arrival plus the gap timeout. */
  StartDeadline = 3,
  /** Unwrapping reference before the key starts: the previous arrival's position. */
  StartRef = 4,
  /** Longest time a message of the key was held for a missing number (not the start window), ms. */
  MaxHold = 5,
  /**
   * The raw (wire) value of Expected. An in-order arrival is recognised by its raw number alone,
   * and delivered with it: unwrapping and wrapping a 16- or 32-bit number each cost a division.
   */
  ExpectedRaw = 6,
  /** Position of the first number of the key's current sequence (its start, or its latest reset). */
  SequenceStart = 7,
}
/** ExpectedRaw while a reset candidate is pending: equal to no number (NaN, not -1: 64-bit numbers may be negative), so no arrival takes the in-order path. */
const PENDING_RAW = Number.NaN;
/** Numbers per key (a power of two: the index is a shift; 64 bytes, one cache line). */
const KEY_NUMBERS_SHIFT = 3;

/**
 * What a key needs only once it has findings: the lost ranges behind "late", the open redelivery
 * cascade. Apart from KeyState so that a key with none (most keys of a healthy feed) carries
 * none of it: with 100 000 keys every byte of per-key state is cache footprint.
 */
class KeyFindings {
  /** Last redelivered position of the open cascade, and the cascade's number. */
  cascadeLast = 0;
  cascadeId = 0;
  /** Created at the key's first gap. */
  lostRanges: LostRange[] | undefined;
  /** Numbers below the sequence's start that arrived (late, before the start): a second copy is a duplicate. */
  beforeStart: Map<number, { readonly id: string; readonly content: number }> | undefined;
  /** A reset candidate waiting for the next arrival (see Sequencer.settle). */
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
const NOTHING_HELD = new HeldQueue<never>();
/** Spare queues kept at most: enough for the keys that hold at once, not a burst's worth. */
const SPARE_QUEUES = 1024;

export class KeyState<T> implements SequenceCounts, HistoryRing {
  // With many keys the cost of sequencing is cache misses on this state (each key's first touch
  // in a burst misses), so it is kept small — what is rarely needed lives in KeyFindings and in
  // the queues, created on demand — and field order is memory order: what an in-order delivery
  // touches comes first. V8 would keep a large or fractional number in a field as a boxed object
  // (one more miss each), so those live in Sequencer.keyNumbers and the fields here hold small
  // integers, booleans and references.

  /**
   * False during the start window, while the first expected number is not known yet. The next
   * position to deliver and the key's other large or fractional numbers are in the sequencer
   * (see Sequencer.keyNumbers).
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

export class Sequencer<T> {
  readonly space: SerialSpace;
  private keys = new Map<string, KeyState<T>>();
  /**
   * Per key, at 8 × its creation order, the numbers that are not small integers (see the slot
   * constants). Positions go up to 2^53 and times are fractional milliseconds, and V8 keeps such
   * a number in an object field as a separate boxed object: one more cache miss per key on every
   * delivery. Here they are unboxed, 64 bytes a key, one cache line.
   */
  private keyNumbers = new Float64Array(64 << KEY_NUMBERS_SHIFT);
  private keyList = refArray<KeyState<T>>();
  /** The key of the latest arrival. */
  private lastKey: KeyState<T> | undefined;
  private timers = new TimerQueue<KeyState<T>>();
  private readonly history: HistoryArena;
  private readonly historySize: number;
  /** Unsequenced keys' messageIds (see seenIds.ts). */
  private idMemory: IdMemory<KeyState<T>>;
  private nowMs = -Infinity;
  /** See `releasingStart`. */
  private inStart = false;
  private cascadeCount = 0;
  /** Empty queues for keys that start holding (see recycleQueues). */
  private readonly spareHeld = refArray<HeldQueue<T>>();
  private readonly spareArrivals = refArray<ArrivalQueue>();
  private totalsState: SequenceCounts = zeroCounts();
  /** Unsequenced keys' publish order, when judged (config.publishOrder). */
  private publishOrder: PublishOrder<T> | undefined;
  /** How far a jump to a lower number must go to be a reset candidate (resets.ts), or Infinity with resets off. */
  private readonly resetFar: number;

  constructor(
    readonly config: SequencerConfig,
    private readonly sink: SequencerSink<T>,
    /** How an item's content is hashed, to tell a conflicting copy from a redelivery. */
    private readonly contentOf: ContentHash<T> = NO_CONTENT,
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

  /**
   * An independent copy of the whole state that reports to `sink`: a checkpoint for exact
   * step-back (re-run from the nearest earlier copy). Items are shared, not copied.
   */
  clone(sink: SequencerSink<T>): Sequencer<T> {
    const c = new Sequencer<T>(this.config, sink, this.contentOf);
    // A key's copy is found by its creation order (its index in keyList), not through a Map
    // keyed by the state objects: that Map gave each of them an identity hash, and with 100 000
    // keys it was most of a clone's time.
    const list = this.keyList;
    for (let i = 0; i < list.length; i++) {
      const copy = list[i].copy(c.history, this.expected(list[i]));
      c.keyList.push(copy);
      c.keys.set(copy.name, copy);
    }
    c.keyNumbers = this.keyNumbers.slice();
    const copies = c.keyList;
    c.timers = this.timers.clone((k) => copies[k.order]);
    c.idMemory = this.idMemory.clone((k) => copies[k.order]);
    c.nowMs = this.nowMs;
    c.cascadeCount = this.cascadeCount;
    c.totalsState = { ...this.totalsState };
    c.publishOrder = this.publishOrder?.clone();
    return c;
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

  /**
   * Moves the clock to `now` (it never goes backwards) and fires every deadline up to it, each
   * at its own time, in time order.
   */
  advance(now: number): void {
    if (now > this.nowMs) this.nowMs = now;
    const timers = this.timers;
    for (let at = timers.peekDeadline(); timers.size > 0 && at <= this.nowMs; at = timers.peekDeadline()) {
      const k = timers.pop();
      this.keyNumbers[this.slot(k, KeySlot.Queued)] = Infinity;
      this.fire(k, at);
    }
  }

  /**
   * Offers one arrival at the current clock. `seq` is the raw number (already validated with
   * `space.check`); for unsequenced configs it is ignored, or with `publishOrder` the record's
   * publish time in ms (NaN when it has none).
   */
  offer(keyName: string, seq: number, messageId: string, item: T): void {
    // Feeds come in bursts per key: the previous arrival's key saves a map lookup most times.
    let k = this.lastKey;
    if (k === undefined || k.name !== keyName) {
      k = this.keys.get(keyName) ?? this.createKey(keyName);
      this.lastKey = k;
    }
    k.received++;
    this.totalsState.received++;
    const now = this.nowMs;

    if (!this.config.sequenced) {
      this.offerUnsequenced(k, seq, messageId, item, now);
      return;
    }

    if (k.started) {
      if (seq === this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)]) {
        k.cascadeOpen = false;
        this.deliver(k, messageId, item, now, now);
        if (k.held.size > 0) this.releaseRun(k, now);
        return;
      }
      this.offerOutOfTurn(k, seq, messageId, item, now);
      return;
    }

    // Start window: hold everything; the lowest held number becomes the first expected one.
    // Unwrap against the previous arrival, not the first: a fast 16-bit feed can move more than
    // half its number space during one start window.
    const ref = this.slot(k, KeySlot.StartRef);
    const prev = this.keyNumbers[ref];
    const abs = this.space.wraps ? this.space.unwrap(seq, k.held.size > 0 ? prev : seq) : seq;
    if (k.held.size > 0 && this.resetFar !== Infinity) this.noteStartJump(k, seq, abs, prev);
    this.keyNumbers[ref] = abs;
    this.hold(k, abs, messageId, item, now);
  }

  /** End of input: releases everything held, declaring open gaps lost, key by key. */
  finish(): void {
    const now = this.nowMs;
    for (const k of this.keyList) {
      if (k.findings?.pending !== undefined) this.confirmReset(k, now, 'end');
      if (!k.started && k.held.size > 0) this.start(k, now);
      while (k.held.size > 0) this.declareLowestGap(k, now, 'end');
    }
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

  // ---------------------------------------------------------------------------------------

  /**
   * Takes the queues of a key that holds nothing any more, for the next key that holds. With
   * many keys few hold at once, so a handful of queues, warm in the caches, serve them all.
   */
  private recycleQueues(k: KeyState<T>): void {
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

  private findingsOf(k: KeyState<T>): KeyFindings {
    return (k.findings ??= new KeyFindings());
  }

  /** Index of one of a key's numbers in keyNumbers. */
  private slot(k: KeyState<T>, which: KeySlot): number {
    return (k.order << KEY_NUMBERS_SHIFT) + which;
  }

  private expected(k: KeyState<T>): number {
    return this.keyNumbers[this.slot(k, KeySlot.Expected)];
  }

  /** Moves a key's expected number other than by a delivery (which steps it itself). */
  private setExpected(k: KeyState<T>, abs: number): void {
    this.keyNumbers[this.slot(k, KeySlot.Expected)] = abs;
    this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)] = this.space.wrap(abs);
  }

  private createKey(name: string): KeyState<T> {
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

  private offerUnsequenced(k: KeyState<T>, published: number, messageId: string, item: T, now: number): void {
    const content = this.contentOf(item);
    const first = this.idMemory.contentOf(k, messageId);
    if (first !== undefined) {
      this.duplicate(k, NaN, messageId, messageId, true, item, now, first === content, first !== content);
      return;
    }
    this.idMemory.remember(k, messageId, content);
    k.cascadeOpen = false;
    const judged = this.publishOrder?.judge(k.order, k.delivered, published, messageId, item);
    k.delivered++;
    this.totalsState.delivered++;
    this.sink.message(k, undefined, item, now, now);
    if (judged !== undefined) {
      k.reordered++;
      this.totalsState.reordered++;
      this.sink.reordered(k, { ...judged, messageId, publishedMs: published, at: now, item });
    }
  }

  /** Delivers the key's expected number. */
  private deliver(k: KeyState<T>, messageId: string, item: T, arrivedAt: number, now: number): void {
    const at = this.slot(k, KeySlot.Expected);
    const rawAt = this.slot(k, KeySlot.ExpectedRaw);
    const abs = this.keyNumbers[at];
    const raw = this.keyNumbers[rawAt];
    this.remember(k, abs, hashId(messageId), this.contentOf(item));
    this.keyNumbers[at] = abs + 1;
    // The space's modulus is Infinity for 64-bit numbers: they never wrap to 0.
    this.keyNumbers[rawAt] = raw + 1 === this.space.modulus ? 0 : raw + 1;
    k.delivered++;
    this.totalsState.delivered++;
    const held = now - arrivedAt;
    // Most deliveries were not held: skip the maximum for them.
    if (held > 0) {
      const max = this.slot(k, KeySlot.MaxHold);
      if (held > this.keyNumbers[max]) this.keyNumbers[max] = held;
    }
    this.sink.message(k, raw, item, arrivedAt, now);
  }

  /** Delivers the held run that starts at the expected number. */
  private releaseRun(k: KeyState<T>, now: number): void {
    const held = k.held;
    while (held.size > 0 && held.lowest() === this.expected(k)) {
      const messageId = held.lowestId();
      const item = held.lowestItem();
      const arrivedAt = held.lowestArrivedAt();
      held.dropLowest();
      this.deliver(k, messageId, item, arrivedAt, now);
    }
    if (held.size === 0) this.recycleQueues(k);
  }

  /** Holds a number above the expected one; `arrivedAt` is earlier than `now` for a dismissed reset candidate. */
  private hold(k: KeyState<T>, abs: number, messageId: string, item: T, now: number, arrivedAt = now): void {
    if (k.held === NOTHING_HELD) k.held = this.spareHeld.pop() ?? new HeldQueue<T>();
    const heldId = k.held.insert(abs, messageId, arrivedAt, item);
    if (heldId !== undefined) {
      let conflict = false;
      let firstItem: T | undefined;
      if (heldId === messageId) {
        firstItem = k.held.itemAt(abs) as T;
        conflict = this.contentOf(firstItem) !== this.contentOf(item);
      }
      this.duplicate(k, abs, messageId, heldId, false, item, now, heldId === messageId && !conflict, conflict, conflict ? firstItem : undefined);
      return;
    }
    if (k.started) (k.arrivals ??= this.spareArrivals.pop() ?? new ArrivalQueue()).push(abs, arrivedAt);
    k.cascadeOpen = false;
    const size = k.held.size;
    if (size > k.maxHeld) k.maxHeld = size;
    if (this.keyNumbers[this.slot(k, KeySlot.Queued)] === Infinity) this.schedule(k, this.deadlineOf(k));
    if (size > this.config.capacity) this.overflow(k, now);
  }

  /**
   * An arrival that is not the key's next number, or any arrival while a reset candidate is
   * pending: settles the candidate, then delivers, holds, or names the arrival.
   */
  private offerOutOfTurn(k: KeyState<T>, seq: number, messageId: string, item: T, now: number): void {
    const pending = k.findings?.pending as ResetCandidate<T> | undefined;
    if (pending !== undefined) {
      const d = (this.space.wraps ? this.space.unwrap(seq, pending.abs) : seq) - pending.abs;
      if (d === 0) {
        // A copy of the candidate, which is held aside as a held message is.
        const sameId = pending.messageId === messageId;
        const conflict = sameId && this.contentOf(pending.item) !== this.contentOf(item);
        this.duplicate(k, pending.abs, messageId, pending.messageId, false, item, now, sameId && !conflict, conflict, conflict ? pending.item : undefined);
        return;
      }
      // The new sequence goes on from the candidate (within what the held window allows), or the old one does.
      if (d > 0 && d <= this.config.capacity) this.confirmReset(k, now, 'next');
      else this.dismissCandidate(k, pending, now);
    }
    const expected = this.expected(k);
    const abs = this.space.wraps ? this.space.unwrap(seq, expected) : seq;
    if (abs === expected) {
      k.cascadeOpen = false;
      this.deliver(k, messageId, item, now, now);
      if (k.held.size > 0) this.releaseRun(k, now);
      return;
    }
    const jump = this.resetJump(k, seq, abs, expected, messageId);
    if (jump === 'now') {
      this.resetSequence(k, abs, now, now, 'resetTo');
      k.cascadeOpen = false;
      this.deliver(k, messageId, item, now, now);
      return;
    }
    if (jump === 'candidate') {
      this.findingsOf(k).pending = { abs, messageId, item, at: now };
      this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)] = PENDING_RAW;
      k.cascadeOpen = false;
      this.schedule(k, this.deadlineOf(k));
      return;
    }
    if (abs < expected) this.behind(k, abs, messageId, item, now);
    else this.hold(k, abs, messageId, item, now);
  }

  /**
   * Whether an arrival that went down to a low number far from the expected one may start a new
   * sequence (docs/sequencing-rules.md, "Reset"): `now` for the `--reset-to` number, `candidate`
   * for any other, undefined when it is not a jump of that kind (it is late, a redelivery the
   * history remembers, or held).
   */
  private resetJump(k: KeyState<T>, seq: number, abs: number, expected: number, messageId: string): 'now' | 'candidate' | undefined {
    // Only a number that went down: behind, or (16/32-bit) ahead across the top of the space in one jump.
    if (this.resetFar === Infinity || seq >= this.space.wrap(expected)) return undefined;
    const exact = seq === this.config.resetTo;
    if (Math.abs(abs - expected) <= (exact ? this.config.capacity : this.resetFar)) return undefined;
    if (abs < expected) {
      if (this.lostRangeOf(k, abs) !== undefined) return undefined;
      const slot = this.historySlot(k, abs);
      if (slot >= 0 && this.history.get(k, slot) === hashId(messageId)) return undefined;
    } else if (k.held.itemAt(abs) !== undefined) return undefined;
    return exact ? 'now' : 'candidate';
  }

  /** The pending candidate starts a new sequence: the old one ends, the candidate is its first number. */
  private confirmReset(k: KeyState<T>, now: number, how: ResetHow): void {
    const f = k.findings as KeyFindings;
    const p = f.pending as ResetCandidate<T>;
    f.pending = undefined;
    this.resetSequence(k, p.abs, now, p.at, how);
    k.cascadeOpen = false;
    this.deliver(k, p.messageId, p.item, p.at, now);
  }

  /** The old sequence went on: the candidate is named for what it is (late, before the start, a duplicate) or held. */
  private dismissCandidate(k: KeyState<T>, p: ResetCandidate<T>, now: number): void {
    (k.findings as KeyFindings).pending = undefined;
    const expected = this.expected(k);
    this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)] = this.space.wrap(expected);
    if (p.abs < expected) this.behind(k, p.abs, p.messageId, p.item, now);
    else this.hold(k, p.abs, p.messageId, p.item, now, p.at);
  }

  /**
   * Ends the key's sequence at a reset: what it holds is released and its open gaps declared
   * lost (reason `reset`), its history, lost ranges and start no longer apply, and it expects
   * `to` next (the caller delivers it). Reported after the gaps, with what they released.
   */
  private resetSequence(k: KeyState<T>, to: number, now: number, arrivedAt: number, how: ResetHow): void {
    const expected = this.expected(k);
    const positions = k.held.size > 0 ? k.held.positions() : undefined;
    const last = positions !== undefined ? Math.max(expected - 1, positions[positions.length - 1]) : expected - 1;
    const delivered = k.delivered;
    const lost = k.lost;
    this.keyNumbers[this.slot(k, KeySlot.ExpectedRaw)] = this.space.wrap(expected);
    while (k.held.size > 0) this.declareLowestGap(k, now, 'reset');
    const f = k.findings;
    if (f !== undefined) {
      f.lostRanges = undefined;
      f.beforeStart = undefined;
    }
    // The ring's slots stay allocated; from the next delivery on they record the new sequence.
    k.histLen = 0;
    this.setExpected(k, to);
    this.keyNumbers[this.slot(k, KeySlot.SequenceStart)] = to;
    this.keyNumbers[this.slot(k, KeySlot.StartDeadline)] = now;
    k.resets++;
    this.totalsState.resets++;
    this.sink.reset?.(k, {
      from: this.space.wrap(last),
      to: this.space.wrap(to),
      at: now,
      arrivedAt,
      released: k.delivered - delivered,
      lost: k.lost - lost,
      how,
    });
  }

  /**
   * During the start window: an arrival that went down to a low number far from the previous one
   * may be a reset (`start` finds it); one outside the new run means the old sequence went on.
   */
  private noteStartJump(k: KeyState<T>, seq: number, abs: number, prev: number): void {
    const f = k.findings;
    const jump = f?.startJump;
    if (f !== undefined && jump !== undefined && (abs < jump || abs >= jump + this.resetFar)) f.startJump = undefined;
    const far = seq === this.config.resetTo ? this.config.capacity : this.resetFar;
    if (seq < this.space.wrap(prev) && Math.abs(abs - prev) > far) {
      const found = this.findingsOf(k);
      found.startJump = abs;
      found.startJumpAt = this.nowMs;
    }
  }

  /** The kept lost range holding `abs`, latest first, or undefined. */
  private lostRangeOf(k: KeyState<T>, abs: number): LostRange | undefined {
    const ranges = k.findings?.lostRanges ?? NO_LOST_RANGES;
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i];
      if (abs >= r.from && abs <= r.to) return r;
    }
    return undefined;
  }

  /** The history slot remembering a position behind the expected one, or -1 when none does. */
  private historySlot(k: KeyState<T>, abs: number): number {
    if (k.histLen > 0 && abs >= this.keyNumbers[this.slot(k, KeySlot.HistoryBase)] && this.expected(k) - abs <= k.histMask + 1) return this.histSlot(k, abs);
    return -1;
  }

  /**
   * A number below the expected one: late if it was declared lost or is below the sequence's
   * start (never seen either way), else a duplicate.
   */
  private behind(k: KeyState<T>, abs: number, messageId: string, item: T, now: number): void {
    const r = this.lostRangeOf(k, abs);
    if (r !== undefined) {
      const prior = r.arrived?.get(abs);
      const content = this.contentOf(item);
      if (prior !== undefined) {
        const conflict = prior.id === messageId && prior.content !== content;
        this.duplicate(k, abs, messageId, prior.id, true, item, now, prior.id === messageId && !conflict, conflict);
        return;
      }
      (r.arrived ??= new Map()).set(abs, { id: messageId, content });
      this.late(k, abs, messageId, item, now, r.declaredAt, false);
      return;
    }
    if (abs < this.keyNumbers[this.slot(k, KeySlot.SequenceStart)]) {
      this.beforeStart(k, abs, messageId, item, now);
      return;
    }
    let sameId = false;
    let conflict = false;
    const slot = this.historySlot(k, abs);
    if (slot >= 0) {
      const first = this.history.get(k, slot);
      // Equal 32-bit hashes of different ids would mislabel a second publish as a redelivery:
      // about one in four billion.
      sameId = first !== 0 && first === hashId(messageId);
      conflict = sameId && this.history.getContent(k, slot) !== this.contentOf(item);
    }
    this.duplicate(k, abs, messageId, sameId ? messageId : undefined, true, item, now, sameId && !conflict, conflict);
  }

  /** A number below the first of the key's sequence: late (the key started without it), or a copy of one that came so. */
  private beforeStart(k: KeyState<T>, abs: number, messageId: string, item: T, now: number): void {
    const f = this.findingsOf(k);
    const content = this.contentOf(item);
    const prior = f.beforeStart?.get(abs);
    if (prior !== undefined) {
      const conflict = prior.id === messageId && prior.content !== content;
      this.duplicate(k, abs, messageId, prior.id, true, item, now, prior.id === messageId && !conflict, conflict);
      return;
    }
    const seen = (f.beforeStart ??= new Map());
    // Bounded like the history: the oldest is forgotten (a copy of it is then late again).
    if (seen.size >= this.historySize) seen.delete(seen.keys().next().value as number);
    seen.set(abs, { id: messageId, content });
    this.late(k, abs, messageId, item, now, this.keyNumbers[this.slot(k, KeySlot.StartDeadline)], true);
  }

  private late(k: KeyState<T>, abs: number, messageId: string, item: T, now: number, lostAt: number, beforeStart: boolean): void {
    k.cascadeOpen = false;
    k.late++;
    this.totalsState.late++;
    this.sink.late(k, { seq: this.space.wrap(abs), messageId, lostAt, beforeStart, at: now, item });
  }

  private duplicate(
    k: KeyState<T>,
    abs: number,
    messageId: string,
    firstMessageId: string | undefined,
    firstDelivered: boolean,
    item: T,
    now: number,
    redelivery = firstMessageId === messageId,
    conflict = false,
    firstItem: T | undefined = undefined,
  ): void {
    k.duplicates++;
    this.totalsState.duplicates++;
    if (conflict) {
      k.conflicts++;
      this.totalsState.conflicts++;
    }
    let cascade: number | undefined;
    if (redelivery) {
      const f = this.findingsOf(k);
      k.redeliveries++;
      this.totalsState.redeliveries++;
      // One cascade = a run of redeliveries of this key in increasing order with no fresh
      // message between them: Pub/Sub re-sending N and everything after it.
      const continues = k.cascadeOpen && (abs !== abs || abs > f.cascadeLast);
      if (!continues) {
        k.cascades++;
        this.totalsState.cascades++;
        f.cascadeId = ++this.cascadeCount;
      }
      k.cascadeOpen = true;
      f.cascadeLast = abs !== abs ? 0 : abs;
      cascade = f.cascadeId;
    }
    this.sink.duplicate(k, {
      seq: abs !== abs ? undefined : this.space.wrap(abs),
      messageId,
      redelivery,
      firstMessageId,
      firstDelivered,
      cascade,
      conflict,
      firstItem,
      at: now,
      item,
    });
  }

  private schedule(k: KeyState<T>, deadline: number): void {
    const at = this.slot(k, KeySlot.Queued);
    if (deadline === Infinity || deadline >= this.keyNumbers[at]) return;
    this.keyNumbers[at] = deadline;
    this.timers.push(deadline, k);
  }

  /** A key's timer, set for `queuedAt`, went off: its start window or its lowest gap may be due. */
  private fire(k: KeyState<T>, queuedAt: number): void {
    const due = this.deadlineOf(k);
    if (due === Infinity) return;
    // A timer is not moved when the key's deadline moves later (the message that set it was
    // released): it goes off early, and the key is scheduled again, to wait its turn at the real
    // deadline. Fired now, a key whose deadline is later than another key's still queued would
    // report first, and the output would go back in time (the differential test found it).
    // `queuedAt` is at most the clock (advance pops only what is due).
    if (due <= queuedAt) {
      // Fire at the deadline itself, not at the arrival that moved the clock past it, so a gap
      // is declared exactly gapTimeout after it opened whatever the input's pacing.
      const pending = k.findings?.pending;
      if (pending !== undefined && pending.at + this.config.gapTimeoutMs <= due) this.confirmReset(k, due, 'quiet');
      else if (!k.started) this.start(k, due);
      else if (pending === undefined) this.declareLowestGap(k, due, 'timeout');
      else {
        // The old sequence's gap times out while a candidate waits: deliver with the real number, then wait again.
        const raw = this.slot(k, KeySlot.ExpectedRaw);
        this.keyNumbers[raw] = this.space.wrap(this.expected(k));
        this.declareLowestGap(k, due, 'timeout');
        this.keyNumbers[raw] = PENDING_RAW;
      }
    }
    this.schedule(k, this.deadlineOf(k));
  }

  private start(k: KeyState<T>, now: number): void {
    const f = k.findings;
    const jump = f?.startJump;
    if (f !== undefined && jump !== undefined) {
      f.startJump = undefined;
      this.startAcrossReset(k, now, jump, f.startJumpAt);
      return;
    }
    this.startAt(k, now);
  }

  /** Starts the key at its lowest held number. */
  private startAt(k: KeyState<T>, now: number): void {
    k.started = true;
    const first = k.held.lowest();
    this.setExpected(k, first);
    this.keyNumbers[this.slot(k, KeySlot.SequenceStart)] = first;
    // From here the slot says when the key started: when numbers below its start were given up.
    this.keyNumbers[this.slot(k, KeySlot.StartDeadline)] = now;
    this.releaseStart(k, now);
  }

  /** Releases the run a start (or the new sequence of a reset found in the start window) begins with. */
  private releaseStart(k: KeyState<T>, now: number): void {
    // What the start releases waited for the window's rule, not for a missing number: every
    // key's first message waits the whole gap timeout, so counted it would make every key's
    // longest hold the gap timeout and hide the waits reordering and gaps cause.
    const max = this.slot(k, KeySlot.MaxHold);
    const before = this.keyNumbers[max];
    this.inStart = true;
    try {
      this.releaseRun(k, now);
    } finally {
      this.inStart = false;
    }
    this.keyNumbers[max] = before;
    // The start window records no arrival order (nothing is released during it, and every key
    // has one): what is still held now waits behind a gap, and its wait needs that order.
    if (k.held.size > 0) (k.arrivals ??= this.spareArrivals.pop() ?? new ArrivalQueue()).refill(k.held);
    else this.recycleQueues(k);
  }

  /**
   * The start window held a jump to a low number (`jumpTo`, see noteStartJump): the old sequence
   * (what arrived before the jump, or outside the new run) starts and ends in a reset, then the
   * new one starts at `jumpTo`.
   */
  private startAcrossReset(k: KeyState<T>, now: number, jumpTo: number, jumpAt: number): void {
    const held = k.held;
    const fresh: { abs: number; id: string; at: number; item: T }[] = [];
    const old: typeof fresh = [];
    while (held.size > 0) {
      const abs = held.lowest();
      const at = held.lowestArrivedAt();
      (abs >= jumpTo && abs < jumpTo + this.resetFar && at >= jumpAt ? fresh : old).push({ abs, id: held.lowestId(), at, item: held.lowestItem() });
      held.dropLowest();
    }
    const refill = (entries: typeof fresh): void => {
      if (k.held === NOTHING_HELD) k.held = this.spareHeld.pop() ?? new HeldQueue<T>();
      for (const e of entries) k.held.insert(e.abs, e.id, e.at, e.item);
    };
    if (old.length === 0) {
      refill(fresh);
      this.startAt(k, now);
      return;
    }
    refill(old);
    this.startAt(k, now);
    this.resetSequence(k, jumpTo, now, Math.min(...fresh.map((e) => e.at)), 'start');
    refill(fresh);
    this.releaseStart(k, now);
  }

  private overflow(k: KeyState<T>, now: number): void {
    if (!k.started) this.start(k, now);
    while (k.held.size > this.config.capacity) this.declareLowestGap(k, now, 'capacity');
  }

  private histSlot(k: KeyState<T>, abs: number): number {
    const d = abs - this.keyNumbers[this.slot(k, KeySlot.HistoryBase)];
    // Bitwise ops truncate to 32 bits; 64-bit numbers can jump further than that.
    return d <= 0x7fffffff ? d & k.histMask : d % (k.histMask + 1);
  }

  /** Records the messageId and content hashes of a delivered position. */
  private remember(k: KeyState<T>, abs: number, hash: number, content: number): void {
    if (k.histLen === 0) this.keyNumbers[this.slot(k, KeySlot.HistoryBase)] = abs; // the key's first delivery
    // Slots fill in order (lost ranges included), so the ring grows by appending until it
    // reaches the history size, then wraps.
    this.history.set(k, this.histSlot(k, abs), hash, content);
  }

  /** Lost numbers were never delivered: their history slots must not name an older message. */
  private forgetHistory(k: KeyState<T>, from: number, to: number): void {
    const last = Math.min(to, from + k.histMask);
    for (let abs = from; abs <= last; abs++) this.remember(k, abs, 0, 0);
  }

  private declareLowestGap(k: KeyState<T>, now: number, reason: GapReason): void {
    const lowest = k.held.lowest();
    const from = this.expected(k);
    const to = lowest - 1;
    const count = to - from + 1;
    const openedAt = (k.arrivals as ArrivalQueue).oldest(from) as number;
    k.gaps++;
    k.lost += count;
    this.totalsState.gaps++;
    this.totalsState.lost += count;
    const ranges = (this.findingsOf(k).lostRanges ??= []);
    ranges.push({ from, to, declaredAt: now });
    if (ranges.length > LOST_RANGES_KEPT) ranges.shift();
    this.forgetHistory(k, from, to);
    this.sink.gap(k, {
      from: this.space.wrap(from),
      to: this.space.wrap(to),
      count,
      openedAt,
      declaredAt: now,
      reason,
    });
    this.setExpected(k, lowest);
    this.releaseRun(k, now);
  }
}
