/**
 * SeqScope: Recordings… in the real extension host: the list of a recording folder, newest first,
 * deleting (confirmed, refused for what a session has open), the title's "delete every one not
 * in use", and opening one as a capture. Live recordings' "recording now" is checked in
 * live.test.ts, which needs the emulator.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import type { SeqScopeApi } from '../../src/extension/extension';
import { canRevealInOS, type RecordingsResult } from '../../src/extension/pickers/recordingsPicker';
import { FakeQuickPick, stubber } from './windowStubs';
import { until } from './hostProbes';

type RecordingItem = vscode.QuickPickItem & { recording: { path: string; bytes: number } };

describe('SeqScope: Recordings…', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let rec: string;
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);
  /** What the modal confirmations asked, and what the test answers next. */
  const asked: string[] = [];
  let answer: string | undefined;
  let picker: FakeQuickPick | undefined;
  let shown: () => void = () => {};

  before(async () => {
    api = await vscode.extensions.getExtension<SeqScopeApi>('seqscope.seqscope')!.activate();
    rec = mkdtempSync(join(tmpdir(), 'seqscope-recordings-it-'));
    await vscode.workspace.getConfiguration('seqscope.pubsub').update('recordingDirectory', rec, vscode.ConfigurationTarget.Global);
    stub('showWarningMessage', (async (message: string, options: vscode.MessageOptions) => {
      asked.push(`${message} [${options.modal ? 'modal' : 'not modal'}: ${options.detail}]`);
      return answer;
    }) as never);
    // Open Capture's options picker: the cme preset.
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
      (await items).find((i) => i.label === 'Preset: cme')) as never);
    stub('createQuickPick', (() => (picker = new FakeQuickPick(() => shown()))) as never);
  });

  after(async () => {
    for (const r of restore.reverse()) r();
    await vscode.workspace.getConfiguration('seqscope.pubsub').update('recordingDirectory', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    rmSync(rec, { recursive: true, force: true });
  });

  /** A recording of `messages` messages, last written `ageS` seconds ago. */
  function recording(name: string, messages: number, ageS: number): string {
    const path = join(rec, name);
    writeFileSync(path, generateCapture({ seed: messages, keys: 2, messagesPerKey: messages / 2 }).lines.join('\n') + '\n');
    const t = Date.now() / 1000 - ageS;
    utimesSync(path, t, t);
    return path;
  }

  async function openPicker(): Promise<{ p: FakeQuickPick; done: Promise<RecordingsResult> }> {
    const opened = new Promise<void>((r) => (shown = r));
    const done = Promise.resolve(vscode.commands.executeCommand<RecordingsResult>('seqscope.pubsub.recordings'));
    await opened;
    return { p: picker!, done };
  }

  /** The items for files in the test's folder (the default folder may hold the live test's). */
  const ours = (p: FakeQuickPick) => (p.items as readonly RecordingItem[]).filter((i) => dirname(i.recording.path) === rec);
  const item = (p: FakeQuickPick, path: string) => ours(p).find((i) => i.recording.path === path)!;
  const buttons = (i: RecordingItem) => (i.buttons ?? []).map((b) => b.tooltip);
  /** In a browser or a remote window the file manager is elsewhere: the path is copied. */
  const REVEAL = canRevealInOS() ? 'Reveal in File Explorer' : 'Copy Path';

  it('lists recordings newest first with sizes; deletes after a confirmation, never one a session has open; opens one as a capture', async () => {
    const inSession = recording('orders-20261201T100000Z.jsonl', 40, 60);
    const b = recording('orders-20261201T090000Z.jsonl', 20, 3600);
    const c = recording('orders-20261130T090000Z.jsonl', 20, 2 * 86_400);
    const d = recording('orders-20261129T090000Z.jsonl.gz', 10, 3 * 86_400); // named so; not opened
    writeFileSync(join(rec, 'notes.txt'), 'not a recording');
    // A capture of the user's own, in the folder the setting names: not a recording, never deleted.
    const mine = join(rec, 'my-capture.jsonl');
    writeFileSync(mine, readFileSync(b));
    const opened = await vscode.commands.executeCommand<{ id: string }>('seqscope.capture.open', vscode.Uri.file(inSession), { preset: 'cme' });
    assert.ok(opened);

    let { p, done } = await openPicker();
    assert.deepEqual(
      ours(p).map((i) => i.recording.path),
      [inSession, b, c, d],
      'newest first; my-capture.jsonl and notes.txt are not listed',
    );
    const total = (p.items as readonly RecordingItem[]).reduce((n, i) => n + i.recording.bytes, 0);
    assert.ok(p.title?.includes(`: ${p.items.length} file`), p.title);
    assert.ok(
      p.title?.endsWith(` ${total < 1024 ** 2 ? (total / 1024).toFixed(1) + ' KB' : (total / 1024 ** 2).toFixed(1) + ' MB'}`),
      `${p.title}: the total of ${total} bytes`,
    );
    assert.match(item(p, b).description ?? '', new RegExp(`^${(statSync(b).size / 1024).toFixed(1).replace('.', '\\.')} KB · 1 h ago$`));
    assert.match(item(p, c).description ?? '', / · 2 days ago$/);
    assert.match(item(p, inSession).detail ?? '', /open in a session: close it to delete it/);
    assert.deepEqual(buttons(item(p, inSession)), [REVEAL], 'no delete for a file a session reads');
    assert.deepEqual(buttons(item(p, b)), [REVEAL, 'Delete…']);
    assert.deepEqual(
      p.buttons.map((x) => x.tooltip),
      [canRevealInOS() ? 'Open the Recordings Folder' : 'Copy the Recordings Folder Path', 'Delete Every Recording Not in Use…'],
    );
    if (!canRevealInOS()) {
      p.pressItemButton(item(p, b), REVEAL);
      assert.equal(await until('the path on the clipboard', async () => ((await vscode.env.clipboard.readText()) === b ? true : undefined)), true);
    }

    // Delete, confirmed: gone from the disk and from the list, the picker still open.
    answer = 'Delete';
    p.pressItemButton(item(p, b), 'Delete…');
    await until('b to leave the list', () => (item(p, b) ? undefined : true));
    assert.equal(existsSync(b), false);
    assert.match(asked.at(-1)!, /^Delete the recording orders-20261201T090000Z\.jsonl \(\d+\.\d KB\)\? \[modal: This cannot be undone\.\]$/);
    assert.equal(p.ignoreFocusOut, false, 'the picker closes on focus loss again after the dialog');

    // Delete, not confirmed: stays.
    answer = undefined;
    const before = asked.length;
    p.pressItemButton(item(p, c), 'Delete…');
    await until('the question', () => (asked.length > before ? true : undefined));
    // Dismissed: the picker is its usual self again once the answer was handled.
    await until('the answer handled', () => (p.ignoreFocusOut === false ? true : undefined));
    assert.ok(existsSync(c) && item(p, c), 'kept when the dialog is dismissed');

    // Accept: the picker closes and the recording opens as a capture.
    p.selectedItems = [item(p, c)];
    p.accept();
    let result = await done;
    assert.deepEqual(result, { opened: c, deleted: [b] });
    assert.ok(p.disposed);
    assert.ok(
      api.manager.all.some((s) => s.data.paths.includes(c)),
      'a session reads the recording',
    );

    // Every one not in use: only d (the two others are open in sessions).
    ({ p, done } = await openPicker());
    assert.deepEqual(buttons(item(p, c)), [REVEAL]);
    answer = 'Delete';
    const elsewhere = p.items.length - ours(p).length;
    p.pressButton('Delete Every Recording Not in Use…');
    await until('d to leave the list', () => (item(p, d) ? undefined : true));
    assert.match(asked.at(-1)!, new RegExp(`^Delete ${1 + elsewhere} recordings? \\(.*\\)\\? 2 in use stay\\. \\[modal`));
    assert.deepEqual(
      ours(p).map((i) => i.recording.path),
      [inSession, c],
    );
    assert.equal(existsSync(d), false);
    p.hide();
    result = await done;
    assert.equal(result.opened, undefined);
    assert.ok(result.deleted.includes(d));
    assert.ok(existsSync(inSession) && existsSync(c), 'what sessions read stays');
    assert.ok(existsSync(mine), "the user's own capture stays");
  });
});
