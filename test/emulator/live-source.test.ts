/**
 * The live source on the real emulator: a redelivery cascade after an ack deadline expires, a
 * kill and restart of the server mid-recording, seek on a tap, and leftover taps.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { DuplicateEvent, MessageEvent, TraceEvent } from '../../src/core/trace/traceEvents';
import { seekSubscription } from '../../src/pubsub/admin';
import { CaptureRecorder } from '../../src/pubsub/captureRecorder';
import { PubsubConnection } from '../../src/pubsub/connection';
import { LiveSource, LiveState } from '../../src/pubsub/liveSource';
import { PubsubError } from '../../src/pubsub/pubsubErrors';
import { parseResourceName } from '../../src/pubsub/resourceNames';
import { createTap, findLeftoverTaps } from '../../src/pubsub/tap';
import { findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { connectTo, useEmulator, PROJECT, runCli, tempDir, uniqueId, waitFor } from './emulatorSupport';

async function publishNumbered(conn: PubsubConnection, topic: string, key: string, from: number, to: number): Promise<void> {
  const t = conn.client.topic(topic, { messageOrdering: true });
  await Promise.all(
    Array.from({ length: to - from + 1 }, (_, i) =>
      t.publishMessage({ data: Buffer.from(`n${from + i}`), orderingKey: key, attributes: { n: String(from + i) } }),
    ),
  );
  await t.flush();
}

async function replayEvents(path: string): Promise<{ events: TraceEvent[]; summary: Awaited<ReturnType<typeof runReplay>>['summary'] }> {
  const events: TraceEvent[] = [];
  const { summary } = await runReplay({ paths: [path], options: resolveOptions({ seq: 'attribute:n' }), listener: (ev) => events.push(ev) });
  return { events, summary };
}

describe('emulator: live source', function () {
  const env = useEmulator();

  it('an expired ack deadline brings N and every later message of the key again: one redelivery cascade, nothing delivered twice', async () => {
    const { conn } = env;
    const topic = uniqueId('cascade');
    const sub = uniqueId('cascade-sub');
    const [t] = await conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true, ackDeadlineSeconds: 10 });
    const out = join(tempDir(), 'cascade.jsonl');
    const recorder = await CaptureRecorder.open(out);
    const seen = new Set<string>();
    const source = new LiveSource(
      {
        connection: conn,
        subscription: parseResourceName('subscriptions', sub, PROJECT),
        recorder,
        // The consumer "crashes" holding message 3 the first time it sees it.
        withholdAck: (rm) => rm.message.attributes?.n === '3' && !seen.has(rm.message.messageId) && !!seen.add(rm.message.messageId),
      },
      { record() {} },
    );
    await source.start();
    await publishNumbered(conn, topic, 'acct-1', 0, 5);
    await waitFor('3, 4 and 5 to be redelivered', () => source.stats.received >= 9, 60_000);
    await source.stop();
    await recorder.close();

    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.message.attributes.n),
      ['0', '1', '2', '3', '4', '5', '3', '4', '5'],
      'the emulator re-sent 3 and everything after it, in order',
    );
    const { events, summary } = await replayEvents(out);
    const delivered = events.filter((e): e is MessageEvent => e.type === 'message').map((e) => e.seq);
    assert.deepEqual(delivered, [0, 1, 2, 3, 4, 5], 'each number delivered exactly once');
    const dups = events.filter((e): e is DuplicateEvent => e.type === 'duplicate');
    assert.deepEqual(
      dups.map((d) => [d.seq, d.redelivery]),
      [
        [3, true],
        [4, true],
        [5, true],
      ],
    );
    assert.equal(summary.cascades, 1, 'one cascade, not three separate mysteries');
    assert.equal(summary.redeliveries, 3);
    assert.equal(source.stats.withheld, 1);
  });

  it('kill the emulator mid-recording and restart it: disconnected, then live again; nothing acked is missing from the capture', async function () {
    const found = findEmulator();
    if ('missing' in found) this.skip();
    // An emulator of its own: killing the shared one would break the other tests.
    const own = await PubsubEmulator.start((found as { launcher: string }).launcher);
    const ownConn = await connectTo(own);
    try {
      const topic = uniqueId('restart');
      const sub = uniqueId('restart-sub');
      const setUp = async () => {
        const [t] = await ownConn.client.createTopic(topic);
        await t.createSubscription(sub, { enableMessageOrdering: true });
      };
      await setUp();
      const out = join(tempDir(), 'restart.jsonl');
      const recorder = await CaptureRecorder.open(out);
      // By id for the check, and counted: a restarted emulator numbers messageIds from 1 again.
      const acked = new Set<string>();
      let ackCount = 0;
      const states: [LiveState, string][] = [];
      const source = new LiveSource(
        { connection: ownConn, subscription: parseResourceName('subscriptions', sub, PROJECT), recorder, healthIntervalMs: 300, healthTimeoutMs: 500 },
        { record() {}, acked: (rm) => (ackCount++, acked.add(rm.message.messageId)), state: (s, d) => states.push([s, d]) },
      );
      await source.start();
      await publishNumbered(ownConn, topic, 'k', 0, 199);
      await waitFor('200 acks', () => ackCount >= 200);

      await own.kill();
      const ackedBeforeKill = new Set(acked);
      await waitFor('the source to notice', () => source.state === 'disconnected', 10_000);
      assert.match(states.at(-1)![1], /disconnected/);

      // The emulator comes back empty (it keeps state in memory): the topic and subscription are
      // made again, as an operator would, and new traffic flows.
      await own.restart();
      await setUp();
      await waitFor('the source to reconnect', () => source.state === 'live', 15_000);
      await publishNumbered(ownConn, topic, 'k', 200, 299);
      await waitFor('100 more acks', () => ackCount >= 300, 30_000).catch((e: Error) => {
        throw new Error(`${e.message}; acked ${ackCount}, stats ${JSON.stringify(source.stats)}, states ${JSON.stringify(states)}`);
      });
      await source.stop();
      await recorder.close();

      assert.ok(source.stats.reconnects >= 1);
      assert.ok(
        states.some(([s, d]) => s === 'live' && /reconnected/.test(d)),
        JSON.stringify(states),
      );
      const lines = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const ids = new Set(lines.map((l) => l.message.messageId as string));
      assert.equal(ackedBeforeKill.size, 200);
      for (const id of ackedBeforeKill) assert.ok(ids.has(id), `acked message ${id} is in the capture`);
      const numbers = new Set(lines.map((l) => Number(l.message.attributes.n)));
      for (let n = 0; n < 300; n++) assert.ok(numbers.has(n), `message ${n} is in the capture`);
      const { summary } = await replayEvents(out);
      assert.equal(summary.invalid, 0, 'every line of the capture replays');
      assert.ok(summary.received >= 300);
    } finally {
      await ownConn.close().catch(() => undefined);
      await own.stop();
    }
  });

  it('kill the emulator and restart it without the tap: the reason turns from "not running" to "no longer exists", and a new tap continues the recording', async function () {
    const found = findEmulator();
    if ('missing' in found) this.skip();
    const own = await PubsubEmulator.start((found as { launcher: string }).launcher);
    const ownConn = await connectTo(own);
    try {
      const topic = uniqueId('gone');
      await ownConn.client.createTopic(topic);
      const tap = await createTap(ownConn, parseResourceName('topics', topic, PROJECT));
      const out = join(tempDir(), 'gone.jsonl');
      const recorder = await CaptureRecorder.open(out);
      const states: string[] = [];
      const events = { record() {}, state: (s: LiveState, d: string, cause?: string) => states.push(`${s}|${cause ?? ''}|${d}`) };
      const opts = { connection: ownConn, recorder, healthIntervalMs: 300, healthTimeoutMs: 500 };
      const first = new LiveSource({ ...opts, subscription: tap.subscription }, events);
      await first.start();
      await publishNumbered(ownConn, topic, 'k', 0, 49);
      await waitFor('50 received', () => first.stats.acked >= 50);

      await own.kill();
      await waitFor('"not running"', () => states.some((x) => x.startsWith('disconnected|emulator-down|')), 10_000);
      // Back, empty: the tap is gone for good. The new reason must reach the listener.
      await own.restart();
      await ownConn.client.createTopic(topic);
      await waitFor('"no longer exists"', () => states.some((x) => x.startsWith('disconnected|not-found|')), 15_000).catch((e: Error) => {
        throw new Error(`${e.message}; states ${JSON.stringify(states)}`);
      });
      assert.match(states.find((x) => x.startsWith('disconnected|not-found|'))!, /the subscription no longer exists/);

      // Re-tap, as the extension does: a new tap, the same recorder, the recording goes on.
      await first.stop();
      const tap2 = await createTap(ownConn, parseResourceName('topics', topic, PROJECT));
      const second = new LiveSource({ ...opts, subscription: tap2.subscription }, events);
      await second.start();
      await publishNumbered(ownConn, topic, 'k', 100, 149);
      await waitFor('50 more acked on the new tap', () => second.stats.acked >= 50, 30_000);
      await second.stop();
      await recorder.close();
      const numbers = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => Number(JSON.parse(l).message.attributes.n));
      assert.equal(numbers.length, 100, 'one recording: 50 before, 50 after the re-tap');
      assert.deepEqual(
        [...new Set(numbers)].sort((a, b) => a - b),
        [...Array.from({ length: 50 }, (_, i) => i), ...Array.from({ length: 50 }, (_, i) => 100 + i)],
      );
      const { summary } = await replayEvents(out);
      assert.equal(summary.gaps, 1, 'what was published while there was no tap (50–99, here never) shows as one gap');
    } finally {
      await ownConn.close().catch(() => undefined);
      await own.stop();
    }
  });

  it('seek re-sends what a subscription retained; the sequencer reports the copies as redeliveries', async () => {
    const { conn } = env;
    const topic = uniqueId('seek');
    const sub = uniqueId('seek-sub');
    const [t] = await conn.client.createTopic(topic);
    // The emulator cannot seek a subscription with message ordering (Google Cloud can), so this
    // one is unordered; a tap's seek error is checked below.
    await t.createSubscription(sub, { retainAckedMessages: true });
    const name = parseResourceName('subscriptions', sub, PROJECT);
    const out = join(tempDir(), 'seek.jsonl');
    const recorder = await CaptureRecorder.open(out);
    const source = new LiveSource({ connection: conn, subscription: name, recorder }, { record() {} });
    await source.start();
    const before = new Date(Date.now() - 2000); // the emulator seeks with about 1 s precision
    await publishNumbered(conn, topic, 'k', 0, 19);
    await waitFor('20 acks', () => source.stats.acked >= 20);
    await seekSubscription(conn, name, { time: before });
    await waitFor('the 20 again', () => source.stats.received >= 40, 30_000);
    await source.stop();
    await recorder.close();
    const { summary } = await replayEvents(out);
    assert.equal(summary.delivered, 20);
    assert.equal(summary.duplicates, 20);
    assert.equal(summary.redeliveries, 20, 'same messageIds: redeliveries, not second publishes');

    const tap = await createTap(conn, parseResourceName('topics', topic, PROJECT));
    await assert.rejects(
      seekSubscription(conn, tap.subscription, { time: before }),
      (e: PubsubError) => e.kind === 'unsupported' && /emulator cannot seek/.test(e.message),
    );
  });

  it('finds leftover taps, and `seqscope taps --delete` removes them', async () => {
    const { emu, conn } = env;
    const topic = uniqueId('leftover');
    await conn.client.createTopic(topic);
    const tap = await createTap(conn, parseResourceName('topics', topic, PROJECT));
    const other = uniqueId('not-a-tap');
    await conn.client.topic(topic).createSubscription(other);
    const left = await findLeftoverTaps(conn);
    assert.ok(left.some((s) => s.name.path === tap.subscription.path));
    assert.ok(!left.some((s) => s.name.id === other), 'an ordinary subscription is not a tap');
    assert.ok(!(await findLeftoverTaps(conn, new Set([tap.subscription.path]))).some((s) => s.name.path === tap.subscription.path), 'taps in use are kept');

    const r = await runCli(emu, ['taps', '--delete', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).deleted.includes(tap.subscription.path));
    assert.deepEqual(await findLeftoverTaps(conn), []);
    const [exists] = await conn.client.subscription(other).exists();
    assert.ok(exists, 'the ordinary subscription is untouched');
  });
});
