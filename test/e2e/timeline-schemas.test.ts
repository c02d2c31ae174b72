/**
 * An Avro binary capture in the timeline, in a real Chromium with a VS Code-like host that
 * decodes payloads as the extension does (detailDecoder over seqscope.schemas' files): the detail
 * pane shows the decoded record and its schema's source, the raw payload under *Raw payload*,
 * and a payload cut short says why it does not match. Screenshots go to .test-results/e2e/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { resolveOptions, SequencingOptions } from '../../src/core/sequencer/sequencingOptions';
import { schemaSetFromSetting } from '../../src/core/schema/schemaSetting';
import type { CaptureSession } from '../../src/timeline/captureSession';
import { detailDecoder } from '../../src/timeline/decodedPayload';
import { loadSession } from '../../src/timeline/node/loadSession';
import { launchChromium, RESULTS_DIR, ROOT, waitForSnapshot } from '../support/e2e/browser';
import { FakeHost, openInFakeHost } from '../support/e2e/fakeExtensionHost';
import { fileRecordSource } from '../support/e2e/fileRecords';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'schemas');
const BUNDLE = join(ROOT, 'dist', 'webview', 'timeline.js');

describe('timeline: payloads decoded by their schema in the detail pane', function () {
  this.timeout(120_000);
  let browser: Browser;
  let session: CaptureSession;
  let host: FakeHost;
  let page: Page;
  let records: ReturnType<typeof fileRecordSource>;

  before(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const schemas = await schemaSetFromSetting({ trades: 'trades.avsc' }, { resolve: (p) => join(SCHEMAS, p), read: (p) => readFile(p, 'utf8') });
    const options: SequencingOptions = { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas };
    session = (await loadSession([join(SCHEMAS, 'avro-binary.jsonl')], options)).session;
    browser = await launchChromium();
    records = fileRecordSource(session);
    host = await openInFakeHost(browser, session, options, records, 'avro-binary.jsonl', detailDecoder(schemas));
    page = host.opened.page;
  });

  after(async () => {
    await records?.close();
    assert.deepEqual(host?.opened.errors ?? [], [], 'no console errors');
    await browser?.close();
  });

  /** The event of an arrival (its message or invalid record), revealed as the host reveals one. */
  async function reveal(arrival: number): Promise<void> {
    let id = -1;
    for (let i = 0; i < session.store.count && id < 0; i++) if (session.event(i).arrival === arrival && session.event(i).kind !== 'gap') id = i;
    assert.ok(id >= 0, `an event for arrival ${arrival}`);
    await host.send({ type: 'reveal', event: session.event(id) });
    await waitForSnapshot(page, (x) => x.detailEventId === id, `the detail of arrival ${arrival}`);
  }

  it('shows the decoded record and its source, the raw payload a click away', async () => {
    await reveal(0);
    const decoded = page.locator('.ss-decoded pre');
    await decoded.waitFor();
    assert.deepEqual(JSON.parse(await decoded.innerText()), { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
    assert.match(await page.locator('.ss-decoded').innerText(), /by the schema from trades\.avsc/);
    const raw = page.locator('details.ss-raw-payload');
    assert.equal(await raw.getAttribute('open'), null, 'the raw payload starts folded');
    assert.match(await raw.locator('summary').innerText(), /Raw payload \(13 bytes\)/i);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-schema-decoded.png') });
    await raw.locator('summary').click();
    await page.getByRole('button', { name: 'Show the payload as Hex' }).click();
    assert.match(await raw.locator('pre').innerText(), /02 41 02 02 00 00 00 00\s+00 50 59 40 00/);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-schema-raw.png') });
  });

  it('says why a payload does not match its schema, with the raw payload shown', async () => {
    await reveal(7);
    const note = page.locator('.ss-decode-error');
    await note.waitFor();
    assert.match(await note.innerText(), /^Not decoded by its schema: the payload does not match the schema from trades\.avsc: .*field "price"/);
    assert.equal(await page.locator('.ss-decoded').count(), 0);
    assert.match(await page.locator('.ss-detail-section h3', { hasText: 'Payload' }).innerText(), /Payload \(3 bytes\)/i);
    await page.screenshot({ path: join(RESULTS_DIR, 'timeline-schema-invalid.png') });
  });
});
