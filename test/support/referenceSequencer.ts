/**
 * A reference model of the sequencing rules (docs/sequencing-rules.md), written for
 * clarity only: per key a Map of what is held and of every number delivered, deadlines
 * recomputed from scratch by scanning every key, nothing cached, pooled or unboxed. The engine
 * (src/core/sequencer/sequencer.ts) does the same work with a timer queue, a raw-number fast path, recycled
 * queues and a hashed delivery history; the differential test (sequencer.model.test.ts) feeds
 * both the same random arrivals and expects the same events, in the same order.
 *
 * Sequenced (`--seq attribute:…`) and unsequenced (`--seq none`) configurations. The delivery
 * history is every delivery; only what the engine remembers of it is consulted (the last
 * positions of a key its room allows — see `recordPositions`; unsequenced, the last `idsKept`
 * deliveries of all keys).
 *
 * Resets (docs/sequencing-rules.md, "Reset") are modelled with every number kept: a candidate
 * held aside until the next arrival settles it, a jump found in the start window by partitioning
 * what it held.
 *
 * Where the rules leave a detail open, this follows the engine and says so (marked "engine's
 * choice"), so that the test checks the rules and the ordering, not those details.
 */
import { GapReason, SequenceCounts, SequencerConfig } from '../../src/core/sequencer/sequencer';
import { SerialSpace } from '../../src/core/sequencer/serial';
import { resetDistance, ResetHow } from '../../src/core/sequencer/resets';

/** The engine's configuration, every field of it modelled (historySize, historyTotal, idsKept: what is remembered). */
export type ReferenceConfig = SequencerConfig;

/** What either side reports, as plain values (the test's sink records the engine's the same way). */
export type ModelEvent =
  | { type: 'message'; key: string; seq: number | undefined; item: string; arrivedAt: number; releasedAt: number }
  | { type: 'gap'; key: string; from: number; to: number; count: number; openedAt: number; declaredAt: number; reason: GapReason }
  | {
      type: 'duplicate';
      key: string;
      seq: number | undefined;
      messageId: string;
      redelivery: boolean;
      firstMessageId: string | undefined;
      firstDelivered: boolean;
      cascade: number | undefined;
      conflict: boolean;
      firstItem: string | undefined;
      at: number;
      item: string;
    }
  | { type: 'late'; key: string; seq: number; messageId: string; lostAt: number; beforeStart: boolean; at: number; item: string }
  | {
      type: 'reordered';
      key: string;
      messageId: string;
      publishedMs: number;
      behindMs: number;
      behindId: string;
      behindItem: string;
      byMs: number;
      byPosition: number;
      at: number;
      item: string;
    }
  | { type: 'reset'; key: string; from: number; to: number; at: number; arrivedAt: number; released: number; lost: number; how: ResetHow };

/** A key's counters, its most messages held at once and its longest hold (ms). */
export type ModelCounts = SequenceCounts & { maxHeld: number; maxHoldMs: number };

interface Held {
  readonly id: string;
  readonly arrivedAt: number;
  readonly item: string;
}

interface Lost {
  readonly from: number;
  readonly to: number;
  readonly declaredAt: number;
  readonly arrived: Map<number, { id: string; item: string }>;
}

class RefKey {
  started = false;
  /** Next absolute position to deliver, once started. */
  expected = NaN;
  /** Before the start: the previous arrival's position, to unwrap the next one against. */
  startRef = NaN;
  readonly held = new Map<number, Held>();
  /** Every delivered position, its messageId and item. */
  readonly deliveredIds = new Map<number, { id: string; item: string }>();
  /** Positions (delivered or lost) the key's history has recorded, and the room it has for them. */
  recorded = 0;
  room = 0;
  /** Whether the room may still grow (until the history size, or historyTotal stops it). */
  roomGrows = true;
  /** Unsequenced: every delivery, with its number over all keys. */
  readonly seenLog: { id: string; item: string; overall: number }[] = [];
  /** Publish order: every first copy, in arrival order, with its publish time (NaN: none). */
  readonly firsts: { id: string; item: string; published: number }[] = [];
  readonly lost: Lost[] = [];
  cascadeOpen = false;
  cascadeLast = 0;
  cascadeId = 0;
  /** First position of the current sequence (the start, or the latest reset), and when it began. */
  seqStart = NaN;
  startedAt = NaN;
  /** Numbers below seqStart that arrived, with their id and item. */
  readonly beforeStart = new Map<number, { id: string; item: string }>();
  /** A reset candidate waiting for the next arrival. */
  pending: { abs: number; id: string; item: string; at: number } | undefined;
  /** During the start window: the position of the latest jump that may be a reset. */
  startJump: number | undefined;
  startJumpAt = 0;
  readonly counts: ModelCounts = {
    received: 0,
    delivered: 0,
    duplicates: 0,
    redeliveries: 0,
    cascades: 0,
    conflicts: 0,
    gaps: 0,
    lost: 0,
    late: 0,
    reordered: 0,
    resets: 0,
    maxHeld: 0,
    maxHoldMs: 0,
  };

  constructor(
    readonly name: string,
    readonly startDeadline: number,
  ) {}

  lowestHeld(): number {
    return Math.min(...this.held.keys());
  }

  oldestArrival(): number {
    return Math.min(...[...this.held.values()].map((h) => h.arrivedAt));
  }
}

export class ReferenceSequencer {
  readonly events: ModelEvent[] = [];
  private readonly keys: RefKey[] = [];
  private readonly space: SerialSpace;
  private now = -Infinity;
  private cascades = 0;
  /** Deliveries per key whose messageId is remembered: a power of two, at least 2. */
  private readonly historySize: number;
  private readonly historyTotal: number;
  /** Room of every key's history together. */
  private roomInUse = 0;
  /** Unsequenced deliveries over all keys, and how many of the latest are remembered. */
  private unsequencedDelivered = 0;
  private readonly idsKept: number;

  constructor(private readonly config: ReferenceConfig) {
    this.space = new SerialSpace(config.seqBits);
    this.historySize = 2 ** Math.ceil(Math.log2(Math.max(2, config.historySize ?? 65_536)));
    this.historyTotal = config.historyTotal ?? 1 << 22;
    this.idsKept = config.idsKept ?? 1 << 20;
    this.resetFar = config.resets === false ? Infinity : resetDistance(config.seqBits, config.capacity);
  }

  /** How far a jump to a lower number goes to be a reset candidate (Infinity: resets off). */
  private readonly resetFar: number;

  /** When a key's start window ends or its lowest gap times out, or Infinity. */
  deadlineOf(name: string): number {
    const k = this.keys.find((x) => x.name === name);
    return k ? this.deadline(k) : Infinity;
  }

  /** The earliest deadline over every key, or Infinity. */
  get nextDeadline(): number {
    return Math.min(Infinity, ...this.keys.map((k) => this.deadline(k)));
  }

  counts(name: string): ModelCounts | undefined {
    return this.keys.find((k) => k.name === name)?.counts;
  }

  /** Moves the clock; every deadline up to it fires at its own time, earliest first, ties in key creation order. */
  advance(now: number): void {
    if (now > this.now) this.now = now;
    for (;;) {
      let due: RefKey | undefined;
      let at = Infinity;
      for (const k of this.keys) {
        const d = this.deadline(k);
        if (d < at) {
          due = k;
          at = d;
        }
      }
      if (due === undefined || at > this.now) return;
      if (due.pending !== undefined && due.pending.at + this.config.gapTimeoutMs <= at) this.confirmReset(due, at, 'quiet');
      else if (!due.started) this.start(due, at);
      else this.declareLowestGap(due, at, 'timeout');
    }
  }

  offer(name: string, raw: number, id: string, item: string): void {
    let k = this.keys.find((x) => x.name === name);
    if (k === undefined) {
      k = new RefKey(name, this.now + this.config.gapTimeoutMs);
      this.keys.push(k);
    }
    k.counts.received++;
    if (!this.config.sequenced) {
      // A duplicate when the id's latest delivery on the key is among the last `idsKept`
      // deliveries of all keys.
      const last = [...k.seenLog].reverse().find((d) => d.id === id);
      const remembered = last !== undefined && last.overall > this.unsequencedDelivered - this.idsKept;
      if (remembered) {
        const conflict = !this.sameContent(last.item, item);
        this.duplicate(k, NaN, id, id, true, item, !conflict, conflict);
      } else {
        k.seenLog.push({ id, item, overall: ++this.unsequencedDelivered });
        k.cascadeOpen = false;
        k.counts.delivered++;
        this.events.push({ type: 'message', key: k.name, seq: undefined, item, arrivedAt: this.now, releasedAt: this.now });
        if (this.config.publishOrder) this.judge(k, raw, id, item);
      }
      return;
    }
    if (!k.started) {
      // During the start window a number is unwrapped against the previous arrival's (engine's
      // choice: a 16-bit feed can move more than half its space in one window).
      const abs = k.held.size > 0 ? this.space.unwrap(raw, k.startRef) : raw;
      if (k.held.size > 0 && this.resetFar !== Infinity) {
        // The old sequence went on after a jump: it was no reset. A new jump replaces it.
        if (k.startJump !== undefined && (abs < k.startJump || abs >= k.startJump + this.resetFar)) k.startJump = undefined;
        const far = raw === this.config.resetTo ? this.config.capacity : this.resetFar;
        if (raw < this.space.wrap(k.startRef) && Math.abs(abs - k.startRef) > far) {
          k.startJump = abs;
          k.startJumpAt = this.now;
        }
      }
      k.startRef = abs;
      this.hold(k, abs, id, item);
      return;
    }
    const p = k.pending;
    if (p !== undefined) {
      const d = this.space.unwrap(raw, p.abs) - p.abs;
      if (d === 0) {
        const conflict = p.id === id && !this.sameContent(p.item, item);
        this.duplicate(k, p.abs, id, p.id, false, item, p.id === id && !conflict, conflict, conflict ? p.item : undefined);
        return;
      }
      if (d > 0 && d <= this.config.capacity) this.confirmReset(k, this.now, 'next');
      else {
        k.pending = undefined;
        if (p.abs < k.expected) this.behind(k, p.abs, p.id, p.item);
        else this.hold(k, p.abs, p.id, p.item, p.at);
      }
    }
    const abs = this.space.unwrap(raw, k.expected);
    if (abs === k.expected) {
      k.cascadeOpen = false;
      this.deliver(k, abs, id, item, this.now, this.now, true);
      this.releaseRun(k, this.now, true);
      return;
    }
    const jump = this.resetJump(k, raw, abs, id);
    if (jump === 'now') {
      this.resetSequence(k, abs, this.now, this.now, 'resetTo');
      k.cascadeOpen = false;
      this.deliver(k, abs, id, item, this.now, this.now, true);
    } else if (jump === 'candidate') {
      k.pending = { abs, id, item, at: this.now };
      k.cascadeOpen = false;
    } else if (abs < k.expected) this.behind(k, abs, id, item);
    else this.hold(k, abs, id, item);
  }

  /**
   * Publish order, by its definition: reordered when an earlier first copy of the key was
   * published strictly later; behind the earliest first copy with the key's latest publish time
   * so far; by position, the first copies since the earliest one published later than it.
   */
  private judge(k: RefKey, published: number, id: string, item: string): void {
    const index = k.firsts.length;
    k.firsts.push({ id, item, published });
    if (published !== published) return;
    const earlier = k.firsts.slice(0, index).filter((f) => f.published === f.published);
    const later = earlier.findIndex((f) => f.published > published);
    if (later < 0) return;
    const latest = Math.max(...earlier.map((f) => f.published));
    const behind = earlier.find((f) => f.published === latest)!;
    k.counts.reordered++;
    const firstLaterIndex = k.firsts.indexOf(earlier[later]);
    this.events.push({
      type: 'reordered',
      key: k.name,
      messageId: id,
      publishedMs: published,
      behindMs: latest,
      behindId: behind.id,
      behindItem: behind.item,
      byMs: latest - published,
      byPosition: index - firstLaterIndex,
      at: this.now,
      item,
    });
  }

  /**
   * A number that went down (behind, or ahead across the top in one jump) farther than the held
   * window and the history could mean, not late, not a remembered redelivery, not held.
   */
  private resetJump(k: RefKey, raw: number, abs: number, id: string): 'now' | 'candidate' | undefined {
    if (this.resetFar === Infinity || raw >= this.space.wrap(k.expected)) return undefined;
    const exact = raw === this.config.resetTo;
    if (Math.abs(abs - k.expected) <= (exact ? this.config.capacity : this.resetFar)) return undefined;
    if (abs < k.expected) {
      if (k.lost.some((r) => abs >= r.from && abs <= r.to)) return undefined;
      const remembered = k.expected - abs <= this.window(k) ? k.deliveredIds.get(abs) : undefined;
      if (remembered?.id === id) return undefined;
    } else if (k.held.has(abs)) return undefined;
    return exact ? 'now' : 'candidate';
  }

  private confirmReset(k: RefKey, at: number, how: ResetHow): void {
    const p = k.pending!;
    k.pending = undefined;
    this.resetSequence(k, p.abs, at, p.at, how);
    k.cascadeOpen = false;
    this.deliver(k, p.abs, p.id, p.item, p.at, at, true);
  }

  /** The old sequence ends (its gaps lost with reason reset), the new one expects `to`. */
  private resetSequence(k: RefKey, to: number, at: number, arrivedAt: number, how: ResetHow): void {
    const last = Math.max(k.expected - 1, ...k.held.keys());
    const delivered = k.counts.delivered;
    const lost = k.counts.lost;
    while (k.held.size > 0) this.declareLowestGap(k, at, 'reset');
    k.lost.length = 0;
    k.beforeStart.clear();
    k.deliveredIds.clear();
    k.recorded = 0;
    k.expected = to;
    k.seqStart = to;
    k.startedAt = at;
    k.counts.resets++;
    this.events.push({
      type: 'reset',
      key: k.name,
      from: this.space.wrap(last),
      to: this.space.wrap(to),
      at,
      arrivedAt,
      released: k.counts.delivered - delivered,
      lost: k.counts.lost - lost,
      how,
    });
  }

  finish(): void {
    for (const k of this.keys) {
      if (k.pending !== undefined) this.confirmReset(k, this.now, 'end');
      if (!k.started && k.held.size > 0) this.start(k, this.now);
      while (k.held.size > 0) this.declareLowestGap(k, this.now, 'end');
    }
  }

  private deadline(k: RefKey): number {
    if (!k.started) return k.held.size > 0 ? k.startDeadline : Infinity;
    const gap = k.held.size > 0 ? k.oldestArrival() + this.config.gapTimeoutMs : Infinity;
    return k.pending !== undefined ? Math.min(gap, k.pending.at + this.config.gapTimeoutMs) : gap;
  }

  private hold(k: RefKey, abs: number, id: string, item: string, arrivedAt = this.now): void {
    const first = k.held.get(abs);
    if (first !== undefined) {
      const conflict = first.id === id && !this.sameContent(first.item, item);
      this.duplicate(k, abs, id, first.id, false, item, first.id === id && !conflict, conflict, conflict ? first.item : undefined);
      return;
    }
    k.held.set(abs, { id, arrivedAt, item });
    k.cascadeOpen = false;
    k.counts.maxHeld = Math.max(k.counts.maxHeld, k.held.size);
    if (k.held.size > this.config.capacity) {
      if (!k.started) this.start(k, this.now);
      while (k.held.size > this.config.capacity) this.declareLowestGap(k, this.now, 'capacity');
    }
  }

  private behind(k: RefKey, abs: number, id: string, item: string): void {
    for (let i = k.lost.length - 1; i >= 0; i--) {
      const r = k.lost[i];
      if (abs < r.from || abs > r.to) continue;
      const prior = r.arrived.get(abs);
      if (prior !== undefined) {
        const conflict = prior.id === id && !this.sameContent(prior.item, item);
        this.duplicate(k, abs, id, prior.id, true, item, prior.id === id && !conflict, conflict);
        return;
      }
      r.arrived.set(abs, { id, item });
      this.late(k, abs, id, item, r.declaredAt, false);
      return;
    }
    if (abs < k.seqStart) {
      // Below the sequence's first number: late (never seen), unless a copy of one that came so.
      const prior = k.beforeStart.get(abs);
      if (prior !== undefined) {
        const conflict = prior.id === id && !this.sameContent(prior.item, item);
        this.duplicate(k, abs, id, prior.id, true, item, prior.id === id && !conflict, conflict);
        return;
      }
      // As many kept as the history size, the oldest forgotten first (engine's choice).
      if (k.beforeStart.size >= this.historySize) k.beforeStart.delete(k.beforeStart.keys().next().value as number);
      k.beforeStart.set(abs, { id, item });
      this.late(k, abs, id, item, k.startedAt, true);
      return;
    }
    // Delivered before. A redelivery only when the first copy's id is remembered and the same.
    // Same id with other content: a conflict, not a redelivery.
    const remembered = k.expected - abs <= this.window(k) ? k.deliveredIds.get(abs) : undefined;
    const sameId = remembered?.id === id;
    const conflict = sameId && !this.sameContent(remembered.item, item);
    this.duplicate(k, abs, id, sameId ? id : undefined, true, item, sameId && !conflict, conflict);
  }

  private late(k: RefKey, abs: number, id: string, item: string, lostAt: number, beforeStart: boolean): void {
    k.cascadeOpen = false;
    k.counts.late++;
    this.events.push({ type: 'late', key: k.name, seq: this.space.wrap(abs), messageId: id, lostAt, beforeStart, at: this.now, item });
  }

  /** Items stand for content: one ending in "~" is a tampered copy (the test's content hash says the same). */
  private sameContent(a: string, b: string): boolean {
    return a.endsWith('~') === b.endsWith('~');
  }

  private duplicate(
    k: RefKey,
    abs: number,
    id: string,
    firstId: string | undefined,
    firstDelivered: boolean,
    item: string,
    redelivery: boolean,
    conflict = false,
    firstItem: string | undefined = undefined,
  ): void {
    k.counts.duplicates++;
    if (conflict) k.counts.conflicts++;
    let cascade: number | undefined;
    if (redelivery) {
      k.counts.redeliveries++;
      // A run of redeliveries in increasing order with no fresh message between them (a second
      // publish does not end the run: engine's choice). Without numbers, any run of them.
      if (!(k.cascadeOpen && (Number.isNaN(abs) || abs > k.cascadeLast))) {
        k.counts.cascades++;
        k.cascadeId = ++this.cascades;
      }
      k.cascadeOpen = true;
      k.cascadeLast = Number.isNaN(abs) ? 0 : abs;
      cascade = k.cascadeId;
    }
    this.events.push({
      type: 'duplicate',
      key: k.name,
      seq: Number.isNaN(abs) ? undefined : this.space.wrap(abs),
      messageId: id,
      redelivery,
      firstMessageId: firstId,
      firstDelivered,
      cascade,
      conflict,
      firstItem,
      at: this.now,
      item,
    });
  }

  private start(k: RefKey, at: number): void {
    const jump = k.startJump;
    k.startJump = undefined;
    // The new sequence: what arrived from the jump on, within reach of it (engine's choice: an old number arriving in the same millisecond as the jump counts as new).
    const fresh = [...k.held].filter(([abs, h]) => jump !== undefined && abs >= jump && abs < jump + this.resetFar && h.arrivedAt >= k.startJumpAt);
    if (jump === undefined || fresh.length === k.held.size) {
      this.startAt(k, at);
      return;
    }
    // A reset in the start window: the old sequence (the rest) starts and ends, then the new one starts at the jump.
    for (const [abs] of fresh) k.held.delete(abs);
    this.startAt(k, at);
    this.resetSequence(k, jump, at, Math.min(...fresh.map(([, h]) => h.arrivedAt)), 'start');
    for (const [abs, h] of fresh) k.held.set(abs, h);
    this.releaseRun(k, at, false);
  }

  private startAt(k: RefKey, at: number): void {
    k.started = true;
    k.expected = k.lowestHeld();
    k.seqStart = k.expected;
    k.startedAt = at;
    // What the start releases waited by rule, not for a missing number: not a hold time.
    this.releaseRun(k, at, false);
  }

  private releaseRun(k: RefKey, at: number, countHold: boolean): void {
    for (let h = k.held.get(k.expected); h !== undefined; h = k.held.get(k.expected)) {
      k.held.delete(k.expected);
      this.deliver(k, k.expected, h.id, h.item, h.arrivedAt, at, countHold);
    }
  }

  /** How many of a key's latest positions its history remembers. */
  private window(k: RefKey): number {
    return k.roomGrows ? this.historySize : k.room;
  }

  /**
   * A key's history records `n` more positions (the engine's rule, docs/sequencing-rules.md,
   * "Duplicate"): its room starts at 16 (or the history size, if smaller) whatever the total, and
   * doubles each time it is full, up to the history size, while all keys' rooms together stay
   * within historyTotal. The first time that stops it, it keeps its room for good and wraps.
   */
  private recordPositions(k: RefKey, n: number): void {
    for (let i = 0; i < n && k.roomGrows; i++) {
      if (k.recorded === k.room) {
        const grown = k.room === 0 ? Math.min(16, this.historySize) : k.room * 2;
        if (grown > this.historySize) break;
        if (k.room > 0 && this.roomInUse + grown - k.room > this.historyTotal) {
          k.roomGrows = false;
          break;
        }
        this.roomInUse += grown - k.room;
        k.room = grown;
      }
      k.recorded++;
    }
  }

  private deliver(k: RefKey, abs: number, id: string, item: string, arrivedAt: number, at: number, countHold: boolean): void {
    this.recordPositions(k, 1);
    k.deliveredIds.set(abs, { id, item });
    k.expected = abs + 1;
    k.counts.delivered++;
    if (countHold) k.counts.maxHoldMs = Math.max(k.counts.maxHoldMs, at - arrivedAt);
    this.events.push({ type: 'message', key: k.name, seq: this.space.wrap(abs), item, arrivedAt, releasedAt: at });
  }

  private declareLowestGap(k: RefKey, at: number, reason: GapReason): void {
    const lowest = k.lowestHeld();
    const from = k.expected;
    const to = lowest - 1;
    const count = to - from + 1;
    k.counts.gaps++;
    k.counts.lost += count;
    k.lost.push({ from, to, declaredAt: at, arrived: new Map() });
    // Lost positions take history room as deliveries do; past the window they change nothing.
    this.recordPositions(k, Math.min(count, this.window(k)));
    this.events.push({
      type: 'gap',
      key: k.name,
      from: this.space.wrap(from),
      to: this.space.wrap(to),
      count,
      openedAt: k.oldestArrival(),
      declaredAt: at,
      reason,
    });
    k.expected = lowest;
    this.releaseRun(k, at, true);
  }
}
