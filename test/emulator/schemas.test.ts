/**
 * Topic schemas on the emulator's Schema service (Avro; it does not implement Protocol Buffers):
 * messages delivered from schema topics carry the googclient_* attributes, and each decodes by
 * the revision it names, fetched once; a deleted revision says so, and what a session met stays
 * readable from what it kept.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import type { Message } from '@google-cloud/pubsub';
import { readSchemaRef, revisionKey, type SchemaRef } from '../../src/core/schema/schemaRef';
import { type SchemaFetch, SchemaRevisions } from '../../src/core/schema/schemaRevisions';
import { schemaFetch } from '../../src/pubsub/schemaService';
import { CaptureRecorder } from '../../src/pubsub/captureRecorder';
import { LiveSchemas } from '../../src/pubsub/liveSchemas';
import { LiveSource } from '../../src/pubsub/liveSource';
import { parseResourceName } from '../../src/pubsub/resourceNames';
import { createTap, deleteTap } from '../../src/pubsub/tap';
import { learnRecorded, withRecorded } from '../../src/core/schema/schemaSet';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { LiveFeed } from '../../src/timeline/liveFeed';
import { main } from '../../src/cli/main';
import { textSink } from '../support/textSink';
import { PROJECT, tempDir, uniqueId, useEmulator, waitFor } from './emulatorSupport';

const V1 = {
  type: 'record',
  name: 'Quote',
  namespace: 'md',
  fields: [
    { name: 'channel', type: 'int' },
    { name: 'seq', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
};
const V2 = { ...V1, fields: [...V1.fields, { name: 'venue', type: 'string', default: 'XCME' }] };

/** The next `n` messages of a subscription, acked, in publish order (the emulator numbers messageIds as it publishes; delivery may reorder them). */
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

function refOf(m: Message): SchemaRef {
  const r = readSchemaRef(m.attributes);
  assert.equal(r.kind, 'schema', JSON.stringify(m.attributes));
  return (r as { ref: SchemaRef }).ref;
}

describe('emulator: topic schemas (Avro)', function () {
  const env = useEmulator();

  it('decodes BINARY and JSON topics by the revision each message names, asking once per revision', async () => {
    const { conn } = env;
    const id = uniqueId('quote');
    const name = `projects/${PROJECT}/schemas/${id}`;
    const admin = await conn.client.getSchemaClient();
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: id, schema: { type: 'AVRO', definition: JSON.stringify(V1) } });
    const received: Message[] = [];
    for (const encoding of ['BINARY', 'JSON'] as const) {
      const [topic] = await conn.client.createTopic({ name: `${id}-${encoding}`, schemaSettings: { schema: name, encoding } });
      const [sub] = await topic.createSubscription(`${id}-${encoding}-sub`);
      const arriving = receive(sub, 2);
      const v1 = Type.forSchema(V1 as never);
      for (const seq of [1, 2]) {
        const rec = { channel: 310, seq, note: seq === 1 ? 'open' : null };
        // The JSON topic's numbers lie beyond 2^53, written as text: exact only if read losslessly.
        const data =
          encoding === 'BINARY'
            ? v1.toBuffer(rec)
            : Buffer.from(`{"channel":310,"seq":900719925474099${seq + 2},"note":${rec.note ? '{"string":"open"}' : 'null'}}`);
        await topic.publishMessage({ data });
      }
      received.push(...(await arriving));
    }
    // A second revision, and a message written with it.
    const [committed] = await admin.commitSchema({ name, schema: { type: 'AVRO', definition: JSON.stringify(V2) } });
    const [topic2] = await conn.client.createTopic({
      name: `${id}-v2`,
      schemaSettings: { schema: name, encoding: 'JSON', firstRevisionId: committed.revisionId ?? undefined },
    });
    const [sub2] = await topic2.createSubscription(`${id}-v2-sub`);
    const arriving2 = receive(sub2, 1);
    await topic2.publishMessage({ data: Buffer.from('{"channel":311,"seq":3,"note":null,"venue":"XNYM"}') });
    received.push(...(await arriving2));

    const asked: string[] = [];
    const fetch = schemaFetch(conn);
    const counting: SchemaFetch = (ref) => (asked.push(ref.revisionId ?? ''), fetch(ref));
    const revisions = new SchemaRevisions({ fetch: counting });
    const records = [];
    for (const m of received) {
      const lookup = await revisions.resolve(refOf(m));
      assert.ok('decoder' in lookup, JSON.stringify(lookup));
      records.push(lookup.decoder.decode(m.data, refOf(m).encoding));
    }
    assert.deepEqual(records, [
      { record: { channel: 310, seq: 1, note: 'open' } },
      { record: { channel: 310, seq: 2, note: null } },
      { record: { channel: 310, seq: '9007199254740993', note: 'open' } },
      { record: { channel: 310, seq: '9007199254740994', note: null } },
      { record: { channel: 311, seq: 3, note: null, venue: 'XNYM' } },
    ]);
    assert.equal(new Set(asked).size, 2, 'two revisions');
    assert.equal(asked.length, 2, 'each asked for once');
    const first = refOf(received[0]);
    assert.notEqual(first.revisionId, committed.revisionId);

    // The first revision deleted: a new session is told so, unless it has what the first one kept.
    await admin.deleteSchemaRevision({ name: `${name}@${first.revisionId}` });
    const later = await new SchemaRevisions({ fetch }).resolve(first);
    assert.ok('unavailable' in later && /no longer exists/.test(later.unavailable) && /--schema FILE/.test(later.unavailable), JSON.stringify(later));
    const kept = new SchemaRevisions({ fetch, recorded: revisions.definitionsMet() });
    const again = await kept.resolve(first);
    assert.ok('decoder' in again);
    assert.deepEqual(again.decoder.decode(received[0].data, 'BINARY'), records[0]);
  });

  it('records a BINARY topic with its revision, replays it with keys and numbers from decoded fields, and offline once the revision is deleted (by the recorded definition, or --schema)', async () => {
    const { emu, conn } = env;
    const id = uniqueId('trades');
    const name = `projects/${PROJECT}/schemas/${id}`;
    const admin = await conn.client.getSchemaClient();
    const trade = {
      type: 'record',
      name: 'Trade',
      namespace: 'md',
      fields: [
        { name: 'channel', type: 'string' },
        { name: 'seq', type: 'long' },
      ],
    };
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: id, schema: { type: 'AVRO', definition: JSON.stringify(trade) } });
    const [topic] = await conn.client.createTopic({ name: id, schemaSettings: { schema: name, encoding: 'BINARY' } });
    const sub = `${id}-sub`;
    await topic.createSubscription(sub);
    const type = Type.forSchema(trade as never);
    // Channel A: 1, 2, 4, 3; channel B: 1.
    for (const [channel, seq] of [
      ['A', 1],
      ['A', 2],
      ['B', 1],
      ['A', 4],
      ['A', 3],
    ] as const)
      await topic.publishMessage({ data: type.toBuffer({ channel, seq }) });
    const out = join(tempDir(), 'trades.jsonl');
    const rec = { stdout: textSink(), stderr: textSink() };
    const connected = ['--emulator-host', emu.host, '--project', PROJECT];
    assert.equal(
      await main(['record', '--subscription', sub, '--out', out, '--max-messages', '5', '--duration', '60s', ...connected], rec),
      0,
      rec.stderr.text,
    );

    const replay = async (...extra: string[]) => {
      const io = { stdout: textSink(), stderr: textSink() };
      const at = extra.indexOf('--');
      const path = at < 0 ? out : extra[at + 1];
      const flags = at < 0 ? extra : extra.slice(0, at);
      const code = await main(['replay', path, '--key', 'json:channel', '--seq', 'json:seq', '--threads', '1', '--json', ...flags], io);
      return { code, summary: io.stdout.text ? JSON.parse(io.stdout.text) : undefined, stderr: io.stderr.text };
    };
    const counts = (s: { received: number; delivered: number; invalid: number; keys: number; gaps: number }) => ({
      received: s.received,
      delivered: s.delivered,
      invalid: s.invalid,
      keys: s.keys,
      gaps: s.gaps,
    });
    const online = await replay('--emulator-host', emu.host);
    assert.equal(online.code, 0, online.stderr);
    assert.deepEqual(counts(online.summary), { received: 5, delivered: 5, invalid: 0, keys: 2, gaps: 0 });

    // The recording carries the revision: one schema line, before the first message.
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const schemaLines = lines.filter((l) => l.startsWith('{"seqscopeSchema":'));
    assert.equal(schemaLines.length, 1);
    assert.ok(lines[0].startsWith('{"seqscopeSchema":'), lines[0]);
    const original = JSON.parse(lines[1]).message.attributes.googclient_schemarevisionid as string;
    assert.deepEqual(JSON.parse(lines[0]).seqscopeSchema, { name, revisionId: original, type: 'AVRO', definition: JSON.stringify(trade) });

    // The revision the messages name deleted (a second one committed first: the last cannot go).
    await admin.commitSchema({
      name,
      schema: { type: 'AVRO', definition: JSON.stringify({ ...trade, fields: [...trade.fields, { name: 'venue', type: 'string', default: 'X' }] }) },
    });
    await admin.deleteSchemaRevision({ name: `${name}@${original}` });
    // A copy without the schema line: only the Schema service or a file can decode it now.
    const bare = join(tempDir(), 'trades-bare.jsonl');
    writeFileSync(bare, lines.slice(1).join('\n') + '\n');
    const gone = await replay('--emulator-host', emu.host, '--', bare);
    assert.equal(gone.code, 2, 'binary payloads without their schema cannot be sequenced');
    assert.match(gone.stderr, new RegExp(`schema ${name}@\\S+ no longer exists .*--schema ${id}=FILE\\.avsc`));
    const connected2 = await replay('--emulator-host', emu.host);
    assert.equal(connected2.code, 0, connected2.stderr);
    assert.doesNotMatch(connected2.stderr, /no longer exists/, 'a recorded revision is not asked for');

    const file = join(tempDir(), 'trade.avsc');
    writeFileSync(file, JSON.stringify(trade));
    const saved = process.env.PUBSUB_EMULATOR_HOST;
    delete process.env.PUBSUB_EMULATOR_HOST;
    try {
      // Offline, no --schema: decoded by the definition the recording carries.
      const recorded = await replay();
      assert.equal(recorded.code, 0, recorded.stderr);
      assert.deepEqual(counts(recorded.summary), { received: 5, delivered: 5, invalid: 0, keys: 2, gaps: 0 });
      const offline = await replay('--schema', `${id}=${file}`, '--', bare);
      assert.equal(offline.code, 0, offline.stderr);
      assert.deepEqual(counts(offline.summary), { received: 5, delivered: 5, invalid: 0, keys: 2, gaps: 0 });
    } finally {
      if (saved !== undefined) process.env.PUBSUB_EMULATOR_HOST = saved;
    }
  });

  it('live: a schema topic tapped decodes as messages arrive, keyed and numbered by json: fields, its revision fetched once and recorded once', async () => {
    const { conn } = env;
    const id = uniqueId('live-trades');
    const name = `projects/${PROJECT}/schemas/${id}`;
    const admin = await conn.client.getSchemaClient();
    const trade = {
      type: 'record',
      name: 'Trade',
      namespace: 'md',
      fields: [
        { name: 'channel', type: 'string' },
        { name: 'seq', type: 'long' },
      ],
    };
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: id, schema: { type: 'AVRO', definition: JSON.stringify(trade) } });
    await conn.client.createTopic({ name: id, schemaSettings: { schema: name, encoding: 'BINARY' } });
    const tap = await createTap(conn, parseResourceName('topics', id, PROJECT));
    const out = join(tempDir(), 'live-trades.jsonl');
    const recorder = await CaptureRecorder.open(out);
    // As a live session does: a set of its own that learns each revision as its line is written.
    const options = { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas: withRecorded(undefined, {}) };
    const feed = new LiveFeed(out, options);
    const asked: string[] = [];
    const fetch = schemaFetch(conn);
    const unavailable: string[] = [];
    const schemas = new LiveSchemas((ref) => (asked.push(revisionKey(ref)), fetch(ref)), {
      learned: (key, def) => {
        learnRecorded(options.schemas, key, def);
        feed.lineWithoutArrival();
      },
      unavailable: (why) => unavailable.push(why),
    });
    const source = new LiveSource(
      { connection: conn, subscription: tap.subscription, recorder, schemas },
      { record: (rm, offset, length, at) => feed.push(rm, offset, length, at) },
    );
    await source.start();
    try {
      const type = Type.forSchema(trade as never);
      const topic = conn.client.topic(id);
      // Channel A: 1, 2, 4, 3; channel B: 1, 2.
      for (const [channel, seq] of [
        ['A', 1],
        ['A', 2],
        ['B', 1],
        ['A', 4],
        ['A', 3],
        ['B', 2],
      ] as const)
        await topic.publishMessage({ data: type.toBuffer({ channel, seq }) });
      await waitFor('6 arrivals', () => feed.arrivals === 6);
    } finally {
      await source.stop();
      await recorder.close();
      await deleteTap(conn, tap.subscription).catch(() => undefined);
    }
    const summary = feed.refresh();
    assert.deepEqual(
      { received: summary.received, invalid: summary.invalid, keys: summary.byKey.map((k) => `${k.key}:${k.received}`).sort() },
      { received: 6, invalid: 0, keys: ['A:4', 'B:2'] },
    );
    assert.equal(asked.length, 1, 'the revision is asked for once');
    assert.deepEqual(unavailable, []);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('{"seqscopeSchema":')).length, 1);
    assert.ok(lines[0].startsWith('{"seqscopeSchema":'));
    // The session's rows point at the recording's lines: the first arrival is line 2.
    assert.equal(feed.session.log.line.get(0), 2);
  });
});
