/**
 * Compare with… in the real extension host: two generated captures of one stream with planted
 * truth, compared from a session (side B picked from the list, or passed by id), as a session of
 * its own — an A, a B and a merged lane per key, each lane's misses in the tree as ranges that
 * reveal in the timeline, step-through on the merged stream, the rows exported as CSV — with
 * exact counts. Bad input: a capture compared with itself, sides that share no key, a side with
 * no records.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import type { InfoNode, KeyNode, MissedGroupNode, RangeNode, SessionNode, TreeNode } from '../../src/extension/sessionsTree';
import type { Session } from '../../src/extension/session';
import { PairFiles, writePair } from '../support/abPairFiles';
import { failingCommand, timelineTabs, until } from './hostProbes';
import { Restore, stubber } from './windowStubs';

const CME = { preset: 'cme' };

describe('Compare with…', function () {
  this.timeout(90_000);
  let api: SeqScopeApi;
  let pair: PairFiles;
  const restore: Restore = [];
  const stub = stubber(restore);

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>('seqscope.seqscope');
    assert.ok(ext);
    api = await ext.activate();
    pair = writePair({
      // CME numbers are 32-bit (the cme preset).
      stream: {
        seed: 21,
        keys: ['310', '311'],
        messagesPerKey: 400,
        seqBits: 32,
        startSeq: 3_100_000,
        redeliveries: 2,
        losses: [{ key: '311', from: 3_100_100, to: 3_100_103 }],
      },
      dropA: 0.04,
      dropB: 0.05,
      lagMsB: 2,
    });
  });

  after(() => pair.remove());

  afterEach(async () => {
    for (const r of restore.splice(0).reverse()) r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  const open = async (path: string) => (await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(path), CME)).id;
  const session = (id: string) => api.manager.get(id)!;
  const kids = (n: TreeNode) => api.tree.getChildren(n);

  /** Every range under a group, loading more until the list ends. */
  function allRanges(g: MissedGroupNode): RangeNode[] {
    for (;;) {
      const list = kids(g);
      const more = list[list.length - 1];
      if (more?.kind !== 'loadMore') return list as RangeNode[];
      api.tree.loadMore(more);
    }
  }

  it('opens a comparison picked from the list: A, B and merged lanes per key, each side’s misses in the tree, as the generator planted them', async () => {
    const a = await open(pair.a);
    const b = await open(pair.b);
    stub('showQuickPick', (async (items: readonly (vscode.QuickPickItem & { target?: Session })[]) => {
      const list = await items;
      assert.ok(
        list.some((i) => i.target === session(a) && /itself/.test(i.description ?? '')),
        'side A itself is offered',
      );
      assert.ok(list.some((i) => /Choose Capture Files/.test(i.label)));
      return list.find((i) => i.target === session(b));
    }) as unknown as typeof vscode.window.showQuickPick);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.session.compareWith', a);
    assert.equal(r.title, 'a.jsonl ⇄ b.jsonl');
    const c = session(r.id);
    const f = c.comparison!;
    const t = pair.pair.truth;
    assert.deepEqual(
      [f.comparison.totals.both, f.comparison.totals.onlyA, f.comparison.totals.onlyB, f.comparison.totals.lostBoth],
      [t.totals.both, t.totals.onlyA, t.totals.onlyB, t.totals.lostBoth],
    );
    assert.ok(t.totals.onlyA > 0 && t.totals.onlyB > 0 && t.totals.lostBoth >= 4);
    // In arrival order, each key's three lanes together (311 arrives first in this pair).
    assert.deepEqual(c.data.keyNames, ['311 · A (a.jsonl)', '311 · B (b.jsonl)', '311 · merged', '310 · A (a.jsonl)', '310 · B (b.jsonl)', '310 · merged']);
    assert.equal(c.data.arrivalCount, t.totals.aReceived + t.totals.bReceived);
    // The tree: which side is which on top, then the lanes, each with what its side missed.
    api.tree.flushRefresh();
    const sn = api.tree.sessionNode(c);
    const top = kids(sn);
    const info = top.filter((n): n is InfoNode => n.kind === 'info').map((n) => n.label);
    assert.equal(
      info[0],
      `A: a.jsonl (${t.totals.aReceived.toLocaleString('en-US')} records) ⇄ B: b.jsonl (${t.totals.bReceived.toLocaleString('en-US')} records)`,
    );
    assert.match(info[1], /^clocks: median Δt 2 ?ms: b\.jsonl lagged a\.jsonl by a median 2 ?ms/);
    const lanes = top.filter((n): n is KeyNode => n.kind === 'key');
    assert.equal(lanes.length, 6);
    const missedUnder = (key: string, side: string) => {
      const lane = lanes.find((n) => c.data.keyNames[n.key] === `${key} · ${side}`)!;
      const g = kids(lane).find((n): n is MissedGroupNode => n.kind === 'missed');
      return g ? allRanges(g) : [];
    };
    for (const key of ['310', '311']) {
      const k = t.byKey.get(key)!;
      const sum = (rs: RangeNode[]) => rs.reduce((n, x) => n + x.range.count, 0);
      assert.equal(sum(missedUnder(key, 'A (a.jsonl)')), k.onlyB, `${key}: A missed what only B had`);
      assert.equal(sum(missedUnder(key, 'B (b.jsonl)')), k.onlyA, `${key}: B missed what only A had`);
      assert.equal(sum(missedUnder(key, 'merged')), k.lostBoth, `${key}: the merged lane lost what both lost`);
    }
    // A range clicked: revealed in the timeline, on the comparison.
    const lost = missedUnder('311', 'merged').find((n) => n.range.from === 3_100_100)!;
    assert.ok(lost, 'the planted loss 3100100–3100103 is listed as lost in both');
    assert.deepEqual(lost.range, { from: 3_100_100, to: 3_100_103, count: 4 });
    await vscode.commands.executeCommand('seqscope.timeline.reveal', lost);
    await until('the timeline shows the comparison', () => timelineTabs().some((l) => l.includes('a.jsonl ⇄ b.jsonl')));
    assert.equal(api.manager.active, c);
  });

  it('steps through the merged stream, and exports the comparison’s rows as CSV', async () => {
    const a = await open(pair.a);
    const b = await open(pair.b);
    const r = await vscode.commands.executeCommand<OpenResult>('seqscope.session.compareWith', a, b);
    const c = session(r.id);
    api.manager.active = c;
    for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('seqscope.replay.stepForward');
    const st = c.replay.state();
    assert.equal(st.position, 3);
    assert.match(st.current!.key, /^31[01] · merged$/);
    const out = join(pair.dir, 'rows.csv');
    const written = await vscode.commands.executeCommand<string>('seqscope.session.exportTrace', r.id, { format: 'csv', path: out });
    assert.equal(written, out);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(lines[0], 'key,seq,to,count,inA,inB,arrivedA,arrivedB,deltaMs,messageIdA,messageIdB');
    const t = pair.pair.truth.totals;
    const lostRuns = c.comparison!.comparison.ranges.reduce((n, k) => n + k.lostBoth.length, 0);
    assert.equal(lines.length - 1, t.both + t.onlyA + t.onlyB + lostRuns);
    assert.equal(lines.filter((l) => /,true,false,/.test(l)).length, t.onlyA);
    assert.ok(lines.includes('311,3100100,3100103,4,false,false,,,,,'), 'the planted loss is one row');
  });

  it('compares a capture with itself, says plainly when the sides share no key, and names a side with no records', async () => {
    const a = await open(pair.a);
    const self = session((await vscode.commands.executeCommand<OpenResult>('seqscope.session.compareWith', a, a)).id).comparison!.comparison.totals;
    const t = pair.pair.truth.totals;
    assert.deepEqual([self.both, self.onlyA, self.onlyB, self.deltaMs?.max], [t.both + t.onlyA, 0, 0, 0]);

    const apart = writePair({
      stream: { seed: 2, keys: ['x', 'y'], messagesPerKey: 50, redeliveries: 0, republishes: 0 },
      keysOnlyA: ['x'],
      keysOnlyB: ['y'],
    });
    const warnings: string[] = [];
    stub('showWarningMessage', ((m: string) => {
      warnings.push(m);
      return Promise.resolve(undefined);
    }) as unknown as typeof vscode.window.showWarningMessage);
    try {
      const x = await open(apart.a);
      await vscode.commands.executeCommand('seqscope.session.compareWith', x, vscode.Uri.file(apart.b));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /Note: no shared key: A and B have no key in common \(2 keys in all\)/);
    } finally {
      apart.remove();
    }

    // What a menu passes besides the session (the timeline's title bar: an object) is no side B: the list is asked.
    let asked = 0;
    stub('showQuickPick', (async () => {
      asked++;
      return undefined;
    }) as unknown as typeof vscode.window.showQuickPick);
    const count = api.manager.all.length;
    assert.equal(await vscode.commands.executeCommand('seqscope.session.compareWith', a, { groupId: 1 }), undefined);
    assert.deepEqual([asked, api.manager.all.length], [1, count]);

    const empty = join(pair.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const before = api.manager.all.length;
    assert.match(
      await failingCommand('seqscope.session.compareWith', a, vscode.Uri.file(empty)),
      /side B \(empty\.jsonl\) holds no records: nothing to compare: compare with a capture that holds records for side B/,
    );
    assert.equal(api.manager.all.length, before, 'no session for a comparison of nothing');
    const comparison = api.manager.all.find((s) => s.comparison)!;
    assert.match(
      await failingCommand('seqscope.session.compareWith', comparison.id, a),
      /is a comparison already: compare one of its captures' sessions instead/,
    );
    // Its row offers what a session's does, but not Compare with… (package.json: viewItem session.comparison).
    const row = api.tree.getChildren().find((n): n is SessionNode => n.kind === 'session' && n.session === comparison)!;
    assert.equal(api.tree.getTreeItem(row).contextValue, 'session.comparison');
  });
});
