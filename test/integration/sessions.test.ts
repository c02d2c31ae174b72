/**
 * Runs inside the real VS Code extension host: opens captures through the commands, checks the
 * tree against the engine's own results, exports every format, steps the replay, closes.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { ReplaySummary } from '../../src/core/replay/replayEngine';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { ReplayCursor } from '../../src/timeline/replayCursor';
import { TraceEvent } from '../../src/core/trace/traceEvents';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import { COMMAND_ALIASES } from '../../src/extension/commands/commandIds';
import type { EventNode, GroupNode, InfoNode, KeyNode, SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import { captureText, LineSpec } from '../support/captureLines';
import { FakeQuickPick, stubber } from './windowStubs';
import { failingCommand } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';

describe('SeqScope in VS Code', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let extPath: string;
  let sample: string;
  let out: string;
  const cme = resolveOptions({ preset: 'cme' });
  let engine: { summary: ReplaySummary; events: TraceEvent[] };

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed in the host`);
    api = await ext.activate();
    extPath = ext.extensionPath;
    sample = join(extPath, 'media', 'samples', 'cme-sample.jsonl');
    out = mkdtempSync(join(tmpdir(), 'seqscope-it-'));
    const events: TraceEvent[] = [];
    const { summary } = await runReplay({ paths: [sample], options: cme, listener: (e) => events.push(e) });
    engine = { summary, events };
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  async function open(path = sample, options: object = { preset: 'cme' }): Promise<OpenResult> {
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(path), options);
    assert.ok(r, 'openCapture returns the session');
    return r;
  }

  /** Polls `probe` until it returns something, for at most `ms`; returns its last answer. */
  async function eventually<T>(probe: () => T | undefined, ms = 3_000): Promise<T | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = probe();
      if (value !== undefined || Date.now() > deadline) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Runs `test` with VS Code's error notifications caught into a list, then puts them back. */
  async function withErrorNotifications(test: (errors: string[]) => Promise<void>): Promise<void> {
    const restore: (() => unknown)[] = [];
    const errors: string[] = [];
    stubber(restore)('showErrorMessage', (async (message: string) => void errors.push(message)) as never);
    try {
      await test(errors);
    } finally {
      for (const r of restore.reverse()) r();
    }
  }

  function children(n?: TreeNode): TreeNode[] {
    return api.tree.getChildren(n) as TreeNode[];
  }

  it('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of [
      'seqscope.capture.open',
      'seqscope.capture.openSample',
      'seqscope.timeline.show',
      'seqscope.session.exportTrace',
      'seqscope.replay.stepForward',
      'seqscope.replay.nextGap',
      'seqscope.filter.set',
    ]) {
      assert.ok(all.includes(c), c);
    }
  });

  it('answers to the old command ids: each alias runs its command', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const alias of Object.keys(COMMAND_ALIASES)) assert.ok(all.includes(alias), alias);
    const first = await open();
    const byAlias = await vscode.commands.executeCommand<OpenResult>('seqscope.openSample');
    assert.equal(byAlias?.id, first.id, 'the old Open Sample Capture id shows the session the new one opened');
    assert.equal(api.manager.all.length, 1);
  });

  it('opens a capture and shows the engine’s counts in the tree', async () => {
    const r = await open();
    const roots = children();
    assert.equal(roots.length, 1);
    const sn = roots[0] as SessionNode;
    assert.equal(sn.session.id, r.id);
    const kids = children(sn);
    assert.equal(kids[0].kind, 'summary');
    const summaryItem = api.tree.getTreeItem(kids[0]);
    const s = engine.summary;
    // Written out rather than through the helper under test: "1 gap", never "1 gaps".
    const gaps = (n: number) => (n === 1 ? '1 gap' : `${n} gaps`);
    assert.equal(
      summaryItem.description,
      `${s.delivered} delivered · ${gaps(s.gaps)} · ${s.lost} lost · ${s.duplicates} dup · ${s.late} late · ${s.invalid} invalid`,
    );
    const keys = kids.filter((k): k is KeyNode => k.kind === 'key');
    assert.deepEqual(
      keys.map((k) => api.tree.getTreeItem(k).label),
      s.byKey.map((k) => k.key),
    );
    for (const k of keys) {
      const ks = s.byKey[k.key];
      assert.match(
        String(api.tree.getTreeItem(k).description),
        new RegExp(`^${ks.delivered} delivered · ${gaps(ks.gaps)} · ${ks.lost} lost · ${ks.duplicates} dup · ${ks.late} late`),
      );
    }
    assert.match(String(api.tree.getTreeItem(keys[s.byKey.findIndex((k) => k.key === '318')]).description), /^999 delivered · 1 gap · 1 lost · /);
    // Gap items equal the engine's gap events.
    const gapItems: string[] = [];
    for (const k of keys) {
      for (const g of children(k).filter((n): n is GroupNode => n.kind === 'group' && n.group === 'gap')) {
        for (const e of children(g)) if (e.kind === 'event') gapItems.push(`${e.event.key}:${e.event.seq}-${e.event.seqTo}`);
      }
    }
    const gapEvents = engine.events.filter((e) => e.type === 'gap').map((e) => (e.type === 'gap' ? `${e.key}:${e.from}-${e.to}` : ''));
    assert.deepEqual(gapItems.sort(), gapEvents.sort());
  });

  it('judges ordering keys by publish order by default, and lists a reordered message under its key', async () => {
    const ordered = join(extPath, 'test', 'fixtures', 'publish-order', 'ordered-keys.jsonl');
    await open(ordered, { key: 'orderingKey' });
    const sn = children()[0] as SessionNode;
    assert.equal(api.tree.getTreeItem(sn).description?.toString().split(' · ')[0], 'publish order per ordering key');
    const kids = children(sn);
    assert.match(String(api.tree.getTreeItem(kids[0]).description), /^24 delivered · 0 dup · 1 reordered · 0 invalid · publish order: gaps cannot be seen$/);
    const aaa = kids.find((k): k is KeyNode => k.kind === 'key' && api.tree.getTreeItem(k).label === 'AAA')!;
    assert.equal(api.tree.getTreeItem(aaa).description, '12 delivered · 0 dup · 1 reordered');
    assert.match(String(api.tree.getTreeItem(aaa).tooltip), /reordered 1 \(farthest out of place 2\.5ms, 4 positions\)/);
    const groups = children(aaa).filter((n): n is GroupNode => n.kind === 'group');
    assert.deepEqual(
      groups.map((g) => api.tree.getTreeItem(g).label),
      ['Reordered'],
    );
    const [item] = children(groups[0]).map((e) => api.tree.getTreeItem(e));
    assert.equal(item.label, '1008');
    assert.match(String(item.description), /^reordered · 2\.5ms, 4 positions out of place \(after 1018\) · 09:30:00\.056 · line 19$/);
    const bbb = kids.find((k): k is KeyNode => k.kind === 'key' && api.tree.getTreeItem(k).label === 'BBB')!;
    assert.equal(api.tree.getTreeItem(bbb).collapsibleState, vscode.TreeItemCollapsibleState.None, 'no findings: nothing to expand');
  });

  it('lists a sequence reset under its key: a publisher restart is one reset, not a flood of duplicates', async () => {
    const restart = join(extPath, 'test', 'fixtures', 'resets', 'publisher-restart.jsonl');
    await open(restart, { seq: 'attribute:seq' });
    const sn = children()[0] as SessionNode;
    const kids = children(sn);
    assert.match(String(api.tree.getTreeItem(kids[0]).description), /^33 delivered · 0 gaps · 0 lost · 0 dup · 0 late · 2 resets · 0 invalid$/);
    assert.match(String(api.tree.getTreeItem(kids[0]).tooltip), / · 2 resets · invalid 0/);
    const us = kids.find((k): k is KeyNode => k.kind === 'key' && api.tree.getTreeItem(k).label === 'orders-us')!;
    assert.equal(api.tree.getTreeItem(us).description, '20 delivered · 0 gaps · 0 lost · 0 dup · 0 late · 1 reset');
    assert.match(String(api.tree.getTreeItem(us).tooltip), /, resets 1 \(its numbers started again\)/);
    const groups = children(us).filter((n): n is GroupNode => n.kind === 'group');
    assert.deepEqual(
      groups.map((g) => [api.tree.getTreeItem(g).label, api.tree.getTreeItem(g).description]),
      [['Resets', '1']],
    );
    const [item] = children(groups[0]).map((e) => api.tree.getTreeItem(e));
    assert.equal(item.label, 'reset #148209 → #1');
    assert.match(String(item.description), /^the next number continued from it · released 0 · lost 0 · /);
    assert.match(String(item.tooltip), /#148209 was the old sequence's last, #1 the new one's first/);
    assert.match(
      String(item.tooltip),
      /Decided at [\d:.]+: the next number continued from it\.\nReleased 0 held messages of the old sequence; declared 0 of its numbers lost\./,
    );
    const eu = kids.find((k): k is KeyNode => k.kind === 'key' && api.tree.getTreeItem(k).label === 'orders-eu')!;
    const [euReset] = children(children(eu)[0]).map((e) => api.tree.getTreeItem(e));
    assert.equal(euReset.label, 'reset #1203312 → #1');
    assert.match(String(euReset.tooltip), /found among what the key's start window held/);
  });

  it('opens the ordering key sample judged by publish order: its moved key is listed with its reordered messages', async () => {
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.openOrderingSample');
    assert.ok(r, 'Open Ordering Key Sample opens a session');
    const session = api.manager.get(r.id)!;
    assert.match(session.data.summary.options, /seq publishTime \(publish order\)/);
    assert.deepEqual([session.data.summary.reordered, session.data.summary.redeliveries], [4, 11]);
    const kids = children(children()[0] as SessionNode);
    const moved = kids.find((k): k is KeyNode => k.kind === 'key' && api.tree.getTreeItem(k).label === 'customer-1003')!;
    assert.match(String(api.tree.getTreeItem(moved).description), /4 reordered/);
    const groups = children(moved).filter((n): n is GroupNode => n.kind === 'group');
    assert.deepEqual(
      groups.map((g) => api.tree.getTreeItem(g).label),
      ['Reordered'],
    );
    assert.equal(children(groups[0]).length, 4);
    const again = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.openOrderingSample');
    assert.equal(again?.id, r.id, 'opened again: the same session');
  });

  it('exports JSONL, CSV and Chrome trace that match the engine', async () => {
    const { id } = await open();
    const jsonl = join(out, 'trace.jsonl');
    assert.equal(await vscode.commands.executeCommand('seqscope.session.exportTrace', id, { format: 'jsonl', path: jsonl }), jsonl);
    const lines = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, engine.events.length);
    assert.deepEqual(
      lines.map((e) => e.type),
      engine.events.map((e) => e.type),
    );

    const csv = join(out, 'trace.csv');
    await vscode.commands.executeCommand('seqscope.session.exportTrace', id, { format: 'csv', path: csv });
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    assert.match(rows[0], /^type,key,seq/);

    const chrome = join(out, 'trace.json');
    await vscode.commands.executeCommand('seqscope.session.exportTrace', id, { format: 'chrome-trace', path: chrome });
    const trace = JSON.parse(readFileSync(chrome, 'utf8'));
    assert.ok(trace.traceEvents.filter((e: { ph: string; cat?: string }) => e.cat === 'gap' && e.ph === 'b').length === engine.summary.gaps);

    const html = join(out, 'timeline.html');
    await vscode.commands.executeCommand('seqscope.session.exportTrace', id, { format: 'html', path: html });
    const page = readFileSync(html, 'utf8');
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    assert.match(page, /id="seqscope-session"/, 'the session is embedded');
    assert.doesNotMatch(page, /\son(error|load|click)=/i, 'no inline event handlers');
  });

  it('refuses to open one capture twice, as a file and a link to it, before asking for options', () =>
    withErrorNotifications(async (errors) => {
      const capture = join(out, 'twice.jsonl');
      copyFileSync(sample, capture);
      const link = join(out, 'twice-link.jsonl');
      symlinkSync(capture, link);
      const before = api.manager.all.length;
      const said = `${capture} and ${link} are the same file: open each capture once (read twice, it would merge with itself and every message would count as a duplicate)`;
      // As the Explorer passes a multi-selection: (clicked, all selected), then the options would be asked.
      assert.equal(
        await failingCommand('seqscope.capture.open', vscode.Uri.file(capture), [vscode.Uri.file(capture), vscode.Uri.file(link)]),
        `SeqScope: ${said}`,
      );
      assert.equal(api.manager.all.length, before, 'nothing opened');
      assert.deepEqual(errors, [`SeqScope: ${said}`]);
      // The two as separate captures with the same content still open (two recorders on one subscription).
      const copy = join(out, 'twice-copy.jsonl');
      copyFileSync(sample, copy);
      const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', [vscode.Uri.file(capture), vscode.Uri.file(copy)], { preset: 'cme' });
      assert.ok(r, 'two files with the same content open');
    }));

  it('shows the session of a capture opened again unchanged and sequenced alike, and loads it anew when it changed or with other options', async () => {
    const first = await open();
    assert.equal((await open()).id, first.id, 'the same file, the same options: the open session');
    const sampleAgain = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.openSample');
    assert.equal(sampleAgain?.id, first.id, 'Open Sample Capture shows it too');
    assert.equal(api.manager.all.length, 1);
    assert.equal(api.manager.active?.id, first.id);

    const other = await open(sample, { preset: 'cme', gapTimeout: '5s' });
    assert.notEqual(other.id, first.id, 'other options: a session of its own');
    assert.equal(api.manager.active?.id, other.id);
    assert.equal((await open()).id, first.id, 'still the first, for the first options');
    assert.equal(api.manager.active?.id, first.id, 'and made active again');

    // A recording that grew since it was opened is loaded again.
    const growing = join(out, 'growing.jsonl');
    copyFileSync(sample, growing);
    const before = await open(growing);
    appendFileSync(
      growing,
      readFileSync(sample, 'utf8')
        .split('\n')[0]
        .replace(/"messageId":"[^"]*"/, '"messageId":"appended-1"') + '\n',
    );
    const after = await open(growing);
    assert.notEqual(after.id, before.id);
    assert.equal(api.manager.get(after.id)!.data.summary.received, api.manager.get(before.id)!.data.summary.received + 1);
    assert.equal(api.manager.all.length, 4);
  });

  it('offers to export beside the capture, and the bundled sample into the workspace or the home folder, not the extension', async () => {
    const restore: (() => unknown)[] = [];
    const offered: string[] = [];
    stubber(restore)('showSaveDialog', (async (o: vscode.SaveDialogOptions) => void offered.push(o.defaultUri!.fsPath)) as never);
    try {
      const own = join(out, 'feed-for-export.jsonl');
      copyFileSync(sample, own);
      const s = await open(own);
      assert.equal(await vscode.commands.executeCommand('seqscope.session.exportTrace', s.id, { format: 'csv' }), undefined, 'backed out of the dialog');
      const sampleSession = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.openSample');
      await vscode.commands.executeCommand('seqscope.session.exportTrace', sampleSession!.id, { format: 'csv' });
      const home = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
      assert.deepEqual(offered, [join(out, 'feed-for-export.ordered.csv'), join(home, 'cme-sample.ordered.csv')]);
    } finally {
      for (const r of restore.reverse()) r();
    }
  });

  it('refuses to export over the capture it reads, through a link or another spelling of its path', () =>
    withErrorNotifications(async (errors) => {
      const capture = join(out, 'own.jsonl');
      copyFileSync(sample, capture);
      const before = readFileSync(capture);
      const link = join(out, 'own-link.jsonl');
      symlinkSync(capture, link);
      const { id } = await open(capture);
      for (const target of [capture, link, `${out}/./own.jsonl`]) {
        assert.equal(
          await failingCommand('seqscope.session.exportTrace', id, { format: 'jsonl', path: target }),
          `SeqScope: exporting to ${target} would overwrite the capture being read: choose another file`,
        );
        assert.deepEqual(readFileSync(capture), before, `the capture is untouched (${target})`);
      }
      assert.equal(errors.length, 3, 'each refusal is shown');
    }));

  it('an export that fails leaves the file it would replace as it was, and says what to do', () =>
    withErrorNotifications(async (errors) => {
      // The capture goes away while its session is open: the export cannot read it.
      const capture = join(out, 'vanishing.jsonl');
      copyFileSync(sample, capture);
      const { id } = await open(capture);
      rmSync(capture);
      const target = join(out, 'kept.jsonl');
      writeFileSync(target, 'the previous export\n');
      assert.match(await failingCommand('seqscope.session.exportTrace', id, { format: 'jsonl', path: target }), /no such file/);
      assert.equal(readFileSync(target, 'utf8'), 'the previous export\n');
      assert.deepEqual(
        readdirSync(out).filter((n) => n.includes('kept.jsonl')),
        ['kept.jsonl'],
        'no partial file beside it',
      );

      const nowhere = join(out, 'no-such-folder', 'trace.jsonl');
      const { id: other } = await open();
      assert.equal(
        await failingCommand('seqscope.session.exportTrace', other, { format: 'csv', path: nowhere }),
        `SeqScope: cannot write ${nowhere}: the folder ${join(out, 'no-such-folder')} does not exist. Next: create it, or export to a folder that exists.`,
      );
      assert.equal(errors.length, 2, 'one notification for each failure');
    }));

  it('exports only what passes the filter', async () => {
    const { id } = await open();
    await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['gap', 'duplicate'] });
    const path = join(out, 'filtered.jsonl');
    await vscode.commands.executeCommand('seqscope.session.exportTrace', id, { format: 'jsonl', path });
    const types = new Set(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    );
    assert.deepEqual([...types].sort(), ['duplicate', 'gap']);
    // The tree refreshes at most every 200 ms (scheduleRefresh): until then it may answer from
    // its cache of before the filter.
    const info = await eventually(() => children(children()[0]).find((n) => n.kind === 'info'));
    assert.ok(info, 'the tree says a filter is active');
  });

  it('a filter on findings only lists the keys that have one, with only those groups', async () => {
    // Channel 310 loses a number; 312 and 318 do not, and each has one duplicate of its own.
    const file = join(out, 'findings.jsonl');
    const spec: LineSpec[] = [
      { t: 0, channel: '310', seq: 1 },
      { t: 1, channel: '312', seq: 1 },
      { t: 2, channel: '318', seq: 1 },
      { t: 3, channel: '310', seq: 3 },
      { t: 4, channel: '312', seq: 1, id: 'second-publish-312' },
      { t: 5, channel: '318', seq: 1, id: 'second-publish-318' },
      { t: 30_000, channel: '310', seq: 4 },
    ];
    writeFileSync(file, captureText(spec));
    const { id } = await open(file);
    const session = api.manager.get(id)!;
    const names = session.data.keyNames;
    const sessionNode = () => children().find((n) => n.kind === 'session' && (n as SessionNode).session.id === id)!;
    const listed = () => {
      const rows = children(sessionNode());
      const keys = rows.filter((n): n is KeyNode => n.kind === 'key');
      return {
        keys: keys.map((k) => names[k.key]),
        groups: keys.map((k) =>
          children(k)
            .map((g) => (g as GroupNode).group)
            .join(','),
        ),
        info: (rows.find((n) => n.kind === 'info') as InfoNode | undefined)?.label,
      };
    };
    // The tree refreshes at most every 200 ms: until then it answers from before the filter.
    const settled = (want: (r: ReturnType<typeof listed>) => boolean) => eventually(() => (want(listed()) ? listed() : undefined));
    try {
      await vscode.commands.executeCommand('seqscope.replay.toEnd');
      assert.deepEqual(listed().keys, ['310', '312', '318'], 'no filter: every key');

      await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['gap'] });
      assert.deepEqual(await settled((r) => r.keys.length === 1), { keys: ['310'], groups: ['gap'], info: 'Filter: gap · 1 of 3 keys' });

      await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['duplicate'] });
      assert.deepEqual(await settled((r) => r.keys.length === 2), {
        keys: ['312', '318'],
        groups: ['duplicate', 'duplicate'],
        info: 'Filter: duplicate · 2 of 3 keys',
      });

      await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['duplicate'], keys: ['310', '318'] });
      assert.deepEqual((await settled((r) => r.keys.length === 1))?.keys, ['318'], 'both: named and with a duplicate');

      // Messages too: every key again, each with all its groups.
      await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['gap', 'message'] });
      assert.deepEqual((await settled((r) => r.keys.length === 3))?.groups, ['gap', 'duplicate', 'duplicate']);
    } finally {
      await vscode.commands.executeCommand('seqscope.filter.clear');
    }
  });

  it('lists the keys a filter names wherever they are, paging over those (not over all keys)', async () => {
    // 25 keys, a page of 10: the keys named are on the second and third pages of all keys.
    const file = join(out, 'keys-25.jsonl');
    writeFileSync(file, generateCapture({ seed: 9, keys: 25, messagesPerKey: 5 }).lines.join('\n') + '\n');
    const config = vscode.workspace.getConfiguration('seqscope');
    await config.update('tree.pageSize', 10, vscode.ConfigurationTarget.Global);
    try {
      const { id } = await open(file);
      const keyRows = () => {
        const rows = children(children().find((n) => n.kind === 'session' && (n as SessionNode).session.id === id));
        return {
          keys: rows.filter((n): n is KeyNode => n.kind === 'key').map((k) => api.manager.get(id)!.data.keyNames[k.key]),
          more: rows.some((n) => n.kind === 'loadMore'),
        };
      };
      const names = api.manager.get(id)!.data.keyNames;
      assert.equal(names.length, 25);
      assert.deepEqual(keyRows(), { keys: names.slice(0, 10), more: true }, 'unfiltered: the first page of all keys');
      await vscode.commands.executeCommand('seqscope.filter.set', { keys: [names[23], names[12]] });
      // The tree refreshes at most every 200 ms: until then it answers from before the filter.
      const filtered = await eventually(() => {
        const r = keyRows();
        return r.keys.length < 10 ? r : undefined;
      });
      assert.deepEqual(filtered, { keys: [names[12], names[23]], more: false }, 'both named keys, in key order, nothing more to load');
    } finally {
      await config.update('tree.pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Sort Keys… lists the keys by name or by findings, in the tree and the first view of the timeline, and reveal still finds a key it moved', async () => {
    // 25 keys, first seen as acct-25, acct-24 … acct-1; a page of 10. acct-25 has a duplicate,
    // acct-7 lost one number, acct-12 lost two.
    const spec: LineSpec[] = [];
    for (let n = 1; n <= 4; n++) {
      for (let k = 25; k >= 1; k--) {
        const channel = `acct-${k}`;
        if ((k === 7 && n === 2) || (k === 12 && (n === 2 || n === 3))) continue;
        spec.push({ t: n * 100 + (25 - k), channel, seq: n });
      }
    }
    spec.push({ t: 500, channel: 'acct-25', seq: 1 });
    const file = join(out, 'sortable.jsonl');
    writeFileSync(file, captureText(spec));
    const config = vscode.workspace.getConfiguration('seqscope');
    await config.update('tree.pageSize', 10, vscode.ConfigurationTarget.Global);
    const restore: (() => unknown)[] = [];
    const picked: string[] = [];
    const errors: string[] = [];
    stubber(restore)('showErrorMessage', (async (message: string) => void errors.push(message)) as never);
    let keysListed: string[] = [];
    stubber(restore)('showQuickPick', (async (
      items: readonly (vscode.QuickPickItem & { order?: string; what?: string; key?: string })[],
      opts: vscode.QuickPickOptions,
    ) => {
      // Sort Keys… picks Name; Filter… picks Keys…, whose list is noted and dismissed.
      if (items[0]?.order) {
        picked.push(`${opts.placeHolder}: ${items.map((i) => `${i.label}${i.description ? ` (${i.description})` : ''}`).join(', ')}`);
        return items.find((i) => i.order === 'name');
      }
      if (items[0]?.what) return items.find((i) => i.what === 'keys');
      keysListed = items.map((i) => i.label);
      return undefined;
    }) as never);
    try {
      const { id } = await open(file);
      const session = api.manager.get(id)!;
      const names = session.data.keyNames;
      const keyRows = () =>
        children(children().find((n) => n.kind === 'session' && (n as SessionNode).session.id === id))
          .filter((n): n is KeyNode => n.kind === 'key')
          .map((k) => names[k.key]);
      // The tree refreshes at most every 200 ms: until then it answers from before the change.
      const rowsBecome = async (first: string) => (await eventually(() => (keyRows()[0] === first ? keyRows() : undefined))) ?? keyRows();
      assert.deepEqual(
        keyRows(),
        Array.from({ length: 10 }, (_, i) => `acct-${25 - i}`),
        'first seen: as the capture has them',
      );

      // From the Command Palette (the picker stubbed: the user picks Name).
      assert.equal(await vscode.commands.executeCommand('seqscope.keys.sort'), 'name');
      assert.deepEqual(picked, ['Now: first seen: First seen (current), Name, Most findings']);
      assert.equal(vscode.workspace.getConfiguration('seqscope').get('keyOrder'), 'name', 'kept as the setting');
      assert.deepEqual(
        await rowsBecome('acct-1'),
        Array.from({ length: 10 }, (_, i) => `acct-${i + 1}`),
        'acct-2 before acct-10',
      );
      const sessionRow = () => api.tree.getTreeItem(children().find((n) => n.kind === 'session' && (n as SessionNode).session.id === id)!).description;
      assert.match(String(sessionRow()), / · 25 keys by name · /, 'the session row says how its keys are listed');
      // Filter › Keys… lists them in that order too.
      await vscode.commands.executeCommand('seqscope.filter.set');
      assert.deepEqual(
        keysListed,
        Array.from({ length: 25 }, (_, i) => `acct-${i + 1}`),
      );
      // The timeline's first view is of the lanes it will show first, in that order.
      const view = session.timeline.firstView(session.replay.info());
      assert.equal(view.init.keyOrder, 'name');
      assert.deepEqual(
        view.page!.lanes.map((k) => names[k]),
        Array.from({ length: 25 }, (_, i) => `acct-${i + 1}`),
      );

      // Reveal: acct-25's duplicate is on the third page by name (it is key 0 in the capture).
      const dup = session.data.findings(names.indexOf('acct-25'), 'duplicate', 0, 1)[0];
      const node = api.tree.nodeForEvent(session, dup);
      assert.ok(node, 'the duplicate is found in the tree');
      assert.equal(names[(node.parent.parent as KeyNode).key], 'acct-25');

      // Named by its argument, as automation does; most lost first, then the duplicate.
      assert.equal(await vscode.commands.executeCommand('seqscope.keys.sort', 'findings'), 'findings');
      assert.deepEqual((await rowsBecome('acct-12')).slice(0, 4), ['acct-12', 'acct-7', 'acct-25', 'acct-24']);
      assert.match(String(sessionRow()), / · 25 keys by most findings · /);
      // With a filter on findings only: the keys with one, in the key order.
      await vscode.commands.executeCommand('seqscope.filter.set', { kinds: ['gap', 'duplicate'] });
      assert.deepEqual(await eventually(() => (keyRows().length === 3 ? keyRows() : undefined)), ['acct-12', 'acct-7', 'acct-25']);
      assert.equal(await failingCommand('seqscope.keys.sort', 'size'), 'SeqScope: unknown key order "size": use arrival, name, findings');
      assert.equal(session.keyOrder, 'findings', 'a refused order changes nothing');
      assert.deepEqual(errors, ['SeqScope: unknown key order "size": use arrival, name, findings']);

      // Settings that cannot be written: the order shown at once goes back to the setting's.
      const ws = vscode.workspace as unknown as { getConfiguration: typeof vscode.workspace.getConfiguration };
      const real = ws.getConfiguration;
      ws.getConfiguration = ((section?: string) => {
        const c = real(section);
        // The real configuration (frozen), but for a write that fails.
        return {
          get: (key: string, fallback?: unknown) => c.get(key, fallback),
          has: (key: string) => c.has(key),
          inspect: (key: string) => c.inspect(key),
          update: () => Promise.reject(new Error('settings.json is read-only')),
        } as vscode.WorkspaceConfiguration;
      }) as typeof vscode.workspace.getConfiguration;
      try {
        assert.match(await failingCommand('seqscope.keys.sort', 'name'), /settings.json is read-only/);
      } finally {
        ws.getConfiguration = real;
      }
      assert.equal(session.keyOrder, 'findings', 'back to the setting');
      assert.equal(api.manager.keyOrder, 'findings');
    } finally {
      for (const r of restore.reverse()) r();
      await vscode.commands.executeCommand('seqscope.filter.clear');
      await config.update('keyOrder', undefined, vscode.ConfigurationTarget.Global);
      await config.update('tree.pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(await eventually(() => (api.manager.keyOrder === 'arrival' ? 'arrival' : undefined)), 'arrival', 'the setting removed: first seen again');
  });

  it('Filter › Keys… with more keys than a page lists the chosen keys and a page of matches, searched as the user types', async () => {
    const file = join(out, 'keys-1200.jsonl');
    writeFileSync(file, generateCapture({ seed: 5, keys: 1200, messagesPerKey: 1 }).lines.join('\n') + '\n');
    const { id } = await open(file);
    const session = api.manager.get(id)!;
    const names = session.data.keyNames;
    assert.equal(names.length, 1200);
    const restore: (() => unknown)[] = [];
    const stub = stubber(restore);
    // The first menu: Keys….
    stub('showQuickPick', (async (items: readonly { what?: string }[]) => items.find((i) => i.what === 'keys')) as never);
    let picker: FakeQuickPick | undefined;
    let opened: () => void = () => {};
    stub('createQuickPick', (() => (picker = new FakeQuickPick(() => opened()))) as never);
    const openPicker = async (): Promise<{ picker: FakeQuickPick; done: Promise<unknown> }> => {
      const shown = new Promise<void>((r) => (opened = r));
      const done = Promise.resolve(vscode.commands.executeCommand('seqscope.filter.set'));
      await shown;
      return { picker: picker!, done };
    };
    const labels = (p: FakeQuickPick) => p.items.map((i) => i.label);
    try {
      let { picker: p, done } = await openPicker();
      assert.equal(p.canSelectMany, true);
      assert.deepEqual(labels(p), names.slice(0, 500), 'a page of keys, in key order, not all 1 200');
      assert.match(p.title ?? '', /the first 500 of 1,200: type to find others/);

      p.type('150');
      const containing = names.filter((n) => n.includes('150'));
      assert.ok(containing.length > 2 && containing.length < 500);
      assert.deepEqual(labels(p), containing, 'every key containing what was typed');
      assert.match(p.title ?? '', new RegExp(`${containing.length} of 1,200 contain "150"`));
      const [a, b] = [containing.at(-1)!, containing[0]];
      p.tick(p.items.filter((i) => i.label === a || i.label === b));
      p.accept();
      await done;
      const inKeyOrder = [a, b].sort((x, y) => names.indexOf(x) - names.indexOf(y));
      assert.deepEqual(session.filter.keys, inKeyOrder);

      // Again: the chosen keys come first, ticked, whatever is typed.
      ({ picker: p, done } = await openPicker());
      assert.deepEqual(labels(p).slice(0, 2), inKeyOrder);
      assert.deepEqual(
        p.selectedItems.map((i) => i.label),
        inKeyOrder,
      );
      assert.equal(p.items.length, 502);
      p.type(a);
      assert.deepEqual(labels(p), [...inKeyOrder, ...names.filter((n) => n.includes(a) && !inKeyOrder.includes(n))]);
      // VS Code hides the chosen key that does not contain what was typed, and reports only the
      // ticks it shows: that key stays chosen; the one shown and unticked goes.
      p.tick([]);
      p.accept();
      await done;
      assert.deepEqual(
        session.filter.keys,
        inKeyOrder.filter((k) => !k.includes(a)),
      );

      // Dismissed: the filter stays as it was.
      ({ picker: p, done } = await openPicker());
      p.hide();
      await done;
      assert.deepEqual(
        session.filter.keys,
        inKeyOrder.filter((k) => !k.includes(a)),
      );
      assert.ok(p.disposed, 'the picker is disposed once hidden');
    } finally {
      for (const r of restore.reverse()) r();
      await vscode.commands.executeCommand('seqscope.filter.clear');
    }
  });

  it('steps the replay forward and back, exactly', async () => {
    const { id } = await open();
    const session = api.manager.get(id)!;
    const cursor = new ReplayCursor(session.data, cme);
    await vscode.commands.executeCommand('seqscope.replay.stepForward');
    await vscode.commands.executeCommand('seqscope.replay.stepForward');
    assert.equal(session.replay.position, 2);
    // Run to Next Gap stops where a gap opens (the first message held behind it), then where it
    // is declared.
    await vscode.commands.executeCommand('seqscope.replay.nextGap');
    const opened = session.replay.position;
    assert.ok(opened > 2);
    assert.equal(session.replay.state().counts.gaps, 0, 'not declared yet where it opens');
    assert.ok(
      session.replay.state().keys.some((k) => k.gap),
      'a key waits on the open gap',
    );
    await vscode.commands.executeCommand('seqscope.replay.nextGap');
    const atGap = session.replay.position;
    assert.ok(atGap > opened);
    assert.equal(session.replay.state().counts.gaps, 1, 'the first gap is visible at its step');
    assert.deepEqual(session.replay.state().keys, cursor.stateAt(atGap).keys);
    await vscode.commands.executeCommand('seqscope.replay.stepBack');
    assert.equal(session.replay.position, atGap - 1);
    assert.equal(session.replay.state().counts.gaps, 0);
    const summaryItem = api.tree.getTreeItem(children(children()[0])[0]);
    assert.match(String(summaryItem.tooltip), new RegExp(`replay: arrival ${atGap - 1} of ${session.data.arrivalCount}\\)`));
    const described = () => String(api.tree.getTreeItem(children()[0]).description);
    assert.match(described(), new RegExp(` · arrival ${atGap - 1} of ${session.data.arrivalCount}$`));
    await vscode.commands.executeCommand('seqscope.replay.toEnd');
    assert.match(described(), / · end of input$/);
    assert.equal(session.replay.state().counts.delivered, engine.summary.delivered);
  });

  it('reports invalid records with their line and opens the rest', async () => {
    const file = join(extPath, 'test', 'fixtures', 'captures', 'with-invalid.jsonl');
    const { id } = await open(file);
    const s = api.manager.get(id)!;
    assert.ok(s.data.summary.invalid > 0);
    const group = children(children()[0]).find((n): n is GroupNode => n.kind === 'group' && n.group === 'invalid');
    assert.ok(group);
    const first = children(group)[0] as EventNode;
    assert.equal(first.event.line, s.data.summary.invalidSamples[0].line);
  });

  it('opens a capture that holds no records as an empty session, and says so', async () => {
    const restore: (() => unknown)[] = [];
    const warnings: string[] = [];
    stubber(restore)('showWarningMessage', (async (message: string) => void warnings.push(message)) as never);
    try {
      const empty = join(out, 'quiet.jsonl');
      writeFileSync(empty, '\n');
      const { id } = await open(empty);
      assert.equal(api.manager.get(id)!.data.summary.received, 0);
      assert.deepEqual(warnings, [
        'SeqScope: quiet.jsonl holds no records: the session is empty. Is it the right file? (A recording of a quiet topic is empty too.)',
      ]);
      warnings.length = 0;
      await open();
      assert.deepEqual(warnings, [], 'a capture with records gets no warning');
    } finally {
      for (const r of restore.reverse()) r();
    }
  });

  it('gives a clear error for a file that is not a capture', async () => {
    const bad = join(extPath, 'README.md');
    assert.match(await failingCommand('seqscope.capture.open', vscode.Uri.file(bad), { preset: 'cme' }), /is not a capture/);
    assert.equal(api.manager.all.length, 0);
  });

  it('closing a session disposes it and everything it holds', async () => {
    const { id } = await open();
    const s = api.manager.get(id)!;
    await vscode.commands.executeCommand('seqscope.replay.play');
    assert.ok(s.replay.isPlaying);
    await vscode.commands.executeCommand('seqscope.session.close', id);
    assert.equal(api.manager.all.length, 0);
    assert.ok(s.isDisposed);
    assert.ok(s.replay.isDisposed);
    assert.equal(children().length, 0);
  });
});
