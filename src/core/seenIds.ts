/**
 * The messageIds that keys without sequence numbers (`--seq none`) delivered: how their
 * duplicates are found. A key remembers the ids of its last `perKey` deliveries, and all keys
 * together the last `total` deliveries, whichever forgets an id first.
 *
 * Why a bound over all keys: the per-key bound alone let memory grow with the capture. With many
 * keys of few messages each — the default options on a topic keyed per customer or per order —
 * no key ever reached its bound, so every messageId of the capture stayed in memory, ~60 bytes a
 * line (4 M lines over 20 000 keys: a 269 MiB live heap, and Node's 4 GiB runs out near 70 M).
 * With the total bound the ids take some 65 MiB at most whatever the file (4 M lines: 150 MiB
 * in all), and a Pub/Sub redelivery, which comes within the ack deadline or a retry's backoff, is
 * still found.
 *
 * Exact: ids are compared as strings, never by hash, because here a false match would drop a
 * message as a duplicate.
 */
import { numberArray, refArray } from './arrayKinds';

/** Ids remembered over all keys by default: 2^20, some 65 MiB at most. */
export const DEFAULT_IDS_KEPT = 1 << 20;

/** Queue entries taken from the front before the queue's array is compacted. */
const COMPACT_AFTER = 1024;

/** One key's remembered ids. */
export class SeenIds {
  /** The remembered ids (those in `order`). */
  private readonly ids = new Set<string>();
  /** The remembered ids in delivery order, from `head`. */
  private order = refArray<string>();
  private head = 0;
  /** Deliveries so far. */
  private delivered = 0;

  has(id: string): boolean {
    return this.ids.has(id);
  }

  get size(): number {
    return this.order.length - this.head;
  }

  /** Delivery number of the oldest remembered id (valid when size > 0). */
  get oldest(): number {
    return this.delivered - this.size + 1;
  }

  /** Remembers a delivered id; returns its delivery number. */
  add(id: string): number {
    this.ids.add(id);
    this.order.push(id);
    return ++this.delivered;
  }

  /** Forgets the oldest remembered id. */
  dropOldest(): void {
    // `ids` holds exactly the ids in `order`, each once: an id is added again only after it was
    // dropped from both.
    this.ids.delete(this.order[this.head]);
    this.order[this.head] = undefined as unknown as string;
    this.head++;
    if (this.head === this.order.length) {
      this.order.length = 0;
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  copy(): SeenIds {
    const c = new SeenIds();
    for (const id of this.ids) c.ids.add(id);
    c.order = this.order.slice(this.head);
    c.delivered = this.delivered;
    return c;
  }
}

/** What the memory needs of a key: its ids (created by the caller before `remember`). */
export interface HasSeenIds {
  seen: SeenIds | undefined;
}

/** The bound over all keys: which key delivered each of the last `total` remembered ids. */
export class IdMemory<K extends HasSeenIds> {
  /** A ring of `total` entries at most: the key and its delivery number, oldest at `next` once full. */
  private keys = refArray<K>();
  private numbers = numberArray();
  private next = 0;

  constructor(
    readonly perKey: number,
    readonly total: number = DEFAULT_IDS_KEPT,
  ) {
    if (!(perKey >= 1) || !(total >= 1)) throw new RangeError('id memory bounds must be ≥ 1');
  }

  /** Deliveries the bound over all keys tracks: at most `total` (some already forgotten by their key's bound). */
  get size(): number {
    return this.keys.length;
  }

  /** Remembers an id `k` delivered, forgetting what falls out of either bound. */
  remember(k: K, seen: SeenIds, id: string): void {
    const n = seen.add(id);
    if (seen.size > this.perKey) seen.dropOldest();
    if (this.keys.length < this.total) {
      this.keys.push(k);
      this.numbers.push(n);
      return;
    }
    const at = this.next;
    const old = this.keys[at].seen as SeenIds;
    // Deliveries leave both bounds in the order they came, so the entry leaving this ring is
    // its key's oldest remembered id — unless the key's own bound forgot it already.
    if (old.size > 0 && old.oldest === this.numbers[at]) old.dropOldest();
    this.keys[at] = k;
    this.numbers[at] = n;
    this.next = at + 1 === this.total ? 0 : at + 1;
  }

  /** A copy whose entries name `map(key)` (the copies of the keys, for Sequencer.clone). */
  clone(map: (k: K) => K): IdMemory<K> {
    const c = new IdMemory<K>(this.perKey, this.total);
    c.keys = this.keys.map(map);
    c.numbers = this.numbers.slice();
    c.next = this.next;
    return c;
  }
}
