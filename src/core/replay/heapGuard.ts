/**
 * Stops a replay before Node runs out of heap, so that a capture too big for the memory it has
 * ends with a clear message and the part that was read, not with V8's fatal error: a native
 * stack trace and nothing else from the CLI (exit 134), a loader worker gone with everything it
 * had read in the extension.
 *
 * What grows: the sequencer keeps counters and state per key (a few hundred bytes; the
 * extension's session adds its per-key lists), so a topic keyed per order or per customer has as
 * many keys as messages. That is what the user asked to see, so it cannot be bounded without
 * losing results — but it can be watched. (A session's events are in typed arrays, outside this
 * heap: running out there is an ordinary error, which the load reports.)
 *
 * How: between batches the guard reads the heap's size, a few microseconds. That size counts
 * garbage V8 has not collected yet, which can fill the heap close to its limit before V8 runs a
 * full collection, so it is no reason to stop by itself. When it passes `stopAt` of the limit —
 * counting what the caller says it still needs to finish (`check`'s reserve: the summary's
 * objects) — the guard runs a full collection itself and stops the run if what is live is still
 * past it. Waiting for V8's own full collections instead was tried: they come further apart as
 * the heap grows (one at 1.6 GB live, the next at 2.2 GB), so the run could be found past the
 * line with too little room left to summarise. After a collection that leaves room, the next
 * waits `spacing` times as long as that one took, so a run near the line spends at most a fifth
 * of its time collecting (a second or more at a few GB live) — unless the heap passes halfway
 * from the line to the limit meanwhile, which a small heap can within one wait. V8 gives up before the heap is full to the byte
 * ("ineffective mark-compacts near heap limit"), hence a share.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapUse {
  /** Bytes in use: live, after a full collection, when the guard stopped the run. */
  readonly used: number;
  /** Bytes the heap may grow to. */
  readonly limit: number;
}

/** Where the heap stood when the guard stopped a run. */
export interface HeapAtStop extends HeapUse {
  /** What the run said it still needed to finish (check's reserve). */
  readonly reserve: number;
}

export interface HeapGuardOptions {
  /** Share of the limit, in use plus the reserve, at which the run stops (default 0.8). */
  readonly stopAt?: number;
  /** After a collection that left room, how many times its duration to wait before the next (default 4). */
  readonly spacing?: number;
  /** The heap's size now (tests inject it). */
  readonly read?: () => HeapUse;
  /** Runs a full garbage collection (tests inject it). */
  readonly collect?: () => void;
  /** A clock, in ms (tests inject it). */
  readonly now?: () => number;
}

function v8Heap(): HeapUse {
  const h = getHeapStatistics();
  return { used: h.used_heap_size, limit: h.heap_size_limit };
}

let gc: (() => void) | undefined;

/**
 * A full collection. Node has no call for it without `--expose-gc`; the flag can be set at run
 * time, and a context made after that has `gc`. The flag is the process's (in the extension
 * host, every extension's): contexts made later get a `gc` function, and nothing else changes.
 * Set only once a run is near the line.
 */
function fullCollection(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

export class HeapGuard {
  private readonly controller = new AbortController();
  private readonly stopAt: number;
  /** Share of the limit past which the spacing no longer holds a collection back. */
  private readonly urgentAt: number;
  private readonly spacing: number;
  private readonly read: () => HeapUse;
  private readonly collect: () => void;
  private readonly now: () => number;
  /** After a collection that left room: the time before which none runs again. */
  private nextTime = -Infinity;
  private stoppedWith: HeapAtStop | undefined;

  constructor(o: HeapGuardOptions = {}) {
    this.stopAt = o.stopAt ?? 0.8;
    this.urgentAt = (this.stopAt + 1) / 2;
    this.spacing = o.spacing ?? 4;
    if (!(this.stopAt > 0 && this.stopAt < 1) || !(this.spacing >= 0)) throw new RangeError('need 0 < stopAt < 1 and spacing ≥ 0');
    this.read = o.read ?? v8Heap;
    this.collect = o.collect ?? fullCollection;
    this.now = o.now ?? (() => performance.now());
  }

  /** Aborted when the guard stops the run. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The heap when the guard stopped the run; undefined while it has not. */
  get stopped(): HeapAtStop | undefined {
    return this.stoppedWith;
  }

  /**
   * Between batches. Cheap unless the heap is near the line.
   * @param reserve bytes the run will still allocate once stopped, to finish and report.
   */
  check(reserve = 0): void {
    if (this.stoppedWith !== undefined) return;
    const h = this.read();
    const line = this.stopAt * h.limit - reserve;
    if (h.used <= line) return;
    const started = this.now();
    // Within the spacing only while the heap has room left: past halfway from the line to the
    // limit it collects anyway. A small heap fills faster than the spacing (a worker of 64 MiB
    // reading a capture of a key per message ran out of memory within one, under load).
    if (started < this.nextTime && h.used <= this.urgentAt * h.limit - reserve) return;
    this.collect();
    const live = this.read();
    if (live.used <= line) {
      const ended = this.now();
      this.nextTime = ended + this.spacing * (ended - started);
      return;
    }
    this.stoppedWith = { ...live, reserve };
    this.controller.abort(new Error('the heap is nearly full'));
  }
}
