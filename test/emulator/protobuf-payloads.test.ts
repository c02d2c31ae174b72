/**
 * Protocol Buffers end to end with a local .proto (the emulator's Schema service answers
 * UNIMPLEMENTED for them): payloads published in binary and in the proto3 JSON mapping are
 * recorded, replayed keyed and numbered by decoded fields, exported decoded, searched, and
 * decoded live as they arrive.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { CaptureRecorder } from '../../src/pubsub/captureRecorder';
import { LiveSource } from '../../src/pubsub/liveSource';
import { parseResourceName } from '../../src/pubsub/resourceNames';
import { createTap, deleteTap } from '../../src/pubsub/tap';
import { schemasFromFlags } from '../../src/cli/schemaFlags';
import { LiveFeed } from '../../src/timeline/liveFeed';
import { main } from '../../src/cli/main';
import { textSink } from '../support/textSink';
import { PROJECT, tempDir, uniqueId, useEmulator, waitFor } from './emulatorSupport';

const PROTO = join(__dirname, '..', 'fixtures', 'schemas', 'trade.proto');
const SCHEMA = `${PROTO}:example.trades.Trade`;

interface Trade {
  channel: string;
  seq: number;
  price: number;
  side: 'BUY' | 'SELL';
}

/** Channel A: 1, 2, 4, 3 (binary); channel B: 1, 2 (binary); channel C: 1, 2 (proto3 JSON, seq as the mapping's string). */
const BINARY: Trade[] = [
  { channel: 'A', seq: 1, price: 101.25, side: 'BUY' },
  { channel: 'A', seq: 2, price: 101.5, side: 'SELL' },
  { channel: 'B', seq: 1, price: 99, side: 'BUY' },
  { channel: 'A', seq: 4, price: 102, side: 'SELL' },
  { channel: 'A', seq: 3, price: 101.75, side: 'BUY' },
  { channel: 'B', seq: 2, price: 98.5, side: 'SELL' },
];
const JSON_TEXT = ['{"channel":"C","seq":"1","price":7.5,"side":"SELL"}', '{"channel":"C","seq":"2","price":7.25,"side":"BUY"}'];

/** Field 1 (channel) as a string whose length runs past the payload's end. */
const BROKEN = Buffer.from('0a05410000', 'hex');

async function payloads(): Promise<Buffer[]> {
  const Trade = (await protobuf.load(PROTO)).lookupType('example.trades.Trade');
  const binary = BINARY.map((t) => Buffer.from(Trade.encode(Trade.fromObject({ ...t, side: t.side })).finish()));
  return [...binary, ...JSON_TEXT.map((t) => Buffer.from(t))];
}

describe('emulator: Protocol Buffers payloads with a local .proto', function () {
  const env = useEmulator();

  it('records binary and JSON payloads, replays them keyed and numbered by decoded fields, exports and finds the decoded records; a payload that is not a Trade is invalid with its reason', async () => {
    const { emu, conn } = env;
    const id = uniqueId('proto-trades');
    const [topic] = await conn.client.createTopic(id);
    await topic.createSubscription(`${id}-sub`);
    for (const data of [...(await payloads()), BROKEN]) await topic.publishMessage({ data });
    const out = join(tempDir(), 'proto-trades.jsonl');
    const rec = { stdout: textSink(), stderr: textSink() };
    const connected = ['--emulator-host', emu.host, '--project', PROJECT];
    assert.equal(
      await main(['record', '--subscription', `${id}-sub`, '--out', out, '--max-messages', '9', '--duration', '60s', ...connected], rec),
      0,
      rec.stderr.text,
    );

    const replay = async (...extra: string[]) => {
      const io = { stdout: textSink(), stderr: textSink() };
      const code = await main(['replay', out, '--key', 'json:channel', '--seq', 'json:seq', '--threads', '1', ...extra], io);
      return { code, stdout: io.stdout.text, stderr: io.stderr.text };
    };
    const run = await replay('--schema', SCHEMA, '--json');
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.deepEqual(
      { received: summary.received, delivered: summary.delivered, invalid: summary.invalid, keys: summary.keys, gaps: summary.gaps },
      { received: 8, delivered: 8, invalid: 1, keys: 3, gaps: 0 },
    );
    assert.equal(summary.invalidSamples.length, 1);
    assert.match(summary.invalidSamples[0].reason, /does not match the schema from .*trade\.proto/);

    // The export carries each decoded record: int64 as the mapping's string, enums by name.
    const exported = await replay('--schema', SCHEMA, '--export', '-');
    assert.equal(exported.code, 0, exported.stderr);
    const records = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const a = records.filter((r) => r.decoded?.channel === 'A').map((r) => r.decoded);
    assert.deepEqual(
      a.map((d) => [d.seq, d.side]),
      [
        ['1', 'BUY'],
        ['2', 'SELL'],
        ['3', 'BUY'],
        ['4', 'SELL'],
      ],
      'channel A delivered in number order, decoded',
    );
    assert.ok(records.every((r) => r.decodedBy === undefined || /trade\.proto/.test(r.decodedBy)));

    // --grep matches the decoded text of binary payloads.
    const sells = await replay('--schema', SCHEMA, '--export', '-', '--grep', '"side":"SELL"');
    assert.equal(sells.code, 0, sells.stderr);
    assert.equal(sells.stdout.trim().split('\n').length, 4, sells.stdout);

    // Without the .proto the binary payloads cannot be keyed: every one is invalid, and the JSON ones still read.
    const without = await replay('--json');
    const bare = JSON.parse(without.stdout);
    assert.equal(bare.received, 2, without.stderr);
    assert.equal(bare.invalid, 7);
  });

  it('live: a tap decodes Protocol Buffers payloads by the local .proto as they arrive; a cut one is invalid', async () => {
    const { conn } = env;
    const id = uniqueId('proto-live');
    await conn.client.createTopic(id);
    const tap = await createTap(conn, parseResourceName('topics', id, PROJECT));
    const out = join(tempDir(), 'proto-live.jsonl');
    const recorder = await CaptureRecorder.open(out);
    const options = { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas: schemasFromFlags([SCHEMA]) };
    const feed = new LiveFeed(out, options);
    const source = new LiveSource(
      { connection: conn, subscription: tap.subscription, recorder },
      { record: (rm, offset, length, at) => feed.push(rm, offset, length, at) },
    );
    await source.start();
    try {
      const topic = conn.client.topic(id);
      for (const data of [...(await payloads()), BROKEN]) await topic.publishMessage({ data });
      await waitFor('9 arrivals', () => feed.arrivals === 9);
    } finally {
      await source.stop();
      await recorder.close();
      await deleteTap(conn, tap.subscription).catch(() => undefined);
    }
    const summary = feed.refresh();
    assert.deepEqual(
      { received: summary.received, invalid: summary.invalid, keys: summary.byKey.map((k) => `${k.key}:${k.received}`).sort() },
      { received: 8, invalid: 1, keys: ['A:4', 'B:2', 'C:2'] },
    );
  });
});
