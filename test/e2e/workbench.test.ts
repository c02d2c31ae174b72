// End-to-end: the real VS Code 1.100 workbench in headless Chromium, with the extension under
// development loaded, driven as a person would (F1, clicks), checked by what is on screen.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { openCaptureFromPalette, SHOTS as shots, until, useWorkbench } from '../support/e2e/workbench';

describe('workbench (e2e)', () => {
  /** Where the workspace's settings say live sessions record: two recordings, the older a day old. */
  let recordings = '';
  const workbench = useWorkbench((folder) => {
    cpSync(join(ROOT, 'test', 'fixtures', 'captures'), folder, { recursive: true });
    writeFileSync(join(folder, 'NOTES.md'), '# Capture notes\n\nRead with **markdown**.\n');
    writeFileSync(join(folder, 'keys-1200.jsonl'), generateCapture({ seed: 11, keys: 1200, messagesPerKey: 2 }).lines.join('\n') + '\n');
    recordings = join(folder, 'recordings');
    mkdirSync(recordings);
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'seqscope.pubsub.recordingDirectory': recordings }));
    for (const [name, ageS] of [
      ['orders-20261201T090000Z.jsonl', 60],
      ['orders-20261130T090000Z.jsonl', 86_400],
    ] as const) {
      writeFileSync(join(recordings, name), generateCapture({ seed: 3, keys: 2, messagesPerKey: 10 }).lines.join('\n') + '\n');
      const t = Date.now() / 1000 - ageS;
      utimesSync(join(recordings, name), t, t);
    }
  });

  it('shows the workspace files in the Explorer', async () => {
    const { page } = workbench();
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'basic.jsonl' });
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    const names = await page.locator('.explorer-folders-view .monaco-list-row').allInnerTexts();
    assert.ok(
      names.some((n) => n.includes('pull-pretty.json')),
      `Explorer rows: ${names.join(', ')}`,
    );
  });

  it('toggles the panel with "View: Toggle Panel"', async () => {
    const { page } = workbench();
    const panel = page.locator('.monaco-workbench .part.panel');
    const before = await panel.isVisible();
    await runCommand(page, 'View: Toggle Panel');
    await until(async () => (await panel.isVisible()) !== before, 15_000);
    assert.equal(await panel.isVisible(), !before);
  });

  it('shows the SeqScope view, empty, with its welcome content', async () => {
    const { page } = workbench();
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click();
    const welcome = page.locator('[id="workbench.view.extension.seqscope"] .welcome-view-content');
    await welcome.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await welcome.innerText(), /No capture is open/);
    // Every way in: captures, the sample and live Pub/Sub as buttons; earlier recordings a link.
    assert.deepEqual(await welcome.locator('.monaco-button').allInnerTexts(), [
      'Open Capture…',
      'Open Sample Capture',
      'Tap Topic…',
      'Attach to Subscription…',
    ]);
    assert.equal(await welcome.locator('a:not(.monaco-button)', { hasText: /^Recordings…$/ }).count(), 1);
    assert.deepEqual(await treeRows(page, 'seqscope'), []);
  });

  it('opens a capture from the Command Palette and lists its session in the tree', async () => {
    const { page } = workbench();
    await openCaptureFromPalette(page, 'basic.jsonl', 'Use settings');
    // The session row, then its children, fill in as the capture is read: wait for both.
    let rows: string[] = [];
    const complete = () =>
      /^basic\.jsonl.*4 records/s.test(rows[0] ?? '') &&
      rows.some((r) => /^Summary.*4 delivered · 0 dup · 0 reordered · 0 invalid · publish order: gaps cannot be seen/s.test(r));
    await until(async () => {
      rows = await treeRows(page, 'seqscope');
      return complete();
    }, 30_000).catch((e) => assert.fail(`${e.message}; tree rows: ${rows.join(' | ')}`));
    // The timeline opened with the load (seqscope.timeline.showOnOpen) and shows the session.
    await page.locator('.tab', { hasText: 'Timeline: basic.jsonl' }).waitFor({ timeout: 30_000 });
    const timeline = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await until(async () => /basic\.jsonl/.test(await timeline.locator('.ss-title').innerText()), 30_000);
    await screenshot(page, join(shots, 'open-capture.png'));
  });

  it("finds a webview's document: the built-in Markdown preview", async () => {
    // Proves findWebviewFrame on a webview that ships with VS Code, before ours rely on it.
    const { page } = workbench();
    // Only the preview's webview: the timeline the previous test opened is closed first.
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'NOTES.md' }).click();
    await page.locator('.editor-instance .view-lines', { hasText: 'Capture notes' }).waitFor({ timeout: 30_000 });
    await runCommand(page, 'Markdown: Open Preview');
    const frame = await findWebviewFrame(page, 'h1', { timeoutMs: 60_000 });
    assert.equal(await frame.locator('h1').innerText(), 'Capture notes');
    assert.equal(await frame.locator('strong').innerText(), 'markdown');
  });

  it('Filter › Keys… on 1 200 keys lists a page, narrows to what is typed, and filters to the key ticked', async () => {
    const { page } = workbench();
    await runCommand(page, 'View: Close All Editors');
    await openCaptureFromPalette(page, 'keys-1200.jsonl', 'Preset: cme');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    const title = page.locator('.quick-input-widget .quick-input-title');
    const openKeysPicker = async () => {
      await runCommand(page, 'SeqScope: Filter…');
      await rows.filter({ hasText: 'Keys…' }).first().click();
      await until(async () => (await title.innerText().catch(() => '')).startsWith('Show these keys'), 15_000);
    };
    await openKeysPicker();
    assert.equal(await title.innerText(), 'Show these keys — the first 500 of 1,200: type to find others');
    // Key names run 310…1509: "1234" is one key and part of none other.
    await page.locator('.quick-input-widget .quick-input-box input').pressSequentially('1234');
    // The extension's answer to the last keystroke, not VS Code's own narrowing of the previous
    // answer: a row ticked before that answer lands would be replaced by it.
    const answered = 'Show these keys — 1 of 1,200 contain "1234"';
    await until(async () => (await title.innerText()) === answered && (await rows.count()) === 1, 15_000).catch((e) =>
      title.innerText().then((t) => assert.fail(`${e.message}; title: ${t}`)),
    );
    assert.match(await rows.first().innerText(), /^1234\s*2 received$/);
    await rows.first().click(); // a click ticks a row of a multi-select picker
    assert.equal(await rows.first().getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Enter');
    let tree: string[] = [];
    await until(async () => (tree = await treeRows(page, 'seqscope')).some((r) => r.startsWith('Filter: key 1234')), 15_000).catch((e) =>
      assert.fail(`${e.message}; tree rows: ${tree.join(' | ')}`),
    );

    // Again: the chosen key is listed first and ticked, with a page of the others after it.
    await openKeysPicker();
    assert.match(await rows.first().innerText(), /^1234/);
    assert.equal(await rows.first().getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Escape');
    await runCommand(page, 'SeqScope: Clear Filter');
  });

  it('Recordings… lists the recordings, newest first, with their buttons, and opens the one picked as a capture', async () => {
    // VS Code refuses modal dialogs under its smoke-test driver, so deleting (which asks first)
    // is tested in the extension host (test/integration/recordings.test.ts); this is what the
    // real quick input shows, and its accept.
    const { page } = workbench();
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'SeqScope: Recordings…');
    const title = page.locator('.quick-input-widget .quick-input-title');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await until(async () => (await title.innerText().catch(() => '')).startsWith('SeqScope Recordings: 2 files'), 15_000);
    assert.match(await title.innerText(), /^SeqScope Recordings: 2 files, \d+\.\d KB$/);
    assert.match(await rows.nth(0).innerText(), /orders-20261201T090000Z\.jsonl\s*\d+\.\d KB · \d+ min ago/);
    assert.match(await rows.nth(1).innerText(), /orders-20261130T090000Z\.jsonl\s*\d+\.\d KB · 1 day ago/);
    // In the browser the file manager is on another machine: Copy Path, not Reveal.
    const actions = rows.nth(1).locator('.quick-input-list-entry-action-bar .action-label');
    assert.deepEqual(await actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['Copy Path', 'Delete…']);
    const titleActions = page.locator('.quick-input-widget .quick-input-titlebar .action-label');
    assert.deepEqual(await titleActions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), [
      'Copy the Recordings Folder Path',
      'Delete Every Recording Not in Use…',
    ]);
    await screenshot(page, join(shots, 'recordings.png'));

    await rows.nth(1).click();
    // Open Capture's own question follows.
    // The first such row is cme itself; "Preset: cme-json" follows it.
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Preset: cme' }).first().click();
    // The new session is revealed and selected: with the 1 200 keys of an earlier session expanded
    // above it, its row is drawn only if the tree scrolled to it (it did not while the tree's
    // throttled refresh had not reached VS Code yet).
    let tree: string[] = [];
    await until(async () => (tree = await treeRows(page, 'seqscope')).some((r) => /^orders-20261130T090000Z\.jsonl.*2 keys/s.test(r)), 30_000).catch((e) =>
      assert.fail(`${e.message}; tree rows: ${tree.join(' | ')}`),
    );
    assert.ok(tree.some((r) => /^1100\s*2 delivered/.test(r)) === false, 'scrolled past the 1 200-key session');
    const selected = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row.selected');
    assert.match(await selected.innerText(), /^orders-20261130T090000Z\.jsonl/);
    assert.ok(existsSync(join(recordings, 'orders-20261130T090000Z.jsonl')));
  });
});
