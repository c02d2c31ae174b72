#!/usr/bin/env node
// The README screenshot, from the running extension: the VS Code 1.100 workbench (the test
// host, headless Chromium) in the Dark Modern theme, the sample capture opened from the Command
// Palette, a key expanded in the Sessions tree, and the timeline with a gap's detail open.
// Writes media/screenshot.png (1400×850). `npm run screenshot` builds first. With --walkthrough,
// also the walkthrough's pictures in media/walkthrough/: the timeline, the tree, a gap replayed.
//
//   node scripts/vscode-host/screenshot.mjs [--out FILE] [--walkthrough]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, log } from './common.mjs';
import { findWebviewFrame, openWorkbench, runCommand, screenshot } from './workbench.mjs';

const { values } = parseArgs({
  options: { out: { type: 'string', default: join(ROOT, 'media', 'screenshot.png') }, walkthrough: { type: 'boolean', default: false } },
});
const WALKTHROUGH = join(ROOT, 'media', 'walkthrough');

/** A PNG of one part of the workbench (its id: workbench.parts.editor, …). */
async function partShot(page, part, file) {
  await page.locator(`[id="workbench.parts.${part}"]`).screenshot({ path: join(WALKTHROUGH, file) });
  log(`walkthrough: ${join(WALKTHROUGH, file)}`);
}
const SIZE = { width: 1400, height: 850 };

/** Resolves once the timeline has drawn fresh pages for its view and nothing is in flight. */
async function timelineSettled(frame) {
  await frame.waitForFunction(
    () => {
      const s = globalThis.__seqscopeTimeline?.snapshot();
      return !!s && s.firstPaintMs !== undefined && s.allFresh && s.pendingRequests === 0;
    },
    undefined,
    { timeout: 60_000, polling: 100 },
  );
  return frame.evaluate(() => globalThis.__seqscopeTimeline.snapshot());
}

const folder = mkdtempSync(join(tmpdir(), 'seqscope-screenshot-'));
const wb = await openWorkbench({ folder });
try {
  const { page } = wb;
  await page.setViewportSize(SIZE);
  await runCommand(page, 'SeqScope: Open Sample Capture');
  await page.locator('.tab', { hasText: 'Timeline: cme-sample.jsonl' }).waitFor({ timeout: 60_000 });
  const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
  await timelineSettled(frame);

  // Workspace and remote settings cannot set the colour theme; the theme picker can, once the
  // built-in theme extensions are registered (the sample open proves the extension host is up).
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Dark Modern' }).first();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor({ timeout: 15_000 });
  await input.fill('Dark Modern');
  await row.waitFor({ timeout: 15_000 });
  await input.press('Enter');
  await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 15_000 });
  await frame.waitForFunction(() => globalThis.document.body.classList.contains('vscode-dark'), undefined, { timeout: 15_000 });

  // The tree: key 310 and its gaps open (the sample's three-number gap is on it).
  const rows = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row');
  await rows
    .filter({ hasText: /^310\s*997 delivered/ })
    .locator('.monaco-tl-twistie')
    .click();
  await rows
    .filter({ hasText: /Gaps\s*1/ })
    .first()
    .locator('.monaco-tl-twistie')
    .click();
  await rows.filter({ hasText: 'waited' }).first().waitFor({ timeout: 15_000 });

  if (values.walkthrough) {
    await page.mouse.move(SIZE.width - 2, SIZE.height - 2);
    await timelineSettled(frame);
    await partShot(page, 'editor', 'timeline.png');
    await partShot(page, 'sidebar', 'tree.png');
  }

  // The timeline: the widest gap's detail open, as a reader would click it.
  const s = await timelineSettled(frame);
  const gap = s.findings.filter((f) => f.kind === 'gap').sort((a, b) => (b.w ?? 0) - (a.w ?? 0))[0];
  if (!gap) throw new Error('the sample drew no gap');
  await frame.locator('canvas.ss-canvas').click({ position: { x: gap.x, y: gap.y } });
  await frame.waitForFunction((id) => globalThis.__seqscopeTimeline.snapshot().detailEventId === id, gap.id, { timeout: 15_000 });
  await timelineSettled(frame);

  // No toasts, no hover, no focus ring on the canvas.
  for (const close of await page.locator('.notifications-toasts .codicon-notifications-clear').all()) await close.click().catch(() => {});
  await page.mouse.move(SIZE.width - 2, SIZE.height - 2);
  await page.waitForTimeout(500);
  log(`screenshot: ${await screenshot(page, values.out)}`);
  if (values.walkthrough) {
    await runCommand(page, 'SeqScope: Replay: Run to Next Gap');
    await frame.waitForFunction(() => globalThis.__seqscopeTimeline.snapshot().cursorTime !== undefined, undefined, { timeout: 15_000 });
    await timelineSettled(frame);
    for (const close of await page.locator('.notifications-toasts .codicon-notifications-clear').all()) await close.click().catch(() => {});
    await page.mouse.move(SIZE.width - 2, SIZE.height - 2);
    await partShot(page, 'editor', 'gap.png');
  }
} finally {
  await wb.close();
  rmSync(folder, { recursive: true, force: true });
}
