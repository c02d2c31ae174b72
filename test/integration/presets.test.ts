/**
 * Inside the real extension host: the sequencing picker (Open Capture…) offers the built-in
 * presets and the user's own from `seqscope.presets`, each with what it sets; a CME Smart Stream
 * JSON capture opened with `cme-json`, and with a user preset from the settings, shows in the
 * Sessions tree the counts the CLI prints for it; a bad `seqscope.presets` is an error naming the
 * setting; the custom choice checks `json:<path>` fields as they are typed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { displayKey } from '../../src/core/trace/keyLabel';
import type { OpenResult } from '../../src/extension/commands';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { Session } from '../../src/extension/session';
import type { GroupNode, KeyNode, SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import { failingCommand } from './hostProbes';
import { stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';
/** A user preset: each instrument's arrival order, latency from the header's sentTime. */
const BY_SYMBOL = { key: 'json:payload[0].instrument.symbol', seq: 'none', time: 'json:header.sentTime', gapTimeout: '2s' };

interface CliKey {
  key: string;
  received: number;
  delivered: number;
  gaps: number;
  lost: number;
  duplicates: number;
  late: number;
}
interface CliSummary {
  delivered: number;
  gaps: number;
  lost: number;
  duplicates: number;
  late: number;
  invalid: number;
  keys: number;
  options: string;
  byKey: CliKey[];
}

describe('presets: cme-json and seqscope.presets in the sequencing picker', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let extPath: string;
  let capture: string;
  let dir: string;
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);

  /** What `seqscope replay --json` prints for the capture with these flags. */
  function cli(...flags: string[]): CliSummary {
    return JSON.parse(
      execFileSync(process.execPath, [join(extPath, 'dist', 'cli.js'), 'replay', capture, '--json', ...flags], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      }),
    ) as CliSummary;
  }

  /** Open Capture… as a user runs it: the file, then the picker's item labelled `label`. */
  async function openPicking(label: string): Promise<{ session: Session; items: readonly vscode.QuickPickItem[] }> {
    let items: readonly vscode.QuickPickItem[] = [];
    stub('showQuickPick', (async (offered: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) => {
      items = await offered;
      return items.find((i) => i.label === label);
    }) as never);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(capture));
    assert.ok(r, `opened with ${label}`);
    const session = api.manager.get(r.id);
    assert.ok(session);
    return { session, items };
  }

  /** The counts the Sessions tree shows: the summary's, each key's, the invalid group's. */
  function treeCounts(s: Session) {
    const node = (api.tree.getChildren() as TreeNode[]).find((n): n is SessionNode => n.kind === 'session' && n.session === s);
    assert.ok(node, 'the session is in the tree');
    const kids = api.tree.getChildren(node) as TreeNode[];
    const summary = kids.find((n) => n.kind === 'summary');
    assert.ok(summary);
    const numbers = (text: string): Record<string, number> =>
      Object.fromEntries([...text.matchAll(/(delivered|gaps|lost|duplicates|late|invalid|received) (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    const keys = kids
      .filter((n): n is KeyNode => n.kind === 'key')
      .map((k) => {
        const item = api.tree.getTreeItem(k);
        const groups = (api.tree.getChildren(k) as GroupNode[]).map((g) => [g.group, Number(api.tree.getTreeItem(g).description)]);
        return { key: String(item.label), ...numbers(String(item.tooltip)), groups: Object.fromEntries(groups) as Record<string, number> };
      });
    const invalid = kids.find((n): n is GroupNode => n.kind === 'group' && n.group === 'invalid');
    return {
      row: String(api.tree.getTreeItem(node).description),
      summary: numbers(String(api.tree.getTreeItem(summary).tooltip)),
      keys,
      invalidGroup: invalid ? Number(api.tree.getTreeItem(invalid).description) : 0,
    };
  }

  /** What the tree should show for the CLI's summary. */
  function expected(c: CliSummary) {
    return {
      summary: { delivered: c.delivered, gaps: c.gaps, lost: c.lost, duplicates: c.duplicates, late: c.late, invalid: c.invalid },
      keys: c.byKey.map((k) => ({
        key: displayKey(k.key),
        received: k.received,
        delivered: k.delivered,
        gaps: k.gaps,
        lost: k.lost,
        duplicates: k.duplicates,
        late: k.late,
        groups: Object.fromEntries([
          ...(k.gaps ? [['gap', k.gaps]] : []),
          ...(k.duplicates ? [['duplicate', k.duplicates]] : []),
          ...(k.late ? [['late', k.late]] : []),
        ]),
      })),
      invalidGroup: c.invalid,
    };
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    extPath = ext.extensionPath;
    capture = join(extPath, 'test', 'fixtures', 'cme-json', 'smartstream-json.jsonl');
    dir = mkdtempSync(join(tmpdir(), 'seqscope-it-presets-'));
    await vscode.workspace.getConfiguration('seqscope').update('presets', { 'by-symbol': BY_SYMBOL }, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    // The timeline is not what these tests look at; the tree is.
    await vscode.workspace.getConfiguration('seqscope').update('timeline.showOnOpen', false, vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    while (restore.length) await restore.pop()!();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  after(async () => {
    const c = vscode.workspace.getConfiguration('seqscope');
    await c.update('presets', undefined, vscode.ConfigurationTarget.Global);
    await c.update('timeline.showOnOpen', undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists cme, cme-json and the user’s presets, each with what it sets', async () => {
    const { items } = await openPicking('Preset: cme-json');
    const presets = items.filter((i) => i.label.startsWith('Preset: ')).map((i) => [i.label, i.description, i.detail]);
    assert.deepEqual(presets, [
      [
        'Preset: cme',
        'key attribute:Channel, seq attribute:MsgSeqNum (32-bit), gap timeout 10s, capacity 10000, reset to 1',
        'CME Smart Stream SBE topics: MDP 3.0 packets, MsgSeqNum per Channel',
      ],
      [
        'Preset: cme-json',
        'key none, seq json:header.sequenceNumber (64-bit), time json:header.sentTime, gap timeout 10s, capacity 10000',
        'CME Smart Stream JSON topics: header.sequenceNumber, one sequence per topic',
      ],
      [
        'Preset: by-symbol',
        'key json:payload[0].instrument.symbol, seq none, time json:header.sentTime, gap timeout 2s, capacity 10000',
        'yours (setting seqscope.presets)',
      ],
    ]);
  });

  it('a CME Smart Stream JSON capture opened with cme-json: the tree shows the CLI’s counts', async () => {
    const c = cli('--preset', 'cme-json');
    assert.equal(c.options, 'key none, seq json:header.sequenceNumber (64-bit), time json:header.sentTime, gap timeout 10s, capacity 10000');
    const { session } = await openPicking('Preset: cme-json');
    const t = treeCounts(session);
    assert.equal(t.row, 'header.sequenceNumber in one stream · 1 key · 12 records');
    assert.deepEqual({ summary: t.summary, keys: t.keys, invalidGroup: t.invalidGroup }, expected(c));
    // What the fixture holds (test/fixtures/cme-json/NOTICE.md), so the comparison compares something.
    assert.deepEqual(t.summary, { delivered: 8, gaps: 1, lost: 1, duplicates: 1, late: 0, invalid: 3 });
  });

  it('the same capture with a user preset from seqscope.presets: the tree shows what the CLI shows with it in a --preset-file', async () => {
    const file = join(dir, 'presets.json');
    writeFileSync(file, JSON.stringify({ 'by-symbol': BY_SYMBOL }));
    const c = cli('--preset-file', file, '--preset', 'by-symbol');
    const { session } = await openPicking('Preset: by-symbol');
    const t = treeCounts(session);
    assert.equal(t.row, 'arrival order per payload[0].instrument.symbol · 2 keys · 12 records');
    assert.deepEqual({ summary: t.summary, keys: t.keys, invalidGroup: t.invalidGroup }, expected(c));
    assert.deepEqual(
      t.keys.map((k) => [k.key, (k as Record<string, unknown>).received]),
      [
        ['ESZ6', 7],
        ['NQZ6', 3],
      ],
    );
  });

  it('a bad seqscope.presets is an error naming the setting, the preset and the field', async () => {
    await vscode.workspace.getConfiguration('seqscope').update('presets', { mine: { key: 'Channel' } }, vscode.ConfigurationTarget.Global);
    try {
      stub('showQuickPick', (async () => assert.fail('no picker is shown for bad presets')) as never);
      const message = await failingCommand('seqscope.capture.open', vscode.Uri.file(capture));
      assert.match(
        message,
        /^SeqScope: seqscope\.presets: preset "mine": field "key": key "Channel" is not valid: use orderingKey, attribute:<name>, json:<path>/,
      );
      assert.equal(api.manager.all.length, 0, 'nothing opened');
    } finally {
      await vscode.workspace.getConfiguration('seqscope').update('presets', { 'by-symbol': BY_SYMBOL }, vscode.ConfigurationTarget.Global);
    }
  });

  it('Customize…: the boxes refuse a bad json:<path> with the reason and accept a good one', async () => {
    stub('showQuickPick', (async (offered: readonly (vscode.QuickPickItem | string)[] | Thenable<readonly (vscode.QuickPickItem | string)[]>) => {
      const items = await offered;
      return items.find((i) => (typeof i === 'string' ? i === '64' : i.label === 'Customize…'));
    }) as never);
    const answers: Record<string, string> = {
      Key: 'json:payload[0].instrument.symbol',
      Sequence: 'json:header.sequenceNumber',
      "Sender's time": 'json:header.sentTime',
      'Gap timeout': '10s',
      Capacity: '10000',
    };
    const refused: Record<string, string | undefined> = {};
    stub('showInputBox', (async (o?: vscode.InputBoxOptions) => {
      const which = Object.keys(answers).find((k) => o?.prompt?.startsWith(k));
      assert.ok(which && o?.validateInput, `a box for ${o?.prompt} that checks its input`);
      if (which === 'Key') refused.key = (await o.validateInput('json:payload[0.instrument')) as string | undefined;
      if (which === 'Sequence') refused.seq = (await o.validateInput('json:')) as string | undefined;
      if (which === 'Capacity') refused.capacity = (await o.validateInput('0')) as string | undefined;
      assert.equal(await o.validateInput(answers[which]), undefined, `${which}: ${answers[which]} is accepted`);
      return answers[which];
    }) as never);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(capture));
    assert.ok(r);
    assert.match(refused.key ?? '', /^key "json:payload\[0\.instrument": /);
    assert.match(refused.seq ?? '', /^seq "json:": /);
    assert.match(refused.capacity ?? '', /^capacity "0" is not valid/);
    const s = api.manager.get(r.id);
    assert.ok(s);
    // Keyed by symbol, numbered per topic: each symbol's numbers have holes (what cme-json avoids).
    assert.equal(s.data.summary.keys, 2);
  });
});
