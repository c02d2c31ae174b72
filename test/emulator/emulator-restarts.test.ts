/**
 * Issue 29, emulator faults: the emulator killed (SIGKILL) and started again mid-stream
 * SEQSCOPE_RESTARTS times (default 3), during `seqscope record` and during a live session (the
 * live source the extension uses). Each time the state goes to disconnected, then live again
 * ("reconnected"), and every message delivered before a kill is in the recording. The emulator
 * keeps its state in memory: after each restart the topic and subscription are made again, as an
 * operator would, and its messageIds start again from 1 (so the checks go by the `n` attribute).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { CaptureRecorder } from '../../src/pubsub/captureRecorder';
import { PubsubConnection } from '../../src/pubsub/connection';
import { LiveSource, LiveState } from '../../src/pubsub/liveSource';
import { parseResourceName } from '../../src/pubsub/resourceNames';
import { findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { connectTo, PROJECT, startCli, tempDir, uniqueId, waitFor } from './emulatorSupport';

const RESTARTS = Number(process.env.SEQSCOPE_RESTARTS ?? 3);
const PER_ROUND = 100;

function numbersIn(path: string): Set<number> {
  if (!existsSync(path)) return new Set();
  // Complete lines only: the recorder may be writing the last one.
  const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1);
  return new Set(lines.map((l) => Number(JSON.parse(l).message.attributes.n)));
}

async function publishRound(conn: PubsubConnection, topic: string, round: number): Promise<void> {
  const t = conn.client.topic(topic, { messageOrdering: true });
  const from = round * PER_ROUND;
  await Promise.all(
    Array.from({ length: PER_ROUND }, (_, i) =>
      t.publishMessage({ data: Buffer.from(`n${from + i}`), orderingKey: `k${i % 4}`, attributes: { n: String(from + i) } }),
    ),
  );
  await t.flush();
}

describe('emulator: killed and restarted mid-stream', function () {
  this.timeout(120_000 + RESTARTS * 60_000);
  let own: PubsubEmulator;
  let conn: PubsubConnection;

  before(async function () {
    const found = findEmulator();
    if ('missing' in found) this.skip();
    // An emulator of its own: the shared one must stay up for the other suites.
    own = await PubsubEmulator.start((found as { launcher: string }).launcher);
    conn = await connectTo(own);
  });

  after(async () => {
    await conn?.close().catch(() => undefined);
    await own?.stop();
  });

  const setUp = async (topic: string, sub: string) => {
    const [t] = await conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true });
  };

  it(`seqscope record: ${RESTARTS} restarts, each reported disconnected then reconnected; every message recorded`, async () => {
    const topic = uniqueId('restarts');
    const sub = uniqueId('restarts-sub');
    await setUp(topic, sub);
    const out = join(tempDir(), 'restarts.jsonl');
    const rec = await startCli(own, ['record', '--subscription', sub, '--out', out, '--duration', '600s', '--json']);
    const count = (re: RegExp) => rec.stderr.split('\n').filter((l) => re.test(l)).length;
    for (let r = 0; r < RESTARTS; r++) {
      await publishRound(conn, topic, r);
      await waitFor(`round ${r} recorded`, () => numbersIn(out).size >= (r + 1) * PER_ROUND, 60_000);
      await own.kill();
      await waitFor(`disconnected ${r + 1}`, () => count(/^seqscope: disconnected: /) >= r + 1, 20_000);
      await own.restart();
      await setUp(topic, sub);
      await waitFor(`reconnected ${r + 1}`, () => count(/^seqscope: reconnected to /) >= r + 1, 30_000).catch((e: Error) => {
        throw new Error(`${e.message}; stderr: ${rec.stderr}`);
      });
    }
    await publishRound(conn, topic, RESTARTS);
    await waitFor('the last round recorded', () => numbersIn(out).size >= (RESTARTS + 1) * PER_ROUND, 60_000);
    rec.child.kill('SIGINT');
    assert.equal(await rec.exited, 0, rec.stderr);
    const { recorded } = JSON.parse(rec.stdout);
    assert.equal(recorded.reconnects, RESTARTS);
    assert.equal(count(/^seqscope: disconnected: .*emulator at 127\.0\.0\.1:\d+ is not running/), RESTARTS, rec.stderr);
    const numbers = numbersIn(out);
    for (let n = 0; n < (RESTARTS + 1) * PER_ROUND; n++) assert.ok(numbers.has(n), `message ${n} is in the recording`);
    assert.equal(recorded.acked, recorded.received, 'every delivery acked once written');
    const { summary } = await runReplay({ paths: [out], options: resolveOptions({ seq: 'attribute:n' }) });
    assert.equal(summary.invalid, 0);
    console.log(
      `      record: ${RESTARTS} emulator restarts, ${recorded.received} received, ${recorded.acked} acked, ${(RESTARTS + 1) * PER_ROUND - numbers.size} lost`,
    );
  });

  it(`live session: ${RESTARTS} restarts, disconnected / live each time; nothing acked is missing from the recording`, async () => {
    const topic = uniqueId('restarts-live');
    const sub = uniqueId('restarts-live-sub');
    await setUp(topic, sub);
    const out = join(tempDir(), 'restarts-live.jsonl');
    const recorder = await CaptureRecorder.open(out);
    const acked: number[] = [];
    const states: [LiveState, string][] = [];
    const source = new LiveSource(
      { connection: conn, subscription: parseResourceName('subscriptions', sub, PROJECT), recorder, healthIntervalMs: 300, healthTimeoutMs: 1000 },
      { record() {}, acked: (rm) => acked.push(Number(rm.message.attributes?.n)), state: (s, d) => states.push([s, d]) },
    );
    await source.start();
    const seen = (state: LiveState, re: RegExp) => states.filter(([s, d]) => s === state && re.test(d)).length;
    try {
      for (let r = 0; r < RESTARTS; r++) {
        await publishRound(conn, topic, r);
        await waitFor(`round ${r} acked`, () => acked.length >= (r + 1) * PER_ROUND, 60_000);
        await own.kill();
        await waitFor(`disconnected ${r + 1}`, () => seen('disconnected', /emulator at .* is not running/) >= r + 1, 20_000);
        await own.restart();
        await setUp(topic, sub);
        await waitFor(`live again ${r + 1}`, () => seen('live', /^reconnected/) >= r + 1, 30_000).catch((e: Error) => {
          throw new Error(`${e.message}; states ${JSON.stringify(states)}`);
        });
      }
      await publishRound(conn, topic, RESTARTS);
      await waitFor('the last round acked', () => acked.length >= (RESTARTS + 1) * PER_ROUND, 60_000);
    } finally {
      await source.stop();
      await recorder.close();
    }
    assert.equal(source.stats.reconnects, RESTARTS);
    // The states in order: live, then (disconnected, live) once per restart.
    const transitions = states.map(([s]) => s).filter((s, i, all) => i === 0 || s !== all[i - 1]);
    assert.deepEqual(transitions, ['live', ...Array.from({ length: RESTARTS }, () => ['disconnected', 'live']).flat(), 'stopped']);
    const numbers = numbersIn(out);
    const missing = acked.filter((n) => !numbers.has(n));
    assert.deepEqual(missing, [], 'every acked message is in the recording');
    assert.equal(new Set(acked).size, (RESTARTS + 1) * PER_ROUND);
    console.log(`      live session: ${RESTARTS} emulator restarts, ${acked.length} acked, ${missing.length} acked but missing`);
  });
});
