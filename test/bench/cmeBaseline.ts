/**
 * A peer baseline: the consumer loop of CME's Pub/Sub sequencer sample ("OrderedPubSubListener",
 * Java), made per key so it can run the same streams as the engine.
 *
 * The Java sample keeps every received message in a ConcurrentSkipListSet ordered by MsgSeqNum
 * (a set, so a second copy of a number is rejected), buffers 10 s before the first poll, and then
 * loops: if the first element is current + 1, poll and process it; if it is ≤ current, poll and
 * drop it; otherwise, once the wait is over, skip to the first element. Like the Java, it knows
 * nothing of messageIds or wrap-around (MsgSeqNum is a Java long), so it is fed 64-bit numbers.
 *
 * Choices made here, each in the baseline's favour or neutral:
 *   - The set is a sorted array with a moving head and binary-search insertion, the common
 *     append at the tail being O(1) — in JavaScript that beats a skip list or balanced tree at
 *     the sizes held here (tens to hundreds of elements per key).
 *   - The wait before skipping a gap is measured from the arrival of the first held element
 *     (the Java measures from the last processed message; both are one comparison).
 *   - The loop runs for a key when that key receives a message (the Java spins on a thread);
 *     timeouts are therefore only noticed on the key's next arrival — less work than a timer.
 *   - One UnitOfWork object is allocated per message, as the Java does.
 */

/** What the Java calls a UnitOfWork: the number, plus when it arrived. */
interface UnitOfWork<T> {
  readonly seq: number;
  readonly arrivedAt: number;
  readonly item: T;
}

/** A sorted set of units by `seq` that rejects a second unit with the same number. */
export class SortedUnitSet<T> {
  private a: UnitOfWork<T>[] = [];
  private head = 0;

  get size(): number {
    return this.a.length - this.head;
  }

  first(): UnitOfWork<T> {
    return this.a[this.head];
  }

  /** False when an element with the same number is present (the set rejects it). */
  add(u: UnitOfWork<T>): boolean {
    const a = this.a;
    const n = a.length;
    if (n === this.head || a[n - 1].seq < u.seq) {
      a.push(u);
      return true;
    }
    let lo = this.head;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid].seq;
      if (v === u.seq) return false;
      if (v < u.seq) lo = mid + 1;
      else hi = mid - 1;
    }
    a.splice(lo, 0, u);
    return true;
  }

  pollFirst(): UnitOfWork<T> {
    const u = this.a[this.head++];
    if (this.head === this.a.length) {
      this.a = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.a.length) {
      this.a = this.a.slice(this.head);
      this.head = 0;
    }
    return u;
  }
}

interface BaselineKey<T> {
  readonly set: SortedUnitSet<T>;
  readonly firstArrival: number;
  started: boolean;
  current: number;
}

export interface BaselineCounts {
  delivered: number;
  /** Rejected by the set, or dropped as ≤ current. */
  duplicates: number;
  gaps: number;
  lost: number;
}

export class CmeBaseline<T> {
  readonly counts: BaselineCounts = { delivered: 0, duplicates: 0, gaps: 0, lost: 0 };
  private readonly keys = new Map<string, BaselineKey<T>>();

  constructor(
    private readonly timeoutMs: number,
    private readonly process: (item: T, seq: number) => void,
  ) {}

  offer(key: string, seq: number, item: T, now: number): void {
    let k = this.keys.get(key);
    if (k === undefined) {
      k = { set: new SortedUnitSet<T>(), firstArrival: now, started: false, current: 0 };
      this.keys.set(key, k);
    }
    if (!k.set.add({ seq, arrivedAt: now, item })) {
      this.counts.duplicates++;
      return;
    }
    if (!k.started) {
      // "Buffering for 10 seconds" before the first poll.
      if (now - k.firstArrival < this.timeoutMs) return;
      this.start(k);
    }
    this.poll(k, now);
  }

  /** End of input: everything held is processed, gaps skipped. */
  finish(): void {
    for (const k of this.keys.values()) {
      if (!k.started && k.set.size > 0) this.start(k);
      this.poll(k, Infinity);
    }
  }

  private start(k: BaselineKey<T>): void {
    k.started = true;
    k.current = k.set.first().seq - 1;
  }

  private poll(k: BaselineKey<T>, now: number): void {
    const set = k.set;
    while (set.size > 0) {
      const first = set.first();
      if (first.seq === k.current + 1) {
        set.pollFirst();
        this.counts.delivered++;
        this.process(first.item, first.seq);
        k.current++;
      } else if (first.seq <= k.current) {
        set.pollFirst();
        this.counts.duplicates++;
      } else if (now - first.arrivedAt > this.timeoutMs) {
        this.counts.gaps++;
        this.counts.lost += first.seq - k.current - 1;
        k.current = first.seq - 1;
      } else {
        return;
      }
    }
  }
}
