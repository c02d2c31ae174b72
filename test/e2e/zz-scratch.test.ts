import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { runCommand, screenshot } from '../../scripts/vscode-host/workbench.mjs';
import { SHOTS as shots, useWorkbench } from './support-workbench';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
describe('scratch', () => {
  let dir = '';
  const workbench = useWorkbench((folder) => {
    dir = folder;
    cpSync(join(ROOT, 'test', 'fixtures', 'captures'), folder, { recursive: true });
  });
  it('explore', async () => {
    const { page } = workbench();
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await pause(3000);
    await runCommand(page, 'SeqScope: Replay: Play');
    await pause(1500);
    await screenshot(page, join(shots, 'z1-playing.png'));
    await runCommand(page, 'SeqScope: Export Ordered Trace…');
    await pause(1000);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'CSV' }).click();
    await pause(1500);
    await screenshot(page, join(shots, 'z2-save.png'));
    const input = page.locator('.quick-input-widget .quick-input-box input');
    console.log('save value:', await input.inputValue());
    await input.fill(join(dir, 'out.csv'));
    await input.press('Enter');
    await pause(3000);
    await screenshot(page, join(shots, 'z3-exported.png'));
    console.log('files:', readdirSync(dir).join(', '), existsSync(join(dir, 'out.csv')));
    await runCommand(page, 'SeqScope: Close Session');
    await pause(2000);
    await screenshot(page, join(shots, 'z4-closed-while-playing.png'));
  });
});
