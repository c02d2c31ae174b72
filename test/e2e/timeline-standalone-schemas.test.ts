/**
 * A standalone HTML export of an Avro binary capture, opened from disk in a real Chromium: the
 * page carries no decoder, so the exporter embeds the records decoded; the detail pane shows the
 * decoded record and its schema's source with the raw payload folded, and a payload that does not
 * match its schema says why. Screenshots go to .test-results/e2e/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeOptions, resolveOptions, SequencingOptions } from '../../src/core/sequencer/sequencingOptions';
import { schemaSetFromSetting } from '../../src/core/schema/schemaSetting';
import type { CaptureSession } from '../../src/timeline/captureSession';
import { loadSession } from '../../src/timeline/node/loadSession';
import { writeStandaloneHtml } from '../../src/timeline/node/standaloneHtml';
import { at, launchChromium, OpenedPage, openTimeline, RESULTS_DIR, ROOT, settled, waitForSnapshot } from '../support/e2e/browser';
import { fileRecordSource } from '../support/e2e/fileRecords';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'schemas');
const BUNDLE = join(ROOT, 'dist', 'webview', 'timeline.js');

describe('standalone export: payloads decoded by their schema in the detail pane', function () {
  this.timeout(120_000);
  let browser: Browser;
  let session: CaptureSession;
  let opened: OpenedPage;
  let page: Page;

  before(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const schemas = await schemaSetFromSetting({ trades: 'trades.avsc' }, { resolve: (p) => join(SCHEMAS, p), read: (p) => readFile(p, 'utf8') });
    const options: SequencingOptions = { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas };
    session = (await loadSession([join(SCHEMAS, 'avro-binary.jsonl')], options)).session;
    const html = join(RESULTS_DIR, 'avro-binary.html');
    const records = fileRecordSource(session);
    try {
      await writeStandaloneHtml(session, html, {
        title: 'avro-binary.jsonl',
        options: describeOptions(options),
        bundleDir: join(ROOT, 'dist'),
        readRecord: records,
        schemas,
      });
    } finally {
      await records.close();
    }
    browser = await launchChromium();
    opened = await openTimeline(browser, html);
    page = opened.page;
  });

  after(async () => {
    assert.deepEqual(opened?.errors ?? [], [], 'no console errors');
    await browser?.close();
  });

  /** Clicks the drawn mark of an arrival's event and waits for its detail. */
  async function open(arrival: number): Promise<void> {
    let id = -1;
    for (let i = 0; i < session.store.count && id < 0; i++) if (session.event(i).arrival === arrival && session.event(i).kind !== 'gap') id = i;
    assert.ok(id >= 0, `an event for arrival ${arrival}`);
    const s = await settled(page);
    const mark = [...s.messages, ...s.findings].find((m) => m.id === id);
    assert.ok(mark, `the mark of event ${id} is drawn`);
    const p = at(s, mark);
    await page.mouse.click(p.x, p.y);
    await waitForSnapshot(page, (x) => x.detailEventId === id, `the detail of arrival ${arrival}`);
  }

  it('shows the decoded record and its source, the raw payload folded', async () => {
    await open(0);
    const decoded = page.locator('.ss-decoded pre');
    await decoded.waitFor();
    assert.deepEqual(JSON.parse(await decoded.innerText()), { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
    assert.match(await page.locator('.ss-decoded').innerText(), /by the schema from trades\.avsc/);
    const raw = page.locator('details.ss-raw-payload');
    assert.equal(await raw.getAttribute('open'), null, 'the raw payload starts folded');
    assert.match(await raw.locator('summary').innerText(), /Raw payload \(13 bytes\)/i);
    await page.screenshot({ path: join(RESULTS_DIR, 'standalone-schema-decoded.png') });
  });

  it('says why a payload does not match its schema', async () => {
    await open(7);
    const note = page.locator('.ss-decode-error');
    await note.waitFor();
    assert.match(await note.innerText(), /^Not decoded by its schema: the payload does not match the schema from trades\.avsc: .*field "price"/);
    assert.equal(await page.locator('.ss-decoded').count(), 0);
    await page.screenshot({ path: join(RESULTS_DIR, 'standalone-schema-invalid.png') });
  });
});
