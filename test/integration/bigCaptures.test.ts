/**
 * Inside the real extension host: a capture estimated too big for the memory a session may take
 * (seqscope.sessionMemoryLimit, lowered here) is said to be so before it is read, with two
 * offers — its summary alone, or its first part — and each offer does what it says.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import { LOAD_COST } from '../../src/timeline/sessionBudget';
import { stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';

describe('A capture too big for the memory a session may take', function () {
  this.timeout(120_000);
  let api: SeqScopeApi;
  let capture: string;
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);
  /** The warnings shown, with their buttons. */
  let warnings: { message: string; items: string[] }[] = [];
  /** Which button the user presses, from those offered. */
  let press: (items: string[]) => string | undefined = () => undefined;

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    capture = join(mkdtempSync(join(tmpdir(), 'seqscope-it-big-')), 'big.jsonl');
    const lines = generateCapture({ seed: 39, keys: 40, messagesPerKey: 1000, losses: [{ key: '312', from: 50, to: 52 }] }).lines;
    writeFileSync(capture, lines.join('\n') + '\n');
    // 1 MiB beyond the loading threads holds some three thousand messages' sessions: this capture has forty thousand.
    await vscode.workspace.getConfiguration('seqscope').update('sessionMemoryLimit', LOAD_COST.fixed / 2 ** 20 + 1, vscode.ConfigurationTarget.Global);
    restore.push(() => vscode.workspace.getConfiguration('seqscope').update('sessionMemoryLimit', undefined, vscode.ConfigurationTarget.Global));
    stub('showWarningMessage', (async (message: string, ...items: string[]) => {
      warnings.push({ message, items });
      return press(items);
    }) as never);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  beforeEach(() => {
    warnings = [];
  });

  after(async () => {
    for (const r of restore.reverse()) await r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('says so before reading it, and offers the summary alone or its first part; dismissed, nothing opens', async () => {
    press = () => undefined;
    const result = await vscode.commands.executeCommand<OpenResult | undefined>('seqscope.capture.open', vscode.Uri.file(capture), { preset: 'cme' });
    assert.equal(result, undefined);
    assert.equal(api.manager.all.length, 0, 'no session');
    assert.equal(warnings.length, 1);
    const { message, items } = warnings[0];
    assert.match(
      message,
      /^SeqScope: big\.jsonl \(.+, about \d+ k messages\) needs about .+ to open whole; the extension host can spare about [\d.]+ MB \(seqscope\.sessionMemoryLimit\)/,
    );
    assert.equal(items[0], 'Summary Only');
    assert.match(items[1], /^Open First [\d.]+ [KM]B$/);
  });

  it('Summary Only: the summary a replay of the whole capture makes, in a JSON editor, and no session', async () => {
    press = (items) => items.find((i) => i === 'Summary Only');
    const result = await vscode.commands.executeCommand<OpenResult | undefined>('seqscope.capture.open', vscode.Uri.file(capture), { preset: 'cme' });
    assert.equal(result, undefined);
    assert.equal(api.manager.all.length, 0, 'no session');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'the summary is shown');
    assert.equal(doc.languageId, 'json');
    const shown = JSON.parse(doc.getText()) as { received: number; gaps: number; lost: number };
    const replay = await runReplay({ paths: [capture], options: resolveOptions({ preset: 'cme' }) });
    assert.deepEqual(shown, JSON.parse(JSON.stringify(replay.summary)));
    assert.ok(shown.received > 39_000 && shown.gaps > 0, 'all of it: the loss in it counted');
  });

  it('Open First …: a session of the capture up to about that many bytes, marked partial, its note saying why', async () => {
    press = (items) => items.find((i) => i.startsWith('Open First'));
    const result = await vscode.commands.executeCommand<OpenResult | undefined>('seqscope.capture.open', vscode.Uri.file(capture), { preset: 'cme' });
    assert.ok(result, 'a session');
    const s = api.manager.get(result.id);
    assert.ok(s);
    assert.equal(s.partial, true);
    const arrivals = s.data.arrivalCount;
    assert.ok(arrivals > 0 && arrivals < 39_000, `part of it: ${arrivals} arrivals`);
    assert.ok(
      s.notes?.some((n) => n.startsWith('Opened the first ') && n.includes("of big.jsonl's ")),
      `its note (${s.notes?.join(' | ')})`,
    );
    assert.equal(warnings.length, 2, 'the offer, then the session with its note');
    assert.match(
      warnings[1].message,
      /^SeqScope: Opened the first [\d.]+ MB of big\.jsonl's [\d.]+ MB: the whole does not fit .+; Summary Only counts all of it\. big\.jsonl \(partial\): \d+ delivered/,
    );
  });
});
