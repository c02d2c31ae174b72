import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { openCaptureFromPalette, SHOTS as shots, useWorkbench } from './support-workbench';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
describe('scratch', () => {
  const workbench = useWorkbench((folder) => {
    cpSync(join(ROOT, 'test', 'fixtures', 'captures'), folder, { recursive: true });
  });
  it('explore', async () => {
    const { page } = workbench();
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await pause(3000);
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await pause(3000);
    console.log((await treeRows(page, 'seqscope')).join(' | '));
    await screenshot(page, join(shots, 'x2-sample-twice.png'));
    await openCaptureFromPalette(page, 'with-invalid.jsonl', 'Use settings');
    await pause(2000);
    await screenshot(page, join(shots, 'x3-invalid.png'));
    await runCommand(page, 'SeqScope: Export Ordered Trace…');
    await pause(2000);
    await screenshot(page, join(shots, 'x4-export.png'));
    await page.keyboard.press('Escape');
    await pause(500);
    await screenshot(page, join(shots, 'x5-after-esc.png'));
    await page.keyboard.press('Escape');
    await runCommand(page, 'SeqScope: Close All Sessions');
    await pause(1500);
    await screenshot(page, join(shots, 'x6-closed.png'));
  });
});
