/**
 * Sequence resets in the timeline, in a real Chromium: a publisher that restarted its numbers
 * (test/fixtures/resets/publisher-restart.jsonl) shows one reset mark on each key's lane (and in
 * the legend), its detail pane says the numbers before and after and how it was decided, and
 * Run to Next Reset (key R and the replay bar's button) stops just after it in the VS Code-like
 * host. Screenshots go to .test-results/e2e/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import type { CaptureSession } from '../../src/timeline/captureSession';
import { at, exportCapture, launchChromium, OpenedPage, openTimeline, RESULTS_DIR, ROOT, settled, waitForSnapshot } from '../support/e2e/browser';
import { FakeHost, openInFakeHost } from '../support/e2e/fakeExtensionHost';
import { fileRecordSource } from '../support/e2e/fileRecords';

const RESTART = join(ROOT, 'test', 'fixtures', 'resets', 'publisher-restart.jsonl');
const BUNDLE = join(ROOT, 'dist', 'webview', 'timeline.js');
const OPTIONS = resolveOptions({ seq: 'attribute:seq' });

describe('timeline: a sequence reset (a publisher restart)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let session: CaptureSession;
  const html = join(RESULTS_DIR, 'publisher-restart.html');
  const opened: OpenedPage[] = [];

  before(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    session = await exportCapture(RESTART, html, undefined, OPTIONS);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  it("marks each key's reset on its lane, lists it in the legend, and its detail says before, after and how", async () => {
    const o = await openTimeline(browser, html, { colorScheme: 'dark' });
    opened.push(o);
    const page = o.page;
    const s = await settled(page);
    const marks = s.findings.filter((f) => f.kind === 'reset');
    assert.equal(marks.length, 2, 'one reset mark per key');
    assert.equal(s.marks!.reset, 2);
    const us = s.lanes.find((l) => l.name === 'orders-us')!;
    const mark = marks.find((m) => m.y >= us.y && m.y <= us.y + us.height);
    assert.ok(mark, 'a mark on lane orders-us');
    assert.match(us.label, /1 reset/);
    assert.equal(await page.locator('.ss-legend li', { hasText: 'reset' }).count(), 1);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reset.png') });
    const p = at(s, mark);
    await page.mouse.click(p.x, p.y);
    await waitForSnapshot(page, (x) => x.detailEventId === mark.id, 'detail of the reset');
    await page.locator('.ss-detail-title', { hasText: 'Reset #148209 → #1' }).waitFor();
    const text = await page.locator('.ss-detail').innerText();
    assert.match(text, /#148209: the old sequence's last number/);
    assert.match(text, /#1: the new sequence's first number/);
    assert.match(text, /the next number continued from it/);
    assert.match(text, /0 held messages released, 0 numbers declared lost/);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reset-detail.png') });
  });

  describe('in a VS Code-like host', () => {
    let host: FakeHost;
    let page: Page;
    let records: ReturnType<typeof fileRecordSource>;

    before(async () => {
      records = fileRecordSource(session);
      host = await openInFakeHost(browser, session, OPTIONS, records, 'publisher-restart.jsonl');
      opened.push(host.opened);
      page = host.opened.page;
    });

    after(async () => {
      await records?.close();
    });

    it('runs to the next reset with R and with the replay bar', async () => {
      const s0 = await settled(page);
      await page.mouse.click(s0.canvas.x + s0.canvas.width / 2, s0.canvas.y + 5);
      await page.keyboard.press('r');
      await waitForSnapshot(page, () => (host.replay().state?.position ?? 0) > 0, 'R: just after the first reset');
      const first = host.replay().state!.position;
      await waitForSnapshot(page, (x) => (x.marks?.reset ?? 0) >= 1, 'the mark drawn at the position');
      await page.getByRole('button', { name: 'Back to the start' }).click();
      await waitForSnapshot(page, (x) => host.replay().state?.position === 0 && x.marks?.reset === 0, 'back at the start: no reset yet');
      await page.getByRole('button', { name: 'Step to the next sequence reset' }).click();
      await waitForSnapshot(page, () => host.replay().state?.position === first, 'the button too');
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reset-replay.png') });
    });
  });

  after(() => {
    for (const o of opened) assert.deepEqual(o.errors, [], 'no console errors');
  });
});
