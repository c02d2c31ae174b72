/**
 * Google's own ordered-delivery fixture (from the Node Pub/Sub client's system tests): the 10 000
 * messages go through `seqscope publish` into a topic and come back through `seqscope record
 * --topic` (a tap), and every key's recorded order must equal the fixture's expected order. The
 * tap must be gone afterwards.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { listSubscriptions } from '../../src/pubsub/admin';
import { isTap } from '../../src/pubsub/tap';
import { useEmulator, startCli, runCli, tempDir, uniqueId, waitFor } from './emulatorSupport';

interface Fixture {
  input: { key: string; message: string }[];
  expected: { key: string; messages: string[] }[];
}

const fixture = JSON.parse(gunzipSync(readFileSync(join(__dirname, '../fixtures/pubsub/ordered-messages.json.gz'))).toString()) as Fixture;

describe('emulator: Google ordered-messages fixture through publish and a tap', function () {
  const env = useEmulator();

  it("records every key in the fixture's expected order, and deletes the tap", async () => {
    const { emu, conn } = env;
    const dir = tempDir();
    const topic = uniqueId('ordered');
    await conn.client.createTopic(topic);
    // The fixture as a capture: one record per input message, in publish order.
    const capture = join(dir, 'fixture.jsonl');
    const t0 = Date.parse('2026-11-30T09:30:00Z');
    writeFileSync(
      capture,
      fixture.input
        .map((m, i) =>
          JSON.stringify({
            message: {
              data: Buffer.from(m.message).toString('base64'),
              messageId: `f${i}`,
              publishTime: new Date(t0 + i).toISOString(),
              ...(m.key ? { orderingKey: m.key } : {}),
            },
            receivedAt: new Date(t0 + i).toISOString(),
          }),
        )
        .join('\n') + '\n',
    );
    const out = join(dir, 'recorded.jsonl');
    const recorder = await startCli(emu, [
      'record',
      '--topic',
      topic,
      '--out',
      out,
      '--max-messages',
      String(fixture.input.length),
      '--duration',
      '90s',
      '--json',
    ]);
    await waitFor('the tap to be created', () => /tapping/.test(recorder.stderr) || recorder.child.exitCode !== null);
    assert.equal(recorder.child.exitCode, null, recorder.stderr);

    const pub = await runCli(emu, ['publish', capture, '--topic', topic, '--concurrency', '8', '--json']);
    assert.equal(pub.code, 0, pub.stderr);
    const published = JSON.parse(pub.stdout);
    assert.equal(published.published, 10_000);
    assert.equal(published.keys, 2005);

    assert.equal(await recorder.exited, 0, recorder.stderr);
    const result = JSON.parse(recorder.stdout);
    assert.equal(result.recorded.received, 10_000);
    assert.equal(result.recorded.acked, 10_000);
    assert.match(result.recorded.stoppedBecause, /10000 messages/);

    // Per key, the order recorded.
    const byKey = new Map<string, string[]>();
    for (const l of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
      const rm = JSON.parse(l);
      const key = rm.message.orderingKey ?? '';
      const list = byKey.get(key) ?? [];
      list.push(Buffer.from(rm.message.data, 'base64').toString());
      byKey.set(key, list);
    }
    assert.equal(byKey.size, fixture.expected.length);
    for (const e of fixture.expected) {
      const got = byKey.get(e.key) ?? [];
      if (e.key === '') {
        // Pub/Sub does not order messages without a key: only the same messages are promised.
        assert.deepEqual([...got].sort(), [...e.messages].sort(), 'the unkeyed messages all arrived');
      } else {
        assert.deepEqual(got, e.messages, `key "${e.key}" in order`);
      }
    }
    // The sequencer's verdict on the recording agrees: nothing lost, nothing twice.
    assert.equal(result.summary.received, 10_000);
    assert.equal(result.summary.duplicates, 0);

    const taps = (await listSubscriptions(conn)).filter((s) => isTap(s) && s.topic.endsWith(`/topics/${topic}`));
    assert.deepEqual(taps, [], 'the tap was deleted when recording stopped');
  });
});
