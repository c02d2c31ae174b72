/**
 * Steps the workbench e2e tests share: a suite's workbench on a fresh workspace folder, waiting
 * for a condition, a screenshot of every failed test, and opening a capture through the Command
 * Palette and VS Code's own file dialog.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../../scripts/vscode-host/common.mjs';
import { openWorkbench, runCommand, screenshot, treeRows, type OpenWorkbenchOptions, type Workbench } from '../../../scripts/vscode-host/workbench.mjs';

export const SHOTS = join(ROOT, '.test-results', process.env.SEQSCOPE_TEST_TIER || 'e2e');

export async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * An editor tab by its title, and its close button. Found by role and accessible name rather
 * than by VS Code's classes, which change between versions: 1.100 draws the button as
 * `.codicon-close`, 1.139 does not. The tab's name is its title (a substring match); the
 * button's is "Close" and its key binding.
 */
export function editorTab(page: Page, title: string) {
  const tab = page.getByRole('tab', { name: title });
  return { tab, close: tab.getByRole('button', { name: /^Close\b/ }) };
}

/**
 * Registers the hooks of a suite that drives one workbench: `before` fills a fresh workspace
 * folder (`fill`) and opens the workbench on it; every failed test leaves a picture of the
 * window beside the tests' own screenshots; `after` closes it and removes the folder. Returns
 * the workbench, for the suite's tests and later hooks.
 */
export function useWorkbench(fill: (folder: string) => void | Promise<void>, options: Omit<OpenWorkbenchOptions, 'folder'> = {}): () => Workbench {
  let wb: Workbench | undefined;
  let folder: string | undefined;
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'seqscope-e2e-ws-'));
    await fill(folder);
    wb = await openWorkbench({ ...options, folder });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      const name = this.currentTest.title.replace(/[^\w-]+/g, '_').slice(0, 80);
      console.log(`    screenshot: ${await screenshot(wb.page, join(SHOTS, `FAILED-${name}.png`))}`);
    }
  });
  after(async () => {
    await wb?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    if (!wb) throw new Error('the workbench is not open (its before hook failed)');
    return wb;
  };
}

/**
 * "SeqScope: Tap Topic…" as a user does: tick `topic` in its list of check boxes, accept, then
 * "Use settings" in the "how to sequence" picker that follows.
 */
export async function tapTopicFromPalette(page: Page, topic: string): Promise<void> {
  await runCommand(page, 'SeqScope: Tap Topic…');
  const row = page.locator(`.quick-input-widget .monaco-list-row[aria-label^="${topic},"]`);
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  await row.click();
  await until(async () => (await row.getAttribute('aria-checked')) === 'true', 10_000);
  await page.locator('.quick-input-widget .quick-input-box input').press('Enter');
  const title = page.locator('.quick-input-widget .quick-input-title');
  await until(async () => (await title.innerText().catch(() => '')).startsWith(`SeqScope: how should a tap on ${topic} be sequenced?`), 60_000);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Use settings' }).click();
}

/**
 * "SeqScope: Open Capture…", then the file from the workspace folder in VS Code's file dialog,
 * then `choice` in the extension's "how to sequence" picker. Resolves once the tree lists the
 * session (a large capture takes longer than the default 30 s to load).
 */
export async function openCaptureFromPalette(page: Page, fileName: string, choice: string, timeoutMs = 30_000): Promise<void> {
  await runCommand(page, 'SeqScope: Open Capture…');
  // VS Code's own file dialog in the browser: a quick input listing the workspace folder.
  // Pick the file as a person would, once the list has loaded (typing races its refresh).
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const file = page.locator('.quick-input-widget .monaco-list-row', { hasText: fileName });
  // Then the extension asks how to sequence the capture: filter its list down to `choice` and
  // accept it. (A click on the file usually accepts it; if the dialog only selected it, Enter
  // accepts it, once the dialog has stayed put for a moment: an Enter that lands on the
  // sequencing picker just replacing it would accept its first item instead.)
  const title = page.locator('.quick-input-widget .quick-input-title');
  // The first row naming it: filtered on "Preset: cme", VS Code lists the exact label first,
  // "Preset: cme-json" after it, and Enter accepts the first.
  const option = page.locator('.quick-input-widget .monaco-list-row', { hasText: choice }).first();
  // Short time-outs: once the quick input has closed these elements are gone, and a locator
  // would wait its default 30 s for them.
  // A closed quick input keeps its last title and value, hidden: only an open one counts.
  const widget = page.locator('.quick-input-widget');
  const open = () => widget.isVisible().catch(() => false);
  const titled = async (prefix: string) => (await open()) && (await title.innerText({ timeout: 1_000 }).catch(() => '')).startsWith(prefix);
  const fileSelected = async () => (await titled('Open capture')) && (await input.inputValue({ timeout: 1_000 }).catch(() => '')).endsWith(`/${fileName}`);
  const listed = async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(fileName));
  // A load under way shows its progress notification.
  const loading = page.locator('.notifications-toasts', { hasText: `SeqScope: sequencing ${fileName}` });
  const pickFile = async () => {
    await file.waitFor({ state: 'visible', timeout: 30_000 });
    await file.click();
  };
  await pickFile();
  // Once in a while (about one run in six, before this) the dialogs closed with nothing opened —
  // a click that landed as the list refreshed. Then, after a few quiet seconds (no dialog, no
  // load), the command runs again, once.
  let quietSince = Date.now();
  let retried = false;
  let selectedBefore = false;
  await until(async () => {
    if (await listed()) return true;
    if (await titled('SeqScope: how should this capture be sequenced')) {
      quietSince = Date.now();
      await input.fill(choice, { timeout: 1_000 }).catch(() => {});
      if (
        await option.waitFor({ state: 'visible', timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        await input.press('Enter', { timeout: 1_000 }).catch(() => {});
    } else if (await fileSelected()) {
      quietSince = Date.now();
      // Selected on two looks in a row: the dialog stayed put, so Enter lands on it.
      if (selectedBefore) await input.press('Enter', { timeout: 1_000 }).catch(() => {});
      selectedBefore = true;
      return false;
    } else if ((await open()) || (await loading.count()) > 0) {
      quietSince = Date.now();
    } else if (!retried && Date.now() - quietSince > 5_000) {
      retried = true;
      process.stderr.write(`[e2e] Open Capture… closed without opening ${fileName}: running it again\n`);
      await runCommand(page, 'SeqScope: Open Capture…');
      await pickFile();
      quietSince = Date.now();
    }
    selectedBefore = false;
    return false;
  }, timeoutMs);
}
