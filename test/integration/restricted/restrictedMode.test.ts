/**
 * Restricted Mode: the workbench opened its folder untrusted (run-suite.mjs --restricted), and the
 * folder's settings point SeqScope at a Pub/Sub project and an emulator host. Those settings are
 * read but not applied, as the manifest's `restrictedConfigurations` ask; captures still open,
 * sequence and replay; the language model tools answer on the open sessions, payloads only when
 * asked.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenResult } from '../../../src/extension/commands';
import type { SeqScopeApi } from '../../../src/extension/extension';
import { invokeTool as invoke } from '../hostProbes';

/** What run-suite.mjs writes into the folder's .vscode/settings.json for this run: two restricted settings and one that is not. */
const RESTRICTED = { emulatorHost: 'localhost:1', projectId: 'not-trusted' };
const UNRESTRICTED_PAGE_SIZE = 77;

describe('Restricted Mode', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let cme: string;

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>('seqscope.seqscope');
    assert.ok(ext);
    api = await ext.activate();
    cme = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
  });

  after(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it('is where this window is: the folder is not trusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.ok(vscode.workspace.workspaceFolders?.length, 'a folder is open');
  });

  it('applies the folder settings but those the manifest restricts', () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const written = JSON.parse(readFileSync(join(folder, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(written['seqscope.tree.pageSize'], UNRESTRICTED_PAGE_SIZE, 'the folder holds the settings');
    assert.equal(vscode.workspace.getConfiguration('seqscope').get('tree.pageSize'), UNRESTRICTED_PAGE_SIZE, 'the folder settings are read');
    const pubsub = vscode.workspace.getConfiguration('seqscope.pubsub');
    for (const [name, value] of Object.entries(RESTRICTED)) {
      assert.equal(written[`seqscope.pubsub.${name}`], value, `${name} is in the folder's settings`);
      assert.notEqual(pubsub.get(name), value, `${name} is not applied`);
    }
  });

  it('opens, sequences and replays a capture', async () => {
    const opened = await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(cme), { preset: 'cme' });
    const session = api.manager.get(opened.id);
    assert.ok(session, 'the session is open');
    const summary = await invoke('seqscope_summarize_session', { session: opened.id });
    assert.match(summary, /total, 3 keys: received 3006, delivered 2996, gaps 2 \(lost 4\), duplicates 10 /);
    await vscode.commands.executeCommand('seqscope.replay.stepForward');
    await vscode.commands.executeCommand('seqscope.replay.nextGap');
    await vscode.commands.executeCommand('seqscope.replay.nextGap');
    assert.equal(session.replay.state().counts.gaps, 1, 'replay stepped to the first gap declared');
  });

  it('answers the language model tools on the open session, payloads only when asked', async () => {
    const list = await invoke('seqscope_list_sessions');
    assert.match(list, /^1 session open:\n/);
    const gaps = await invoke('seqscope_list_findings', { kinds: ['gap'] });
    assert.match(gaps, /: 2 findings match; 1–2 shown\n/);
    const found = await invoke('seqscope_find_messages', { regex: '.', limit: 1 });
    assert.match(found, /\nmessage key "31\d" /, found);
    assert.doesNotMatch(found, /payload/, found);
    assert.match(await invoke('seqscope_find_messages', { regex: '.', limit: 1, includePayload: true }), /\n {2}payload: /);
  });
});
