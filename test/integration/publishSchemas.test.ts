/**
 * Replay Capture into Topic… into a topic bound to an Avro schema, in the real extension host
 * against the emulator: JSON payloads arrive as the topic's Avro binary (the emulator validates
 * them and stamps its googclient_* attributes), and a capture with a message that does not fit is
 * refused with its line and field before anything is sent.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'avsc';
import * as vscode from 'vscode';
import type { Message } from '@google-cloud/pubsub';
import type * as PubsubLayer from '../../src/pubsub';
import { failingCommand, until } from './hostProbes';
import { useLiveEmulator } from './liveEmulator';

const PROJECT = 'seqscope-pub-it';
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

function capture(payloads: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'seqscope-pub-it-')), 'quotes.jsonl');
  const lines = payloads.map((p, i) =>
    JSON.stringify({
      message: {
        data: Buffer.from(p).toString('base64'),
        messageId: String(i + 1),
        publishTime: new Date(Date.UTC(2026, 11, 1, 14, 30, i)).toISOString(),
        orderingKey: 'k',
        attributes: { n: String(i + 1) },
      },
    }),
  );
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('SeqScope: Replay Capture into Topic… into a schema topic', function () {
  this.timeout(120_000);
  const live = useLiveEmulator('publish into a schema topic integration test', PROJECT, []);

  it('re-encodes JSON payloads as the topic’s Avro binary, and refuses a capture that does not fit before sending anything', async () => {
    const { conn, stub } = live;
    stub('showInformationMessage', (async () => undefined) as never);
    const admin = await conn.client.getSchemaClient();
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: 'quote', schema: { type: 'AVRO', definition: JSON.stringify(QUOTE) } });
    const [topic] = await conn.client.createTopic({
      name: 'quotes-binary',
      schemaSettings: { schema: `projects/${PROJECT}/schemas/quote`, encoding: 'BINARY' },
    });
    const [sub] = await topic.createSubscription('quotes-binary-sub', { enableMessageOrdering: true });
    const got: Message[] = [];
    sub.on('message', (m: Message) => {
      m.ack();
      got.push(m);
    });

    const refused = await failingCommand('seqscope.pubsub.publishCapture', {
      file: capture(['{"channel":"A","seq":1}', '{"seq":2}']),
      topic: 'quotes-binary',
      pace: 'max',
    });
    assert.match(refused, /nothing published: 1 of 2 message\(s\) do not fit .*line 2: field "channel": missing/s);

    const published = await vscode.commands.executeCommand<PubsubLayer.PublishResult>('seqscope.pubsub.publishCapture', {
      file: capture(['{"channel":"A","seq":1,"note":"open"}', '{"channel":"A","seq":2}']),
      topic: 'quotes-binary',
      pace: 'max',
    });
    assert.equal(published.published, 2);
    await until('both messages to arrive', () => got.length >= 2 || undefined);
    await sub.close();
    const avro = Type.forSchema(QUOTE as never);
    // Had the refused capture sent its first message, it would be here: the two of the second run only.
    assert.deepEqual(
      got.map((m) => ({ record: { ...avro.fromBuffer(m.data) }, n: m.attributes.n, encoding: m.attributes.googclient_schemaencoding })),
      [
        { record: { channel: 'A', seq: 1, note: 'open' }, n: '1', encoding: 'BINARY' },
        { record: { channel: 'A', seq: 2, note: null }, n: '2', encoding: 'BINARY' },
      ],
    );
  });
});
