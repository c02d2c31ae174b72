/**
 * A capture judged by publish order in the timeline, in a real Chromium: the reordered mark on
 * its lane (and in the legend), its detail pane, and Run to Next Reordered (key O and the replay
 * bar's button) in the VS Code-like host. Screenshots go to .test-results/e2e/.
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

const ORDERED = join(ROOT, 'test', 'fixtures', 'publish-order', 'ordered-keys.jsonl');
const BUNDLE = join(ROOT, 'dist', 'webview', 'timeline.js');
const OPTIONS = resolveOptions({});

describe('timeline: a reordered delivery (publish order)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let session: CaptureSession;
  const html = join(RESULTS_DIR, 'ordered-keys.html');
  const opened: OpenedPage[] = [];

  before(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    session = await exportCapture(ORDERED, html, undefined, OPTIONS);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  it('draws the reordered mark on its lane, lists it in the legend, and its detail says what it came behind and by how much', async () => {
    const o = await openTimeline(browser, html, { colorScheme: 'dark' });
    opened.push(o);
    const page = o.page;
    const s = await settled(page);
    const marks = s.findings.filter((f) => f.kind === 'reordered');
    assert.equal(marks.length, 1, 'one reordered mark');
    assert.equal(s.marks!.reordered, 1);
    const aaa = s.lanes.find((l) => l.name === 'AAA')!;
    assert.ok(marks[0].y >= aaa.y && marks[0].y <= aaa.y + aaa.height, 'on lane AAA');
    assert.match(aaa.label, /1 reord/);
    assert.equal(await page.locator('.ss-legend li', { hasText: 'reordered' }).count(), 1);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reordered.png') });
    const p = at(s, marks[0]);
    await page.mouse.click(p.x, p.y);
    await waitForSnapshot(page, (x) => x.detailEventId === marks[0].id, 'detail of the reordered message');
    await page.locator('.ss-detail-title', { hasText: 'Reordered 1008' }).waitFor();
    const text = await page.locator('.ss-detail').innerText();
    assert.match(text, /arrived after 1018, which was published 2\.5 ?ms later/);
    assert.match(text, /by 2\.5 ?ms of publish time and 4 messages of its key/);
    assert.match(text, /publishTime\s+2026-12-01T09:30:00\.001250Z/);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reordered-detail.png') });
  });

  describe('in a VS Code-like host', () => {
    let host: FakeHost;
    let page: Page;
    let records: ReturnType<typeof fileRecordSource>;

    before(async () => {
      records = fileRecordSource(session);
      host = await openInFakeHost(browser, session, OPTIONS, records, 'ordered-keys.jsonl');
      opened.push(host.opened);
      page = host.opened.page;
    });

    after(async () => {
      await records?.close();
    });

    it('runs to the next reordered message with O and with the replay bar, and draws it once reached', async () => {
      const arrival = session.findings(session.keyIndex('AAA'), 'reordered', 0, 1)[0].arrival as number;
      const s0 = await settled(page);
      await page.mouse.click(s0.canvas.x + s0.canvas.width / 2, s0.canvas.y + 5);
      await page.keyboard.press('o');
      await waitForSnapshot(page, () => host.replay().state?.position === arrival + 1, 'O: just after the reordered arrival');
      await waitForSnapshot(page, (x) => x.marks?.reordered === 1, 'the mark drawn at the position');
      await page.getByRole('button', { name: 'Back to the start' }).click();
      await waitForSnapshot(page, (x) => host.replay().state?.position === 0 && x.marks?.reordered === 0, 'back at the start: not yet reordered');
      await page.getByRole('button', { name: 'Step to the next reordered message' }).click();
      await waitForSnapshot(page, () => host.replay().state?.position === arrival + 1, 'the button too');
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-reordered-replay.png') });
    });
  });

  after(() => {
    for (const o of opened) assert.deepEqual(o.errors, [], 'no console errors');
  });
});
