/**
 * Inside the real extension host: Open Capture… shows the session from the loader's first chunk
 * on — in the Sessions tree, the status bar and the timeline — marked as loading and growing,
 * and ends with the very session a load in one piece makes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../src/timeline/node/loadSession';
import { DEFAULT_CHUNK_PACE } from '../../src/timeline/chunkPace';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import type { Session } from '../../src/extension/session';
import type { SessionNode } from '../../src/extension/sessionsTree';
import { assertSameSession } from '../support/sameSession';
import { stubber } from './windowStubs';
import { timelineTabs } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';

/** What a session showed at one moment of its load. */
interface Seen {
  loading: number | undefined;
  arrivals: number;
  received: number;
  keys: number;
  treeRow: string;
  timelineTitle: string;
}

describe('Open Capture… shows the session while it loads', function () {
  this.timeout(120_000);
  let api: SeqScopeApi;
  let capture: string;
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    capture = join(mkdtempSync(join(tmpdir(), 'seqscope-it-progressive-')), 'keys.jsonl');
    const lines = generateCapture({
      seed: 21,
      keys: 40,
      messagesPerKey: 1000,
      reorderFraction: 0.03,
      reorderWindow: 4,
      redeliveryFraction: 0.01,
      losses: [{ key: '312', from: 50, to: 52 }],
    }).lines;
    writeFileSync(capture, lines.join('\n') + '\n');
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    api.manager.chunkPace = DEFAULT_CHUNK_PACE;
    for (const r of restore.reverse()) await r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the first chunk, marked loading, grows with each, and ends with the session a one-piece load makes', async () => {
    // A chunk after every batch the reader hands over: several for this capture, whatever the clock.
    api.manager.chunkPace = { firstMs: Infinity, everyMs: Infinity, growth: 0, everyArrivals: 1 };
    stub('showOpenDialog', (async () => [vscode.Uri.file(capture)]) as never);
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
      (await items).find((i) => i.label === 'Preset: cme')) as never);
    const seen: Seen[] = [];
    let watched: Session | undefined;
    const look = (s: Session) => {
      const node = api.tree.getChildren().find((n) => (n as SessionNode).session === s);
      assert.ok(node, 'the session has its row in the tree');
      const row = api.tree.getTreeItem(node);
      seen.push({
        loading: s.loading,
        arrivals: s.data.arrivalCount,
        received: s.data.summary.received,
        keys: s.data.keyNames.length,
        treeRow: `${row.label} ${row.description}`,
        timelineTitle: s.timeline.info().title,
      });
    };
    // The signals the session gives: it appears (the manager's change), then grows.
    const sub = api.manager.onDidChange(() => {
      const s = api.manager.active;
      if (!s || s === watched) return;
      watched = s;
      look(s);
      s.onDidGrow(() => look(s));
    });
    let result: OpenResult | undefined;
    try {
      result = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    } finally {
      sub.dispose();
    }
    assert.ok(result && watched && result.id === watched.id, 'the session shown while it loaded is the one opened');

    const whole = (await loadSession([capture], resolveOptions({ preset: 'cme' }))).session;
    const partials = seen.filter((x) => x.loading !== undefined);
    assert.ok(partials.length >= 3, `${partials.length} partial states shown`);
    const first = partials[0];
    assert.ok(first.arrivals > 0 && first.arrivals < whole.arrivalCount, `the first shows part of it (${first.arrivals} of ${whole.arrivalCount})`);
    assert.ok(first.received > 0 && first.keys > 0, 'with counts and keys');
    assert.match(first.treeRow, /^keys\.jsonl loading \d+ %… · /, 'the tree says it is loading');
    assert.match(first.timelineTitle, /^keys\.jsonl — loading \d+ %…$/, 'so does the timeline header');
    for (let i = 1; i < partials.length; i++) assert.ok(partials[i].arrivals >= partials[i - 1].arrivals, 'it only grows');
    assert.ok(partials[partials.length - 1].received > first.received, 'the counts grow');

    const last = seen[seen.length - 1];
    assert.equal(last.loading, undefined, 'the last refresh is of the whole session');
    assert.doesNotMatch(last.treeRow, /loading/);
    assert.equal(last.timelineTitle, 'keys.jsonl');
    assert.deepEqual(timelineTabs(), ['Timeline: keys.jsonl']);
    assert.equal(watched.partial, false);
    assert.equal(watched.replay.lockedReason, undefined, 'replay works once it is whole');
    assertSameSession(whole, watched.data);
    assert.deepEqual([...watched.data.store.behind], [...whole.store.behind]);
  });
});
