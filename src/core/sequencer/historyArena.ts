/**
 * The delivery history of every key of one sequencer — for each recent delivery, a 32-bit hash of
 * its messageId and one of its content (see contentHash.ts) — kept in shared `Int32Array` pages
 * rather than an array per key. A slot is the two hashes side by side: one cache line serves both.
 *
 * Why: a per-key array grows as the key delivers, so with many keys the heap is full of young,
 * live, growing arrays that every scavenge copies (1 000 keys × 3 000 deliveries: the collector
 * took more time than sequencing). Typed-array pages live outside the JS heap, so the collector
 * neither traces nor copies them; and one page serves many keys, where a typed array per key is
 * slow to allocate with 100 000 keys.
 *
 * Each key owns one chunk of a page (a power of two of slots, its ring). When the ring is full
 * and still below the history size, it moves to a chunk twice as large; the chunk it leaves goes
 * to a free list for its size and is reused by the next key that grows to that size.
 *
 * The rings of all keys together are bounded (`budget`): past it, a full ring stops growing and
 * wraps at the size it has. Without that bound the history grew with the capture until every
 * key reached the history size — 4 bytes a delivery, 2.5 GiB for 10 000 keys of a long capture —
 * so a replay's memory followed the file's size rather than what it holds.
 */

/** Where a key's ring lives. The sequencer's KeyState carries these fields itself. */
export interface HistoryRing {
  /** The page holding the key's chunk (an empty page until its first delivery). */
  histPage: Int32Array;
  /** Offset of the chunk in the page, in ints (a slot is two). */
  histOff: number;
  /** Slots in the chunk (0 until the first delivery). */
  histCap: number;
  /** Slots filled so far: they fill in order until the ring stops growing, then wrap. */
  histLen: number;
  /**
   * Slot index mask of the position relative to the ring's first one: the history size − 1 while
   * the ring may grow to it, its own size − 1 once the budget stopped it (the sequencer
   * initialises it; the arena lowers it).
   */
  histMask: number;
}

/** The page of a ring with no chunk yet (shared: a key allocates nothing before its first delivery). */
export const EMPTY_PAGE = new Int32Array(0);
/** The smallest chunk: most keys with few deliveries fit in one. */
const MIN_CHUNK = 16;
/** Page sizes double from the first to the last (slots), so small sequencers (checkpoint copies, tests) stay small. */
const FIRST_PAGE = 4096;
const LARGEST_PAGE = 1 << 20;
/** Slots of all rings together, by default (32 MiB: two 32-bit hashes a slot). */
export const DEFAULT_HISTORY_BUDGET = 1 << 22;

export class HistoryArena {
  private page = EMPTY_PAGE;
  /** Next free int of the current page. */
  private top = 0;
  private nextPageSize = FIRST_PAGE;
  /** Free chunks by log2(size): their pages and offsets. */
  private readonly freePages: Int32Array[][] = [];
  private readonly freeOffs: number[][] = [];
  /** Slots of the live rings (not of free chunks), which growth keeps within the budget. */
  private slotsInUse = 0;

  /**
   * @param ringSize slots per key once full: a power of two (the sequencer's history size).
   * @param budget slots of all rings together past which a full ring stops growing. Every ring
   *   gets its first chunk whatever the budget, so a key always remembers its latest few.
   */
  constructor(
    readonly ringSize: number,
    readonly budget = DEFAULT_HISTORY_BUDGET,
  ) {
    if (!(ringSize >= 1) || (ringSize & (ringSize - 1)) !== 0) throw new RangeError('ringSize must be a power of two');
    if (!(budget >= 0)) throw new RangeError('budget must be ≥ 0');
  }

  /** Slots the live rings hold together (at most the budget, plus a first chunk per ring past it). */
  get slots(): number {
    return this.slotsInUse;
  }

  /** The messageId hash in `slot`, or 0 (unknown) when the slot was never filled. */
  get(r: HistoryRing, slot: number): number {
    return slot < r.histLen ? r.histPage[r.histOff + (slot << 1)] : 0;
  }

  /** The content hash in `slot`, or 0 when the slot was never filled. */
  getContent(r: HistoryRing, slot: number): number {
    return slot < r.histLen ? r.histPage[r.histOff + (slot << 1) + 1] : 0;
  }

  /**
   * Stores `hash` in `slot`. Slots are filled in order: `slot` is at most the number filled so
   * far (the sequencer records every position, lost ones included, in increasing order). A slot
   * one past a full ring that the budget keeps from growing is slot 0: from there the ring wraps
   * at its size (its `histMask` says so to the sequencer).
   */
  set(r: HistoryRing, slot: number, hash: number, content = 0): void {
    if (slot === r.histLen) {
      if (slot === r.histCap && !this.grow(r)) slot = 0;
      else r.histLen = slot + 1;
    }
    const at = r.histOff + (slot << 1);
    r.histPage[at] = hash;
    r.histPage[at + 1] = content;
  }

  /** Gives `to` (a ring of this arena) the same contents as `from` (a ring of any arena). */
  copy(from: HistoryRing, to: HistoryRing): void {
    to.histLen = 0;
    to.histCap = 0;
    to.histPage = EMPTY_PAGE;
    to.histOff = 0;
    to.histMask = from.histMask;
    if (from.histCap === 0) return;
    this.place(to, from.histCap);
    copySlots(from.histPage, from.histOff, to.histPage, to.histOff, from.histLen << 1);
    to.histLen = from.histLen;
  }

  /** Moves a full ring to a chunk twice its size; false when the budget stops it (it then wraps). */
  private grow(r: HistoryRing): boolean {
    const oldCap = r.histCap;
    const cap = oldCap === 0 ? Math.min(MIN_CHUNK, this.ringSize) : oldCap * 2;
    if (cap > this.ringSize) throw new RangeError('history ring is already full');
    if (oldCap > 0 && this.slotsInUse + cap - oldCap > this.budget) {
      r.histMask = oldCap - 1;
      return false;
    }
    const oldPage = r.histPage;
    const oldOff = r.histOff;
    this.place(r, cap);
    if (oldCap > 0) {
      copySlots(oldPage, oldOff, r.histPage, r.histOff, r.histLen << 1);
      this.release(oldPage, oldOff, oldCap);
      this.slotsInUse -= oldCap;
    }
    return true;
  }

  /** Points `r` at a fresh chunk of `cap` slots (a power of two; twice as many ints). */
  private place(r: HistoryRing, cap: number): void {
    const cls = log2(cap);
    const pages = this.freePages[cls];
    if (pages !== undefined && pages.length > 0) {
      r.histPage = pages.pop() as Int32Array;
      r.histOff = this.freeOffs[cls].pop() as number;
    } else {
      if (this.top + (cap << 1) > this.page.length) this.newPage(cap);
      r.histPage = this.page;
      r.histOff = this.top;
      this.top += cap << 1;
    }
    r.histCap = cap;
    this.slotsInUse += cap;
  }

  private newPage(atLeast: number): void {
    // The rest of the current page becomes free chunks rather than waste.
    let rest = (this.page.length - this.top) >> 1;
    while (rest >= MIN_CHUNK) {
      const size = Math.min(2 ** Math.floor(Math.log2(rest)), this.ringSize);
      this.release(this.page, this.top, size);
      this.top += size << 1;
      rest -= size;
    }
    const size = Math.max(this.nextPageSize, atLeast);
    this.nextPageSize = Math.min(this.nextPageSize * 2, LARGEST_PAGE);
    this.page = new Int32Array(size << 1);
    this.top = 0;
  }

  private release(page: Int32Array, off: number, cap: number): void {
    const cls = log2(cap);
    (this.freePages[cls] ??= []).push(page);
    (this.freeOffs[cls] ??= []).push(off);
  }
}

/** log2 of a power of two: an instruction, where Math.log2 is a call into the C library. */
function log2(powerOfTwo: number): number {
  return 31 - Math.clz32(powerOfTwo);
}

/** A plain loop over `n` ints: `set(subarray(…))` would allocate a view per move, and most rings are small. */
function copySlots(from: Int32Array, fromOff: number, to: Int32Array, toOff: number, n: number): void {
  for (let i = 0; i < n; i++) to[toOff + i] = from[fromOff + i];
}
