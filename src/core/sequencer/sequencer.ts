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
 * is laid out and allocated with both in mind (see KeyState, keySlots.ts, HeldQueue, HistoryArena).
 *
 * Resets (resets.ts) are decided off the hot path: while a key holds a reset candidate its raw
 * expected number is a value no arrival has (NaN), so the in-order test fails and the slow path
 * settles the candidate first.
 *
 * In parts: this class holds the rules that move a key along (delivering, holding, starting,
 * declaring gaps, resets, timers); SequencerFindings names late arrivals and duplicates;
 * SequencerState holds the state and what views read of it. The reset rules stay here, with
 * delivery: each calls the other. The types callers need are exported from here too.
 */
import { ArrivalQueue, HeldQueue } from './heldQueue';
import { KeySlot, PENDING_RAW } from './keySlots';
import { KeyFindings, KeyState, NOTHING_HELD } from './keyState';
import { hashId } from './messageHashes';
import { ResetCandidate, ResetHow } from './resets';
import { SequencerFindings } from './sequencerFindings';
import { GapReason, SequencerSink } from './sequencerReports';

export { KeyState, zeroCounts } from './keyState';
export type { SequenceCounts } from './keyState';
export { hashId } from './messageHashes';
export type { ContentHash } from './messageHashes';
export type { SequencerConfig } from './sequencerConfig';
export type { DuplicateInfo, GapInfo, GapReason, LateInfo, ReorderInfo, SequencerSink } from './sequencerReports';

/** Lost ranges remembered per key for "late" detection; older ones age out. */
const LOST_RANGES_KEPT = 1024;

/** Sequences the arrivals of every key it is offered, reporting to its sink (see the header). */
export class Sequencer<T> extends SequencerFindings<T> {
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
