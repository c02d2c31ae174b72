/**
 * `seqscope publish` into a topic bound to an Avro schema (the emulator validates Avro and stamps
 * the googclient_* attributes): payloads are re-encoded with the topic's schema — JSON text, and
 * messages recorded from a JSON-encoding topic decoded by their own revision — and a capture with
 * one message that does not fit is refused before anything is sent. A topic without a schema
 * still gets the capture's payloads and attributes byte for byte.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Type } from 'avsc';
import type { Message, Topic } from '@google-cloud/pubsub';
import { main } from '../../src/cli/main';
import { avroDecoder } from '../../src/core/schema/avroPayload';
import { textSink } from '../support/textSink';
import { PROJECT, tempDir, uniqueId, useEmulator } from './emulatorSupport';

const QUOTE = {
  type: 'record',
  name: 'Quote',
  namespace: 'md',
  fields: [
    { name: 'channel', type: 'string' },
    { name: 'seq', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
};
const avro = Type.forSchema(QUOTE as never);

/** The next `n` messages of a subscription, acked, in publish order. */
function receive(sub: ReturnType<import('@google-cloud/pubsub').PubSub['subscription']>, n: number): Promise<Message[]> {
  return new Promise((resolve, reject) => {
    const got: Message[] = [];
    sub.on('error', reject);
    sub.on('message', (m: Message) => {
      m.ack();
      got.push(m);
      if (got.length === n) void sub.close().then(() => resolve(got.sort((a, b) => Number(a.id) - Number(b.id))));
    });
  });
}

/** A capture line holding one message. */
const line = (i: number, data: Buffer, attributes?: Record<string, string>) =>
  JSON.stringify({
    ackId: `a${i}`,
    message: {
      data: data.toString('base64'),
      messageId: String(1000 + i),
      publishTime: new Date(Date.UTC(2026, 11, 1, 0, 0, i)).toISOString(),
      orderingKey: 'k',
      ...(attributes ? { attributes } : {}),
    },
  });

describe('emulator: seqscope publish into a schema topic', function () {
  const env = useEmulator();

  async function schemaTopics(id: string, encodings: readonly ('BINARY' | 'JSON')[]) {
    const { conn } = env;
    const name = `projects/${PROJECT}/schemas/${id}`;
    const admin = await conn.client.getSchemaClient();
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: id, schema: { type: 'AVRO', definition: JSON.stringify(QUOTE) } });
    const topics: Record<string, Topic> = {};
    for (const encoding of encodings)
      [topics[encoding]] = await conn.client.createTopic({ name: `${id}-${encoding}`, schemaSettings: { schema: name, encoding } });
    return { name, topics };
  }

  async function publish(file: string, topic: Topic, stdin?: Buffer) {
    const io = { stdout: textSink(), stderr: textSink(), stdin: stdin ? Readable.from([stdin]) : undefined };
    const code = await main(['publish', stdin ? '-' : file, '--topic', topic.name, '--json', '--emulator-host', env.emu.host, '--project', PROJECT], io);
    return { code, stdout: io.stdout.text, stderr: io.stderr.text };
  }

  it('JSON text published into a BINARY topic arrives as valid Avro binary, with the topic’s googclient_* attributes and the others kept', async () => {
    const id = uniqueId('pub-quote');
    const { name, topics } = await schemaTopics(id, ['BINARY']);
    const [sub] = await topics.BINARY.createSubscription(`${id}-sub`);
    const records = [
      { channel: 'A', seq: 1, note: 'open' },
      { channel: 'A', seq: 9007199254740993n, note: null },
      { channel: 'B', seq: 2 },
    ];
    const file = join(tempDir(), 'quotes.jsonl');
    const text = (r: object) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}` : v)).replace('"9007199254740993"', '9007199254740993');
    writeFileSync(
      file,
      records
        .map((r, i) => line(i, Buffer.from(text(r)), { n: String(i), googclient_schemaname: 'projects/x/schemas/old', googclient_schemaencoding: 'JSON' }))
        .join('\n') + '\n',
    );
    const arriving = receive(sub, 3);
    const run = await publish(file, topics.BINARY);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /schema projects\/x\/schemas\/old \S+ .*--schema old=FILE\.avsc/, 'the revision the capture names, out of reach, said once');
    assert.equal(run.stderr.split('\n').filter(Boolean).length, 1);
    const out = JSON.parse(run.stdout);
    assert.equal(out.published, 3);
    assert.equal(out.encoding, 'BINARY');
    assert.match(out.schema, new RegExp(`^${name}@\\S+$`));
    const got = await arriving;
    const decoder = avroDecoder({ type: 'AVRO', definition: JSON.stringify(QUOTE), source: 'quote.avsc' });
    assert.deepEqual(
      got.map((m) => decoder.decode(m.data, 'BINARY')),
      [
        { record: { channel: 'A', seq: 1, note: 'open' } },
        { record: { channel: 'A', seq: '9007199254740993', note: null } },
        { record: { channel: 'B', seq: 2, note: null } },
      ],
    );
    for (const [i, m] of got.entries()) {
      assert.equal(m.attributes.n, String(i));
      assert.equal(m.attributes.googclient_schemaname, name);
      assert.equal(m.attributes.googclient_schemaencoding, 'BINARY');
      assert.ok(m.attributes.googclient_schemarevisionid);
    }
  });

  it('a capture recorded from a JSON-encoding topic goes into a BINARY topic decoded by its own revision (from standard input, gzip)', async () => {
    const id = uniqueId('pub-json');
    const { topics } = await schemaTopics(id, ['JSON', 'BINARY']);
    const [from] = await topics.JSON.createSubscription(`${id}-from`);
    for (const [seq, note] of [
      [1, '{"string":"x"}'],
      [2, 'null'],
    ])
      await topics.JSON.publishMessage({ data: Buffer.from(`{"channel":"C","seq":${seq},"note":${note}}`), attributes: { n: String(seq) } });
    const recorded = join(tempDir(), 'json.jsonl');
    const rec = { stdout: textSink(), stderr: textSink() };
    assert.equal(
      await main(
        [
          'record',
          '--subscription',
          from.name,
          '--out',
          recorded,
          '--max-messages',
          '2',
          '--duration',
          '60s',
          '--emulator-host',
          env.emu.host,
          '--project',
          PROJECT,
        ],
        rec,
      ),
      0,
      rec.stderr.text,
    );
    assert.match(readFileSync(recorded, 'utf8'), /"googclient_schemaencoding":"JSON"/);
    const [to] = await topics.BINARY.createSubscription(`${id}-to`);
    const arriving = receive(to, 2);
    const run = await publish(recorded, topics.BINARY, gzipSync(readFileSync(recorded)));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '', 'the revision the messages name was fetched');
    const got = await arriving;
    assert.deepEqual(
      got
        .map((m) => ({ record: { ...avro.fromBuffer(m.data) }, n: m.attributes.n, encoding: m.attributes.googclient_schemaencoding }))
        .sort((a, b) => a.record.seq - b.record.seq),
      [
        { record: { channel: 'C', seq: 1, note: 'x' }, n: '1', encoding: 'BINARY' },
        { record: { channel: 'C', seq: 2, note: null }, n: '2', encoding: 'BINARY' },
      ],
    );
  });

  it('a capture with a record missing a required field is refused, naming the line and the field, and nothing is published', async () => {
    const id = uniqueId('pub-bad');
    const { topics } = await schemaTopics(id, ['BINARY']);
    const [sub] = await topics.BINARY.createSubscription(`${id}-sub`);
    const file = join(tempDir(), 'bad.jsonl');
    const payloads = ['{"channel":"A","seq":1}', '{"channel":"A","seq":2}', '{"seq":3}', '{"channel":"A","seq":4}'];
    writeFileSync(file, payloads.map((p, i) => line(i, Buffer.from(p))).join('\n') + '\n');
    const run = await publish(file, topics.BINARY);
    assert.equal(run.code, 2, run.stdout);
    assert.match(
      run.stderr,
      /nothing published: 1 of 4 message\(s\) do not fit the schema of \S+ \(\S+@\S+, BINARY\):\n {2}line 3: field "channel": missing: record md\.Quote requires it/,
    );
    // Had anything been sent, it would arrive before this message.
    const arriving = receive(sub, 1);
    await topics.BINARY.publishMessage({ data: avro.toBuffer({ channel: 'sentinel', seq: 0, note: null }) });
    assert.equal(avro.fromBuffer((await arriving)[0].data).channel, 'sentinel');
  });

  it('a topic without a schema gets the payloads and attributes byte for byte, as before', async () => {
    const id = uniqueId('pub-plain');
    const [topic] = await env.conn.client.createTopic(id);
    const [sub] = await topic.createSubscription(`${id}-sub`);
    const file = join(tempDir(), 'plain.jsonl');
    const payloads = [Buffer.from([0, 255, 7]), Buffer.from('{"seq":3}')];
    const attrs = { googclient_schemaname: `projects/${PROJECT}/schemas/gone`, googclient_schemaencoding: 'BINARY', n: 'x' };
    writeFileSync(file, payloads.map((p, i) => line(i, p, attrs)).join('\n') + '\n');
    const arriving = receive(sub, 2);
    const run = await publish(file, topic);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).schema, undefined);
    const got = await arriving;
    assert.deepEqual(
      got.map((m) => [m.data.toString('hex'), m.attributes]),
      payloads.map((p) => [p.toString('hex'), attrs]),
    );
  });
});
