/**
 * A live source: streaming pulls on one subscription (SeqScope's own streams, see PullStream;
 * several, as the client library opens, because the server paces each stream), turning each
 * delivery into a capture record (in arrival order), writing it through a recorder, and acking
 * it only once its line is written — the acks of one pull response go back together, on the
 * stream that delivered it, right after its lines are written. On an ordered subscription the
 * server sends a key's messages on one stream at a time, so arrival order keeps each key's
 * order. It watches its own health,
 * because a streaming pull is silent when the server goes away: once a second it looks whether
 * anything arrived since the last look; if nothing did, a short-deadline metadata call says
 * whether the server (and the subscription) are still there.
 * When that fails the source is "disconnected", and when it succeeds again the stream is
 * reopened and the source is "live" again. What the server redelivers after that shows up as
 * redelivery duplicates in the sequencer.
 *
 * Why not a metadata call every time: deliveries already prove the server is there, and each
 * call costs the client library ~2.5 ms of CPU (measured against a local server), about 1 µs per
 * message at the emulator's full rate. A dead server is still noticed within two looks plus the
 * call's deadline, as before.
 */
import type { Subscription } from '@google-cloud/pubsub';
import type { Timers } from '../core/util/timers';
import type { ReceivedMessage } from '../core/capture/captureRecord';
import { describeSubscription, getSubscription, SubscriptionInfo } from './admin';
import { CaptureRecorder } from './captureRecorder';
import { PubsubConnection } from './connection';
import { PulledMessage, PullStream, subscriberCalls, SubscriberCalls } from './pullStream';
import { explainError, PubsubError } from './pubsubErrors';
import { captureLine, fromPulled, writeCaptureLine } from './receivedRecord';
import type { LiveSchemas } from './liveSchemas';
import { ResourceName } from './resourceNames';

export type LiveState = 'connecting' | 'live' | 'disconnected' | 'stopped';

export interface LiveSourceEvents {
  /**
   * Each delivery, in arrival order, with its line's byte offset and length in the recording
   * (-1 and the line's length without a recorder) and its receive time in ms (the value of
   * `rm.receivedAt`, handed over so the sequencer need not parse it back). Called before the ack.
   */
  record(rm: ReceivedMessage, offset: number, length: number, receivedAtMs: number): void;
  /** A delivery was acked (its line is in the recording, when there is one). */
  acked?(rm: ReceivedMessage): void;
  /**
   * State changes, and a state kept for a new reason (disconnected because the server is down,
   * then because the subscription is gone); `detail` says why (shown in the status bar, tree
   * and log), `cause` is the PubsubError kind behind a disconnect ('not-found': the
   * subscription no longer exists).
   */
  state?(state: LiveState, detail: string, cause?: string): void;
  /** Problems that do not stop the source (a failed write: the message is nacked, not lost). */
  problem?(e: Error): void;
}

export interface LiveSourceOptions {
  readonly connection: PubsubConnection;
  readonly subscription: ResourceName;
  /** Where deliveries are recorded; a message is acked only after its line is written. */
  readonly recorder?: CaptureRecorder;
  /** The subscriber calls (tests pass a fake); default: the client library's generated client on the connection. */
  readonly calls?: SubscriberCalls;
  /**
   * Flow control: at most this many unacked messages (and bytes) sent by the server, over all
   * streams together (memory stays bounded).
   */
  readonly maxMessages?: number;
  readonly maxBytes?: number;
  /** How many streaming pulls read the subscription together (default 5, as the client library). */
  readonly streams?: number;
  /**
   * Take at most this many messages: later deliveries are nacked unrecorded (the server keeps
   * them for the subscription's other consumers or a later run).
   */
  readonly stopAfter?: number;
  /**
   * Instead of stopAfter, a count shared by several sources recording together (`record --topic A
   * --topic B --max-messages N`): each delivery taken uses one; at 0 later deliveries are nacked.
   */
  readonly budget?: { remaining: number };
  /**
   * Stamped on every record as `topic` (projects/P/topics/T): set when several topics are
   * recorded into one file, whose keys are then per topic (see ReceivedMessage.topic).
   */
  readonly topic?: string;
  /**
   * Health: how often the source looks whether deliveries arrived (ms, default 1000); a
   * metadata call, with this deadline (ms, default 1500), is made when none did, at most every
   * other look.
   */
  readonly healthIntervalMs?: number;
  readonly healthTimeoutMs?: number;
  /**
   * Fault injection (tests, demos): a message for which this returns true is neither acked nor
   * nacked (the source never extends leases), so its ack deadline expires as if the consumer
   * had crashed holding it. On an ordered subscription the server then re-sends it and every
   * later message of its key.
   */
  readonly withholdAck?: (rm: ReceivedMessage) => boolean;
  /** The clock and timers of the health looks (tests pass a manual clock); default: the real ones. */
  readonly timers?: Timers;
  /**
   * The schema revisions messages name, fetched once each and recorded before the first message
   * that names each: a batch naming one not yet answered waits for the answer (and those after
   * it, so arrival order holds); the rest go on at once.
   */
  readonly schemas?: LiveSchemas;
}

const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface LiveStats {
  received: number;
  acked: number;
  nacked: number;
  withheld: number;
  reconnects: number;
  /**
   * Deliveries that arrived while the source stopped, given back unrecorded at once (deadline 0)
   * so another consumer gets them now rather than after their ack deadline.
   */
  released: number;
  /** When the source last became live after being disconnected (ms since epoch), or 0. */
  lastReconnectAt: number;
}

export class LiveSource {
  readonly stats: LiveStats = { received: 0, acked: 0, nacked: 0, withheld: 0, reconnects: 0, released: 0, lastReconnectAt: 0 };
  private current: LiveState = 'connecting';
  private currentDetail = '';
  private readonly timers: Timers;
  private calls: SubscriberCalls | undefined;
  private pulls: PullStream[] = [];
  /** Batches waiting for the schema revisions they (or one before them) name. */
  private schemaWait: Promise<void> | undefined;
  /** Acks of lines just written, per stream that delivered them, sent together once the recorder's callbacks have run. */
  private readonly pendingAcks = new Map<PullStream, string[]>();
  private acksQueued = false;
  private healthTimer: unknown;
  private probing = false;
  /** A delivery arrived since the last look (see probe()). */
  private deliveredSinceLook = false;
  /** When the last metadata call was made (ms since epoch). */
  private lastCallAt = 0;
  /** The Subscription object the metadata calls go through (made once: each costs the library setup). */
  private probeSub: Subscription | undefined;
  info: SubscriptionInfo | undefined;

  constructor(
    private readonly options: LiveSourceOptions,
    private readonly events: LiveSourceEvents,
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
  }

  get state(): LiveState {
    return this.current;
  }

  /**
   * Checks the subscription (a clear error at once if it is missing or forbidden), opens the
   * stream and starts the health probe. Returns what the subscription is.
   */
  async start(): Promise<SubscriptionInfo> {
    this.info = await getSubscription(this.options.connection, this.options.subscription);
    this.calls = this.options.calls ?? (await subscriberCalls(this.options.connection));
    this.open();
    this.setState('live', `receiving from ${this.options.subscription.path}`);
    this.scheduleProbe();
    return this.info;
  }

  /**
   * Stops receiving: what was written is acked, and what the server sends from now on is given
   * back unrecorded at once (deadline 0; see PullStream.close), so another consumer of the
   * subscription takes those messages (and, on an ordered subscription, their keys) without
   * waiting out the ack deadline. Withheld messages stay leased (they stand for a crash). Stops
   * the probe. Safe to call twice.
   */
  async stop(): Promise<void> {
    if (this.current === 'stopped') return;
    this.setState('stopped', 'detached');
    if (this.healthTimer !== undefined) this.timers.clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
    // Lines still buffered are written now, so their acks go out before the stream closes.
    await this.options.recorder?.flush();
    this.flushAcks();
    const pulls = this.pulls;
    this.pulls = [];
    for (const released of await Promise.all(pulls.map((p) => p.close()))) this.stats.released += released;
    if (!this.options.calls) await this.calls?.close().catch(() => undefined);
  }

  private open(): void {
    const count = Math.max(1, Math.floor(this.options.streams ?? 5));
    for (let i = 0; i < count; i++) this.pulls.push(this.openStream(count));
  }

  /** One of `count` streams; each gets its share of the flow control. */
  private openStream(count: number): PullStream {
    const { connection, subscription } = this.options;
    const stream: PullStream = new PullStream(
      this.calls!,
      {
        subscription: subscription.path,
        // The subscription's deadline (what the library starts with too): a withheld message expires after it.
        ackDeadlineSeconds: Math.min(600, Math.max(10, this.info?.ackDeadlineSeconds || 10)),
        maxMessages: Math.ceil((this.options.maxMessages ?? 1000) / count),
        maxBytes: Math.ceil((this.options.maxBytes ?? 64 << 20) / count),
        timers: this.options.timers,
      },
      {
        messages: (batch, at) => this.onBatch(batch, at, stream),
        failed: (e) => {
          if (this.current === 'stopped') return;
          // The stream gave up (not-found, permission, …): the probe decides when to reopen.
          const err = explainError(e, {
            action: `receive from ${subscription.path}`,
            resource: `subscription ${subscription.path}`,
            emulatorHost: connection.emulatorHost,
          });
          this.setState('disconnected', disconnectReason(err), err.kind);
        },
      },
    );
    return stream;
  }

  /** One response of the stream, received at `receivedAtMs`: taken now, or once the schema revisions it names are answered. */
  private onBatch(batch: readonly PulledMessage[], receivedAtMs: number, from: PullStream): void {
    const wait = this.options.schemas?.lookUp(batch.map((pm) => pm.message?.attributes));
    if (wait === undefined && this.schemaWait === undefined) {
      this.takeBatch(batch, receivedAtMs, from);
      return;
    }
    const next = Promise.all([this.schemaWait, wait])
      .then(() => this.takeBatch(batch, receivedAtMs, from))
      .catch((e: unknown) => this.events.problem?.(e instanceof Error ? e : new Error(String(e))));
    this.schemaWait = next;
    void next.finally(() => {
      if (this.schemaWait === next) this.schemaWait = undefined;
    });
  }

  /** One response of stream `from`: its deliveries in order, received at `receivedAtMs`. */
  private takeBatch(batch: readonly PulledMessage[], receivedAtMs: number, from: PullStream): void {
    // Whole ms, as receivedAt writes it: the clock the sequencer gets equals the line's.
    const at = Math.trunc(receivedAtMs);
    const recorder = this.options.recorder;
    const limit = this.options.stopAfter;
    const budget = this.options.budget;
    const topic = this.options.topic;
    const refused: string[] = [];
    for (let i = 0; i < batch.length; i++) {
      const pm = batch[i];
      if (this.current === 'stopped' || (limit !== undefined && this.stats.received >= limit) || (budget !== undefined && budget.remaining <= 0)) {
        refused.push(pm.ackId ?? '');
        continue;
      }
      if (budget !== undefined) budget.remaining--;
      const rm = fromPulled(pm, at, topic);
      this.stats.received++;
      this.deliveredSinceLook = true;
      const withheld = this.options.withholdAck?.(rm) ?? false;
      if (withheld) this.stats.withheld++;
      if (!recorder) {
        this.options.schemas?.lineFor(rm.message.attributes);
        this.events.record(rm, -1, captureLine(rm).length, at);
        if (!withheld) this.acked(rm, from);
        continue;
      }
      const schema = this.options.schemas?.lineFor(rm.message.attributes);
      if (schema !== undefined) recorder.append(schema);
      // The line goes straight into the recorder's buffer (no string per delivery).
      const offset = recorder.appendWith(writeCaptureLine, rm, (err) => {
        if (err) {
          // Not written, so not acked: the server will deliver it again.
          from.nack([rm.ackId ?? '']);
          this.stats.nacked++;
          this.events.problem?.(err);
        } else if (!withheld) {
          this.acked(rm, from);
        }
      });
      this.events.record(rm, offset, recorder.bytes - offset, at);
    }
    if (refused.length) {
      from.nack(refused);
      if (this.current === 'stopped') this.stats.released += refused.length;
      else this.stats.nacked += refused.length;
    }
    if (!recorder) this.flushAcks();
  }

  /** Queues the ack of a delivery (its line is written); they go out together, see flushAcks. */
  private acked(rm: ReceivedMessage, from: PullStream): void {
    if (!this.acksQueued) {
      this.acksQueued = true;
      queueMicrotask(() => this.flushAcks());
    }
    let ids = this.pendingAcks.get(from);
    if (ids === undefined) this.pendingAcks.set(from, (ids = []));
    ids.push(rm.ackId ?? '');
    this.stats.acked++;
    this.events.acked?.(rm);
  }

  /** One ack request per stream for the lines written together (a pull response's worth). */
  private flushAcks(): void {
    this.acksQueued = false;
    // A closed stream acks by a unary call (see PullStream.ack).
    for (const [stream, ids] of this.pendingAcks) stream.ack(ids);
    this.pendingAcks.clear();
  }

  private scheduleProbe(): void {
    if (this.current === 'stopped') return;
    this.healthTimer = this.timers.setTimeout(() => void this.probe(), this.interval());
  }

  private interval(): number {
    return this.options.healthIntervalMs ?? 1000;
  }

  private async probe(): Promise<void> {
    if (this.probing || this.current === 'stopped') return;
    // Deliveries since the last look: the server is there, no call needed.
    const delivered = this.deliveredSinceLook;
    this.deliveredSinceLook = false;
    const now = this.timers.now();
    // A call at most every other look (the pace of the calls before looks were skipped), so an
    // idle session asks the server no more often than it used to.
    if ((delivered && this.current === 'live') || now - this.lastCallAt < 1.75 * this.interval()) {
      this.scheduleProbe();
      return;
    }
    this.lastCallAt = now;
    this.probing = true;
    const { connection, subscription } = this.options;
    try {
      const timeout = this.options.healthTimeoutMs ?? 1500;
      this.probeSub ??= connection.client.subscription(subscription.path);
      const [md] = await this.probeSub.getMetadata({ timeout, maxRetries: 0 });
      if (this.stopped()) return;
      this.info = describeSubscription(md as never, subscription);
      if (this.current === 'disconnected') {
        // The old stream may be retrying against a dead connection or have given up: a fresh
        // one is the only way to be sure deliveries flow again.
        for (const p of this.pulls) p.restart();
        this.stats.reconnects++;
        this.stats.lastReconnectAt = this.timers.now();
        this.setState('live', `reconnected to ${subscription.path}`);
      }
    } catch (e) {
      if (this.stopped()) return;
      const err = explainError(e, {
        action: `reach ${subscription.path}`,
        resource: `subscription ${subscription.path}`,
        emulatorHost: connection.emulatorHost,
      });
      this.setState('disconnected', disconnectReason(err), err.kind);
    } finally {
      this.probing = false;
      this.scheduleProbe();
    }
  }

  /** A method, not a field read, so TypeScript does not narrow it across awaits. */
  private stopped(): boolean {
    return this.current === 'stopped';
  }

  /**
   * A new state, or the same one for a new reason, reaches the views and the log; the same state
   * for the same reason (each failed look repeats it) does not. 'live' is always reported: a
   * reconnect is news even when the detail reads as before.
   */
  private setState(state: LiveState, detail: string, cause?: string): void {
    if (this.current === state && state !== 'live' && detail === this.currentDetail) return;
    this.current = state;
    this.currentDetail = detail;
    this.events.state?.(state, detail, cause);
  }
}

function disconnectReason(e: PubsubError): string {
  if (e.kind === 'not-found') return `disconnected: the subscription no longer exists (${e.message})`;
  return `disconnected: ${e.message}`;
}
