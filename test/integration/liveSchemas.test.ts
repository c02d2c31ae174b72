/**
 * Tap Topic… on an Avro BINARY schema topic, inside the real VS Code extension host against the
 * real emulator: the messages decode as they arrive (the revision fetched once through the live
 * connection), keyed and numbered by `json:` fields while live; the detail pane shows the decoded
 * record; the recording carries the revision once, and reopens decoded after Detach.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Session } from '../../src/extension/session';
import type { LiveResult } from '../../src/extension/liveArgs';
import { until } from './hostProbes';
import { useLiveEmulator } from './liveEmulator';

const PROJECT = 'seqscope-schemas-it';
const TRADE = {
  type: 'record',
  name: 'Trade',
  namespace: 'md',
  fields: [
    { name: 'channel', type: 'string' },
    { name: 'seq', type: 'long' },
  ],
};

/** A Trade in Avro binary: a one-letter string (length 1, zigzag 2) and a small long (zigzag 2n). */
function trade(channel: string, seq: number): Buffer {
  return Buffer.from([0x02, channel.charCodeAt(0), seq * 2]);
}

describe('SeqScope live on a schema topic: decoded as messages arrive', function () {
  this.timeout(120_000);
  const live = useLiveEmulator('live schemas integration test', PROJECT, [
    ['seqscope', 'key', 'json:channel'],
    ['seqscope', 'seq', 'json:seq'],
    ['seqscope', 'gapTimeout', '500ms'],
  ]);

  it('Tap Topic… keys and numbers by decoded fields live, shows the decoded record, records the revision once', async () => {
    const id = 'trades-live';
    const name = `projects/${PROJECT}/schemas/${id}`;
    const admin = await live.conn.client.getSchemaClient();
    await admin.createSchema({ parent: `projects/${PROJECT}`, schemaId: id, schema: { type: 'AVRO', definition: JSON.stringify(TRADE) } });
    await live.conn.client.createTopic({ name: id, schemaSettings: { schema: name, encoding: 'BINARY' } });
    live.stub('showQuickPick', (async (
      items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
      options?: vscode.QuickPickOptions,
    ) => {
      const list = await items;
      const title = options?.title ?? '';
      if (title.startsWith('Tap topics of')) return list.filter((i) => i.label === id);
      if (/be sequenced\?/.test(title)) return list.find((i) => i.label === 'Use settings');
      return undefined;
    }) as never);
    const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic');
    assert.ok(result, 'tapped');
    const session = live.api.manager.get(result.id) as Session;

    // Channel A: 1, 2, 4, 3 (a reordering, no loss); channel B: 1, 2.
    const topic = live.conn.client.topic(id);
    for (const [channel, seq] of [
      ['A', 1],
      ['A', 2],
      ['B', 1],
      ['A', 4],
      ['A', 3],
      ['B', 2],
    ] as const)
      await topic.publishMessage({ data: trade(channel, seq) });
    await until('6 received, live', () => (session.data.summary.received === 6 ? true : undefined), 60_000);
    const m = session.data.summary;
    assert.deepEqual([m.received, m.invalid, m.gaps], [6, 0, 0]);
    assert.deepEqual(session.data.keyNames.slice().sort(), ['A', 'B']);
    // A#1's event (released once the key's start window closes; the topic is unordered, so it need
    // not have arrived first): its line is read back from the recording, after the schema line, and decoded.
    const first = await until('A#1 released', () =>
      Array.from({ length: session.data.store.count }, (_, i) => i).find((i) => {
        const e = session.data.event(i);
        return e.kind === 'message' && e.key === 'A' && e.seq === 1;
      }),
    );
    const detail = await session.timeline.detail(first);
    assert.deepEqual(JSON.parse(detail.decoded?.text ?? 'null'), { channel: 'A', seq: 1 });
    assert.match(detail.decoded?.source ?? '', new RegExp(`^${name}@`));

    await vscode.commands.executeCommand('seqscope.live.detach', session.id);
    const reopened = await until('the recording reopened as a capture', () =>
      live.api.manager.all.find((x) => !x.live && x.data.paths[0] === result.recording),
    );
    assert.deepEqual([reopened.data.summary.received, reopened.data.summary.invalid], [6, 0]);
    const lines = readFileSync(result.recording, 'utf8').trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('{"seqscopeSchema":')).length, 1);
    assert.ok(lines[0].startsWith('{"seqscopeSchema":'), 'before the first message');
  });
});
