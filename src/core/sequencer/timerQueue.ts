/**
 * The sequencer's one timer queue for every key: (deadline, key) pairs taken out earliest first.
 * Ties break on the key's creation order so that firing order — and so the output — is
 * deterministic.
 *
 * Why not just a heap: almost every deadline the sequencer sets is "now + gap timeout" (a key's
 * start window, a hold behind a new gap), and the clock never goes backwards, so deadlines come
 * in already sorted. Those are appended to a sorted run and taken from its front in O(1); only
 * the few that come out of order (a key rescheduled after a gap fired: its next deadline is an
 * older arrival's) go to a binary heap. With 100 000 keys every key's start window passes
 * through here, and each heap pop was a dozen levels of sifting.
 */
import { numberArray, refArray } from '../util/arrayKinds';

export interface Timed {
  readonly order: number;
}

/** Entries taken from the front of the run before its arrays are compacted. */
const COMPACT_AFTER = 1024;

export class TimerQueue<K extends Timed> {
  /** The sorted run: entries at [runHead, length), in (deadline, order) order. */
  private runDeadlines = numberArray();
  private runKeys = refArray<K>();
  private runHead = 0;
  /** A binary min-heap of the entries that came out of order. */
  private heapDeadlines = numberArray();
  private heapKeys = refArray<K>();

  get size(): number {
    return this.runKeys.length - this.runHead + this.heapKeys.length;
  }

  /** The earliest deadline, or Infinity when empty. */
  peekDeadline(): number {
    const run = this.runHead < this.runKeys.length ? this.runDeadlines[this.runHead] : Infinity;
    const heap = this.heapKeys.length > 0 ? this.heapDeadlines[0] : Infinity;
    return run < heap ? run : heap;
  }

  push(deadline: number, key: K): void {
    const n = this.runKeys.length;
    if (n === this.runHead || !less(deadline, key, this.runDeadlines[n - 1], this.runKeys[n - 1])) {
      this.runDeadlines.push(deadline);
      this.runKeys.push(key);
    } else this.heapPush(deadline, key);
  }

  /** Removes and returns the key with the earliest deadline (callers check `size`). */
  pop(): K {
    const h = this.runHead;
    const n = this.runKeys.length;
    if (h < n && (this.heapKeys.length === 0 || !less(this.heapDeadlines[0], this.heapKeys[0], this.runDeadlines[h], this.runKeys[h]))) {
      return this.runPop();
    }
    return this.heapPop();
  }

  /** A copy with every key mapped through `map` (for sequencer snapshots). */
  clone(map: (k: K) => K): TimerQueue<K> {
    const q = new TimerQueue<K>();
    q.runDeadlines = this.runDeadlines.slice(this.runHead);
    q.runKeys = this.runKeys.slice(this.runHead).map(map);
    q.heapDeadlines = this.heapDeadlines.slice();
    q.heapKeys = this.heapKeys.map(map);
    return q;
  }

  private runPop(): K {
    const h = this.runHead;
    const keys = this.runKeys;
    const key = keys[h];
    if (h + 1 === keys.length) {
      // Empty: start again at the front (length 0 also gives the arrays' storage back).
      keys.length = 0;
      this.runDeadlines.length = 0;
      this.runHead = 0;
    } else if (h + 1 >= COMPACT_AFTER && (h + 1) * 2 > keys.length) {
      this.runKeys = keys.slice(h + 1);
      this.runDeadlines = this.runDeadlines.slice(h + 1);
      this.runHead = 0;
    } else {
      // Released keys must not stay reachable from here.
      keys[h] = undefined as unknown as K;
      this.runHead = h + 1;
    }
    return key;
  }

  private heapPush(deadline: number, key: K): void {
    const d = this.heapDeadlines;
    const k = this.heapKeys;
    let i = d.length;
    d.push(deadline);
    k.push(key);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(deadline, key, d[p], k[p])) break;
      d[i] = d[p];
      k[i] = k[p];
      i = p;
    }
    d[i] = deadline;
    k[i] = key;
  }

  private heapPop(): K {
    const d = this.heapDeadlines;
    const k = this.heapKeys;
    const top = k[0];
    const lastD = d.pop() as number;
    const lastK = k.pop() as K;
    const n = d.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && less(d[r], k[r], d[l], k[l]) ? r : l;
        if (!less(d[c], k[c], lastD, lastK)) break;
        d[i] = d[c];
        k[i] = k[c];
        i = c;
      }
      d[i] = lastD;
      k[i] = lastK;
    }
    return top;
  }
}

function less(da: number, ka: Timed, db: number, kb: Timed): boolean {
  return da < db || (da === db && ka.order < kb.order);
}
