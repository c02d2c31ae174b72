/**
 * One StreamingPull stream on a subscription, driven through the client library's generated
 * client (`v1.SubscriberClient`), not its high-level `Subscription`: deliveries come as the
 * server's responses (one batch per response), acks and nacks go back on the same stream.
 *
 * Why not the `Subscription` object: at the emulator's full rate its per-message machinery — a
 * Message object, a lease with a modAck on receipt, two promises, a nextTick and an event per
 * message, ack and modAck batches sent as separate calls — costs about two thirds of a bare
 * subscriber's CPU (~55 of ~85 µs per message against a local gRPC server). SeqScope needs none
 * of it: every message is written and acked within milliseconds of its arrival, so there is no
 * lease to extend, and flow control is the server's (maxOutstandingMessages/Bytes in the
 * request, as the library sends them too).
 *
 * What the library's stream does that this one keeps: the request it opens with, a keepalive
 * every 30 s (the server closes an idle stream), reopening after a retryable status with
 * backoff, and the streams' deadline (the library's 30 min), after which a fresh stream opens.
 * What it drops: client-side lease extension (see withheld acks in LiveSource, which rely on
 * the deadline simply expiring), exactly-once confirmations (an ack that fails there is a
 * redelivery, which the sequencer reports). Several streams on one subscription are the live
 * source's (one PullStream each).
 */
import type { Timers } from '../core/util/timers';
import type { PubsubConnection } from './connection';
import { generatedClientOptions, loadPubsub } from './connection';

/** A ReceivedMessage as the generated client decodes it (protobuf names; int64 as string). */
export interface PulledMessage {
  readonly ackId?: string | null;
  readonly message?: {
    readonly data?: Uint8Array | string | null;
    readonly attributes?: Record<string, string> | null;
    readonly messageId?: string | null;
    readonly publishTime?: { readonly seconds?: number | string | { toString(): string } | null; readonly nanos?: number | null } | null;
    readonly orderingKey?: string | null;
  } | null;
  readonly deliveryAttempt?: number | null;
}

/** What a streaming-pull call is (a grpc-js duplex call), as far as this module uses it. */
export interface PullCall {
  write(request: object): boolean;
  end(): void;
  cancel(): void;
  on(event: 'data', listener: (response: { receivedMessages?: PulledMessage[] | null }) => void): this;
  on(event: 'error', listener: (e: Error & { code?: number }) => void): this;
  on(event: 'status', listener: (s?: { code: number }) => void): this;
  removeAllListeners(event?: string): this;
}

/** The subscriber calls a pull stream makes (a generated client; tests give a fake). */
export interface SubscriberCalls {
  streamingPull(subscription: string, deadline: number): PullCall;
  /** Unary acknowledge, for acks that arrive while no stream is open. */
  acknowledge(subscription: string, ackIds: string[]): Promise<void>;
  /** Unary modifyAckDeadline (0 releases the messages), for nacks that arrive while no stream can carry them. */
  modifyAckDeadline(subscription: string, ackIds: string[], seconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface PullStreamOptions {
  /** Full subscription path. */
  readonly subscription: string;
  /** Ack deadline of messages sent on the stream (10–600 s). */
  readonly ackDeadlineSeconds: number;
  /** Server-side flow control: unacked messages and bytes the server sends at most. */
  readonly maxMessages: number;
  readonly maxBytes: number;
  /** An empty request is written when nothing else was for this long (ms; default 30 s, as the library). */
  readonly keepaliveMs?: number;
  /** The clock and timers of reopening and keepalive (tests pass a manual clock); default: the real ones. */
  readonly timers?: Timers;
}

export interface PullStreamEvents {
  /** One response's messages, in the order the server sent them, received at `receivedAtMs`. */
  messages(batch: readonly PulledMessage[], receivedAtMs: number): void;
  /** The stream ended with a status that is not retried (not found, permission…): it stays closed until restart(). */
  failed(e: Error & { code?: number }): void;
}

/** gRPC status codes after which the library reopens its stream (its pull-retry.js), and so do we. */
const RETRYABLE = new Set([
  1 /* CANCELLED */, 4 /* DEADLINE_EXCEEDED */, 8 /* RESOURCE_EXHAUSTED */, 10 /* ABORTED */, 13 /* INTERNAL */, 14 /* UNAVAILABLE */,
]);
const KEEPALIVE_MS = 30_000;
/** The library's StreamingPull timeout: a stream is replaced after this long. */
const STREAM_LIFETIME_MS = 30 * 60_000;
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 10_000;
/** Ack ids per unary release: well under the 512 KB request limit at Google Cloud's ~200-byte ids. */
const RELEASE_CHUNK = 1000;

const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Lets the process exit with a real timer pending (a manual clock's handles have no unref). */
function unref(handle: unknown): void {
  (handle as { unref?: () => void } | undefined)?.unref?.();
}

export class PullStream {
  private call: PullCall | undefined;
  /** open (or reopening after a retryable status); failed (a status not retried); closed by close(). */
  private state: 'open' | 'failed' | 'closed' = 'open';
  private failures = 0;
  private reopenTimer: unknown;
  private keepalive: unknown;
  private readonly timers: Timers;
  /** Something was written since the last keepalive tick (acks keep the stream alive by themselves). */
  private wroteSinceTick = true;

  constructor(
    private readonly calls: SubscriberCalls,
    private readonly options: PullStreamOptions,
    private readonly events: PullStreamEvents,
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.armKeepalive();
    this.open();
  }

  /** Acks messages (their lines are written). On the stream; by a unary call when none is open. */
  ack(ackIds: string[]): void {
    if (ackIds.length === 0) return;
    if (this.call) {
      this.call.write({ ackIds });
      this.wroteSinceTick = true;
      return;
    }
    // Best effort: if this fails too, the server redelivers and the sequencer reports it.
    this.calls.acknowledge(this.options.subscription, ackIds).catch(() => undefined);
  }

  /** Gives messages back at once (deadline 0), for other consumers or a later run. */
  nack(ackIds: string[]): void {
    if (ackIds.length === 0) return;
    if (this.call) {
      this.call.write({ modifyDeadlineAckIds: ackIds, modifyDeadlineSeconds: ackIds.map(() => 0) });
      this.wroteSinceTick = true;
      return;
    }
    // Between streams: a unary call, so they need not wait out their deadline.
    void this.release(ackIds);
  }

  /** Replaces the stream by a fresh one (after the server was away: the old one may be dead). */
  restart(): void {
    if (this.state === 'closed') return;
    this.state = 'open';
    this.failures = 0;
    this.cancelReopen();
    this.drop();
    this.open();
  }

  /**
   * Half-closes the stream (what was written, acks included, goes out first) and waits up to
   * `graceMs` for the server to complete it. The server keeps sending until then (the emulator:
   * a response or two, within ~100 ms); those messages were never handed to the caller, so they
   * are released at once (deadline 0) — by a unary call, since a half-closed stream carries no
   * more requests — instead of staying leased to a client that has gone for their whole ack
   * deadline, holding their keys back on an ordered subscription. Resolves with how many were
   * released (a failed release is not retried: those expire by themselves).
   */
  async close(graceMs = 2000): Promise<number> {
    if (this.state === 'closed') return 0;
    this.state = 'closed';
    this.timers.clearTimeout(this.keepalive);
    this.cancelReopen();
    const call = this.detach();
    if (!call) return 0;
    const late: string[] = [];
    call.on('data', (response) => {
      for (const m of response.receivedMessages ?? []) if (m.ackId) late.push(m.ackId);
    });
    await new Promise<void>((resolve) => {
      const timer = this.timers.setTimeout(() => {
        call.cancel();
        resolve();
      }, graceMs);
      unref(timer);
      call.on('status', () => {
        this.timers.clearTimeout(timer);
        resolve();
      });
      call.end();
    });
    return this.release(late);
  }

  /** modifyAckDeadline 0 by unary calls (1 000 ids each); resolves with how many the server took. */
  private async release(ackIds: string[]): Promise<number> {
    const chunks: string[][] = [];
    for (let i = 0; i < ackIds.length; i += RELEASE_CHUNK) chunks.push(ackIds.slice(i, i + RELEASE_CHUNK));
    const done = await Promise.all(
      chunks.map((c) =>
        this.calls.modifyAckDeadline(this.options.subscription, c, 0).then(
          () => c.length,
          () => 0,
        ),
      ),
    );
    return done.reduce((a, b) => a + b, 0);
  }

  private open(): void {
    const { subscription, ackDeadlineSeconds, maxMessages, maxBytes } = this.options;
    const call = this.calls.streamingPull(subscription, this.timers.now() + STREAM_LIFETIME_MS);
    this.call = call;
    call.on('data', (response) => {
      this.failures = 0;
      const batch = response.receivedMessages;
      if (batch && batch.length) this.events.messages(batch, this.timers.now());
    });
    call.on('error', (e) => this.ended(call, e));
    // A stream the server completes with OK (it does, from time to time) is reopened too.
    call.on('status', (s) => {
      if (s && s.code === 0) this.ended(call, Object.assign(new Error('stream completed'), { code: 0 }));
    });
    call.write({ subscription, streamAckDeadlineSeconds: ackDeadlineSeconds, maxOutstandingMessages: maxMessages, maxOutstandingBytes: maxBytes });
    this.wroteSinceTick = true;
  }

  private ended(call: PullCall, e: Error & { code?: number }): void {
    if (call !== this.call || this.state !== 'open') return;
    this.drop();
    const code = e.code ?? 2;
    if (code !== 0 && !RETRYABLE.has(code)) {
      this.state = 'failed';
      this.events.failed(e);
      return;
    }
    // OK and DEADLINE_EXCEEDED end a healthy stream (its lifetime): reopen at once, as the library does.
    const delay = code === 0 || code === 4 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.failures++);
    this.reopenTimer = this.timers.setTimeout(() => {
      this.reopenTimer = undefined;
      if (this.state === 'open') this.open();
    }, delay);
  }

  private cancelReopen(): void {
    if (this.reopenTimer !== undefined) this.timers.clearTimeout(this.reopenTimer);
    this.reopenTimer = undefined;
  }

  /** The next keepalive tick, one period from now. */
  private armKeepalive(): void {
    this.keepalive = this.timers.setTimeout(() => {
      this.tick();
      this.armKeepalive();
    }, this.options.keepaliveMs ?? KEEPALIVE_MS);
    unref(this.keepalive);
  }

  /** Forgets the current call (cancelled). */
  private drop(): void {
    this.detach()?.cancel();
  }

  /** Takes the current call away from this stream: its listeners go, but for an error sink. */
  private detach(): PullCall | undefined {
    const call = this.call;
    this.call = undefined;
    if (!call) return undefined;
    call.removeAllListeners();
    // Keep an error listener: an unhandled 'error' on a call being closed would crash the host.
    call.on('error', () => undefined);
    return call;
  }

  private tick(): void {
    if (!this.wroteSinceTick && this.call) this.call.write({});
    this.wroteSinceTick = false;
  }
}

/** The generated client's calls, on the connection's endpoint and credentials. */
export async function subscriberCalls(connection: PubsubConnection): Promise<SubscriberCalls> {
  const { v1 } = await loadPubsub();
  const client = new v1.SubscriberClient(await generatedClientOptions(connection.client));
  await client.initialize();
  // The raw gRPC stub, as the library's own message stream uses it: gax's streaming wrapper
  // would add a stream layer (and a buffer) per call for nothing.
  const stub = (await (client as unknown as { subscriberStub: Promise<Record<string, (...a: unknown[]) => unknown>> }).subscriberStub) as {
    streamingPull(options: { deadline: number }): PullCall;
  };
  return {
    streamingPull: (_subscription, deadline) => stub.streamingPull({ deadline }),
    acknowledge: async (subscription, ackIds) => {
      await client.acknowledge({ subscription, ackIds }, { timeout: 5000, maxRetries: 1 } as never);
    },
    modifyAckDeadline: async (subscription, ackIds, seconds) => {
      await client.modifyAckDeadline({ subscription, ackIds, ackDeadlineSeconds: seconds }, { timeout: 5000, maxRetries: 1 } as never);
    },
    close: () => client.close(),
  };
}
