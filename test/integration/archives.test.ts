/**
 * Inside the real extension host: Pub/Sub archives open as sessions with the counts the CLI
 * gives (test/unit/core/capture/archives.test.ts), records read back from a JSON Lines copy that
 * goes with the session; a folder of split files merges by publish time; a text archive only
 * when picked; a corrupt block is one invalid record, a wrong schema one error with a next step.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { stubber } from './windowStubs';
import type { OpenResult } from '../../src/extension/commands';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { Session } from '../../src/extension/session';
import type { GroupNode, KeyNode, SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import { until } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';
/** As the CLI tests replay them. */
const OPTIONS = { seq: 'attribute:n', gapTimeout: '5s' };

describe('Pub/Sub archives', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let fixtures: string;
  let dir: string;
  let errors: string[];
  let warnings: string[];
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);

  async function open(target: string | string[], options: object = OPTIONS): Promise<Session> {
    const uris = (Array.isArray(target) ? target : [target]).map((p) => vscode.Uri.file(join(fixtures, p)));
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', uris.length === 1 ? uris[0] : uris, options);
    assert.ok(r, `${String(target)} opened`);
    const s = api.manager.get(r.id);
    assert.ok(s);
    return s;
  }

  const children = (n?: TreeNode) => api.tree.getChildren(n) as TreeNode[];
  const sessionNode = (s: Session) => children().find((n): n is SessionNode => n.kind === 'session' && (n as SessionNode).session === s)!;
  /** A row's label as read: key names are isolated (U+2068 … U+2069) so their direction cannot leak. */
  const label = (n: TreeNode) => String(api.tree.getTreeItem(n).label).replace(/^\u2068(.*)\u2069$/, '$1');
  /** The tree's rows for a session: its summary and each key's counts, as the user reads them. */
  function treeRows(s: Session): string[] {
    const kids = children(sessionNode(s));
    return kids.filter((k) => k.kind === 'summary' || k.kind === 'key').map((k) => `${label(k)}: ${String(api.tree.getTreeItem(k).description)}`);
  }
  const key = (name: string, delivered: number, gaps: number, lost: number, dup: number) =>
    `${name}: ${delivered} delivered · ${gaps} ${gaps === 1 ? 'gap' : 'gaps'} · ${lost} lost · ${dup} dup · 0 late`;

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    fixtures = join(ext.extensionPath, 'test', 'fixtures', 'archives');
    dir = mkdtempSync(join(tmpdir(), 'seqscope-it-archives-'));
  });

  beforeEach(async () => {
    errors = [];
    warnings = [];
    stub('showErrorMessage', (async (message: string) => void errors.push(message)) as never);
    stub('showWarningMessage', (async (message: string) => void warnings.push(message)) as never);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  afterEach(async () => {
    while (restore.length) await restore.pop()!();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  // The fixture scenario (NOTICE.md): acct-1 1 2 2' 3 5 6, acct-2 1 2 3.
  const SCENARIO = ['Summary: 8 delivered · 1 gap · 1 lost · 1 dup · 0 late · 0 invalid', key('acct-1', 5, 1, 1, 1), key('acct-2', 3, 0, 0, 0)];
  for (const [file, title] of [
    ['gcs-metadata.avro', 'gcs-metadata.avro'],
    ['gcs-metadata-deflate.avro.gz', 'gcs-metadata-deflate.avro'],
    ['bigquery.avro', 'bigquery.avro'],
  ]) {
    it(`opens ${file}: the CLI's counts, records read back from a copy that goes with the session`, async () => {
      const s = await open(file);
      assert.equal(s.title, title);
      assert.deepEqual(treeRows(s), SCENARIO);
      const item = api.tree.getTreeItem(sessionNode(s));
      assert.equal(item.label, title);
      const tooltip = (item.tooltip as vscode.MarkdownString).value;
      assert.ok(tooltip.includes(`\`${join(fixtures, file)}\``), tooltip);
      assert.match(tooltip, /read back from a JSON Lines copy/);

      // The detail pane and Copy Message read the first arrival's message back.
      const id = Array.from({ length: s.data.store.count }, (_, i) => i).find((i) => s.data.event(i).arrival === 0);
      assert.ok(id !== undefined);
      const first = s.data.event(id);
      assert.equal(first.kind, 'message');
      const detail = await s.timeline.detail(id);
      assert.equal(detail.unavailable, undefined);
      assert.equal(detail.attributes?.n, '1');
      assert.equal(detail.attributes?.ordering_key, 'acct-1');
      const text = await s.files.readText(first.arrival!);
      assert.equal((JSON.parse(text!) as { message: { messageId: string } }).message.messageId, '1001');

      const copy = s.data.copy!;
      assert.ok(existsSync(copy));
      await vscode.commands.executeCommand('seqscope.session.close', s.id);
      await s.closed;
      assert.ok(!existsSync(copy) && !existsSync(dirname(copy)), 'the copy and its folder go with the session');
      assert.deepEqual(errors, []);
      assert.deepEqual(warnings, []);
    });
  }

  it('opens BigQuery JSON Lines in place, the row whose attributes are not JSON in the Invalid group', async () => {
    const s = await open('bigquery.jsonl');
    assert.equal(s.data.copy, undefined, 'JSON Lines read back from the file itself');
    assert.deepEqual(treeRows(s), ['Summary: 8 delivered · 1 gap · 1 lost · 1 dup · 0 late · 1 invalid', key('acct-1', 5, 1, 1, 1), key('acct-2', 3, 0, 0, 0)]);
    const group = children(sessionNode(s)).find((n): n is GroupNode => n.kind === 'group' && (n as GroupNode).group === 'invalid');
    assert.ok(group);
    const [bad] = children(group);
    assert.match(String(api.tree.getTreeItem(bad).tooltip ?? api.tree.getTreeItem(bad).description), /attributes is not valid JSON/);
    await until('the warning', () => warnings.length > 0);
    assert.match(warnings[0], /1 invalid/);
  });

  it('an Avro archive without metadata opens, and the user is told what it cannot hold', async () => {
    const s = await open('gcs-data-only.avro', { seq: 'none' });
    assert.equal(s.data.summary.received, 4);
    assert.equal((await s.files.read(0))?.message.messageId, 'gcs-data-only.avro#1');
    await until('the note', () => warnings.length > 0);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0],
      /gcs-data-only\.avro is a Cloud Storage subscription Avro archive written without write_metadata: its messages carry no ids, publish times/,
    );
  });

  it('a folder of files merges by publish time: the key split across them is sequenced right, the session named after the folder', async () => {
    const s = await open('split');
    assert.equal(s.title, 'split');
    assert.deepEqual(treeRows(s), ['Summary: 6 delivered · 0 gaps · 0 lost · 0 dup · 0 late · 0 invalid', key('order-7', 6, 0, 0, 0)]);
    assert.equal(s.data.paths.length, 2);
    const tooltip = (api.tree.getTreeItem(sessionNode(s)).tooltip as vscode.MarkdownString).value;
    for (const p of s.data.paths) assert.ok(tooltip.includes(basename(p)), `the tooltip names ${basename(p)}`);
    // Read back in the merged order.
    const ns = await Promise.all(Array.from({ length: 6 }, async (_, a) => (await s.files.read(a))?.message.attributes?.n));
    assert.deepEqual(ns, ['1', '2', '3', '4', '5', '6']);
  });

  it('Open Capture… takes several files from the dialog (and folders where the dialog can), merged into one session', async () => {
    const split = join(fixtures, 'split');
    const copy = join(dir, 'split-copy');
    cpSync(split, copy, { recursive: true });
    let dialog: vscode.OpenDialogOptions | undefined;
    const files = ['orders-2026-12-01T09:30:00+00:00_a1.avro', 'orders-2026-12-01T09:30:00+00:00_b2.avro'].map((f) => vscode.Uri.file(join(copy, f)));
    stub('showOpenDialog', (async (o?: vscode.OpenDialogOptions) => ((dialog = o), files)) as never);
    // Customize…: the sequence and gap timeout as the CLI tests give them, every other answer as offered.
    stub('showInputBox', (async (o?: vscode.InputBoxOptions) =>
      o?.prompt?.startsWith('Sequence') ? 'attribute:n' : o?.prompt?.startsWith('Gap timeout') ? '5s' : o?.value) as never);
    let picks = 0;
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]> | readonly string[]) => {
      const list = await items;
      return picks++ === 0 ? (list as vscode.QuickPickItem[]).find((i) => i.label === 'Customize…') : '64';
    }) as never);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    assert.ok(r);
    assert.ok(dialog?.canSelectMany, 'several files');
    assert.equal(dialog?.canSelectFolders, true, 'VS Code’s own dialog (this host) takes folders');
    assert.ok(
      Object.values(dialog?.filters ?? {}).some((e) => e.includes('avro')),
      'the filters offer .avro',
    );
    const s = api.manager.get(r.id)!;
    assert.equal(s.title, `${basename(files[0].fsPath)} + ${basename(files[1].fsPath)}`);
    assert.deepEqual(treeRows(s), ['Summary: 6 delivered · 0 gaps · 0 lost · 0 dup · 0 late · 0 invalid', key('order-7', 6, 0, 0, 0)]);
  });

  it('a text archive is read as one only when picked in the options', async () => {
    stub('showOpenDialog', (async () => [vscode.Uri.file(join(fixtures, 'gcs-text.txt'))]) as never);
    const offered: string[] = [];
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) => {
      const list = await items;
      offered.push(...list.map((i) => i.label));
      return list.find((i) => i.label === 'Text archive (bare payloads)');
    }) as never);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    assert.ok(r);
    const s = api.manager.get(r.id)!;
    assert.equal(s.title, 'gcs-text.txt');
    assert.equal(s.data.summary.received, 4);
    assert.equal(s.data.summary.invalid, 0);
    assert.equal((await s.files.read(3))?.message.messageId, 'gcs-text.txt#4');
    assert.match((api.tree.getTreeItem(sessionNode(s)).tooltip as vscode.MarkdownString).value, /Read as text archives/);
    await until('the note', () => warnings.length > 0);
    assert.match(warnings[0], /gcs-text\.txt is a Cloud Storage subscription text archive \(bare payloads\)/);
    // Not picked: read as JSON Lines, as the CLI does without --input-format text.
    const guessed = await open('gcs-text.txt', { seq: 'none' });
    assert.notEqual(guessed.id, s.id, 'a text session is not taken for a JSON Lines one');
    assert.equal(guessed.data.summary.received, 0);
    assert.equal(guessed.data.summary.invalid, 4);
    // No record sequenced: an error, whose fix is the pick.
    await until('the error', () => errors.length > 0);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(
      errors[0],
      /no record could be sequenced: all 4 records are invalid .*To sequence it, if these are bare payloads \(a Cloud Storage subscription's text archive\), open it again and pick Text archive \(bare payloads\) in the options\.$/,
    );
  });

  it('a corrupt Avro block is one invalid record saying where, and the rest is read', async () => {
    const s = await open('bad/corrupt-block.avro');
    assert.deepEqual(treeRows(s), [
      'Summary: 5 delivered · 2 gaps · 4 lost · 0 dup · 0 late · 1 invalid',
      key('acct-1', 3, 1, 3, 0),
      key('acct-2', 2, 1, 1, 0),
    ]);
    const group = children(sessionNode(s)).find((n): n is GroupNode => n.kind === 'group' && (n as GroupNode).group === 'invalid');
    assert.ok(group);
    const events = children(group);
    assert.equal(events.length, 1);
    const ev = (events[0] as { event: { id: number } }).event;
    const detail = await s.timeline.detail(ev.id);
    assert.match(JSON.stringify(detail), /the Avro block at byte 648 is damaged \(its sync marker does not match the header's\)/);
    await until('the warning', () => warnings.length > 0);
    assert.match(warnings[0], /1 invalid/);
  });

  it('a wrong Avro schema is one error with a next step; nothing opens and no copy is left', async () => {
    const before = api.manager.all.length;
    // Shown once, not rethrown: the command resolves to nothing.
    assert.equal(
      await vscode.commands.executeCommand('seqscope.capture.open', vscode.Uri.file(join(fixtures, 'bad', 'wrong-schema.avro')), OPTIONS),
      undefined,
    );
    await until('the error', () => errors.length > 0);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(
      errors[0],
      /^SeqScope: .*wrong-schema\.avro is an Avro file but cannot be read as a Pub\/Sub archive: its Avro schema's field "message_id" is "long", expected string.*\. Next: open the files a Cloud Storage or BigQuery subscription wrote/,
    );
    assert.equal(api.manager.all.length, before);
    // The copies' folder (learnt from a session that has one) holds nothing of this window's.
    const s = await open('gcs-metadata.avro');
    const root = dirname(dirname(s.data.copy!));
    await vscode.commands.executeCommand('seqscope.session.close', s.id);
    await s.closed;
    assert.deepEqual(
      readdirSync(root).filter((n) => n.startsWith(`${process.pid}-`)),
      [],
    );
  });

  it('the tree lists a key’s events from the archive by their record number', async () => {
    const s = await open('gcs-metadata.avro');
    const acct1 = children(sessionNode(s)).find((n): n is KeyNode => n.kind === 'key' && label(n) === 'acct-1');
    assert.ok(acct1);
    const dup = children(acct1).find((n): n is GroupNode => n.kind === 'group' && (n as GroupNode).group === 'duplicate');
    assert.ok(dup);
    assert.match(String(api.tree.getTreeItem(children(dup)[0]).description), /line \d+$/);
  });
});
