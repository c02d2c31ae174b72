/**
 * Inside the real extension host: Open Capture… run as a user runs it (file dialog and QuickPick
 * answered by stubs) opens the timeline as the load begins, shows the session in it, closes it
 * again when the load fails, and leaves it alone when `seqscope.timeline.showOnOpen` is off.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { stubber } from './windowStubs';
import type { OpenResult } from '../../src/extension/commands';
import type { SeqScopeApi } from '../../src/extension/extension';
import { failingCommand, timelineTabs, until } from './hostProbes';

const EXTENSION_ID = 'seqscope.seqscope';

describe('Open Capture… with the timeline (interactive)', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let sample: string;
  let notACapture: string;
  const restore: (() => unknown)[] = [];

  const stub = stubber(restore);

  function answer(file: string): void {
    stub('showOpenDialog', (async () => [vscode.Uri.file(file)]) as never);
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
      (await items).find((i) => i.label === 'Preset: cme')) as never);
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    sample = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-it-open-'));
    notACapture = join(dir, 'notes.txt');
    writeFileSync(notACapture, 'these are not messages\n');
    // A failed open reports its error in a notification: answered, so nothing waits on it.
    stub('showErrorMessage', (async () => undefined) as never);
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async () => {
    while (restore.length > 1) await restore.pop()!();
    await vscode.workspace.getConfiguration('seqscope').update('timeline.showOnOpen', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const r of restore.reverse()) await r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the timeline as the load begins and shows the session in it', async () => {
    answer(sample);
    const opening = vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    // The panel is there before the session: it shows the load's progress meanwhile.
    await until('the timeline tab', () => timelineTabs().length === 1);
    const result = await opening;
    assert.ok(result, 'the capture opened');
    assert.deepEqual(timelineTabs(), ['Timeline: cme-sample.jsonl']);
    assert.equal(api.manager.active?.id, result.id, 'the new session is the active one, the one the timeline shows');
    // Show Timeline reuses that panel.
    await vscode.commands.executeCommand('seqscope.timeline.show');
    assert.deepEqual(timelineTabs(), ['Timeline: cme-sample.jsonl']);

    // A second session, then closed: the timeline goes back to the first. The last closed: the
    // timeline closes too (it kept drawing the closed session under an error bar).
    const second = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(sample), { preset: 'cme', gapTimeout: '5s' });
    assert.ok(second && second.id !== result.id);
    await vscode.commands.executeCommand('seqscope.timeline.show', second.id);
    await vscode.commands.executeCommand('seqscope.session.close', second.id);
    assert.equal(api.manager.active?.id, result.id);
    assert.deepEqual(timelineTabs(), ['Timeline: cme-sample.jsonl'], 'showing the first session');
    await vscode.commands.executeCommand('seqscope.session.close', result.id);
    await until('the timeline to close with the last session', () => timelineTabs().length === 0);
  });

  it('offers Show Timeline with the invalid-records warning only when the timeline does not show that session', async () => {
    const withInvalid = join(dirname(sample), '..', '..', 'test', 'fixtures', 'captures', 'with-invalid.jsonl');
    const offered: string[][] = [];
    let click!: (pick: string) => void;
    const clicked = new Promise<string>((r) => (click = r));
    stub('showWarningMessage', (async (_message: string, ...items: string[]) => {
      offered.push(items);
      return items.includes('Show Timeline') ? clicked : undefined;
    }) as never);
    answer(withInvalid);
    const shown = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    assert.ok(shown);
    assert.deepEqual(timelineTabs(), ['Timeline: with-invalid.jsonl']);
    // The timeline follows the active session: opened again with other options, it shows that one.
    await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(withInvalid), { gapTimeout: '1s' });
    // With the timeline closed, the warning offers it.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the timeline to close', () => timelineTabs().length === 0);
    const last = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(withInvalid), { gapTimeout: '2s' });
    assert.deepEqual(offered, [[], [], ['Show Timeline']]);
    // Clicked after its session was closed, it says so instead of showing a closed session.
    const infos: string[] = [];
    stub('showInformationMessage', (async (message: string) => void infos.push(message)) as never);
    await vscode.commands.executeCommand('seqscope.session.close', last.id);
    click('Show Timeline');
    await until('the late click answered', () => infos.length > 0 || undefined);
    assert.match(infos[0], /^SeqScope: with-invalid\.jsonl.* was closed since: open it again to see its timeline\.$/);
    assert.deepEqual(timelineTabs(), [], 'no timeline on a closed session');
  });

  it('closes the timeline it opened when the load fails and no other session is open', async () => {
    answer(notACapture);
    assert.match(await failingCommand('seqscope.capture.open'), /is not a capture/);
    await until('the timeline to close', () => timelineTabs().length === 0);
    assert.equal(api.manager.all.length, 0);
  });

  it('shows the other open session when the load fails', async () => {
    answer(sample);
    await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    answer(notACapture);
    assert.match(await failingCommand('seqscope.capture.open'), /is not a capture/);
    await until('the timeline to show the open session', () => timelineTabs()[0] === 'Timeline: cme-sample.jsonl');
    assert.equal(timelineTabs().length, 1);
  });

  it('leaves no timeline waiting when the load is cancelled: closed if nothing was read, else showing the partial session', async () => {
    answer(sample);
    // The user clicks Cancel on the progress notification at once.
    const withProgress = vscode.window.withProgress;
    stub('withProgress', ((options: vscode.ProgressOptions, task: (p: vscode.Progress<unknown>, t: vscode.CancellationToken) => Thenable<unknown>) =>
      withProgress(options, (progress) => {
        const source = new vscode.CancellationTokenSource();
        source.cancel();
        return task(progress, source.token);
      })) as never);
    const result = await vscode.commands.executeCommand<OpenResult | undefined>('seqscope.capture.open');
    const all = api.manager.all;
    if (!result) {
      assert.equal(all.length, 0, 'nothing read: no session');
      await until('the timeline to close', () => timelineTabs().length === 0);
    } else {
      assert.equal(all.length, 1);
      assert.equal(all[0].partial, true, 'a cancelled load that read something keeps it, marked partial');
      assert.ok(all[0].data.arrivalCount > 0);
      await until('the timeline to show the partial session', () => timelineTabs()[0] === 'Timeline: cme-sample.jsonl (partial)');
    }
  });

  it('opens no timeline when seqscope.timeline.showOnOpen is off', async () => {
    await vscode.workspace.getConfiguration('seqscope').update('timeline.showOnOpen', false, vscode.ConfigurationTarget.Global);
    answer(sample);
    const result = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open');
    assert.ok(result);
    assert.deepEqual(timelineTabs(), []);
  });
});
