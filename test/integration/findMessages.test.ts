/**
 * Find Messages in the real extension host: the sample searched by messageId and by payload text
 * (on the search worker the extension ships), the results picked, the message revealed in the
 * Sessions view and the timeline; a bad regular expression named.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import type { FindResult } from '../../src/extension/commands/searchCommands';
import type { EventNode, KeyNode } from '../../src/extension/sessionsTree';
import { failingCommand, timelineTabs, until } from './hostProbes';
import { FakeQuickPick, stubber } from './windowStubs';

describe('Find Messages', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let sample: string;
  const restore: (() => unknown)[] = [];

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>('seqscope.seqscope');
    assert.ok(ext);
    api = await ext.activate();
    sample = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
  });

  afterEach(async () => {
    for (const r of restore.splice(0).reverse()) r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  /** Runs Find Messages with `text` and returns its result and the results picker it showed. */
  async function find(id: string, text: string): Promise<{ result: FindResult; picker: FakeQuickPick | undefined }> {
    let picker: FakeQuickPick | undefined;
    stubber(restore)('createQuickPick', (() => (picker = new FakeQuickPick(() => undefined))) as never);
    const result = await vscode.commands.executeCommand<FindResult>('seqscope.search.findMessages', id, text);
    assert.ok(result, `Find Messages "${text}" returns what it found`);
    return { result, picker };
  }

  it('finds the sample’s messages by id and by payload text, and reveals a pick in the tree and the timeline', async () => {
    const { id } = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(sample), { preset: 'cme' });
    const session = api.manager.get(id)!;
    const records = readFileSync(sample, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).message as { messageId: string; data: string });

    // By messageId: exactly one, marked as found by its id.
    const target = records[40];
    const byId = await find(id, target.messageId);
    assert.equal(byId.result.matched, 1);
    assert.deepEqual(
      byId.result.found.map((f) => [f.arrival, f.messageId, f.byId]),
      [[40, target.messageId, true]],
    );
    assert.equal(byId.picker!.items.length, 1);
    assert.match(byId.picker!.title!, /^1 message with messageId or payload text “\d+”$/);

    // By text in the decoded payloads: every record whose JSON has the price, in arrival order.
    const expected = records.flatMap((r, i) => (Buffer.from(r.data, 'base64').toString('utf8').includes('"px":4593.25') ? [i] : []));
    assert.ok(expected.length > 3);
    const byText = await find(id, '"px":4593.25');
    assert.deepEqual(
      byText.result.found.map((f) => f.arrival),
      expected,
    );
    const picker = byText.picker!;
    assert.equal(picker.items.length, expected.length);
    assert.ok(
      picker.items.every((i) => i.detail?.includes('"px":4593.25')),
      'each row shows the payload around the match',
    );
    assert.match(picker.items[0].description ?? '', /^key \d+ #\d+.* · arrival \d+$/);

    // Picked: the timeline shows the session (and is sent the event), the tree selects its key
    // or finding.
    const chosen = picker.items[1];
    const found = (chosen as unknown as { found: FindResult['found'][number] }).found;
    picker.tick([chosen]);
    picker.accept();
    await until('the timeline to show the session', () => timelineTabs().some((t) => t.includes('cme-sample.jsonl')));
    const ev = session.data.event(found.eventId);
    assert.equal(ev.arrival, found.arrival);
    // The tree may still hold the selection the open made (the session row) until the reveal
    // lands: wait for the node the pick names, then say what was selected if it never comes.
    const wanted = (n: unknown) =>
      ev.kind === 'message'
        ? (n as KeyNode | undefined)?.kind === 'key' && (n as KeyNode).key === ev.keyIndex
        : (n as EventNode | undefined)?.kind === 'event' && (n as EventNode).event.id === ev.id;
    await until(`the Sessions view to select ${ev.kind === 'message' ? "the message's key" : 'the finding itself'}`, () =>
      wanted(api.treeView.selection[0]) ? true : undefined,
    ).catch((e: Error) => assert.fail(`${e.message}; selected: ${JSON.stringify((api.treeView.selection[0] as { kind?: string } | undefined)?.kind)}`));

    // A duplicate found by id is selected itself, under its key's Duplicates.
    const dupEvent = session.data.findings(0, 'duplicate', 0, 1)[0] ?? session.data.findings(1, 'duplicate', 0, 1)[0];
    assert.ok(dupEvent?.messageId, 'the sample has a duplicate');
    const dup = await find(id, dupEvent.messageId!);
    const dupItem = dup.picker!.items.find((i) => (i as unknown as { found: { eventId: number } }).found.eventId === dupEvent.id);
    assert.ok(dupItem, 'the duplicate is among the messages with its id');
    dup.picker!.tick([dupItem]);
    dup.picker!.accept();
    await until('the Sessions view to select the duplicate', () =>
      (api.treeView.selection[0] as EventNode | undefined)?.event?.id === dupEvent.id ? true : undefined,
    );
  });

  it('names a bad regular expression, and says when nothing matches', async () => {
    const { id } = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(sample), { preset: 'cme' });
    assert.match(
      await failingCommand('seqscope.search.findMessages', id, '/"px":(45/'),
      /^SeqScope: the regular expression \/"px":\(45\/ is not valid: missing closing \): `"px":\(45`$/,
    );
    const said: string[] = [];
    stubber(restore)('showInformationMessage', (async (m: string) => void said.push(m)) as never);
    const none = await find(id, '/no such payload/');
    assert.equal(none.result.matched, 0);
    assert.equal(none.picker, undefined, 'no list for nothing');
    assert.match(said[0], /^SeqScope: no message in cme-sample\.jsonl has a payload matching \/no such payload\/\.$/);
  });
});
