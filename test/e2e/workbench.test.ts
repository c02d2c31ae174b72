// End-to-end: the real VS Code 1.100 workbench in headless Chromium, with the extension under
// development loaded, driven as a person would (F1, clicks), checked by what is on screen.
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { openWorkbench, runCommand, screenshot, type Workbench } from '../../scripts/vscode-host/workbench.mjs';

const shots = join(ROOT, '.test-results', 'e2e');

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('workbench (e2e)', () => {
  let wb: Workbench | undefined;
  let folder: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'seqscope-e2e-ws-'));
    cpSync(join(ROOT, 'test', 'fixtures', 'captures'), folder, { recursive: true });
    wb = await openWorkbench({ folder });
  });

  afterEach(async function () {
    // A picture of the window for every failed test, beside the test's own screenshots.
    if (this.currentTest?.state === 'failed' && wb) {
      const name = this.currentTest.title.replace(/[^\w-]+/g, '_').slice(0, 80);
      console.log(`    screenshot: ${await screenshot(wb.page, join(shots, `FAILED-${name}.png`))}`);
    }
  });

  after(async () => {
    await wb?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows the workspace files in the Explorer', async () => {
    const { page } = wb!;
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'basic.jsonl' });
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    const names = await page.locator('.explorer-folders-view .monaco-list-row').allInnerTexts();
    assert.ok(names.some((n) => n.includes('pull-pretty.json')), `Explorer rows: ${names.join(', ')}`);
  });

  it('toggles the panel with "View: Toggle Panel"', async () => {
    const { page } = wb!;
    const panel = page.locator('.monaco-workbench .part.panel');
    const before = await panel.isVisible();
    await runCommand(page, 'View: Toggle Panel');
    await until(async () => (await panel.isVisible()) !== before, 15_000);
    assert.equal(await panel.isVisible(), !before);
  });

  it("runs the extension's command from the Command Palette and shows its message", async () => {
    const { page } = wb!;
    await runCommand(page, 'SeqScope Smoke: Hello');
    const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'hello from the extension host' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, join(shots, 'workbench.png'));
  });
});
