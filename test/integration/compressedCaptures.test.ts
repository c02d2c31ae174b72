/**
 * Inside the real extension host: a gzip-compressed capture (told by its bytes) opens from a
 * decompressed copy — same counts and records as the plain file, named without `.gz` — that is
 * deleted when the session closes; a truncated one opens with what it holds and a warning, one
 * damaged from the start gives an error with a next step and opens nothing; cancelling the decompression opens nothing and leaves nothing behind; copies left by
 * a window that is gone are removed, other windows' are kept.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { stubber } from './windowStubs';
import type { OpenResult } from '../../src/extension/commands';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { Session } from '../../src/extension/session';
import type { SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import { DecompressedCaptures } from '../../src/extension/compressedCaptures';
import { failingCommand, timelineTabs, until } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';

describe('gzip-compressed captures', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let dir: string;
  let plain: string;
  let gz: string;
  let truncated: string;
  /** Messages of error notifications, as the user would read them. */
  let errors: string[];
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);

  async function open(path: string): Promise<Session> {
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(path), { preset: 'cme' });
    assert.ok(r, `${basename(path)} opened`);
    const s = api.manager.get(r.id);
    assert.ok(s);
    return s;
  }

  /** This window's folders under the root of the decompressed copies. */
  function copiesOf(root: string): string[] {
    return existsSync(root) ? readdirSync(root).filter((n) => n.startsWith(`${process.pid}-`)) : [];
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    plain = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
    dir = mkdtempSync(join(tmpdir(), 'seqscope-it-gz-'));
    const compressed = gzipSync(readFileSync(plain));
    gz = join(dir, 'cme-sample.jsonl.gz');
    writeFileSync(gz, compressed);
    // Cut off in the middle, as a capture still being written (or copied) would be.
    truncated = join(dir, 'cut.jsonl.gz');
    writeFileSync(truncated, compressed.subarray(0, Math.floor(compressed.length / 2)));
  });

  beforeEach(async () => {
    errors = [];
    stub('showErrorMessage', (async (message: string) => void errors.push(message)) as never);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  afterEach(async () => {
    while (restore.length) await restore.pop()!();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('opens from a decompressed copy: the plain file’s counts and records, its name without .gz; the copy goes with the session', async () => {
    const p = await open(plain);
    const z = await open(gz);
    const copy = z.data.paths[0];
    assert.notEqual(copy, gz, 'the session reads a copy');
    assert.equal(basename(copy), 'cme-sample.jsonl');
    assert.ok(basename(dirname(copy)).startsWith(`${process.pid}-`), 'in a folder of its own, named after this extension host');
    assert.equal(basename(dirname(dirname(copy))), 'decompressed');
    assert.ok(existsSync(copy));
    assert.deepEqual(z.sourcePaths, [gz]);

    const { received, delivered, gaps, lost, duplicates, late, invalid } = p.data.summary;
    const zs = z.data.summary;
    assert.deepEqual(
      { received: zs.received, delivered: zs.delivered, gaps: zs.gaps, lost: zs.lost, duplicates: zs.duplicates, late: zs.late, invalid: zs.invalid },
      { received, delivered, gaps, lost, duplicates, late, invalid },
    );
    assert.ok(received > 0 && gaps > 0 && duplicates > 0, 'the sample has something to compare');

    // Records read back as Copy Message and the detail pane read them.
    assert.equal(z.data.arrivalCount, p.data.arrivalCount);
    const n = z.data.arrivalCount;
    for (const a of [0, 1, Math.floor(n / 2), n - 1]) {
      const text = await z.files.readText(a);
      assert.ok(text, `arrival ${a} reads back`);
      assert.equal(text, await p.files.readText(a), `arrival ${a}`);
    }
    const withRecord = [0, 1, 2, 3, 4, 5].find((id) => z.data.event(id).arrival !== undefined);
    assert.ok(withRecord !== undefined);
    const detail = await z.timeline.detail(withRecord);
    assert.equal(detail.unavailable, undefined);
    assert.deepEqual(detail, await p.timeline.detail(withRecord));
    assert.ok(detail.attributes?.MsgSeqNum, 'the detail has the record’s attributes');

    // Title, tree label and tooltip.
    assert.equal(z.title, 'cme-sample.jsonl');
    const node = (api.tree.getChildren() as TreeNode[]).find((r): r is SessionNode => r.kind === 'session' && r.session === z);
    assert.ok(node);
    const item = api.tree.getTreeItem(node);
    assert.equal(item.label, 'cme-sample.jsonl');
    assert.match((item.tooltip as vscode.MarkdownString).value, new RegExp(`${basename(gz).replace(/\./g, '\\.')}\` \\(gzip`));

    await vscode.commands.executeCommand('seqscope.session.close', z.id);
    await z.closed;
    assert.ok(!existsSync(copy), 'the copy is deleted with its session');
    assert.ok(!existsSync(dirname(copy)), 'and its folder');
    assert.ok(existsSync(gz) && existsSync(plain), 'the files the user opened are untouched');
    assert.equal(api.manager.all.length, 1);
    assert.equal(errors.length, 0, errors.join('\n'));
  });

  it('Open Capture… offers .gz files and shows the timeline under the name without .gz, from the start', async () => {
    let filters: Record<string, string[]> | undefined;
    stub('showOpenDialog', (async (o?: vscode.OpenDialogOptions) => ((filters = o?.filters), [vscode.Uri.file(gz)])) as never);
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
      (await items).find((i) => i.label === 'Preset: cme')) as never);
    // Every title the tab has, from the moment it opens to show the progress.
    const seen = new Set<string>();
    const tabs = vscode.window.tabGroups.onDidChangeTabs(() => timelineTabs().forEach((t) => seen.add(t)));
    let r: OpenResult | undefined;
    try {
      r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
      assert.ok(r);
      assert.ok(filters && Object.values(filters).some((exts) => exts.includes('gz')), `the dialog's filters offer gz: ${JSON.stringify(filters)}`);
      assert.equal(r.title, 'cme-sample.jsonl');
      await until('the timeline to name the session', () => timelineTabs()[0] === 'Timeline: cme-sample.jsonl');
    } finally {
      tabs.dispose();
    }
    // While it decompressed and loaded, the tab already had the session's title (it said .gz).
    assert.deepEqual([...seen], ['Timeline: cme-sample.jsonl']);
  });

  it('a truncated gzip capture opens with what it holds, and a warning says where it broke off (as the CLI reports it)', async () => {
    const warnings: string[] = [];
    stub('showWarningMessage', (async (message: string) => void warnings.push(message)) as never);
    const p = await open(plain);
    const t = await open(truncated);
    await until('the warning', () => warnings.length > 0);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    // One notification, the damage first, then the session's counts (the cut-off record is an invalid one).
    assert.match(
      warnings[0],
      /^SeqScope: cut\.jsonl\.gz: the gzip data ends early \(the file is truncated, or still being written\): nothing after this point can be read\. Opened the records before it \(one cut off by the damage is counted invalid\); check the file with gzip -t cut\.jsonl\.gz\. cut\.jsonl: \d+ delivered, /,
    );
    assert.equal(errors.length, 0, errors.join('\n'));
    const all = p.data.summary.received;
    const got = t.data.summary.received;
    assert.ok(got > all / 4 && got < all, `some of the records: ${got} of ${all}`);
    assert.ok(t.data.summary.invalid <= p.data.summary.invalid + 1, 'at most the cut-off record is added as invalid');
    // The records it holds are the plain file's first ones.
    for (const a of [0, Math.floor(t.data.arrivalCount / 2), t.data.arrivalCount - 2])
      assert.equal(await t.files.readText(a), await p.files.readText(a), `arrival ${a}`);
    const copy = t.data.paths[0];
    await vscode.commands.executeCommand('seqscope.session.close', t.id);
    await t.closed;
    assert.ok(!existsSync(copy), 'its copy goes with it');
  });

  it('gzip data damaged before anything could be read: an error with the next step, nothing opened, no copy left', async () => {
    const header = join(dir, 'bad.jsonl.gz');
    writeFileSync(header, Buffer.from([0x1f, 0x8b, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff]));
    await open(plain);
    const before = api.manager.all.length;
    await failingCommand('seqscope.capture.open', vscode.Uri.file(header), { preset: 'cme' });
    assert.equal(errors.length, 1);
    assert.match(
      errors[0],
      /^SeqScope: bad\.jsonl\.gz: the gzip data is damaged \(.+\): nothing after this point can be read\. Check the file is complete \(gzip -t bad\.jsonl\.gz\), or decompress what can be read \(gzip -dc bad\.jsonl\.gz > bad\.jsonl\) and open that\.$/,
    );
    assert.equal(api.manager.all.length, before, 'nothing opened');
    const z = await open(gz);
    const copiesRoot = dirname(dirname(z.data.paths[0]));
    assert.deepEqual(copiesOf(copiesRoot), [basename(dirname(z.data.paths[0]))], 'only the open session’s copy is there');
  });

  it('cancelling the decompression opens nothing, leaves no copy and shows no error', async () => {
    // Where the copies go: learnt from a session that has one.
    const z = await open(gz);
    const copiesRoot = dirname(dirname(z.data.paths[0]));
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await z.closed;
    assert.deepEqual(copiesOf(copiesRoot), []);
    const withProgress = vscode.window.withProgress;
    const titles: string[] = [];
    stub('withProgress', ((options: vscode.ProgressOptions, task: (p: vscode.Progress<unknown>, t: vscode.CancellationToken) => Thenable<unknown>) =>
      withProgress(options, (progress) => {
        titles.push(options.title ?? '');
        const source = new vscode.CancellationTokenSource();
        source.cancel();
        return task(progress, source.token);
      })) as never);
    const result = await vscode.commands.executeCommand<OpenResult | undefined>('seqscope.capture.open', vscode.Uri.file(gz), { preset: 'cme' });
    assert.equal(result, undefined);
    assert.deepEqual(titles, ['SeqScope: decompressing cme-sample.jsonl.gz'], 'cancelled while decompressing: no load follows');
    assert.equal(api.manager.all.length, 0);
    assert.deepEqual(copiesOf(copiesRoot), []);
    assert.deepEqual(errors, []);
  });

  it('removes copies left by extension hosts that are gone, keeps those of running ones', async () => {
    const storage = join(dir, 'storage');
    const root = join(storage, 'decompressed');
    // 4194304 is Linux's largest pid: no process has a larger one.
    const gone = join(root, '4194305-aBc123');
    const mine = join(root, `${process.pid}-dEf456`);
    const other = join(root, `${process.ppid}-gHi789`);
    for (const d of [gone, mine, other]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'feed.jsonl'), '{}\n');
    }
    const unrelated = join(root, 'not-ours');
    writeFileSync(unrelated, '');
    await new DecompressedCaptures(vscode.Uri.file(storage)).removeLeftovers();
    assert.ok(!existsSync(gone), 'a crashed window’s copy is removed');
    assert.ok(existsSync(mine) && existsSync(other), 'running windows’ copies are kept');
    assert.ok(existsSync(unrelated), 'what SeqScope did not name is kept');
  });
});
