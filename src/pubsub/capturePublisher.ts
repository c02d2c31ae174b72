/**
 * Publishes a capture into a topic to reproduce what a consumer saw: the messages of one key go
 * out strictly in capture order, different keys concurrently (the JMS pattern: same key
 * sequential, different keys parallel), with ordering keys and attributes preserved.
 *
 * Concurrency is bounded twice: at most `concurrency` keys have publishes in flight, and a key
 * has at most `window` in flight (the client's ordered publisher keeps them in order on the
 * wire). Reading the capture pauses while `maxQueued` messages wait, so memory stays bounded
 * on captures of any size.
 *
 * A failed publish pauses only its key (the other keys go on): the failed message and every
 * later one of that key are kept, in order, until `resume(key)` — which calls the client's
 * resumePublishing — or the run is aborted. Nothing is skipped silently.
 */
import { InputError } from '../core/util/inputError';
import type { CaptureEntry, PubsubMessage } from '../core/capture/captureRecord';
import type { PubsubConnection } from './connection';
import type { ResourceName } from './resourceNames';

/** One message to publish, as the capture holds it. */
export interface OutgoingMessage {
  readonly key: string;
  readonly data: Buffer;
  readonly attributes?: Record<string, string>;
  /** Where it came from, for error messages. */
  readonly line: number;
}

/** What the publisher needs of Pub/Sub (a Topic in ordered mode; tests pass a fake). */
export interface PublishSink {
  /** Resolves with the new messageId; rejects when the publish failed. */
  publish(m: OutgoingMessage): Promise<string>;
  /** Lets a key publish again after a failure (Topic#resumePublishing). */
  resume(key: string): void;
}

/** Capture pacing: `original` keeps the capture's own gaps between messages. */
export type Pace = 'original' | 'max' | `x${number}`;

export function paceSpeed(pace: string): number {
  if (pace === 'original') return 1;
  if (pace === 'max') return Infinity;
  const m = /^x(\d+(?:\.\d+)?)$/.exec(pace);
  const speed = m ? Number(m[1]) : NaN;
  if (!(speed > 0)) throw new InputError(`pace "${pace}" is not original, max or xN (e.g. x10)`, { flag: '--pace' });
  return speed;
}

export interface PublishProgress {
  read: number;
  published: number;
  /** Messages read but not yet confirmed (queued, in flight, or held by a paused key). */
  pending: number;
  skipped: number;
  paused: string[];
}

export interface PausedKey {
  readonly key: string;
  readonly error: Error;
  /** Messages of the key not yet published (the failed one first). */
  readonly pending: number;
  /** Capture line of the first message not published. */
  readonly line: number;
}

export interface PublisherOptions {
  readonly sink: PublishSink;
  readonly pace?: Pace;
  /** Keys with publishes in flight at once. */
  readonly concurrency?: number;
  /** Publishes in flight per key. */
  readonly window?: number;
  /** Messages read ahead of publishing, at most. */
  readonly maxQueued?: number;
  /** Skip a record whose messageId was already published in this run (a redelivery in the capture). */
  readonly skipRedeliveries?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: PublishProgress) => void;
  /** A key stopped on a failure; call resume(key) (or abort) to go on. */
  readonly onPaused?: (p: PausedKey) => void;
  /** Writes each message's payload and attributes anew (for a topic bound to a schema); without it, as the capture holds them. */
  readonly encode?: (message: PubsubMessage, topic: string | undefined) => { data: Uint8Array; attributes?: Record<string, string> };
  /** Injected for tests: the clock and the wait used for pacing. */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PublishResult {
  read: number;
  published: number;
  /** Records skipped: invalid lines and, with skipRedeliveries, repeated messageIds. */
  skipped: number;
  keys: number;
  cancelled: boolean;
  /** Keys left paused (only when cancelled while paused). */
  paused: PausedKey[];
  /** Messages read but not published (cancelled runs). */
  unpublished: number;
  elapsedMs: number;
}

interface Lane {
  readonly key: string;
  readonly queue: OutgoingMessage[];
  inFlight: OutgoingMessage[];
  failed: OutgoingMessage[];
  settling: number;
  error: Error | undefined;
  paused: boolean;
  /** Holds one of the `concurrency` slots. */
  active: boolean;
  /** In the line for a slot. */
  waiting: boolean;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export class CapturePublisher {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with queued work waiting for a concurrency slot, in arrival order. */
  private readonly waiting: Lane[] = [];
  private activeLanes = 0;
  private queued = 0;
  private read = 0;
  private published = 0;
  private skipped = 0;
  private wake: (() => void) | undefined;
  private readonly seenIds = new Set<string>();
  private readonly speed: number;
  private readonly concurrency: number;
  private readonly window: number;
  private readonly maxQueued: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: PublisherOptions) {
    this.speed = paceSpeed(options.pace ?? 'max');
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.window = Math.max(1, options.window ?? 100);
    this.maxQueued = Math.max(this.window, options.maxQueued ?? 10_000);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Keys stopped on a failure, with what failed. */
  pausedKeys(): PausedKey[] {
    const out: PausedKey[] = [];
    for (const l of this.lanes.values()) {
      if (l.paused && l.settling === 0) out.push(pausedInfo(l));
    }
    return out;
  }

  /** Lets a paused key publish again, from the message that failed. */
  resume(key: string): boolean {
    const l = this.lanes.get(key);
    if (!l || !l.paused) return false;
    this.options.sink.resume(key);
    l.paused = false;
    l.error = undefined;
    this.schedule(l);
    this.poke();
    return true;
  }

  /**
   * Reads `batches` (what CaptureReader yields) and publishes every valid record. Resolves when
   * everything read is published, or when the signal aborts (what was not published is counted).
   */
  async run(batches: AsyncIterable<readonly CaptureEntry[]>): Promise<PublishResult> {
    const started = this.now();
    const signal = this.options.signal;
    let firstTime = NaN;
    let cancelled = false;
    const onAbort = () => this.poke();
    signal?.addEventListener('abort', onAbort);
    try {
      outer: for await (const batch of batches) {
        for (const e of batch) {
          if (signal?.aborted) {
            cancelled = true;
            break outer;
          }
          const m = this.toOutgoing(e);
          if (!m) continue;
          if (this.speed !== Infinity) {
            if (firstTime !== firstTime) firstTime = e.time;
            const due = started + (e.time - firstTime) / this.speed;
            const wait = due - this.now();
            if (wait > 1) await this.sleep(wait, signal);
          }
          while (this.queued >= this.maxQueued && !signal?.aborted) await this.idle();
          this.enqueue(m);
        }
      }
      if (signal?.aborted) cancelled = true;
      // Drain: wait until every lane is empty (paused lanes wait for resume or abort).
      while (!cancelled && this.queued > 0) {
        await this.idle();
        if (signal?.aborted) cancelled = true;
      }
      if (cancelled) await this.settleInFlight();
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    this.report();
    return {
      read: this.read,
      published: this.published,
      skipped: this.skipped,
      keys: this.lanes.size,
      cancelled,
      paused: this.pausedKeys(),
      unpublished: this.queued,
      elapsedMs: this.now() - started,
    };
  }

  private toOutgoing(e: CaptureEntry): OutgoingMessage | undefined {
    const rm = e.record;
    if (!rm) {
      this.skipped++;
      return undefined;
    }
    this.read++;
    const msg = rm.message;
    if (this.options.skipRedeliveries) {
      if (this.seenIds.has(msg.messageId)) {
        this.skipped++;
        return undefined;
      }
      this.seenIds.add(msg.messageId);
    }
    if (this.options.encode) {
      const out = this.options.encode(msg, rm.topic);
      return {
        key: msg.orderingKey ?? '',
        data: Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength),
        attributes: out.attributes,
        line: e.line,
      };
    }
    return {
      key: msg.orderingKey ?? '',
      data: Buffer.from(msg.data ?? '', 'base64'),
      attributes: msg.attributes,
      line: e.line,
    };
  }

  private enqueue(m: OutgoingMessage): void {
    let l = this.lanes.get(m.key);
    if (!l) {
      l = { key: m.key, queue: [], inFlight: [], failed: [], settling: 0, error: undefined, paused: false, active: false, waiting: false };
      this.lanes.set(m.key, l);
    }
    l.queue.push(m);
    this.queued++;
    this.schedule(l);
  }

  /** Gives a lane work if it may run: its own slot, or a free one, else the waiting line. */
  private schedule(l: Lane): void {
    // A paused lane sends nothing, even while its other publishes are still settling.
    if (l.paused || l.queue.length === 0) return;
    if (!l.active) {
      if (this.activeLanes >= this.concurrency) {
        if (!l.waiting) {
          l.waiting = true;
          this.waiting.push(l);
        }
        return;
      }
      l.active = true;
      this.activeLanes++;
    }
    while (l.inFlight.length < this.window && l.queue.length > 0) {
      const m = l.queue.shift()!;
      l.inFlight.push(m);
      l.settling++;
      this.options.sink.publish(m).then(
        () => this.settled(l, m, undefined),
        (err: Error) => this.settled(l, m, err),
      );
    }
  }

  private settled(l: Lane, m: OutgoingMessage, err: Error | undefined): void {
    l.settling--;
    const i = l.inFlight.indexOf(m);
    if (i >= 0) l.inFlight.splice(i, 1);
    if (err) {
      l.failed.push(m);
      l.error ??= err;
      l.paused = true;
    } else {
      this.published++;
      this.queued--;
    }
    if (l.settling === 0) {
      if (l.failed.length) {
        // The failed message and everything after it go back to the front, in capture order.
        l.failed.sort((a, b) => a.line - b.line);
        l.queue.unshift(...l.failed);
        l.failed = [];
        this.release(l);
        this.options.onPaused?.(pausedInfo(l));
      } else if (l.queue.length === 0 || this.waiting.length > 0) {
        // Done, or others wait: a busy key takes its turn in line rather than keep the slot.
        this.release(l);
      }
    }
    this.schedule(l);
    this.report();
    this.poke();
  }

  /** Frees a lane's slot and hands it to the next waiting lane. */
  private release(l: Lane): void {
    if (!l.active) return;
    l.active = false;
    this.activeLanes--;
    while (this.activeLanes < this.concurrency && this.waiting.length) {
      const next = this.waiting.shift()!;
      next.waiting = false;
      this.schedule(next);
    }
  }

  private async settleInFlight(): Promise<void> {
    while ([...this.lanes.values()].some((l) => l.settling > 0)) await this.idle();
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private lastReport = 0;
  private report(): void {
    const cb = this.options.onProgress;
    if (!cb) return;
    const t = this.now();
    if (t - this.lastReport < 100 && this.queued > 0) return;
    this.lastReport = t;
    cb({ read: this.read, published: this.published, pending: this.queued, skipped: this.skipped, paused: this.pausedKeys().map((p) => p.key) });
  }
}

function pausedInfo(l: Lane): PausedKey {
  return { key: l.key, error: l.error ?? new Error('paused'), pending: l.queue.length, line: l.queue[0]?.line ?? 0 };
}

/**
 * A PublishSink on a topic, opened the one way SeqScope publishes: message ordering on (so the
 * client keeps each key's publishes in order and pauses a key after a failure), small batches
 * sent soon (pacing decides the rate, not the batcher), a bounded deadline per publish.
 */
export function openTopicSink(conn: PubsubConnection, topic: ResourceName): PublishSink & { flush(): Promise<void> } {
  const t = conn.client.topic(topic.path, {
    messageOrdering: true,
    batching: { maxMessages: 100, maxMilliseconds: 5 },
    gaxOpts: { timeout: 30_000 },
  });
  return {
    publish: (m) => t.publishMessage(m.key ? { data: m.data, attributes: m.attributes, orderingKey: m.key } : { data: m.data, attributes: m.attributes }),
    resume: (key) => t.resumePublishing(key),
    flush: () => t.flush().catch(() => undefined),
  };
}
