/**
 * The live source's own logic and its pull stream, on fake calls (the emulator tests run them
 * for real): the request it opens with, the capture line it writes, the receive time it hands
 * the sequencer, acks only after the line is written (one request per response), nacks, the
 * health looks — no metadata call while deliveries arrive, a call once they stop,
 * "disconnected" when the call fails — and the stream's reopening after retryable statuses.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { recordTime, ReceivedMessage } from '../../../src/core/capture/captureRecord';
import type { PubsubConnection } from '../../../src/pubsub/connection';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureRecorder } from '../../../src/pubsub/captureRecorder';
import { LiveSource, LiveSourceEvents, LiveSourceOptions, LiveState } from '../../../src/pubsub/liveSource';
import type { Timers } from '../../../src/core/util/timers';
import { PulledMessage, PullCall, PullStream, SubscriberCalls } from '../../../src/pubsub/pullStream';
import { captureLine, fromPulled, writeCaptureLine } from '../../../src/pubsub/receivedRecord';
import { parseResourceName } from '../../../src/pubsub/resourceNames';
import { LiveSchemas } from '../../../src/pubsub/liveSchemas';
import type { FetchedSchema } from '../../../src/core/schema/schemaRevisions';

const subscription = parseResourceName('subscriptions', 'projects/my-proj/subscriptions/live-1');

/** A streaming-pull call: what was written to it, and a way to answer. */
class FakeCall extends EventEmitter {
  readonly writes: Record<string, unknown>[] = [];
  ended = false;
  cancelled = false;
  /** Written by the source after its end() (a "write after end" on a real call). */
  lateWrites = 0;
  /** Runs inside end(), before the server completes the stream: what it still sends then. */
  onEnd: (() => void) | undefined;
  write(request: Record<string, unknown>): boolean {
    if (this.ended || this.cancelled) this.lateWrites++;
    this.writes.push(request);
    return true;
  }
  end(): void {
    this.ended = true;
    this.onEnd?.();
    // The server completes a half-closed stream.
    setImmediate(() => this.emit('status', { code: 0 }));
  }
  cancel(): void {
    this.cancelled = true;
  }
  /** The server sends one response. */
  deliver(messages: PulledMessage[]): void {
    this.emit('data', { receivedMessages: messages });
  }
  /** The server ends the call with a status (non-OK statuses come as errors, as in grpc-js). */
  fail(code: number, details = 'fake'): void {
    this.emit('error', Object.assign(new Error(`${code} ${details}`), { code, details }));
    this.emit('status', { code });
  }
  acks(): string[] {
    return this.writes.flatMap((w) => (w.ackIds as string[] | undefined) ?? []);
  }
  nacks(): string[] {
    return this.writes.flatMap((w) => (w.modifyDeadlineAckIds as string[] | undefined) ?? []);
  }
}

/** The generated client's calls, faked: every streaming pull made, unary acks counted. */
class FakeCalls implements SubscriberCalls {
  readonly calls: FakeCall[] = [];
  readonly unaryAcks: string[] = [];
  /** Unary modifyAckDeadline calls: the ids and the deadline of each. */
  readonly unaryDeadlines: { ackIds: string[]; seconds: number }[] = [];
  /** Makes the unary modifyAckDeadline fail (the server away). */
  failDeadlines = false;
  closed = false;
  streamingPull(): PullCall {
    const c = new FakeCall();
    this.calls.push(c);
    return c as unknown as PullCall;
  }
  async acknowledge(_s: string, ackIds: string[]): Promise<void> {
    this.unaryAcks.push(...ackIds);
  }
  async modifyAckDeadline(_s: string, ackIds: string[], seconds: number): Promise<void> {
    if (this.failDeadlines) throw new Error('14 UNAVAILABLE');
    this.unaryDeadlines.push({ ackIds, seconds });
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  get last(): FakeCall {
    return this.calls[this.calls.length - 1];
  }
}

/** A stand-in for the library's PubSub client: only the metadata calls of the health check, counted. */
class FakeClient {
  metadataCalls = 0;
  /** What the next metadata calls do. */
  failWith: Error | undefined;
  subscription(path: string) {
    return {
      getMetadata: async () => {
        this.metadataCalls++;
        if (this.failWith) throw this.failWith;
        return [{ name: path, topic: 'projects/my-proj/topics/t', enableMessageOrdering: true, ackDeadlineSeconds: 20 }];
      },
    };
  }
}

function pulled(i: number, publishMs = Date.parse('2026-11-30T09:30:00.120Z')): PulledMessage {
  return {
    ackId: `ack-${i}`,
    message: {
      data: Buffer.from(`payload ${i}`),
      attributes: { n: String(i) },
      messageId: String(i),
      publishTime: { seconds: String(Math.floor(publishMs / 1000)), nanos: (publishMs % 1000) * 1e6 + 4567 },
      orderingKey: 'k',
    },
    deliveryAttempt: 0,
  };
}

function source(calls: FakeCalls, events: Partial<LiveSourceEvents> = {}, options: Partial<LiveSourceOptions> = {}, client = new FakeClient()): LiveSource {
  return new LiveSource(
    { connection: { client, projectId: 'my-proj' } as unknown as PubsubConnection, subscription, calls, healthIntervalMs: 60_000, streams: 1, ...options },
    { record() {}, ...events },
  );
}

describe('LiveSource (fake stream)', () => {
  it('opens the stream with the subscription, its ack deadline and flow control', async () => {
    const calls = new FakeCalls();
    const s = source(calls, {}, { maxMessages: 500, maxBytes: 1 << 20 });
    await s.start();
    assert.deepEqual(calls.last.writes[0], {
      subscription: subscription.path,
      streamAckDeadlineSeconds: 20,
      maxOutstandingMessages: 500,
      maxOutstandingBytes: 1 << 20,
    });
    await s.stop();
    assert.ok(calls.last.ended, 'half-closed on stop');
  });

  it('hands each delivery over with its line and receive time, and acks a response in one request', async () => {
    const calls = new FakeCalls();
    const seen: { rm: ReceivedMessage; length: number; at: number }[] = [];
    const s = source(calls, { record: (rm, _offset, length, at) => seen.push({ rm, length, at }) });
    await s.start();
    const received = Date.parse('2026-11-30T09:30:00.130Z');
    const realNow = Date.now;
    Date.now = () => received + 0.7;
    try {
      calls.last.deliver([pulled(1), pulled(2)]);
    } finally {
      Date.now = realNow;
    }
    await s.stop();
    assert.equal(seen.length, 2);
    assert.equal(seen[0].at, received, 'whole ms, as receivedAt says');
    assert.equal(seen[0].at, recordTime(seen[0].rm), 'the time handed over is the one a replay reads from the line');
    assert.equal(seen[0].length, captureLine(seen[0].rm).length);
    assert.equal(seen[1].rm.message.publishTime, '2026-11-30T09:30:00.120004567Z');
    assert.deepEqual(
      calls.last.writes.filter((w) => w.ackIds),
      [{ ackIds: ['ack-1', 'ack-2'] }],
    );
    assert.equal(calls.last.lateWrites, 0);
  });

  it('acks a delivery only once its line is in the recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-live-'));
    const path = join(dir, 'live.jsonl');
    const recorder = await CaptureRecorder.open(path);
    const calls = new FakeCalls();
    let acked!: () => void;
    const allAcked = new Promise<void>((r) => (acked = r));
    let count = 0;
    const s = source(calls, { acked: () => ++count === 3 && acked() }, { recorder });
    try {
      await s.start();
      const call = calls.last;
      const linesAtAck: number[] = [];
      const write = call.write.bind(call);
      call.write = (request) => {
        if (request.ackIds) linesAtAck.push(readFileSync(path, 'utf8').split('\n').filter(Boolean).length);
        return write(request);
      };
      call.deliver([pulled(1), pulled(2), pulled(3)]);
      assert.deepEqual(call.acks(), [], 'nothing acked before the batch is written');
      await allAcked;
      assert.deepEqual(call.acks(), ['ack-1', 'ack-2', 'ack-3']);
      assert.deepEqual(linesAtAck, [3], 'all three lines were in the file when their ack went out');
      await s.stop();
      await recorder.close();
      assert.deepEqual(
        readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).message.messageId),
        ['1', '2', '3'],
      );
    } finally {
      await recorder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives back what is over stopAfter, and neither acks nor nacks a withheld message', async () => {
    const calls = new FakeCalls();
    const s = source(calls, {}, { stopAfter: 3, withholdAck: (rm) => rm.message.messageId === '2' });
    await s.start();
    calls.last.deliver([pulled(1), pulled(2), pulled(3), pulled(4), pulled(5)]);
    await s.stop();
    assert.deepEqual(calls.calls[0].acks(), ['ack-1', 'ack-3']);
    assert.deepEqual(calls.calls[0].nacks(), ['ack-4', 'ack-5']);
    assert.deepEqual(calls.calls[0].writes.find((w) => w.modifyDeadlineAckIds)?.modifyDeadlineSeconds, [0, 0]);
    assert.deepEqual({ ...s.stats, lastReconnectAt: 0 }, { received: 3, acked: 2, nacked: 2, withheld: 1, reconnects: 0, released: 0, lastReconnectAt: 0 });
  });

  it('on stop, acks what was written, then releases at once (deadline 0) what the server still sends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-live-'));
    const path = join(dir, 'live.jsonl');
    const recorder = await CaptureRecorder.open(path);
    const calls = new FakeCalls();
    const seen: string[] = [];
    const s = source(calls, { record: (rm) => seen.push(rm.message.messageId) }, { recorder });
    try {
      await s.start();
      const call = calls.last;
      call.deliver([pulled(1), pulled(2)]);
      // The server sends two more responses after the half-close, before it completes the stream.
      call.onEnd = () => {
        call.deliver([pulled(3), pulled(4)]);
        call.deliver([pulled(5)]);
      };
      await s.stop();
      await recorder.close();
      assert.deepEqual(seen, ['1', '2'], 'nothing is recorded once stopping');
      assert.deepEqual(
        readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).message.messageId),
        ['1', '2'],
      );
      assert.deepEqual(call.acks(), ['ack-1', 'ack-2'], 'what was written is acked, on the stream, before its end');
      assert.equal(call.lateWrites, 0);
      assert.deepEqual(calls.unaryDeadlines, [{ ackIds: ['ack-3', 'ack-4', 'ack-5'], seconds: 0 }], 'the rest is released by one unary call');
      assert.deepEqual(
        { received: s.stats.received, acked: s.stats.acked, nacked: s.stats.nacked, released: s.stats.released },
        { received: 2, acked: 2, nacked: 0, released: 3 },
      );
    } finally {
      await recorder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on stop, releases on the stream what arrives before the half-close; a withheld message stays leased', async () => {
    const calls = new FakeCalls();
    const s = source(calls, {}, { withholdAck: (rm) => rm.message.messageId === '1' });
    await s.start();
    const call = calls.last;
    call.deliver([pulled(1), pulled(2)]);
    const stopping = s.stop();
    // Still open: the stop waits for the recorder's flush first.
    call.deliver([pulled(3)]);
    await stopping;
    assert.deepEqual(call.acks(), ['ack-2']);
    assert.deepEqual(call.nacks(), ['ack-3'], 'nacked on the stream while it is open');
    assert.deepEqual(calls.unaryDeadlines, []);
    assert.deepEqual({ withheld: s.stats.withheld, released: s.stats.released }, { withheld: 1, released: 1 });
  });

  it('stops even when the release fails (those leases then expire by themselves)', async () => {
    const calls = new FakeCalls();
    calls.failDeadlines = true;
    const s = source(calls, {});
    await s.start();
    calls.last.onEnd = () => calls.last.deliver([pulled(1)]);
    await s.stop();
    assert.equal(s.state, 'stopped');
    assert.equal(s.stats.released, 0, 'counted only when the server took the release');
  });

  it('makes no metadata call while deliveries arrive, calls once they stop, and says "disconnected" when the call fails', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const client = new FakeClient();
    const states: LiveState[] = [];
    const s = source(calls, { state: (st) => states.push(st) }, { timers, healthIntervalMs: 40, healthTimeoutMs: 100 }, client);
    await s.start();
    const afterStart = client.metadataCalls;
    // Traffic for 12 looks: no call.
    for (let i = 0; i < 60; i++) {
      calls.last.deliver([pulled(i)]);
      await timers.advance(8);
    }
    assert.equal(client.metadataCalls, afterStart, 'deliveries prove the server is there');
    // Silence: the looks turn into calls, at most every other look.
    await timers.advance(400);
    const quiet = client.metadataCalls - afterStart;
    assert.ok(quiet >= 4 && quiet <= 5, `${quiet} calls in 400 ms of silence with looks every 40 ms`);
    assert.equal(s.state, 'live');
    client.failWith = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    await timers.advance(300);
    assert.equal(s.state, 'disconnected');
    const streamsBefore = calls.calls.length;
    client.failWith = undefined;
    await timers.advance(300);
    assert.equal(s.state, 'live', 'back when the server answers again');
    assert.equal(calls.calls.length, streamsBefore + 1, 'on a fresh stream');
    assert.ok(calls.calls[streamsBefore - 1].cancelled, 'the old one cancelled');
    await s.stop();
    assert.deepEqual(states, ['live', 'disconnected', 'live', 'stopped']);
    assert.ok(!calls.closed, "calls it was given stay open: they are the caller's");
  });

  it('reads over several streams: flow control shared, each ack on the stream that delivered it, all reopened after an outage and closed on stop', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const client = new FakeClient();
    const seen: string[] = [];
    const s = source(
      calls,
      { record: (rm) => seen.push(rm.message.messageId) },
      { timers, streams: 3, maxMessages: 1000, maxBytes: 3 << 20, healthIntervalMs: 40 },
      client,
    );
    await s.start();
    assert.equal(calls.calls.length, 3);
    for (const c of calls.calls) {
      assert.equal(c.writes[0].maxOutstandingMessages, 334);
      assert.equal(c.writes[0].maxOutstandingBytes, 1 << 20);
    }
    const [a, b, c] = calls.calls;
    b.deliver([pulled(1), pulled(2)]);
    a.deliver([pulled(3)]);
    c.deliver([pulled(4)]);
    await Promise.resolve();
    assert.deepEqual(seen, ['1', '2', '3', '4'], 'in arrival order over the streams');
    assert.deepEqual([a.acks(), b.acks(), c.acks()], [['ack-3'], ['ack-1', 'ack-2'], ['ack-4']]);
    // One stream failing for good is enough to say so; the probe reopens all of them.
    client.failWith = Object.assign(new Error('5 NOT_FOUND: Resource not found (resource=live-1).'), { code: 5 });
    b.fail(5, 'Resource not found (resource=live-1).');
    assert.equal(s.state, 'disconnected');
    client.failWith = undefined;
    await timers.advance(200);
    assert.equal(s.state, 'live');
    assert.equal(calls.calls.length, 6, 'three fresh streams');
    assert.ok(a.cancelled && c.cancelled, 'the healthy ones replaced too');
    calls.calls[5].onEnd = () => calls.calls[5].deliver([pulled(9)]);
    calls.calls[3].onEnd = () => calls.calls[3].deliver([pulled(8)]);
    await s.stop();
    assert.ok(
      calls.calls.slice(3).every((k) => k.ended),
      'every stream half-closed',
    );
    assert.equal(s.stats.released, 2, 'what any of them sent after the stop is released');
    assert.deepEqual(seen, ['1', '2', '3', '4']);
  });

  it('says "disconnected" with the reason when the stream fails for good (subscription deleted)', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const details: string[] = [];
    const s = source(calls, { state: (st, d) => details.push(`${st}: ${d}`) }, { timers });
    await s.start();
    calls.last.fail(5, 'Resource not found (resource=live-1).');
    assert.equal(s.state, 'disconnected');
    assert.match(details[details.length - 1], /disconnected: .*live-1/);
    // Longer than any backoff (10 s at most); the health looks are a minute apart here.
    await timers.advance(30_000);
    assert.equal(calls.calls.length, 1, 'not retried: the health check reopens it once the subscription is back');
    await s.stop();
  });

  it('holds a batch naming a schema revision not answered yet, and those after it, then records its schema line before its first message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-live-'));
    const path = join(dir, 'live.jsonl');
    const recorder = await CaptureRecorder.open(path);
    const calls = new FakeCalls();
    let answer!: (f: FetchedSchema) => void;
    const fetched = new Promise<FetchedSchema>((r) => (answer = r));
    let asked = 0;
    const schemas = new LiveSchemas(() => (asked++, fetched));
    const order: string[] = [];
    let recorded!: () => void;
    const allRecorded = new Promise<void>((r) => (recorded = r));
    const s = source(calls, { record: (rm) => order.push(rm.message.messageId) === 4 && recorded() }, { recorder, schemas });
    const named = (i: number): PulledMessage => {
      const m = pulled(i);
      const attributes = { googclient_schemaname: 'projects/p/schemas/t', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1' };
      return { ...m, message: { ...m.message, attributes } };
    };
    try {
      await s.start();
      calls.last.deliver([pulled(1)]);
      calls.last.deliver([named(2), pulled(3)]);
      calls.last.deliver([named(4)]);
      assert.deepEqual(order, ['1'], 'the batch naming the revision waits, and the one after it');
      answer({ definition: { type: 'AVRO', definition: '"long"', source: 'projects/p/schemas/t@r1' } });
      await allRecorded;
      assert.deepEqual(order, ['1', '2', '3', '4']);
      assert.equal(asked, 1);
      await s.stop();
      await recorder.close();
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      assert.equal(lines.length, 5);
      assert.match(lines[1], /^\{"seqscopeSchema":\{"name":"projects\/p\/schemas\/t","revisionId":"r1","type":"AVRO"/);
      assert.deepEqual(
        [lines[0], lines[2], lines[3], lines[4]].map((l) => JSON.parse(l).message.messageId),
        ['1', '2', '3', '4'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A clock the test moves: timers fire when it passes them, metadata calls settle in between. */
class ManualTimers implements Timers {
  private t = 1_000_000;
  private pending: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.pending.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== h);
  }
  /** Moves the clock by `ms`, firing what falls due and letting the calls they make settle. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.pending.sort((a, b) => a.at - b.at);
      const next = this.pending[0];
      if (!next || next.at > end) break;
      this.pending.shift();
      this.t = next.at;
      next.fn();
      await new Promise((r) => setImmediate(r));
    }
    this.t = end;
  }
}

describe('LiveSource states (manual clock)', () => {
  const unavailable = () => Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
  const notFound = () => Object.assign(new Error('5 NOT_FOUND: Resource not found (resource=live-1).'), { code: 5 });

  it('reports a disconnect that changes its reason (server down, then subscription gone), once each', async () => {
    const timers = new ManualTimers();
    const client = new FakeClient();
    const seen: string[] = [];
    const s = source(
      new FakeCalls(),
      { state: (st, d, cause) => seen.push(`${st}|${cause ?? ''}|${d}`) },
      { timers, healthIntervalMs: 1000, healthTimeoutMs: 500 },
      client,
    );
    await s.start();
    client.failWith = unavailable();
    await timers.advance(10_000);
    client.failWith = notFound();
    await timers.advance(10_000);
    await s.stop();
    assert.equal(seen.length, 4, seen.join('\n'));
    assert.match(seen[0], /^live\|/);
    assert.match(seen[1], /^disconnected\|unavailable\|disconnected: .*Pub\/Sub did not answer/);
    assert.match(seen[2], /^disconnected\|not-found\|disconnected: the subscription no longer exists/, 'the new reason is reported, not dropped');
    assert.match(seen[3], /^stopped\|/);
    assert.ok(client.metadataCalls >= 8, `looked again and again (${client.metadataCalls} calls), reporting nothing new`);
  });

  it('names the emulator when one is in use, and goes live again when the subscription answers', async () => {
    const timers = new ManualTimers();
    const client = new FakeClient();
    const seen: string[] = [];
    const calls = new FakeCalls();
    const s = new LiveSource(
      {
        connection: { client, projectId: 'my-proj', emulatorHost: 'localhost:8085' } as unknown as PubsubConnection,
        subscription,
        calls,
        timers,
        healthIntervalMs: 1000,
      },
      { record() {}, state: (st, d, cause) => seen.push(`${st}|${cause ?? ''}|${d}`) },
    );
    await s.start();
    client.failWith = unavailable();
    await timers.advance(5000);
    client.failWith = undefined;
    await timers.advance(5000);
    assert.equal(s.state, 'live');
    assert.deepEqual(
      seen.map((x) => x.split('|').slice(0, 2).join('|')),
      ['live|', 'disconnected|emulator-down', 'live|'],
    );
    assert.match(seen[1], /emulator at localhost:8085 is not running/);
    assert.match(seen[2], /reconnected/);
    assert.equal(s.stats.lastReconnectAt, timers.now() - (timers.now() - s.stats.lastReconnectAt), 'stamped by the injected clock');
    assert.ok(s.stats.lastReconnectAt > 1_000_000 && s.stats.lastReconnectAt <= timers.now());
    await s.stop();
  });
});

describe('PullStream', () => {
  const opts = { subscription: subscription.path, ackDeadlineSeconds: 10, maxMessages: 10, maxBytes: 1000 };

  it('reopens after a retryable status, backing off while failures repeat, and at once after a healthy end', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const failed: Error[] = [];
    const p = new PullStream(calls, { ...opts, timers }, { messages() {}, failed: (e) => failed.push(e) });
    calls.last.fail(14, 'UNAVAILABLE');
    await timers.advance(99);
    assert.equal(calls.calls.length, 1, 'waits 100 ms');
    await timers.advance(1);
    assert.equal(calls.calls.length, 2, 'reopened after 100 ms');
    calls.last.fail(14, 'UNAVAILABLE');
    await timers.advance(199);
    assert.equal(calls.calls.length, 2, 'the second wait is longer (200 ms)');
    await timers.advance(1);
    assert.equal(calls.calls.length, 3);
    calls.last.deliver([pulled(1)]);
    calls.last.emit('status', { code: 0 });
    await timers.advance(0);
    assert.equal(calls.calls.length, 4, 'a stream the server completed is replaced at once');
    assert.deepEqual(calls.last.writes[0], {
      subscription: subscription.path,
      streamAckDeadlineSeconds: 10,
      maxOutstandingMessages: 10,
      maxOutstandingBytes: 1000,
    });
    assert.deepEqual(failed, []);
    await p.close();
  });

  it('keeps an idle stream alive with empty requests, and a busy one by its acks alone', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const p = new PullStream(calls, { ...opts, keepaliveMs: 60, timers }, { messages() {}, failed() {} });
    const empties = () => calls.last.writes.filter((w) => Object.keys(w).length === 0).length;
    // Acks every 5 ms: something is written in every keepalive period.
    for (let i = 0; i < 40; i++) {
      p.ack([`a${i}`]);
      await timers.advance(5);
    }
    assert.equal(empties(), 0, 'acks keep it alive');
    await timers.advance(400);
    const idle = empties();
    // Ticks at 240, 300, …, 600 ms: the first, after the last ack, only clears its mark; six write.
    assert.equal(idle, 6, `${idle} keepalives in 400 ms idle with a 60 ms period`);
    await p.close();
    await timers.advance(1000);
    assert.equal(empties(), idle, 'none after close');
  });

  it('acks by a unary call while no stream is open, and writes nothing after close', async () => {
    const timers = new ManualTimers();
    const calls = new FakeCalls();
    const p = new PullStream(calls, { ...opts, timers }, { messages() {}, failed() {} });
    calls.last.fail(14);
    p.ack(['a', 'b']);
    assert.deepEqual(calls.unaryAcks, ['a', 'b']);
    await timers.advance(100);
    p.ack(['c']);
    assert.deepEqual(calls.last.acks(), ['c'], 'on the reopened stream');
    await p.close();
    p.nack(['d']);
    assert.equal(calls.last.lateWrites, 0);
    assert.deepEqual(calls.unaryDeadlines, [{ ackIds: ['d'], seconds: 0 }], 'a nack with no stream goes by a unary call');
    await timers.advance(30_000);
    assert.equal(calls.calls.length, 2, 'closed for good');
  });
});

describe('captureLine', () => {
  const text = fc.string({ unit: 'binary', maxLength: 12 });
  const message = fc.record({
    ackId: fc.oneof(fc.constant(''), text),
    message: fc.record({
      data: fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
      attributes: fc.dictionary(text, text, { maxKeys: 4 }),
      messageId: fc.oneof(
        fc.stringMatching(/^\d{1,19}$/),
        text.filter((s) => s.length > 0),
      ),
      publishTime: fc.option(fc.record({ seconds: fc.integer({ min: 0, max: 4102444800 }).map(String), nanos: fc.integer({ min: 0, max: 999_999_999 }) }), {
        nil: undefined,
      }),
      orderingKey: fc.option(text, { nil: undefined }),
    }),
    deliveryAttempt: fc.option(fc.nat(20), { nil: undefined }),
    received: fc.integer({ min: 0, max: 4102444800000 }),
  });

  it('writes exactly what JSON.stringify writes for any record a live source makes', () => {
    fc.assert(
      fc.property(message, (m) => {
        const rm = fromPulled(m, m.received);
        const line = captureLine(rm);
        assert.equal(line, JSON.stringify(rm) + '\n');
        assert.deepEqual(JSON.parse(line), JSON.parse(JSON.stringify(rm)));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the same line as bytes into a buffer, and says when it does not fit', () => {
    fc.assert(
      fc.property(message, fc.nat(8), (m, at) => {
        const rm = fromPulled(m, m.received);
        const expected = Buffer.from(JSON.stringify(rm) + '\n');
        const roomy = Buffer.alloc(at + expected.length * 3 + 8, 0xff);
        const end = writeCaptureLine(rm, roomy, at);
        assert.equal(end, at + expected.length);
        assert.deepEqual(roomy.subarray(at, end), expected);
        // Exactly enough room fits; one byte less is refused, for every size of line.
        assert.equal(writeCaptureLine(rm, Buffer.alloc(at + expected.length), at), at + expected.length);
        assert.equal(writeCaptureLine(rm, Buffer.alloc(at + expected.length - 1), at), -1);
      }),
      { numRuns: 1000 },
    );
  });

  it('writes what JSON.stringify writes for records of other shapes, escapes and long lines included', () => {
    const odd = { 'a\nb': 'é', n: 5, u: undefined } as unknown as Record<string, string>;
    const rm: ReceivedMessage = { message: { messageId: 'x"\\\u2028\ud800', attributes: odd } };
    assert.equal(captureLine(rm), JSON.stringify(rm) + '\n');
    assert.deepEqual(JSON.parse(captureLine(rm)), JSON.parse(JSON.stringify(rm)));
    const long: ReceivedMessage = { ackId: 'a', message: { data: 'QUFB'.repeat(5000), messageId: '1' }, receivedAt: '2026-11-30T09:30:00.130Z' };
    const tapped = fromPulled({ ackId: 'a', message: { messageId: '7', orderingKey: 'ES' } }, 0, 'projects/cme-smartstream/topics/md-310');
    assert.equal(tapped.topic, 'projects/cme-smartstream/topics/md-310');
    assert.equal(captureLine(tapped), JSON.stringify(tapped) + '\n', 'a record of a multi-topic recording names its topic, last');
    assert.equal(captureLine(long), JSON.stringify(long) + '\n', 'longer than the first scratch buffer');
  });
});
