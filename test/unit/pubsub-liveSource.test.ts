/**
 * The live source's own logic, on a fake client (the emulator tests run it for real): the
 * capture line it writes, the receive time it hands the sequencer, and the health looks — no
 * metadata call while deliveries arrive, a call once they stop, and "disconnected" when the
 * call fails.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { recordTime, ReceivedMessage } from '../../src/core/captureRecord';
import type { PubsubConnection } from '../../src/pubsub/connection';
import { LiveSource, LiveState } from '../../src/pubsub/liveSource';
import { captureLine, SubscriberMessage, toReceivedMessage, writeCaptureLine } from '../../src/pubsub/receivedRecord';
import { parseResourceName } from '../../src/pubsub/resourceNames';

const subscription = parseResourceName('subscriptions', 'projects/my-proj/subscriptions/live-1');

/** A stand-in for @google-cloud/pubsub: one streaming Subscription object, metadata calls counted. */
class FakeClient {
  metadataCalls = 0;
  /** What the next metadata calls do. */
  failWith: Error | undefined;
  readonly stream = new EventEmitter();
  subscription(path: string, options?: unknown) {
    if (options !== undefined) return Object.assign(this.stream, { close: async () => undefined });
    return {
      getMetadata: async () => {
        this.metadataCalls++;
        if (this.failWith) throw this.failWith;
        return [{ name: path, topic: 'projects/my-proj/topics/t', enableMessageOrdering: true }];
      },
    };
  }
}

function fakeMessage(i: number, received: number): SubscriberMessage & { acked: boolean; ack(): void; nack(): void } {
  return {
    id: String(i),
    ackId: `ack-${i}`,
    data: Buffer.from(`payload ${i}`),
    attributes: { n: String(i) },
    publishTime: new Date(received - 5),
    orderingKey: 'k',
    deliveryAttempt: 0,
    received,
    acked: false,
    ack() {
      this.acked = true;
    },
    nack() {},
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LiveSource (fake client)', () => {
  it('hands each delivery over with its line and receive time, and acks it', async () => {
    const client = new FakeClient();
    const seen: { rm: ReceivedMessage; length: number; at: number }[] = [];
    const source = new LiveSource({ connection: { client, projectId: 'my-proj' } as unknown as PubsubConnection, subscription, healthIntervalMs: 60_000 }, { record: (rm, _offset, length, at) => seen.push({ rm, length, at }) });
    await source.start();
    const m = fakeMessage(1, Date.parse('2026-11-30T09:30:00.130Z') + 0.7);
    client.stream.emit('message', m);
    await source.stop();
    assert.equal(seen.length, 1);
    assert.equal(seen[0].at, Date.parse('2026-11-30T09:30:00.130Z'), 'whole ms, as receivedAt says');
    assert.equal(seen[0].at, recordTime(seen[0].rm), 'the time handed over is the one a replay reads from the line');
    assert.equal(seen[0].length, captureLine(seen[0].rm).length);
    assert.ok(m.acked);
  });

  it('makes no metadata call while deliveries arrive, calls once they stop, and says "disconnected" when the call fails', async function () {
    this.timeout(10_000);
    const client = new FakeClient();
    const states: LiveState[] = [];
    const source = new LiveSource(
      { connection: { client, projectId: 'my-proj' } as unknown as PubsubConnection, subscription, healthIntervalMs: 40, healthTimeoutMs: 100 },
      { record() {}, state: (s) => states.push(s) },
    );
    await source.start();
    const afterStart = client.metadataCalls;
    // Traffic for ~12 looks: no call.
    for (let i = 0; i < 60; i++) {
      client.stream.emit('message', fakeMessage(i, Date.now()));
      await sleep(8);
    }
    assert.equal(client.metadataCalls, afterStart, 'deliveries prove the server is there');
    // Silence: the looks turn into calls (at most every other look).
    await sleep(400);
    const quiet = client.metadataCalls - afterStart;
    assert.ok(quiet >= 2 && quiet <= 7, `${quiet} calls in 400 ms of silence with looks every 40 ms`);
    assert.equal(source.state, 'live');
    client.failWith = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    await sleep(300);
    assert.equal(source.state, 'disconnected');
    client.failWith = undefined;
    await sleep(300);
    assert.equal(source.state, 'live', 'back when the server answers again');
    await source.stop();
    assert.deepEqual(states, ['live', 'disconnected', 'live', 'stopped']);
  });
});

describe('captureLine', () => {
  const text = fc.string({ unit: 'binary', maxLength: 12 });
  const message = fc.record({
    id: fc.oneof(fc.stringMatching(/^\d{1,19}$/), text.filter((s) => s.length > 0)),
    ackId: fc.oneof(fc.constant(''), text),
    data: fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
    attributes: fc.dictionary(text, text, { maxKeys: 4 }),
    orderingKey: fc.option(text, { nil: undefined }),
    deliveryAttempt: fc.option(fc.nat(20), { nil: undefined }),
    received: fc.integer({ min: 0, max: 4102444800000 }),
    publishMs: fc.integer({ min: 0, max: 4102444800000 }),
  });

  it('writes exactly what JSON.stringify writes for any record a live source makes', () => {
    fc.assert(
      fc.property(message, (m) => {
        const rm = toReceivedMessage({ ...m, publishTime: new Date(m.publishMs) });
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
        const rm = toReceivedMessage({ ...m, publishTime: new Date(m.publishMs) });
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
    assert.equal(captureLine(long), JSON.stringify(long) + '\n', 'longer than the first scratch buffer');
  });
});
