/**
 * The messageIds that keys without sequence numbers (`--seq none`) delivered: how their
 * duplicates are found. The last `total` deliveries of all keys are remembered; older ones are
 * forgotten, oldest first.
 *
 * Why a bound over all keys: a bound per key (65 536, as the sequenced history) let memory grow
 * with the capture. With many keys of few messages each — the default options on a topic keyed
 * per customer or per order — no key ever reached it, so every messageId of the capture stayed in
 * memory, ~60 bytes a line (4 M lines over 20 000 keys: a 269 MiB live heap; Node's 4 GiB runs
 * out near 70 M lines). Bounded over all keys the ids take some 65 MiB at most whatever the file
 * and however many keys, and a Pub/Sub redelivery, which comes within the ack deadline or a
 * retry's backoff, is still found.
 *
 * Why one map from id to key rather than a set per key: with a key per message (a topic keyed
 * per order) a set per key was a quarter of what each key cost, and keys are then what fills the
 * heap. A messageId is unique within a topic, so an id is nearly always one key's; the same id
 * under several keys (merged captures of different topics) lists them.
 *
 * Exact: ids are compared as strings, never by hash, because here a false match would drop a
 * message as a duplicate. Each delivery also keeps a 32-bit hash of its content, to tell a
 * conflicting copy (same id, different content) from a redelivery: 4 bytes more per delivery.
 */
import { refArray } from '../util/arrayKinds';

/** Deliveries whose ids are remembered over all keys by default: 2^20, some 65 MiB at most. */
export const DEFAULT_IDS_KEPT = 1 << 20;

/** The ring slot of the delivery of an id, or the slots (in delivery order) when several keys delivered it. */
type Deliveries = number | number[];

export class IdMemory<K extends object> {
  private byId = new Map<string, Deliveries>();
  /**
   * A ring of the last `total` deliveries at most — the key, the id and a hash of the content
   * (see contentHash.ts, for conflicts) — oldest at `next` once full.
   */
  private keys = refArray<K>();
  private ids = refArray<string>();
  private contents = new Int32Array(16);
  private next = 0;

  constructor(readonly total: number = DEFAULT_IDS_KEPT) {
    if (!(total >= 1)) throw new RangeError('the id memory must hold at least one id');
  }

  /** Deliveries remembered (at most `total`). */
  get size(): number {
    return this.keys.length;
  }

  /** Whether `k` delivered `id` among the remembered deliveries. */
  has(k: K, id: string): boolean {
    return this.find(k, id) >= 0;
  }

  /**
   * The content hash `k` delivered `id` with, or undefined when `k` did not deliver `id` among
   * the remembered deliveries.
   */
  contentOf(k: K, id: string): number | undefined {
    const at = this.find(k, id);
    return at < 0 ? undefined : this.contents[at];
  }

  /** Remembers that `k` delivered `id` (not remembered now), forgetting the oldest delivery when full. */
  remember(k: K, id: string, content = 0): void {
    let at: number;
    if (this.keys.length < this.total) {
      at = this.keys.length;
      this.keys.push(k);
      this.ids.push(id);
      if (at === this.contents.length) {
        const grown = new Int32Array(Math.min(this.contents.length * 2, this.total));
        grown.set(this.contents);
        this.contents = grown;
      }
    } else {
      at = this.next;
      this.forget(at);
      this.keys[at] = k;
      this.ids[at] = id;
      this.next = at + 1 === this.total ? 0 : at + 1;
    }
    this.contents[at] = content;
    const d = this.byId.get(id);
    if (d === undefined) this.byId.set(id, at);
    else if (Array.isArray(d)) d.push(at);
    else this.byId.set(id, [d, at]);
  }

  /** A copy whose entries name `map(key)` (the copies of the keys: Sequencer.clone). */
  clone(map: (k: K) => K): IdMemory<K> {
    const c = new IdMemory<K>(this.total);
    for (const [id, d] of this.byId) c.byId.set(id, Array.isArray(d) ? d.slice() : d);
    c.keys = this.keys.map(map);
    c.ids = this.ids.slice();
    c.contents = this.contents.slice();
    c.next = this.next;
    return c;
  }

  /** The ring slot of `k`'s delivery of `id`, or -1. */
  private find(k: K, id: string): number {
    const d = this.byId.get(id);
    if (d === undefined) return -1;
    if (!Array.isArray(d)) return this.keys[d] === k ? d : -1;
    for (const at of d) if (this.keys[at] === k) return at;
    return -1;
  }

  /**
   * Takes out the delivery in ring slot `at`. Each (key, id) pair in the map has exactly one
   * entry in the ring: it is remembered again only once this entry has taken it out.
   */
  private forget(at: number): void {
    const id = this.ids[at];
    const d = this.byId.get(id) as Deliveries;
    if (!Array.isArray(d)) {
      this.byId.delete(id);
      return;
    }
    d.splice(d.indexOf(at), 1);
    if (d.length === 1) this.byId.set(id, d[0]);
  }
}
