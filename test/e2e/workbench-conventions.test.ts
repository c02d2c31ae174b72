/**
 * End-to-end, in the real VS Code 1.100 workbench: the conventions a VS Code user expects of an
 * extension. The timeline comes back after a window reload (its panel serializer), with its
 * session and replay position; a capture opens as an editor from the Explorer's Open With…
 * (the custom editor), and draws; the walkthrough opens and its steps complete on their commands.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { settled, waitForSnapshot } from '../support/e2e/browser';
import { SHOTS, until, useWorkbench } from '../support/e2e/workbench';

const SAMPLE = join(ROOT, 'media', 'samples', 'cme-sample.jsonl');
/** The copy in the workspace folder, for the Explorer. */
const COPY = 'feed.jsonl';

async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await until(async () => (await page.locator('.tabs-container .tab').count()) === 0, 10_000);
}

describe('VS Code conventions in the workbench (e2e)', () => {
  const workbench = useWorkbench((folder) => {
    copyFileSync(SAMPLE, join(folder, COPY));
    // The editor sequences by the settings: the workspace's say CME.
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'seqscope.preset': 'cme' }));
  });

  it('opens the walkthrough, whose steps complete on their commands', async () => {
    const { page } = workbench();
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with SeqScope' }).click({ timeout: 30_000 });
    const step = (title: string) => page.locator('.getting-started-step', { hasText: title }).first();
    const titles = [
      'Open the sample capture',
      'Read the Sessions tree',
      'Step through a gap',
      'Spot a reordered delivery',
      'Export an ordered trace',
      'Tap a topic',
    ];
    for (const t of titles) await step(t).waitFor({ timeout: 30_000 });
    const done = (title: string) => step(title).evaluate((el) => el.getAttribute('aria-checked') === 'true' || !!el.querySelector('.codicon.complete'));
    assert.equal(await done('Open the sample capture'), false, 'not done before its command ran');
    // The step's own button runs its command: the sample opens, and the step is done.
    await step('Open the sample capture').click();
    await page.locator('.gettingStartedContainer').getByRole('button', { name: 'Open Sample Capture', exact: true }).click({ timeout: 10_000 });
    await until(() => done('Open the sample capture'), 30_000);
    assert.equal(await done('Export an ordered trace'), false, 'the other steps wait for their own commands');
    await screenshot(page, join(SHOTS, 'workbench-walkthrough.png'));
    await page.locator('.tab', { hasText: 'Timeline: cme-sample.jsonl' }).waitFor({ timeout: 60_000 });
  });

  it('brings the timeline back after a window reload, with its session and replay position', async () => {
    const { page } = workbench();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    const tab = page.locator('.tab', { hasText: 'Timeline: cme-sample.jsonl' });
    await tab.waitFor({ timeout: 60_000 });
    let frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await settled(frame, 60_000);
    // A replay position to come back to: the first gap.
    await runCommand(page, 'SeqScope: Replay: Run to Next Gap');
    await waitForSnapshot(frame, (s) => s.cursorTime !== undefined, 'the replay cursor at the first gap', 15_000);
    const before = await settled(frame, 30_000);

    // Reloaded as a user reloads it: the workbench saves its editors' state (with the webview's)
    // and loads again. (A bare page.reload() skips that save: the browser workbench writes its
    // state to IndexedDB on a 60 s schedule and at shutdown, so what it restores may be older.)
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForSelector('.monaco-workbench', { state: 'detached', timeout: 60_000 }).catch(() => undefined);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    await tab.waitFor({ timeout: 60_000 });
    frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await waitForSnapshot(frame, (s) => s.ready && s.cursorTime !== undefined, 'the restored timeline with its replay cursor', 60_000);
    const after = await settled(frame, 30_000);
    assert.deepEqual(after.lanes.map((l) => l.name).sort(), ['310', '312', '318'], 'the sample, sequenced by channel again (CME)');
    assert.equal(after.cursorTime, before.cursorTime, 'at the replay position it had');
    assert.equal(after.marks?.gap, before.marks?.gap);
    // The session is back in the Sessions tree too.
    await runCommand(page, 'SeqScope: Focus on Sessions View');
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith('cme-sample.jsonl')), 30_000);
    await screenshot(page, join(SHOTS, 'workbench-restored.png'));
  });

  it('opens a capture as an editor with Open With… (text by default), and draws it', async () => {
    const { page } = workbench();
    // Whatever earlier tests left open goes with its editors (run alone, nothing is open, and
    // SeqScope's session commands are not offered yet).
    await closeAllEditors(page);
    // Chosen in the Explorer, the capture opens as text: SeqScope's editor is an option only.
    await runCommand(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: COPY });
    await row.click({ timeout: 30_000 });
    await page.locator('.tab', { hasText: COPY }).waitFor({ timeout: 30_000 });
    await page.locator('.editor-instance .view-lines', { hasText: '"ackId"' }).waitFor({ timeout: 30_000 });
    // The Explorer's Open With… and Reopen Editor With… open the same picker (the editor
    // resolver's): reached from the Command Palette, which retries until it takes the command,
    // rather than through a context menu whose click can land as the Explorer settles.
    const choices = page.locator('.quick-input-widget .monaco-list-row');
    const seqscope = choices.filter({ hasText: 'SeqScope Timeline' });
    for (let attempt = 1; ; attempt++) {
      await runCommand(page, 'View: Reopen Editor With...');
      try {
        await seqscope.waitFor({ timeout: 10_000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await page.keyboard.press('Escape');
      }
    }
    const listed = await choices.allInnerTexts();
    assert.ok(
      listed.some((t) => /Text Editor/.test(t)),
      `the text editor is listed beside it: ${JSON.stringify(listed)}`,
    );
    await seqscope.click();

    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    const s = await settled(frame, 60_000);
    assert.deepEqual(s.lanes.map((l) => l.name).sort(), ['310', '312', '318']);
    assert.deepEqual({ gap: s.marks!.gap, redelivery: s.marks!.redelivery, republish: s.marks!.republish }, { gap: 2, redelivery: 5, republish: 5 });
    await screenshot(page, join(SHOTS, 'workbench-capture-editor.png'));
    // Its session is in the Sessions tree while the editor is open.
    await runCommand(page, 'SeqScope: Focus on Sessions View');
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(COPY)), 30_000);
    // Closing the editor closes its session.
    await closeAllEditors(page);
    await runCommand(page, 'SeqScope: Focus on Sessions View');
    await until(async () => !(await treeRows(page, 'seqscope')).some((r) => r.startsWith(COPY)), 15_000);
  });
});
