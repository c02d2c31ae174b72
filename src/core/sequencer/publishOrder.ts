/**
 * Publish order (`--seq publishTime`): judges each key's first copies by their publish times.
 * Pub/Sub sets a message's publishTime on the server, and a publisher with an ordering key sends
 * the key's messages one batch at a time, so within a key publish times never go backwards
 * (a batch shares one). A first copy that arrives after one of its key with a strictly later
 * publish time was delivered out of order: it is *reordered*, and how far out of place it came is
 * its displacement (docs/sequencing-rules.md, "Publish order").
 *
 * Per key this keeps the rises of the running maximum publish time — (maximum, arrival index)
 * where the maximum went up — a stack that is sorted both ways, so the first earlier arrival with
 * a later publish time is a binary search away. The rises are kept in a ring per key, at most
 * RISES_KEPT of them and RISES_TOTAL over all keys: past that the oldest are forgotten, and a
 * message that belongs before the oldest rise kept is counted from it (its `byPosition` is then
 * a lower bound). The running maximum itself is exact whatever is forgotten.
 */
import { refArray } from '../util/arrayKinds';

/** Rises one key keeps at most (a ring of them; 64 KiB). */
export const RISES_KEPT = 4096;
/** Rises all keys keep together (32 MiB): past it a key's ring stops growing. */
const RISES_TOTAL = 1 << 21;
const FIRST_RING = 8;

/** What the judge found about a reordered first copy. */
export interface Displacement<T> {
  /** The latest publish time of the key before it, and the first copy that had it. */
  readonly behindMs: number;
  readonly behindId: string;
  readonly behindItem: T;
  /** behindMs − its own publish time (> 0). */
  readonly byMs: number;
  /** First copies of the key that arrived since the first one published later than it (≥ 1). */
  readonly byPosition: number;
}

/** One key's rises: a ring of (maximum, arrival index) pairs, oldest at `start`. */
class Rises {
  buf = new Float64Array(FIRST_RING * 2);
  start = 0;
  len = 0;

  get capacity(): number {
    return this.buf.length >> 1;
  }

  clone(): Rises {
    const c = new Rises();
    c.buf = this.buf.slice();
    c.start = this.start;
    c.len = this.len;
    return c;
  }

  /** The arrival index of the first rise whose maximum is above `p`, or the oldest kept. */
  firstAbove(p: number): number {
    const buf = this.buf;
    const mask = this.capacity - 1;
    let lo = 0;
    let hi = this.len - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (buf[((this.start + mid) & mask) << 1] > p) hi = mid;
      else lo = mid + 1;
    }
    return buf[(((this.start + lo) & mask) << 1) + 1];
  }
}

export class PublishOrder<T> {
  /** By key order: the key's latest publish time so far (-Infinity before its first). */
  private max: Float64Array = new Float64Array(64);
  /** By key order: the largest displacement found, by time and by position. */
  private worstMs: Float64Array = new Float64Array(64);
  private worstPos: Float64Array = new Float64Array(64);
  private rises = refArray<Rises | undefined>();
  private latestId = refArray<string>();
  private latestItem = refArray<T | undefined>();
  /** Rises all rings have room for. */
  private room = 0;

  /** Makes room for the key of creation order `order` (keys are added in order). */
  addKey(order: number): void {
    if (order >= this.max.length) {
      this.max = grow(this.max);
      this.worstMs = grow(this.worstMs);
      this.worstPos = grow(this.worstPos);
    }
    this.max[order] = -Infinity;
    this.rises.push(undefined);
    this.latestId.push('');
    this.latestItem.push(undefined);
  }

  /**
   * Judges the first copy of key `order` with publish time `p` (ms; NaN when the record has none:
   * never judged), the key's `index`-th first copy. Returns its displacement when it is
   * reordered, else undefined.
   */
  judge(order: number, index: number, p: number, messageId: string, item: T): Displacement<T> | undefined {
    const max = this.max[order];
    if (p > max) {
      this.max[order] = p;
      this.latestId[order] = messageId;
      this.latestItem[order] = item;
      this.rise(order, p, index);
      return undefined;
    }
    // Equal (one batch) or no publish time: never judged.
    if (!(p < max)) return undefined;
    const r = this.rises[order] as Rises;
    const byPosition = index - r.firstAbove(p);
    const byMs = max - p;
    if (byMs > this.worstMs[order]) this.worstMs[order] = byMs;
    if (byPosition > this.worstPos[order]) this.worstPos[order] = byPosition;
    return { behindMs: max, behindId: this.latestId[order], behindItem: this.latestItem[order] as T, byMs, byPosition };
  }

  /** The largest displacement of key `order` by time and by position (0 when none). */
  worst(order: number): { readonly byMs: number; readonly byPosition: number } {
    return { byMs: this.worstMs[order], byPosition: this.worstPos[order] };
  }

  clone(): PublishOrder<T> {
    const c = new PublishOrder<T>();
    c.max = this.max.slice();
    c.worstMs = this.worstMs.slice();
    c.worstPos = this.worstPos.slice();
    for (let i = 0; i < this.rises.length; i++) {
      c.rises.push(this.rises[i]?.clone());
      c.latestId.push(this.latestId[i]);
      c.latestItem.push(this.latestItem[i]);
    }
    c.room = this.room;
    return c;
  }

  private rise(order: number, p: number, index: number): void {
    let r = this.rises[order];
    if (r === undefined) {
      r = this.rises[order] = new Rises();
      this.room += FIRST_RING;
    }
    let cap = r.capacity;
    if (r.len === cap && cap < RISES_KEPT && this.room + cap <= RISES_TOTAL) {
      // Unroll the ring into one twice its size, oldest first.
      const bigger = new Float64Array(cap * 4);
      for (let i = 0; i < r.len; i++) {
        const from = ((r.start + i) & (cap - 1)) << 1;
        bigger[i << 1] = r.buf[from];
        bigger[(i << 1) + 1] = r.buf[from + 1];
      }
      r.buf = bigger;
      r.start = 0;
      this.room += cap;
      cap *= 2;
    }
    const mask = cap - 1;
    if (r.len === cap) {
      r.start = (r.start + 1) & mask;
      r.len--;
    }
    const at = ((r.start + r.len) & mask) << 1;
    r.buf[at] = p;
    r.buf[at + 1] = index;
    r.len++;
  }
}

function grow(a: Float64Array): Float64Array {
  const g = new Float64Array(a.length * 2);
  g.set(a);
  return g;
}
