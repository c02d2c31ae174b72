/**
 * Inside the real extension host: `seqscope.schemas` maps the capture's schema to a local Avro
 * file (a path relative to the workspace folder); an Avro binary capture (test/fixtures/schemas)
 * opened with `json:` key and numbers shows the CLI's counts, the detail and Copy Message carry
 * the decoded record (or why a payload does not match), Find Messages searches the decoded
 * text, and a file that cannot be read is an error naming the setting's entry.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeOptions } from '../../src/core/sequencer/sequencingOptions';
import type { OpenResult } from '../../src/extension/commands';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { Session } from '../../src/extension/session';
import type { EventNode, GroupNode, KeyNode, SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import { failingCommand } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';
const SCHEMA = 'projects/demo-project/schemas/trades';
const OPTIONS = { key: 'json:channel', seq: 'json:seq' };
/** The first trade, as trades.avsc decodes it (test/fixtures/schemas/NOTICE.md). */
const FIRST = { channel: 'A', seq: 1, price: 101.25, side: 'BUY' };

describe('schemas: seqscope.schemas decodes an Avro binary capture', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let extPath: string;
  let dir: string;
  let capture: string;
  let folderDir: string;
  const config = () => vscode.workspace.getConfiguration('seqscope');

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    extPath = ext.extensionPath;
    const fixtures = join(extPath, 'test', 'fixtures', 'schemas');
    dir = mkdtempSync(join(tmpdir(), 'seqscope-it-schemas-'));
    // The fixture's eight lines and its first message again: a redelivery, so a message with a
    // payload has a row (under Duplicates) that Copy Message copies.
    const lines = readFileSync(join(fixtures, 'avro-binary.jsonl'), 'utf8').trim().split('\n');
    capture = join(dir, 'trades.jsonl');
    writeFileSync(capture, [...lines, lines[0]].join('\n') + '\n');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder');
    folderDir = join(folder.uri.fsPath, 'schemas-it');
    mkdirSync(folderDir, { recursive: true });
    copyFileSync(join(fixtures, 'trades.avsc'), join(folderDir, 'trades.avsc'));
    await config().update('timeline.showOnOpen', false, vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await config().update('schemas', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('timeline.showOnOpen', undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir, { recursive: true, force: true });
    rmSync(folderDir, { recursive: true, force: true });
  });

  async function open(): Promise<Session> {
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(capture), OPTIONS);
    assert.ok(r, 'opened');
    const s = api.manager.get(r.id);
    assert.ok(s);
    return s;
  }

  /** The event rows of a session's group: a key's (`key`), or the session's invalid records. */
  function rows(s: Session, group: string, key?: string): EventNode[] {
    const node = (api.tree.getChildren() as TreeNode[]).find((n): n is SessionNode => n.kind === 'session' && n.session === s);
    assert.ok(node, 'the session is in the tree');
    let parent: TreeNode = node;
    if (key !== undefined) {
      const k = (api.tree.getChildren(node) as TreeNode[]).find((n): n is KeyNode => n.kind === 'key' && String(api.tree.getTreeItem(n).label) === key);
      assert.ok(k, `key ${key} is listed`);
      parent = k;
    }
    const g = (api.tree.getChildren(parent) as TreeNode[]).find((n): n is GroupNode => n.kind === 'group' && n.group === group);
    assert.ok(g, `a ${group} group`);
    return api.tree.getChildren(g) as EventNode[];
  }

  async function copied(node: EventNode): Promise<Record<string, unknown>> {
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('seqscope.tree.copyMessage', node);
    return JSON.parse(await vscode.env.clipboard.readText()) as Record<string, unknown>;
  }

  it('keys and numbers from the decoded records: the CLI’s counts; Copy Message, the detail and Find Messages read the record', async () => {
    await config().update('schemas', { [SCHEMA]: 'schemas-it/trades.avsc' }, vscode.ConfigurationTarget.Global);
    const s = await open();
    const cli = JSON.parse(
      execFileSync(
        process.execPath,
        [
          join(extPath, 'dist', 'cli.js'),
          'replay',
          capture,
          '--json',
          '--key',
          'json:channel',
          '--seq',
          'json:seq',
          '--schema',
          `${SCHEMA}=${join(folderDir, 'trades.avsc')}`,
        ],
        { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
      ),
    ) as Record<string, number>;
    const counts = (o: Record<string, number>) => [o.received, o.delivered, o.duplicates, o.gaps, o.lost, o.invalid, o.keys];
    assert.deepEqual(counts(s.data.summary as unknown as Record<string, number>), [8, 7, 1, 1, 1, 1, 2]);
    assert.deepEqual(counts(s.data.summary as unknown as Record<string, number>), counts(cli));
    assert.match(describeOptions(s.options), /, schema schemas-it\/trades\.avsc$/);

    // The redelivered first trade: its line, then the record its schema decodes.
    const [dup] = rows(s, 'duplicate', 'A');
    assert.ok(dup, 'the redelivery has a row');
    const copy = await copied(dup);
    assert.deepEqual(Object.keys(copy), ['ackId', 'message', 'receivedAt', 'decoded']);
    assert.deepEqual(copy.decoded, FIRST);
    assert.equal((copy.message as { data: string }).data, 'AkECAgAAAAAAUFlAAA==', 'the raw payload is copied as it was');
    // The cut record: why it does not match.
    const [cut] = rows(s, 'invalid');
    const bad = await copied(cut);
    assert.match(String(bad.decodeError), /^the payload does not match the schema from schemas-it\/trades\.avsc: .*field "price"/);
    assert.equal(bad.decoded, undefined);

    const detail = await s.timeline.detail(dup.event.id);
    assert.deepEqual(JSON.parse(detail.decoded?.text ?? 'null'), FIRST);
    assert.equal(detail.decoded?.source, 'schemas-it/trades.avsc');

    const found = await vscode.commands.executeCommand<{ matched: number; found: { arrival: number }[] }>(
      'seqscope.search.findMessages',
      s.id,
      '"side":"SELL"',
    );
    assert.deepEqual(
      found.found.map((f) => f.arrival),
      [1, 2, 6],
    );
  });

  it('without the schema’s file the binary payloads are invalid records saying what to set', async () => {
    const s = await open();
    assert.deepEqual([s.data.summary.received, s.data.summary.invalid], [0, 9]);
    const [first] = rows(s, 'invalid');
    const copy = await copied(first);
    assert.match(String(copy.decodeError), /"trades": "FILE\.avsc" in the seqscope\.schemas setting$/);
  });

  it('a capture that carries its schema (a recorded schema line) decodes without the setting: same counts, the detail names the revision', async () => {
    const recorded = join(dir, 'recorded.jsonl');
    const avsc = readFileSync(join(folderDir, 'trades.avsc'), 'utf8');
    const line = JSON.stringify({ seqscopeSchema: { name: SCHEMA, revisionId: 'a1b2c3d4', type: 'AVRO', definition: avsc } });
    writeFileSync(recorded, `${line}\n${readFileSync(capture, 'utf8')}`);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(recorded), OPTIONS);
    assert.ok(r, 'opened');
    const s = api.manager.get(r.id)!;
    const m = s.data.summary;
    assert.deepEqual([m.received, m.delivered, m.duplicates, m.gaps, m.lost, m.invalid, m.byKey.length], [8, 7, 1, 1, 1, 1, 2]);
    const [dup] = rows(s, 'duplicate', 'A');
    const detail = await s.timeline.detail(dup.event.id);
    assert.deepEqual(JSON.parse(detail.decoded?.text ?? 'null'), FIRST);
    assert.equal(detail.decoded?.source, `${SCHEMA}@a1b2c3d4`);
    assert.deepEqual((await copied(dup)).decoded, FIRST);
  });

  it('a preset of seqscope.presets may name the schema file, read from the workspace folder', async () => {
    await config().update('presets', { trades: { ...OPTIONS, schemas: { [SCHEMA]: 'schemas-it/trades.avsc' } } }, vscode.ConfigurationTarget.Global);
    try {
      const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(capture), { preset: 'trades' });
      assert.ok(r, 'opened');
      const s = api.manager.get(r.id);
      assert.ok(s);
      assert.deepEqual([s.data.summary.received, s.data.summary.delivered, s.data.summary.invalid], [8, 7, 1]);
      assert.match(describeOptions(s.options), /, schema schemas-it\/trades\.avsc$/);
    } finally {
      await config().update('presets', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a file that cannot be read is an error naming the setting’s entry, and nothing opens', async () => {
    await config().update('schemas', { trades: 'schemas-it/missing.avsc' }, vscode.ConfigurationTarget.Global);
    const message = await failingCommand('seqscope.capture.open', vscode.Uri.file(capture), OPTIONS);
    assert.equal(message, 'SeqScope: seqscope.schemas["trades"]: schemas-it/missing.avsc cannot be read (ENOENT)');
    assert.equal(api.manager.all.length, 0, 'nothing opened');
  });
});
