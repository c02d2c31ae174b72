/**
 * Inside the real extension host: a timeline panel VS Code hands back after a window reload
 * (what the panel serializer does with the webview's saved state), and a capture opened as an
 * editor (the custom editor, as Open With… opens it).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import type { SeqScopeApi } from '../../src/extension/extension';
import { TimelinePanel } from '../../src/extension/timelinePanel';
import type { PanelRestore } from '../../src/shared/protocol';
import { TIMELINE_VIEW_TYPE } from '../../src/shared/protocol';
import { until } from './hostProbes';
import { stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';

describe('timeline restored after a reload, and the capture editor', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let ext: vscode.Extension<SeqScopeApi>;
  let sample: string;
  let dir: string;
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);
  const cme = resolveOptions({ preset: 'cme' });

  /** A timeline panel as VS Code restores it, revived with `state`. */
  const revive = async (state: { restore: PanelRestore } | undefined) => {
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'SeqScope Timeline', vscode.ViewColumn.Active);
    await TimelinePanel.revive(panel, state, ext.extensionUri, api.manager, () => undefined);
    return panel;
  };

  before(async () => {
    const e = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(e);
    ext = e;
    api = await ext.activate();
    sample = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
    dir = mkdtempSync(join(tmpdir(), 'seqscope-it-restore-'));
  });

  afterEach(async () => {
    while (restore.length) await restore.pop()!();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('loads the capture again, sequenced alike, at its replay position', async () => {
    const panel = await revive({ restore: { kind: 'capture', paths: [sample], options: cme, position: 1500 } });
    const s = api.manager.active;
    assert.ok(s, 'a session');
    assert.deepEqual(s.sourcePaths, [sample]);
    assert.equal(s.options.seq.kind, 'attribute', 'sequenced by MsgSeqNum, as before the reload');
    assert.equal(s.replay.active, true);
    assert.equal(s.replay.position, 1500);
    assert.equal(panel.title, 'Timeline: cme-sample.jsonl');
  });

  it('says a capture is gone, and offers Open Capture…', async () => {
    const said: string[] = [];
    stub('showWarningMessage', (async (m: string) => void said.push(m)) as never);
    const gone = join(dir, 'moved.jsonl');
    await revive({ restore: { kind: 'capture', paths: [gone], options: cme } });
    assert.equal(api.manager.all.length, 0, 'nothing opened');
    assert.equal(said.length, 1);
    assert.match(said[0], /moved\.jsonl is gone/);
  });

  it('says a live session ended with the reload, and opens its recording when asked', async () => {
    const recording = join(dir, 'orders-recording.jsonl');
    copyFileSync(sample, recording);
    const said: string[] = [];
    stub('showInformationMessage', (async (m: string, ...actions: string[]) => {
      said.push(m);
      return actions.find((a) => a === 'Open Recording');
    }) as never);
    await revive({ restore: { kind: 'live', title: 'tap on orders', recording, options: cme } });
    assert.match(said[0] ?? '', /live session tap on orders ended with the window reload/);
    const s = await until('the recording opened', () => api.manager.all.find((x) => x.sourcePaths[0] === recording));
    assert.equal(s.live, undefined, 'a capture now, not live');
  });

  it('opens a capture as an editor, its session closing with it', async () => {
    const copy = join(dir, 'feed.jsonl');
    copyFileSync(sample, copy);
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(copy), 'seqscope.captureEditor');
    const s = await until('the editor’s session', () => api.manager.all.find((x) => x.sourcePaths[0] === copy));
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'seqscope.captureEditor');
    assert.deepEqual(
      tabs.map((t) => t.label),
      ['feed.jsonl'],
    );
    assert.equal(api.manager.active, s, 'the palette’s commands act on it');
    await vscode.window.tabGroups.close(tabs);
    await until('its session closed', () => !api.manager.all.includes(s));
  });
});
