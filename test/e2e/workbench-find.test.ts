/**
 * End-to-end: Find Messages in the real VS Code workbench, as a person uses it — the Command
 * Palette, the search box (a bad regular expression named under it as it is typed), the list of
 * messages found, and the pick revealed in the timeline's detail pane and in the Sessions view.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { settled, waitForSnapshot } from '../support/e2e/browser';
import { SHOTS, until, useWorkbench } from '../support/e2e/workbench';

const SAMPLE = join(ROOT, 'media', 'samples', 'cme-sample.jsonl');

interface SampleRecord {
  message: { messageId: string; data: string; attributes: Record<string, string> };
}

const sampleRecords = (): SampleRecord[] =>
  readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SampleRecord);

async function detailRows(frame: Frame): Promise<Map<string, string>> {
  const rows = await frame
    .locator('.ss-detail tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''] as [string, string]));
  return new Map(rows);
}

describe('Find Messages in the VS Code workbench (e2e)', () => {
  const workbench = useWorkbench(() => undefined);
  let frame: Frame;

  before(async () => {
    const { page } = workbench();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith('cme-sample.jsonl')), 60_000);
    // The webview takes the focus as it loads, which would close a palette opened meanwhile.
    await page.locator('.tab', { hasText: 'Timeline: cme-sample.jsonl' }).waitFor({ timeout: 30_000 });
    frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await settled(frame, 60_000);
  });

  it('Command Palette → search box → the messages found → the pick revealed in the timeline and the tree', async () => {
    const { page } = workbench();
    const records = sampleRecords();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    const message = page.locator('.quick-input-widget .quick-input-message');
    const title = page.locator('.quick-input-widget .quick-input-title');

    await runCommand(page, 'SeqScope: Find Messages…');
    await until(async () => (await title.innerText().catch(() => '')).startsWith('Find Messages in cme-sample.jsonl'), 10_000);
    // A bad regular expression is named under the box as it is typed.
    await input.fill('/"px":(45/');
    await until(async () => /the regular expression \/"px":\(45\/ is not valid: missing closing \)/.test(await message.innerText().catch(() => '')), 10_000);
    await screenshot(page, join(SHOTS, 'find-messages-bad-regex.png'));

    // A price in the decoded JSON payloads: the list has each such record, in arrival order.
    const price = '"px":4593.25';
    const expected = records.filter((r) => Buffer.from(r.message.data, 'base64').toString('utf8').includes(price));
    assert.ok(expected.length > 3);
    await input.fill(price);
    await until(async () => !(await message.innerText().catch(() => '')).includes('not valid'), 5_000);
    await input.press('Enter');
    await until(async () => (await title.innerText().catch(() => '')).startsWith(`${expected.length} messages with messageId or payload text`), 30_000);
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await rows.first().waitFor();
    const firstRow = await rows.first().innerText();
    assert.ok(firstRow.includes(expected[0].message.messageId), `the first row names the first match: ${firstRow}`);
    assert.ok(firstRow.includes(price), 'and shows the payload around the match');
    await screenshot(page, join(SHOTS, 'find-messages-results.png'));

    // Picking the second reveals it: the timeline's detail pane shows that message.
    const chosen = expected[1].message;
    await rows.nth(1).click();
    const s = await waitForSnapshot(frame, (x) => x.detailEventId !== undefined, 'the detail pane to open on the pick', 20_000);
    await frame.locator('.ss-detail .ss-payload').waitFor();
    await until(async () => (await detailRows(frame)).get('messageId') === chosen.messageId, 10_000);
    const detail = await detailRows(frame);
    assert.equal(detail.get('Channel'), chosen.attributes.Channel);
    assert.equal(detail.get('MsgSeqNum'), chosen.attributes.MsgSeqNum);
    assert.ok(s.detailEventId! >= 0);
    // ... and the Sessions view selects its key (a message is listed under its key).
    const selected = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row.selected');
    await until(async () => (await selected.innerText().catch(() => '')).trim().startsWith(chosen.attributes.Channel), 10_000);
    await screenshot(page, join(SHOTS, 'find-messages-revealed.png'));
  });
});
