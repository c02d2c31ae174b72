/**
 * A binary min-heap of (deadline, key order) pairs: the sequencer's one timer queue for every
 * key. Ties break on the key's creation order so that firing order — and so the output — is
 * deterministic.
 */
export interface Timed {
  readonly order: number;
}

export class TimerHeap<K extends Timed> {
  private deadlines: number[] = [];
  private keys: K[] = [];

  get size(): number {
    return this.keys.length;
  }

  peekDeadline(): number {
    return this.deadlines.length ? this.deadlines[0] : Infinity;
  }

  push(deadline: number, key: K): void {
    const d = this.deadlines;
    const k = this.keys;
    let i = d.length;
    d.push(deadline);
    k.push(key);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(deadline, key, d[p], k[p])) break;
      d[i] = d[p];
      k[i] = k[p];
      i = p;
    }
    d[i] = deadline;
    k[i] = key;
  }

  /** A copy with every key mapped through `map` (for sequencer snapshots). */
  clone(map: (k: K) => K): TimerHeap<K> {
    const h = new TimerHeap<K>();
    h.deadlines = [...this.deadlines];
    h.keys = this.keys.map(map);
    return h;
  }

  /** Removes and returns the key with the earliest deadline (callers check `size`). */
  pop(): K {
    const d = this.deadlines;
    const k = this.keys;
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
        const c = r < n && this.less(d[r], k[r], d[l], k[l]) ? r : l;
        if (!this.less(d[c], k[c], lastD, lastK)) break;
        d[i] = d[c];
        k[i] = k[c];
        i = c;
      }
      d[i] = lastD;
      k[i] = lastK;
    }
    return top;
  }

  private less(da: number, ka: K, db: number, kb: K): boolean {
    return da < db || (da === db && ka.order < kb.order);
  }
}
