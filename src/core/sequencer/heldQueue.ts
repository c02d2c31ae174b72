/**
 * The messages one key holds back, kept sorted by absolute sequence position.
 *
 * Reordering in real feeds is local: most inserts land at or near the end, and releases take
 * from the front. So this is a sorted sequence with a moving head (no `shift()`, which is O(n))
 * and a binary search that starts from the tail. At the default capacity (10 000) an insert in
 * the middle moves at most a few kilobytes.
 *
 * Stored as parallel arrays (position, messageId, arrival time, item) rather than an object per
 * message: every key holds its first messages for the start window, so with 100 000 keys an
 * object per held message was most of the engine's allocation. The number arrays keep positions
 * and arrival times unboxed, as long as each stays a number array (see arrayKinds.ts).
 */
import { numberArray, refArray } from '../util/arrayKinds';

/**
 * Arrays up to this length are kept and refilled when a queue empties, rather than replaced: an
 * empty queue goes back to the sequencer's pool and serves the next key that holds, and in a
 * reordered feed keys hold every few messages. Larger ones are dropped, so a burst does not pin
 * its memory.
 */
const KEPT_LENGTH = 64;

export class HeldQueue<T> {
  private abs = numberArray();
  private ids = refArray<string>();
  private arrivedAt = numberArray();
  private items = refArray<T>();
  /** Held messages are at [head, end) of each array. */
  private head = 0;
  private end = 0;

  get size(): number {
    return this.end - this.head;
  }

  /** Position of the lowest held message (callers check `size` first). */
  lowest(): number {
    return this.abs[this.head];
  }

  lowestId(): string {
    return this.ids[this.head];
  }

  lowestArrivedAt(): number {
    return this.arrivedAt[this.head];
  }

  lowestItem(): T {
    return this.items[this.head];
  }

  /**
   * Holds a message, or returns the messageId already held at the same position (a duplicate,
   * not held).
   */
  insert(abs: number, messageId: string, arrivedAt: number, item: T): string | undefined {
    const a = this.abs;
    const end = this.end;
    let lo = end;
    if (end > this.head && a[end - 1] >= abs) {
      lo = this.head;
      let hi = end - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const v = a[mid];
        if (v === abs) return this.ids[mid];
        if (v < abs) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    if (lo === end) {
      // Appending, the common case, written out per array: one shared helper would see four
      // kinds of array at one call site and run slower for all of them.
      if (end === a.length) {
        a.push(abs);
        this.ids.push(messageId);
        this.arrivedAt.push(arrivedAt);
        this.items.push(item);
      } else {
        a[end] = abs;
        this.ids[end] = messageId;
        this.arrivedAt[end] = arrivedAt;
        this.items[end] = item;
      }
    } else {
      insertNumberAt(a, lo, end, abs);
      insertRefAt(this.ids, lo, end, messageId);
      insertNumberAt(this.arrivedAt, lo, end, arrivedAt);
      insertRefAt(this.items, lo, end, item);
    }
    this.end = end + 1;
    return undefined;
  }

  /** The item held at position `abs`, or undefined (a binary search: for the rare duplicate of a held message). */
  itemAt(abs: number): T | undefined {
    let lo = this.head;
    let hi = this.end - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.abs[mid];
      if (v === abs) return this.items[mid];
      if (v < abs) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Forgets the lowest held message (read it first with the `lowest…` accessors). */
  dropLowest(): void {
    this.head++;
    if (this.head === this.end) {
      if (this.end > KEPT_LENGTH) this.freeStorage();
      // Released items must not stay reachable from here (they may be whole records).
      else this.items.fill(undefined as T, 0, this.end);
      this.head = this.end = 0;
    } else if (this.head > 1024 && this.head * 2 > this.end) {
      const { head, end } = this;
      this.abs = this.abs.slice(head, end);
      this.ids = this.ids.slice(head, end);
      this.arrivedAt = this.arrivedAt.slice(head, end);
      this.items = this.items.slice(head, end);
      this.head = 0;
      this.end = end - head;
    }
  }

  /**
   * Gives the arrays' storage back when nothing is held (does nothing otherwise): for a queue
   * that grew past what is worth keeping for reuse. Empty queues themselves go back to the
   * sequencer's pool (SequencerState.recycleQueues).
   */
  freeStorage(): void {
    if (this.end !== this.head) return;
    // Length 0 drops an array's storage and keeps the array: no new objects per key.
    this.abs.length = 0;
    this.ids.length = 0;
    this.arrivedAt.length = 0;
    this.items.length = 0;
    this.head = this.end = 0;
  }

  /** An independent copy (items are shared, not copied). */
  clone(): HeldQueue<T> {
    const q = new HeldQueue<T>();
    const { head, end } = this;
    q.abs = this.abs.slice(head, end);
    q.ids = this.ids.slice(head, end);
    q.arrivedAt = this.arrivedAt.slice(head, end);
    q.items = this.items.slice(head, end);
    q.end = end - head;
    return q;
  }

  /**
   * The first position missing above the lowest held one, and the earliest arrival among those
   * held above it; undefined when what is held runs unbroken. One pass, no allocation.
   */
  firstHole(): { missing: number; since: number } | undefined {
    const a = this.abs;
    let i = this.head;
    while (i + 1 < this.end && a[i + 1] === a[i] + 1) i++;
    if (i + 1 >= this.end) return undefined;
    let since = Infinity;
    for (let j = i + 1; j < this.end; j++) if (this.arrivedAt[j] < since) since = this.arrivedAt[j];
    return { missing: a[i] + 1, since };
  }

  /** Sequence positions held, lowest first (for state views and tests). */
  positions(): number[] {
    return this.abs.slice(this.head, this.end);
  }

  /** Arrival times of the held messages, in the order of `positions()`. */
  arrivalTimes(): number[] {
    return this.arrivedAt.slice(this.head, this.end);
  }
}

/**
 * Arrival times of a key's held messages in arrival order, for "when did the oldest held message
 * arrive": the engine clock never goes backwards, so arrival order is append order. Released
 * messages are skipped lazily: once a key has started, a held message is released exactly when
 * the key's expected position passes it, so the entries below `expected` are the released ones.
 */
export class ArrivalQueue {
  private abs = numberArray();
  private times = numberArray();
  /** Entries are at [head, end). */
  private head = 0;
  private end = 0;

  push(abs: number, arrivedAt: number): void {
    const end = this.end++;
    if (end === this.abs.length) {
      this.abs.push(abs);
      this.times.push(arrivedAt);
    } else {
      this.abs[end] = abs;
      this.times[end] = arrivedAt;
    }
  }

  /**
   * Forgets every entry (all released). Called when a key's held set empties, so that the queue
   * does not grow with every message a key ever held.
   */
  clear(): void {
    if (this.end > KEPT_LENGTH) {
      this.abs.length = 0;
      this.times.length = 0;
    }
    this.head = this.end = 0;
  }

  /** Refills the queue with what `held` holds, oldest arrival first. */
  refill<T>(held: HeldQueue<T>): void {
    const abs = held.positions();
    const times = held.arrivalTimes();
    const order = abs.map((_, i) => i).sort((a, b) => times[a] - times[b]);
    this.clear();
    for (const i of order) this.push(abs[i], times[i]);
  }

  /** A copy without the entries already released (those below `expected`). */
  clone(expected: number): ArrivalQueue {
    const q = new ArrivalQueue();
    for (let i = this.head; i < this.end; i++) {
      if (this.abs[i] >= expected) q.push(this.abs[i], this.times[i]);
    }
    return q;
  }

  /** Arrival time of the oldest entry at or above `expected` (still held), or undefined. */
  oldest(expected: number): number | undefined {
    const a = this.abs;
    while (this.head < this.end && a[this.head] < expected) this.head++;
    if (this.head === this.end) {
      this.clear();
      return undefined;
    }
    if (this.head > 1024 && this.head * 2 > this.end) {
      const { head, end } = this;
      this.abs = a.slice(head, end);
      this.times = this.times.slice(head, end);
      this.head = 0;
      this.end = end - head;
    }
    return this.times[this.head];
  }
}

/**
 * Inserts `v` at `i` into the first `end` elements of `a`, moving the rest up by one (`a` may be
 * longer: slots from `end` on are free). No `splice`: it allocates its result array.
 *
 * Two copies, one per storage kind, on purpose: V8 caches a store site's array classes, and a
 * site that has stored into both number and reference arrays converts the number arrays into
 * reference arrays to keep its cache small — every held position and arrival time then boxed.
 */
function insertNumberAt(a: number[], i: number, end: number, v: number): void {
  if (end === a.length) a.push(v);
  for (let j = end; j > i; j--) a[j] = a[j - 1];
  a[i] = v;
}

function insertRefAt<V>(a: V[], i: number, end: number, v: V): void {
  if (end === a.length) a.push(v);
  for (let j = end; j > i; j--) a[j] = a[j - 1];
  a[i] = v;
}
