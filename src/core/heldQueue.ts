/**
 * The messages one key holds back, kept sorted by absolute sequence position.
 *
 * Reordering in real feeds is local: most inserts land at or near the end, and releases take
 * from the front. So this is a sorted array with a moving head (no `shift()`, which is O(n))
 * and a binary search that starts from the tail. At the default capacity (10 000) an insert in
 * the middle moves at most a few kilobytes.
 */
export interface HeldEntry<T> {
  /** Absolute (unwrapped) sequence position. */
  readonly abs: number;
  readonly messageId: string;
  /** Engine clock at arrival. */
  readonly arrivedAt: number;
  readonly item: T;
  /** Set when the entry leaves the queue, so the arrival-order index can skip it lazily. */
  released: boolean;
}

export class HeldQueue<T> {
  private entries: HeldEntry<T>[] = [];
  private head = 0;

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Lowest held entry (callers check `size` first). */
  first(): HeldEntry<T> {
    return this.entries[this.head];
  }

  at(i: number): HeldEntry<T> {
    return this.entries[this.head + i];
  }

  /** Inserts `entry`, or returns the entry already held at the same position (a duplicate). */
  insert(entry: HeldEntry<T>): HeldEntry<T> | undefined {
    const a = this.entries;
    const n = a.length;
    if (n === this.head || a[n - 1].abs < entry.abs) {
      a.push(entry);
      return undefined;
    }
    let lo = this.head;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid].abs;
      if (v === entry.abs) return a[mid];
      if (v < entry.abs) lo = mid + 1;
      else hi = mid - 1;
    }
    a.splice(lo, 0, entry);
    return undefined;
  }

  shift(): HeldEntry<T> {
    const e = this.entries[this.head++];
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return e;
  }

  /** A copy whose entries are copies too, mapped through `copies` (shared with ArrivalQueue.clone). */
  clone(copies: Map<HeldEntry<T>, HeldEntry<T>>): HeldQueue<T> {
    const q = new HeldQueue<T>();
    for (let i = this.head; i < this.entries.length; i++) q.entries.push(copyEntry(this.entries[i], copies));
    return q;
  }

  /** Sequence positions held, lowest first (for state views and tests). */
  positions(): number[] {
    return this.entries.slice(this.head).map((e) => e.abs);
  }
}

/**
 * Held entries in arrival order, for "when did the oldest held message arrive": the engine clock
 * never goes backwards, so arrival order is append order and the oldest is the front once
 * released entries are skipped.
 */
export class ArrivalQueue<T> {
  private entries: HeldEntry<T>[] = [];
  private head = 0;

  push(e: HeldEntry<T>): void {
    this.entries.push(e);
  }

  /**
   * Forgets every entry (all released). Called when a key's held set empties: released entries
   * kept until the next timer would survive garbage collections with the records they carry.
   */
  clear(): void {
    if (this.entries.length) {
      this.entries = [];
      this.head = 0;
    }
  }

  clone(copies: Map<HeldEntry<T>, HeldEntry<T>>): ArrivalQueue<T> {
    const q = new ArrivalQueue<T>();
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (!e.released) q.entries.push(copyEntry(e, copies));
    }
    return q;
  }

  /** Arrival time of the oldest entry still held, or undefined. */
  oldest(): number | undefined {
    const a = this.entries;
    while (this.head < a.length && a[this.head].released) this.head++;
    if (this.head === a.length) {
      this.entries = [];
      this.head = 0;
      return undefined;
    }
    if (this.head > 1024 && this.head * 2 > a.length) {
      this.entries = a.slice(this.head);
      this.head = 0;
    }
    return this.entries[this.head].arrivedAt;
  }
}

function copyEntry<T>(e: HeldEntry<T>, copies: Map<HeldEntry<T>, HeldEntry<T>>): HeldEntry<T> {
  let c = copies.get(e);
  if (c === undefined) {
    c = { ...e };
    copies.set(e, c);
  }
  return c;
}
