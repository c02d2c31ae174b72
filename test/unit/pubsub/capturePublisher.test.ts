/**
 * CapturePublisher against a fake Pub/Sub sink that records what was sent, when, and how many
 * publishes were in flight: per-key order, bounded concurrency, pause on failure / resume, pacing
 * by the capture's clock (with an injected clock), cancellation, backpressure.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CaptureEntry, parseEntry } from '../../../src/core/capture/captureRecord';
import { CapturePublisher, OutgoingMessage, paceSpeed, PausedKey, PublishSink } from '../../../src/pubsub/capturePublisher';
import { receivedMessage } from '../../support/captureLines';

function entry(line: number, key: string, n: number, t = line * 10, id = `${key}-${n}`): CaptureEntry {
  const rm = receivedMessage({ t, orderingKey: key, seq: n, channel: key, id });
  return parseEntry(JSON.stringify(rm), 0, line, 0, 0);
}

async function* batches(entries: CaptureEntry[], size = 7): AsyncGenerator<CaptureEntry[]> {
  for (let i = 0; i < entries.length; i += size) yield entries.slice(i, i + size);
}

/** A sink whose publishes settle when the test (or a microtask loop) says. */
/** Resolves once `ready()` holds, looking once per turn of the event loop; fails after `turns` turns (a hang guard, not a wait). */
async function turnsUntil(what: string, ready: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (ready()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`${what} did not happen within ${turns} turns of the event loop`);
}

class FakeSink implements PublishSink {
  sent: OutgoingMessage[] = [];
  /** Messages confirmed, per key, in confirmation order. */
  confirmed = new Map<string, number[]>();
  inFlight = 0;
  maxInFlight = 0;
  keysInFlight = new Map<string, number>();
  maxKeysInFlight = 0;
  resumed: string[] = [];
  /** Keys that fail their next publish (then are cleared). */
  failNext = new Set<string>();
  private pausedKeys = new Set<string>();

  constructor(private readonly latency: () => Promise<void> = () => new Promise((r) => setImmediate(r))) {}

  async publish(m: OutgoingMessage): Promise<string> {
    this.sent.push(m);
    this.inFlight++;
    this.keysInFlight.set(m.key, (this.keysInFlight.get(m.key) ?? 0) + 1);
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.maxKeysInFlight = Math.max(this.maxKeysInFlight, this.keysInFlight.size);
    try {
      await this.latency();
      // Like the ordered client: after a failure, a key's publishes fail until resume.
      if (this.failNext.delete(m.key)) this.pausedKeys.add(m.key);
      if (this.pausedKeys.has(m.key)) throw new Error(`publish failed for ${m.key}`);
      const n = Number(m.attributes!.MsgSeqNum);
      const list = this.confirmed.get(m.key) ?? [];
      list.push(n);
      this.confirmed.set(m.key, list);
      return `id-${this.sent.length}`;
    } finally {
      this.inFlight--;
      const k = this.keysInFlight.get(m.key)! - 1;
      if (k) this.keysInFlight.set(m.key, k);
      else this.keysInFlight.delete(m.key);
    }
  }

  resume(key: string): void {
    this.resumed.push(key);
    this.pausedKeys.delete(key);
  }
}

describe('CapturePublisher', () => {
  it('publishes each key in capture order, keys concurrently, never above the concurrency bound', async () => {
    // 5 keys interleaved, 40 messages each.
    const entries: CaptureEntry[] = [];
    for (let i = 0; i < 200; i++) entries.push(entry(i + 1, `k${i % 5}`, Math.floor(i / 5)));
    const sink = new FakeSink();
    const r = await new CapturePublisher({ sink, concurrency: 2, window: 3 }).run(batches(entries));
    assert.equal(r.published, 200);
    assert.equal(r.cancelled, false);
    assert.equal(r.keys, 5);
    for (let k = 0; k < 5; k++)
      assert.deepEqual(
        sink.confirmed.get(`k${k}`),
        Array.from({ length: 40 }, (_, i) => i),
      );
    assert.ok(sink.maxKeysInFlight <= 2, `keys in flight ${sink.maxKeysInFlight}`);
    assert.equal(sink.maxKeysInFlight, 2, 'two keys did publish at once');
    assert.ok(sink.maxInFlight <= 6, `in flight ${sink.maxInFlight} > concurrency × window`);
  });

  it('keeps each key in order for any interleaving, bound and window (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (keys, concurrency, window) => {
          const next = new Map<string, number>();
          const entries = keys.map((k, i) => {
            const key = `k${k}`;
            const n = next.get(key) ?? 0;
            next.set(key, n + 1);
            return entry(i + 1, key, n);
          });
          const sink = new FakeSink();
          const r = await new CapturePublisher({ sink, concurrency, window }).run(batches(entries, 3));
          assert.equal(r.published, entries.length);
          for (const [key, count] of next)
            assert.deepEqual(
              sink.confirmed.get(key),
              Array.from({ length: count }, (_, i) => i),
            );
          assert.ok(sink.maxKeysInFlight <= concurrency);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pauses only the failing key, keeps its messages in order, and resumes from the failed one', async () => {
    const entries: CaptureEntry[] = [];
    for (let i = 0; i < 60; i++) entries.push(entry(i + 1, i % 2 ? 'bad' : 'good', Math.floor(i / 2)));
    const sink = new FakeSink();
    sink.failNext.add('bad');
    const paused: PausedKey[] = [];
    const publisher: CapturePublisher = new CapturePublisher({
      sink,
      window: 4,
      onPaused(p) {
        paused.push(p);
        // The good key goes on while this one waits: resumed once it has finished.
        void turnsUntil('the good key finishing while "bad" is paused', () => sink.confirmed.get('good')?.length === 30).then(() => publisher.resume('bad'));
      },
    });
    const r = await publisher.run(batches(entries));
    assert.equal(paused.length, 1);
    assert.equal(paused[0].key, 'bad');
    assert.match(paused[0].error.message, /publish failed for bad/);
    assert.equal(paused[0].line, 2, 'the first unpublished message is the failed one');
    assert.deepEqual(sink.resumed, ['bad']);
    assert.equal(r.published, 60);
    assert.deepEqual(
      sink.confirmed.get('bad'),
      Array.from({ length: 30 }, (_, i) => i),
      'nothing skipped, nothing twice, in order',
    );
    assert.deepEqual(r.paused, []);
  });

  it('on abort while a key is paused, reports what was not published', async () => {
    const entries = Array.from({ length: 10 }, (_, i) => entry(i + 1, 'k', i));
    const sink = new FakeSink();
    sink.failNext.add('k');
    const ac = new AbortController();
    const r = await new CapturePublisher({ sink, window: 1, signal: ac.signal, onPaused: () => ac.abort() }).run(batches(entries));
    assert.equal(r.cancelled, true);
    assert.equal(r.published, 0);
    assert.equal(r.unpublished, 10);
    assert.equal(r.paused.length, 1);
    assert.equal(r.paused[0].pending, 10);
  });

  it('paces by the capture clock: original keeps the gaps, x10 divides them, max does not wait', async () => {
    const entries = [entry(1, 'a', 0, 0), entry(2, 'a', 1, 1000), entry(3, 'b', 0, 1500), entry(4, 'a', 2, 4000)];
    for (const [pace, expected] of [
      ['original', [1000, 500, 2500]],
      ['x10', [100, 50, 250]],
      ['max', []],
    ] as const) {
      let clock = 5_000_000;
      const waits: number[] = [];
      const sink = new FakeSink();
      const r = await new CapturePublisher({
        sink,
        pace,
        now: () => clock,
        sleep: async (ms) => {
          waits.push(Math.round(ms));
          clock += ms;
        },
      }).run(batches(entries));
      assert.equal(r.published, 4);
      assert.deepEqual(waits, expected, pace);
    }
    assert.equal(paceSpeed('x2.5'), 2.5);
    assert.throws(() => paceSpeed('fast'), /not original, max or xN/);
    assert.throws(() => paceSpeed('x0'), /not original, max or xN/);
  });

  it('reads ahead at most maxQueued messages (memory stays bounded on any capture)', async () => {
    let release: (() => void)[] = [];
    const sink = new FakeSink(() => new Promise<void>((r) => release.push(r)));
    let yielded = 0;
    async function* slowBatches() {
      for (let i = 0; i < 100; i++) {
        yielded++;
        yield [entry(i + 1, `k${i}`, 0)];
      }
    }
    const done = new CapturePublisher({ sink, maxQueued: 10, window: 1, concurrency: 100 }).run(slowBatches());
    // Ten publishes wait on the sink; then reading stops, however many turns go by.
    await turnsUntil('ten publishes in flight', () => release.length >= 10);
    for (let i = 0; i < 100; i++) await new Promise((r) => setImmediate(r));
    assert.ok(yielded <= 11, `read ${yielded} records ahead with nothing confirmed`);
    // Let everything through.
    const pump = setInterval(() => {
      const r = release;
      release = [];
      r.forEach((f) => f());
    }, 1);
    const r = await done;
    clearInterval(pump);
    assert.equal(r.published, 100);
  });

  it('skips invalid lines and (when asked) repeated messageIds, counting them', async () => {
    const bad = parseEntry('{"not":"a record"}', 0, 2, 0, 0);
    const entries = [entry(1, 'a', 0), bad, entry(3, 'a', 0, 30, 'a-0'), entry(4, 'a', 1)];
    const sink = new FakeSink();
    const r = await new CapturePublisher({ sink, skipRedeliveries: true }).run(batches(entries));
    assert.equal(r.published, 2);
    assert.equal(r.skipped, 2);
    const all = await new CapturePublisher({ sink: new FakeSink() }).run(batches(entries));
    assert.equal(all.published, 3, 'by default a redelivery in the capture is published again, as the consumer saw it');
  });

  it('preserves ordering key, attributes and payload bytes', async () => {
    const sink = new FakeSink();
    await new CapturePublisher({ sink }).run(batches([entry(1, 'key-1', 7)]));
    const m = sink.sent[0];
    assert.equal(m.key, 'key-1');
    assert.deepEqual(m.attributes, { Channel: 'key-1', MsgSeqNum: '7' });
    assert.equal(m.data.toString(), JSON.stringify({ seq: 7 }));
  });

  it('with encode (a topic bound to a schema), sends what it writes, in order, with the ordering key kept', async () => {
    const sink = new FakeSink();
    const seen: (string | undefined)[] = [];
    const encode = (message: { data?: string; attributes?: Record<string, string> }, topic: string | undefined) => {
      seen.push(topic);
      const seq = (JSON.parse(Buffer.from(message.data!, 'base64').toString()) as { seq: number }).seq;
      return { data: Uint8Array.of(seq), attributes: { MsgSeqNum: String(seq) } };
    };
    const r = await new CapturePublisher({ sink, encode }).run(batches([entry(1, 'k', 1), entry(2, 'k', 2)]));
    assert.equal(r.published, 2);
    assert.deepEqual(
      sink.sent.map((m) => [m.key, [...m.data], m.attributes]),
      [
        ['k', [1], { MsgSeqNum: '1' }],
        ['k', [2], { MsgSeqNum: '2' }],
      ],
    );
    assert.ok(
      sink.sent.every((m) => Buffer.isBuffer(m.data)),
      'the client takes Buffers',
    );
    assert.deepEqual(seen, [undefined, undefined]);
  });
});
