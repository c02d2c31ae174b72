/**
 * The timeline webview end to end, in a real Chromium: the CME sample and an XSS fixture are
 * exported as standalone HTML, opened from disk, and driven with the mouse and keyboard. The
 * assertions read what the canvas drew through the page's read-only test hook
 * (window.__seqscopeTimeline.snapshot()) and what the DOM shows.
 *
 * Run alone: npx mocha --node-option import=tsx test/e2e/timeline-standalone.test.ts --timeout 120000
 * Needs dist/webview/timeline.js (npm run build) and /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CaptureSession } from '../../src/timeline/captureSession';
import type { EventView } from '../../src/shared/timelineModel';
import { clockTime, missingRange } from '../../src/webview/format';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import {
  at,
  choiceValue,
  exportCapture,
  launchChromium,
  OpenedPage,
  openTimeline,
  RESULTS_DIR,
  ROOT,
  pickChoice,
  setCheckbox,
  settled,
  snapshot,
  waitForSnapshot,
} from '../support/e2e/browser';
import { FakeHost, openInFakeHost } from '../support/e2e/fakeExtensionHost';
import { fileRecordSource } from '../support/e2e/fileRecords';

const SAMPLE = join(ROOT, 'media', 'samples', 'cme-sample.jsonl');
const XSS = join(ROOT, 'test', 'fixtures', 'xss.jsonl');
const XSS_PAYLOAD = '<img src=x onerror=alert(1)>';
const BUNDLE = join(ROOT, 'dist', 'webview', 'timeline.js');

describe('timeline webview, standalone export in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let session: CaptureSession;
  let xssSession: CaptureSession;
  const sampleHtml = join(RESULTS_DIR, 'cme-sample.html');
  const xssHtml = join(RESULTS_DIR, 'xss.html');
  const opened: OpenedPage[] = [];

  async function open(html: string, colorScheme: 'light' | 'dark' = 'light'): Promise<OpenedPage> {
    const o = await openTimeline(browser, html, { colorScheme });
    opened.push(o);
    return o;
  }

  before(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    session = await exportCapture(SAMPLE, sampleHtml);
    xssSession = await exportCapture(XSS, xssHtml);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  describe('the exported file', () => {
    for (const [name, file] of [
      ['sample', () => sampleHtml],
      ['XSS fixture', () => xssHtml],
    ] as const) {
      it(`has a strict CSP with a nonce, no inline handlers, and an inert session block (${name})`, () => {
        const html = readFileSync(file(), 'utf8');
        const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
        assert.ok(csp, 'CSP meta element');
        const policy = csp[1];
        const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
        assert.ok(nonce && nonce.length >= 16, `script nonce in ${policy}`);
        assert.match(policy, /default-src 'none'/);
        assert.match(policy, new RegExp(`style-src 'nonce-${escapeRe(nonce)}'`));
        assert.match(policy, /img-src data:/);
        assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
        // Every executable script and every style carries the nonce.
        const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
        assert.equal(scripts.filter((a) => !/type="application\/json"/.test(a)).length, 1, 'one executable script');
        for (const a of scripts) if (!/type="application\/json"/.test(a)) assert.match(a, new RegExp(`nonce="${escapeRe(nonce)}"`));
        for (const m of html.matchAll(/<style\b([^>]*)>/g)) assert.match(m[1], new RegExp(`nonce="${escapeRe(nonce)}"`));
        // No inline event handlers in the markup (script and style bodies set aside).
        const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '');
        assert.doesNotMatch(markup, /<[^>]*\son[a-z]+\s*=/i);
        assert.doesNotMatch(markup, /javascript:/i);
        // The data blocks hold no '<' at all, so nothing can close them early; and they parse.
        for (const id of ['seqscope-meta', 'seqscope-preview', 'seqscope-session']) {
          const block = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
          assert.ok(block, `${id} block`);
          assert.ok(!block[1].includes('<'), `no < inside ${id}`);
          JSON.parse(block[1]);
        }
        const session = /<script type="application\/json" id="seqscope-session">([\s\S]*?)<\/script>/.exec(html)!;
        const snap = JSON.parse(session[1]) as { version: number; keyNames: string[]; packing: string };
        assert.equal(snap.version, 1);
        assert.equal(snap.packing, 'shuffle-deflate-raw-base64');
        // As many </script> closers as openers: no data ended a block early.
        assert.equal(html.match(/<\/script>/g)?.length, scripts.length);
        assert.equal(scripts.length, 4);
      });
    }

    it('escapes the XSS payload inside the embedded JSON', () => {
      const html = readFileSync(xssHtml, 'utf8');
      assert.ok(html.includes('\\u003cimg src=x onerror=alert(1)\\u003e'), 'escaped key name');
      assert.ok(!html.includes(XSS_PAYLOAD), 'the raw payload is nowhere in the file');
    });
  });

  describe('many keys, one of them empty', () => {
    it('takes the empty key typed as it is shown, "(no key)", in the filter bar of more keys than a list holds', async () => {
      // Over 200 keys (the filter bar's list holds 200: above, keys are typed), and messages without
      // an ordering key: the empty key.
      const dir = join(RESULTS_DIR, 'many-keys');
      mkdirSync(dir, { recursive: true });
      const lines = generateCapture({ seed: 21, keys: 210, messagesPerKey: 1 }).lines.map((l, i) => {
        if (i % 50 !== 0) return l;
        const r = JSON.parse(l);
        delete r.message.orderingKey;
        return JSON.stringify(r);
      });
      const capture = join(dir, 'keys.jsonl');
      writeFileSync(capture, lines.join('\n') + '\n');
      const html = join(dir, 'keys.html');
      const keysSession = await exportCapture(capture, html, undefined, resolveOptions({}));
      assert.ok(keysSession.keyNames.includes('') && keysSession.keyNames.length > 200);
      const { page: p } = await open(html);
      await settled(p);
      await p.getByRole('button', { name: 'Show the filter bar' }).click();
      const form = p.getByRole('form', { name: 'Filter the timeline' });
      const gen = (await snapshot(p)).generation;
      // Typed, and applied with Enter, as a person does.
      await form.getByRole('textbox', { name: 'Keys to show, comma-separated (empty: all)' }).click();
      await p.keyboard.type('(no key)');
      await p.keyboard.press('Enter');
      await waitForSnapshot(p, (x) => x.generation > gen, 'the filter reply');
      const s = await settled(p);
      assert.deepEqual(
        s.lanes.map((l) => l.name),
        [''],
        'the empty key only',
      );
      assert.equal(s.lanes[0].label, `${lines.length - lines.filter((l) => /"orderingKey"/.test(l)).length} rcv`);
    });
  });

  describe('keys named with markup and bidi characters', () => {
    it('lists them as text, isolated, and ticks them from the keyboard: Enter in the list ticks, it does not apply', async () => {
      const dir = join(RESULTS_DIR, 'hostile-keys');
      mkdirSync(dir, { recursive: true });
      const BIDI = 'abc\u202efdp.exe';
      const MARKUP = '<b onmouseover=alert(4)>bold</b>';
      let lines = generateCapture({ seed: 3, keys: 3, messagesPerKey: 2 }).lines;
      const original = [...new Set(lines.map((l) => JSON.parse(l).message.orderingKey as string))];
      const renamed = new Map([
        [original[0], BIDI],
        [original[1], MARKUP],
      ]);
      lines = lines.map((l) => {
        const r = JSON.parse(l);
        r.message.orderingKey = renamed.get(r.message.orderingKey) ?? r.message.orderingKey;
        return JSON.stringify(r);
      });
      const capture = join(dir, 'keys.jsonl');
      writeFileSync(capture, lines.join('\n') + '\n');
      const html = join(dir, 'keys.html');
      await exportCapture(capture, html, undefined, resolveOptions({}));
      const { page: p } = await open(html, 'dark');
      const s0 = await settled(p);
      assert.deepEqual(
        s0.lanes.map((l) => l.name),
        [BIDI, MARKUP, original[2]],
      );
      await p.getByRole('button', { name: 'Show the filter bar' }).click();
      const keys = p.getByRole('combobox', { name: 'Keys to show (none selected: all)' });
      // The list's face says what is shown, in the bar's words.
      const face = p.locator('.ss-keys .select-face-badge');
      assert.equal(await face.textContent(), 'All keys', 'none ticked reads as every key');
      await keys.click();
      const options = p.getByRole('option');
      await options.first().waitFor();
      // As text: the bidi name between isolates (U+2068 … U+2069), the markup as typed, nothing made of it.
      assert.deepEqual(
        (await options.allTextContents()).map((t) => t.trim()),
        [`\u2068${BIDI}\u2069`, MARKUP, original[2]],
      );
      assert.equal(await p.locator('.ss-filters b, .ss-filters img').count(), 0, 'no element made from a key name');
      // Narrowed by typing, ticked with ↓ and Enter, the list still open.
      await p.keyboard.type('fdp');
      assert.deepEqual(
        (await options.allTextContents()).map((t) => t.trim()),
        [`\u2068${BIDI}\u2069`],
      );
      await p.keyboard.press('ArrowDown');
      await p.keyboard.press('Enter');
      assert.equal(await options.first().getAttribute('aria-selected'), 'true', 'Enter ticks the key');
      await p.keyboard.press('Control+A');
      await p.keyboard.type('bold');
      await p.keyboard.press('ArrowDown');
      await p.keyboard.press('Enter');
      await p.keyboard.press('Escape');
      await options.first().waitFor({ state: 'hidden' });
      assert.equal(await face.textContent(), '2 keys');
      assert.equal(await keys.evaluate((i) => (i.getRootNode() as unknown as { host: { value: string[] } }).host.value.join('|')), `${BIDI}|${MARKUP}`);
      // Had Enter in the list applied the filter, the host's reply to it would come before Apply's.
      const gen = s0.generation;
      await p.getByRole('button', { name: 'Apply the filter' }).click();
      const s = await waitForSnapshot(p, (x) => x.lanes.map((l) => l.name).join('|') === `${BIDI}|${MARKUP}`, 'the two keys');
      assert.equal(s.generation, gen + 1, 'one filter applied: Apply, not Enter in the list');
      // Clear shows no filter: the list ticks nothing again.
      await p.getByRole('button', { name: 'Clear the filter' }).click();
      await waitForSnapshot(p, (x) => x.lanes.length === 3 && x.generation > s.generation, 'every key again');
      await keys.click();
      await options.first().waitFor();
      assert.deepEqual(await options.evaluateAll((os) => os.map((o) => o.getAttribute('aria-selected'))), ['false', 'false', 'false']);
      await p.keyboard.press('Escape');
      assert.equal(await face.textContent(), 'All keys');
    });
  });

  describe('the CME sample', () => {
    let o: OpenedPage;
    let page: Page;

    before(async () => {
      o = await open(sampleHtml);
      page = o.page;
    });

    it('draws one lane per key, with its gaps and duplicates, and a legend', async () => {
      const s = await settled(page);
      assert.equal(s.standalone, true);
      assert.deepEqual(
        s.lanes.map((l) => l.name),
        [...session.keyNames],
      );
      assert.deepEqual([...session.keyNames].sort(), ['310', '312', '318']);
      assert.ok(s.lanes.every((l) => l.fresh && l.hasData));
      const m = s.marks!;
      assert.equal(m.gap, session.summary.gaps, 'gap bands');
      assert.equal(m.duplicate, session.summary.duplicates, 'duplicate marks');
      // Redeliveries (same messageId) and republishes (new messageId) are drawn differently.
      assert.equal(m.redelivery, session.summary.redeliveries);
      assert.equal(m.republish, session.summary.duplicates - session.summary.redeliveries);
      assert.ok(m.redelivery > 0 && m.republish > 0);
      assert.ok(m.message + m.density > 100, `messages drawn (${m.message} ticks, ${m.density} columns)`);
      assert.ok(s.fitAll && s.firstPaintMs !== undefined);
      // The replay toolbar is hidden in a standalone export; the legend is there.
      assert.equal(await page.getByRole('toolbar', { name: 'Replay' }).count(), 0);
      for (const entry of ['gap', 'redelivery', 'republish', 'late', 'invalid', 'held']) {
        assert.equal(await page.locator('.ss-legend li', { hasText: new RegExp(`^${entry}$`) }).count(), 1, `legend: ${entry}`);
      }
    });

    it('opens the detail pane with the missing range when a gap is clicked', async () => {
      const gaps = (await settled(page)).findings.filter((f) => f.kind === 'gap');
      assert.equal(gaps.length, 2);
      for (const { id } of gaps) {
        // Opening the pane narrows the canvas: take the mark where it is now.
        const s = await settled(page);
        const g = s.findings.find((f) => f.id === id)!;
        const p = at(s, g);
        await page.mouse.click(p.x, p.y);
        await waitForSnapshot(page, (x) => x.detailEventId === g.id, `detail of gap ${g.id}`);
        const ev: EventView = session.event(g.id);
        const range = missingRange(ev.seq!, ev.seqTo!);
        await page.locator('.ss-detail-title', { hasText: range }).waitFor();
        const text = await page.locator('.ss-detail').innerText();
        assert.match(text, new RegExp(escapeRe(`Gap ${range}`)));
        assert.match(text, new RegExp(`Key\\s+${ev.key}`));
        assert.match(text, /Declared lost/);
      }
    });

    it('opens the detail pane with the messageId when a duplicate is clicked', async () => {
      const s0 = await settled(page);
      const red = s0.findings.find((f) => f.kind === 'redelivery');
      const rep = s0.findings.find((f) => f.kind === 'republish');
      assert.ok(red && rep);
      for (const { id } of [red, rep]) {
        const s = await settled(page);
        const d = s.findings.find((f) => f.id === id)!;
        const p = at(s, d);
        await page.mouse.click(p.x, p.y);
        await waitForSnapshot(page, (x) => x.detailEventId === d.id, `detail of duplicate ${d.id}`);
        const ev = session.event(d.id);
        assert.equal(ev.kind, 'duplicate');
        assert.equal(ev.redelivery, d.kind === 'redelivery');
        await page.locator('.ss-detail .ss-payload').waitFor();
        const text = await page.locator('.ss-detail').innerText();
        assert.ok(text.includes(ev.messageId!), `messageId ${ev.messageId} in the detail`);
        assert.ok(text.includes(`Duplicate ${ev.seq}`), 'title with the number');
        assert.match(text, d.kind === 'redelivery' ? /deliveryAttempt\s+2/ : /deliveryAttempt\s+1/);
        assert.match(text, /SendingTime → publish/);
        // The payload is JSON: pretty by default, switchable to hex and text.
        const pre = page.locator('.ss-detail .ss-payload');
        assert.equal(await pre.getAttribute('data-view'), 'json');
        assert.match(await pre.innerText(), /"MsgSeqNum": \d+/);
        await page.getByRole('button', { name: 'Show the payload as Hex' }).click();
        assert.match(await pre.innerText(), /^00000000 {2}7b 22/);
        await page.getByRole('button', { name: 'Show the payload as Text' }).click();
        assert.match(await pre.innerText(), /^\{"MsgSeqNum":/);
        await page.getByRole('button', { name: 'Show the payload as JSON' }).click();
      }
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-light-detail.png') });
    });

    it('zooms with the wheel, pans by dragging, and "Fit all" restores the whole session', async () => {
      const s0 = await settled(page);
      const w0 = s0.window!;
      const lane = s0.lanes[1];
      const cx = s0.canvas.x + s0.canvas.width / 2;
      const cy = s0.canvas.y + lane.y + lane.height / 2;
      await page.mouse.move(cx, cy);
      await page.mouse.wheel(0, -400);
      const s1 = await waitForSnapshot(page, (x) => x.window!.t1 - x.window!.t0 < (w0.t1 - w0.t0) * 0.8, 'zoom in');
      const span1 = s1.window!.t1 - s1.window!.t0;
      assert.ok(s1.window!.t0 > w0.t0 && s1.window!.t1 < w0.t1, 'zoomed around the pointer');
      await settled(page);
      // Drag 300 px to the left: later times come into view.
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(cx - i * 30, cy);
      await page.mouse.up();
      const s2 = await waitForSnapshot(page, (x) => x.window!.t0 > s1.window!.t0, 'pan');
      const msPerPx = span1 / (s1.canvas.width - 176 - 10);
      assert.ok(Math.abs(s2.window!.t0 - s1.window!.t0 - 300 * msPerPx) < 5 * msPerPx, `panned by 300 px (${(s2.window!.t0 - s1.window!.t0) / msPerPx} px)`);
      assert.ok(Math.abs(s2.window!.t1 - s2.window!.t0 - span1) < 1e-6 * span1, 'panning keeps the zoom');
      assert.equal(s2.selectedId, s1.selectedId, 'a drag is not a click');
      const fresh = await settled(page);
      assert.ok(
        fresh.lanes.every((l) => l.fresh),
        'pages for the new window arrived',
      );
      await page.getByRole('button', { name: 'Fit all: show the whole session' }).click();
      const s3 = await waitForSnapshot(page, (x) => x.fitAll, 'fit all');
      assert.ok(Math.abs(s3.window!.t0 - w0.t0) < 1e-3 && Math.abs(s3.window!.t1 - w0.t1) < 1e-3);
    });

    it('is usable from the keyboard: Tab to the canvas, +/- zoom, Shift+arrows pan, n/p findings, Enter and Escape, ? lists the keys', async () => {
      await page.getByRole('button', { name: 'Fit all: show the whole session' }).click();
      await page.mouse.click(5, 5); // blur everything: start from the page
      await page.keyboard.press('Escape');
      let s = await settled(page);
      for (let i = 0; i < 25 && !s.canvasFocused; i++) {
        await page.keyboard.press('Tab');
        s = await snapshot(page);
      }
      assert.ok(s.canvasFocused, 'Tab reaches the canvas');
      assert.equal(
        await page
          .locator('canvas.ss-canvas')
          .evaluate((c) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(c).outlineStyle),
        'solid',
        'visible focus ring',
      );
      const span = (x: typeof s) => x.window!.t1 - x.window!.t0;
      const before = s;
      await page.keyboard.press('+');
      s = await waitForSnapshot(page, (x) => span(x) < span(before) * 0.9, '+ zooms in');
      await page.keyboard.press('+');
      s = await waitForSnapshot(page, (x) => span(x) < span(before) * 0.6, '+ zooms in again');
      const zoomed = s;
      await page.keyboard.press('-');
      s = await waitForSnapshot(page, (x) => span(x) > span(zoomed) * 1.1, '- zooms out');
      const t0 = s.window!.t0;
      await page.keyboard.press('Shift+ArrowRight');
      s = await waitForSnapshot(page, (x) => x.window!.t0 > t0, 'Shift+ArrowRight pans');
      const t0b = s.window!.t0;
      await page.keyboard.press('Shift+ArrowLeft');
      s = await waitForSnapshot(page, (x) => x.window!.t0 < t0b, 'Shift+ArrowLeft pans back');
      // A key does one thing: a plain arrow steps the replay, and a standalone page has none.
      // (A key moves the view in its keydown handler: had it panned, the window would show it now.)
      await page.keyboard.press('ArrowRight');
      assert.equal((await snapshot(page)).window!.t0, s.window!.t0, 'a plain arrow does not pan');
      // ? lists the keys (the view's only: no replay here), Escape closes the list.
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      assert.match(await help.innerText(), /Shift\+←[\s\S]*Pan back/);
      assert.doesNotMatch(await help.innerText(), /Replay/);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
      assert.ok((await snapshot(page)).canvasFocused, 'focus back on the canvas');
      await page.keyboard.press('ArrowDown');
      s = await waitForSnapshot(page, (x) => x.focusedLane === 1, 'ArrowDown moves to the next lane');
      // n: the next finding is selected and its detail opens; p goes back.
      await page.keyboard.press('0');
      await waitForSnapshot(page, (x) => x.fitAll, '0 fits all');
      await settled(page);
      await page.keyboard.press('n');
      const n1 = await waitForSnapshot(page, (x) => x.selectedId !== undefined && x.detailOpen, 'n selects a finding');
      await page.keyboard.press('n');
      const n2 = await waitForSnapshot(page, (x) => x.selectedId !== n1.selectedId, 'n again selects the next finding');
      const first = session.event(n1.selectedId!);
      const second = session.event(n2.selectedId!);
      assert.ok(first.kind !== 'message' && second.kind !== 'message', 'findings only');
      const when = (e: EventView) => (e.kind === 'gap' ? (e.t0 + e.t1) / 2 : e.t1);
      assert.ok(when(second) >= when(first), 'in time order');
      await page.keyboard.press('p');
      await waitForSnapshot(page, (x) => x.selectedId === n1.selectedId, 'p goes back');
      await page.keyboard.press('Escape');
      await waitForSnapshot(page, (x) => !x.detailOpen, 'Escape closes the detail');
      await page.keyboard.press('Enter');
      await waitForSnapshot(page, (x) => x.detailOpen && x.detailEventId === n1.selectedId, 'Enter reopens it');
      assert.ok((await snapshot(page)).canvasFocused, 'focus stays on the canvas');
    });

    it('filters by kind through the filter bar', async () => {
      await page.getByRole('button', { name: 'Show the filter bar' }).click();
      const form = page.getByRole('form', { name: 'Filter the timeline' });
      await form.waitFor();
      await setCheckbox(form, 'message', false);
      // From the keyboard: Space unticks the focused check box, Enter applies the filter.
      const duplicate = form.getByRole('checkbox', { name: 'duplicate' });
      await duplicate.focus();
      await page.keyboard.press(' ');
      assert.equal(await duplicate.isChecked(), false, 'Space unticks it');
      const gen = (await snapshot(page)).generation;
      await page.keyboard.press('Enter');
      await waitForSnapshot(page, (x) => x.generation > gen, 'the filter reply');
      const s = await settled(page);
      assert.equal(s.marks!.message + s.marks!.density, 0, 'no messages');
      assert.equal(s.marks!.duplicate, 0, 'no duplicates');
      assert.equal(s.marks!.gap, 2, 'gaps still there');
      // Findings only: the lanes of the keys that have one of those shown, as the tree lists them.
      const withFindings = session.summary.byKey.filter((k) => k.gaps + k.late > 0).map((k) => k.key);
      assert.ok(withFindings.length > 0 && withFindings.length < session.summary.byKey.length, 'the sample has keys with and without gaps');
      assert.deepEqual(
        s.lanes.map((l) => l.name),
        withFindings,
      );
      await page.getByRole('button', { name: 'Clear the filter' }).click();
      await waitForSnapshot(page, (x) => x.generation > s.generation, 'the cleared filter');
      const c = await settled(page);
      assert.equal(c.marks!.duplicate, session.summary.duplicates);
      assert.deepEqual(
        c.lanes.map((l) => l.name),
        session.summary.byKey.map((k) => k.key),
        'every lane again',
      );
      await page.getByRole('button', { name: 'Hide the filter bar' }).click();
    });

    it('orders the lanes from the Keys menu, with no host: by name, by findings, as first seen', async () => {
      const menu = page.getByRole('combobox', { name: 'Order of the lanes' });
      const names = session.summary.byKey.map((k) => k.key);
      assert.equal(await choiceValue(menu), 'arrival');
      assert.deepEqual(
        (await snapshot(page)).lanes.map((l) => l.name),
        names,
      );
      const lanesBecome = (want: string[], what: string) => waitForSnapshot(page, (x) => x.lanes.map((l) => l.name).join() === want.join(), what);
      await pickChoice(page, menu, 'Keys: name');
      await lanesBecome(
        [...names].sort((a, b) => Number(a) - Number(b)),
        'lanes by name',
      );
      await pickChoice(page, menu, 'Keys: most findings');
      const byFindings = [...session.summary.byKey].sort(
        (a, b) => b.lost - a.lost || b.late - a.late || b.duplicates - a.duplicates || names.indexOf(a.key) - names.indexOf(b.key),
      );
      await lanesBecome(
        byFindings.map((k) => k.key),
        'lanes by findings',
      );
      assert.equal(await choiceValue(menu), 'findings');
      // The pages of the reordered lanes are drawn, not only their labels.
      const s = await settled(page);
      assert.ok(s.lanes.every((l) => l.fresh && l.hasData));
      await pickChoice(page, menu, 'Keys: first seen');
      await lanesBecome(names, 'first seen again');
    });

    it("checks a sequence range against the session's width (32-bit here, the cme preset) as it is typed, with the CLI's words, and will not apply it", async () => {
      await page.getByRole('button', { name: 'Show the filter bar' }).click();
      const form = page.getByRole('form', { name: 'Filter the timeline' });
      const from = form.getByRole('spinbutton', { name: 'Sequence from' });
      const to = form.getByRole('spinbutton', { name: 'Sequence to' });
      const problem = form.getByRole('alert');
      assert.match((await form.locator('.ss-seq').getAttribute('title')) ?? '', /0–4294967295 \(32-bit numbers\)\. A "from" above "to" runs through the wrap/);
      await from.click();
      await page.keyboard.type('4294967290');
      await to.click();
      await page.keyboard.type('4294967300');
      // Shown under the fields as VS Code shows an input's problem, and the field is invalid.
      await problem.waitFor();
      assert.equal(await problem.innerText(), '32-bit numbers end at 4294967295');
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-filter-range-problem.png'), clip: { x: 0, y: 0, width: 1280, height: 240 } });
      assert.equal(await to.evaluate((i) => (i as unknown as { validationMessage: string }).validationMessage), '32-bit numbers end at 4294967295');
      assert.equal(await form.locator('vscode-textfield[name="seqTo"]').evaluate((f) => f.matches(':invalid')), true, 'the field itself is :invalid');
      const gen = (await snapshot(page)).generation;
      // Refused: Enter (as Apply) checks the fields and fires "invalid" on the one with the problem
      // instead of applying, so no filter goes to the host and no reply comes back.
      await form.locator('vscode-textfield[name="seqTo"]').evaluate((f) => {
        (globalThis as unknown as { __refused: Promise<void> }).__refused = new Promise<void>((resolve) =>
          f.addEventListener('invalid', () => resolve(), { once: true }),
        );
      });
      await page.keyboard.press('Enter');
      await page.evaluate(() => (globalThis as unknown as { __refused: Promise<void> }).__refused);
      assert.equal((await snapshot(page)).generation, gen, 'nothing applied');
      assert.equal(
        await to.evaluate((i) => i === (i.getRootNode() as unknown as { activeElement: unknown }).activeElement),
        true,
        'the field with the problem keeps the focus',
      );
      // Through the wrap is a valid 32-bit range: the problem goes, and Enter applies it.
      await page.keyboard.press('Control+A');
      await page.keyboard.type('5');
      await problem.waitFor({ state: 'hidden' });
      assert.equal(await to.evaluate((i) => (i as unknown as { validity: { valid: boolean } }).validity.valid), true);
      await page.keyboard.press('Enter');
      await waitForSnapshot(page, (x) => x.generation > gen, 'the wrapped range applies');
      await page.getByRole('button', { name: 'Clear the filter' }).click();
      assert.equal(await from.inputValue(), '', 'Clear empties the fields');
      await page.getByRole('button', { name: 'Hide the filter bar' }).click();
    });

    it('takes screenshots in the light and dark themes', async () => {
      await page.getByRole('button', { name: 'Fit all: show the whole session' }).click();
      let s = await settled(page);
      const gap = s.findings.find((f) => f.kind === 'gap')!;
      await page.mouse.click(at(s, gap).x, at(s, gap).y);
      await waitForSnapshot(page, (x) => x.detailEventId === gap.id, 'gap detail');
      s = await settled(page);
      const light = s.background;
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-light.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      s = await waitForSnapshot(page, (x) => x.background !== light, 'the dark theme');
      assert.match((await page.locator('body').getAttribute('class')) ?? '', /\bvscode-dark\b/);
      await settled(page);
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-dark.png') });
      // Zoomed in on a gap: the missing range is labelled on its band, held messages under it.
      await page.keyboard.press('Escape');
      await page.mouse.move(at(s, gap).x, at(s, gap).y);
      await page.mouse.wheel(0, -900);
      await settled(page);
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-dark-zoomed.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await waitForSnapshot(page, (x) => x.background === light, 'back to light');
    });
  });

  describe('the XSS fixture', () => {
    it('shows hostile payloads, attributes, ids and key names as text, and no dialog opens', async () => {
      const o = await open(xssHtml, 'dark');
      const { page } = o;
      const s = await settled(page);
      assert.deepEqual(
        s.lanes.map((l) => l.name),
        [...xssSession.keyNames],
      );
      assert.ok(
        s.lanes.some((l) => l.name === XSS_PAYLOAD),
        'the hostile key name is a lane',
      );
      assert.equal(s.marks!.invalid, 1, 'the invalid record on its lane');
      // Find the message whose payload is the hostile string (messageId "<svg onload=alert(3)>").
      const target = s.messages.find((m) => xssSession.event(m.id).messageId === '<svg onload=alert(3)>');
      assert.ok(target, 'the hostile message is drawn');
      await page.mouse.click(at(s, target).x, at(s, target).y);
      await waitForSnapshot(page, (x) => x.detailEventId === target.id, 'its detail');
      const pre = page.locator('.ss-detail .ss-payload');
      await pre.waitFor();
      assert.equal(await pre.getAttribute('data-view'), 'text', 'not JSON: shown as text');
      assert.equal(await pre.textContent(), XSS_PAYLOAD);
      const detail = await page.locator('.ss-detail').innerText();
      assert.ok(detail.includes('<svg onload=alert(3)>'), 'messageId as text');
      assert.ok(detail.includes('</script><img src=x onerror=alert(2)>'), 'attribute as text');
      // The hostile key name is an option of the filter's key list, as text: open the list as a
      // person does; its option reads the payload, and no element was made of it.
      await page.getByRole('button', { name: 'Show the filter bar' }).click();
      const keys = page.getByRole('combobox', { name: 'Keys to show (none selected: all)' });
      await keys.click();
      const option = page.getByRole('option', { name: XSS_PAYLOAD, exact: true });
      await option.waitFor();
      assert.equal(await option.count(), 1);
      assert.equal((await option.textContent())?.trim(), XSS_PAYLOAD);
      assert.equal(await page.locator('.ss-filters img').count(), 0, 'no element made from the key name');
      await page.keyboard.press('Escape');
      await option.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Hide the filter bar' }).click();
      // Every element the page adds from here on, however briefly: an element made from data
      // would be added as its view is drawn.
      // (A string: the test's TypeScript has no DOM types.)
      await page.evaluate(`(() => {
        const added = (globalThis.__added = []);
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) if (n instanceof Element) for (const e of [n, ...n.querySelectorAll('*')]) if (/^(img|svg|iframe|object|embed)$/i.test(e.tagName)) added.push(e.outerHTML.slice(0, 80));
        }).observe(document, { childList: true, subtree: true });
      })()`);
      // Click through every mark, and the invalid record, for good measure.
      for (const { id } of [...s.findings, ...s.messages]) {
        const now = await settled(page);
        const m = [...now.findings, ...now.messages].find((x) => x.id === id)!;
        await page.mouse.click(at(now, m).x, at(now, m).y);
        await waitForSnapshot(page, (x) => x.detailEventId === m.id, `detail of ${m.id}`);
      }
      assert.match(await page.locator('.ss-detail').innerText(), /./);
      // Two frames: what the last click drew is in the page.
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      assert.deepEqual(await page.evaluate(() => (globalThis as unknown as { __added: string[] }).__added), [], 'no element was created from data');
      // In the page's own tree: the web components draw their icons (svg) in their shadow roots,
      // from their templates, never from data.
      assert.equal(await page.evaluate("document.querySelectorAll('img, svg, iframe, object, embed').length"), 0, 'no element was created from data');
      assert.deepEqual(o.dialogs, [], 'no dialog opened');
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-xss-dark.png') });
    });
  });

  describe('the same bundle in a VS Code-like host (replay, reveal, errors, view state)', () => {
    let host: FakeHost;
    let page: Page;
    let records: ReturnType<typeof fileRecordSource>;

    before(async () => {
      records = fileRecordSource(session);
      host = await openInFakeHost(browser, session, resolveOptions({ preset: 'cme' }), records, 'cme-sample.jsonl');
      opened.push(host.opened);
      page = host.opened.page;
    });

    after(async () => {
      await records?.close();
    });

    it('shows the replay toolbar and steps through arrivals, drawing the cursor and the sequencer state', async () => {
      const s0 = await settled(page);
      assert.equal(s0.standalone, false);
      assert.equal(s0.cursorTime, undefined, 'no cursor before replay starts');
      const bar = page.getByRole('toolbar', { name: 'Replay' });
      await bar.waitFor();
      assert.equal(await page.locator('.ss-legend li', { hasText: 'replay position' }).count(), 1);
      for (let i = 0; i < 3; i++) await bar.getByRole('button', { name: 'Step forward one arrival' }).click();
      // The host reaches step 3 before the page has drawn it: wait for the drawn cursor itself.
      const s1 = await waitForSnapshot(
        page,
        (x) => host.replay().state?.position === 3 && x.cursorTime !== undefined && x.cursorTime === host.replay().state?.time,
        'three steps',
      );
      assert.equal(s1.cursorTime, host.replay().state!.time);
      assert.match(await bar.innerText(), new RegExp(`arrival 3 of 3\u202f006 · ${clockTime(host.replay().state!.time)}`));
      const panel = page.getByRole('complementary', { name: 'Sequencer state at the replay position' });
      await panel.waitFor();
      assert.match(await panel.innerText(), /Arrival 3: key \d+, seq \d+, line 3/);
      // Pages now stop at the position: everything drawn was emitted before it.
      const s2 = await settled(page);
      assert.ok(s2.generation > s0.generation, 'pages were requested again');
      assert.ok(s2.marks!.gap === 0 && s2.marks!.duplicate <= 1, 'nothing after the position');
    });

    it('seeks into an open gap and lists it, with how long it has waited', async () => {
      // The first gap: seek to an arrival after it opened and before it was declared lost.
      const key = session.summary.byKey.findIndex((k) => k.gaps > 0);
      const gap = session.findings(key, 'gap', 0, 1)[0];
      let position = 0;
      while (session.log.time.get(position) <= gap.t0 + 1000) position++;
      await page.getByRole('slider', { name: 'Replay position' }).fill(String(position));
      await waitForSnapshot(page, () => host.replay().state?.position === position, 'the seek');
      const panel = page.getByRole('complementary', { name: 'Sequencer state at the replay position' });
      await panel
        .locator('td', { hasText: missingRange(gap.seq!, gap.seqTo!) })
        .first()
        .waitFor();
      const row = panel.locator('tr', { hasText: missingRange(gap.seq!, gap.seqTo!) });
      assert.match(await row.innerText(), new RegExp(`^${gap.key}\\s+${gap.seq}\\s`), 'expected number = first missing');
      const waited = (await row.locator('td').last().innerText()).trim();
      assert.match(waited, /^\d+(\.\d+)? (s|ms)$/, `how long it has waited: ${waited}`);
      // Next gap: the position moves past the declaration, and the gap is drawn.
      await page.getByRole('button', { name: 'Step to the next gap' }).click();
      await waitForSnapshot(page, () => (host.replay().state?.position ?? 0) > position, 'next gap');
      await page.getByRole('button', { name: 'Fit all: show the whole session' }).click();
      // The page learns the new position a moment after the host: wait for what it draws.
      await waitForSnapshot(page, (x) => (x.marks?.gap ?? 0) >= 1, 'the gap drawn once declared');
      await page.getByRole('button', { name: 'To the end' }).click();
      await waitForSnapshot(page, () => host.replay().state?.position === session.arrivalCount + 1, 'the end');
      await waitForSnapshot(page, (x) => x.marks?.gap === session.summary.gaps, 'every gap drawn at the end');
    });

    it('sends play, pause and speed, and shows what the host says', async () => {
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
      await pickChoice(page, page.getByRole('combobox', { name: 'Replay speed' }), '×10');
      await waitForSnapshot(page, () => host.received.some((m) => m.type === 'setSpeed' && m.speed === 10), 'setSpeed 10');
      const types = host.received.map((m) => m.type);
      assert.ok(types.includes('replay') && types.includes('seek') && types.includes('requestPage') && types[0] === 'ready');
      // The first frame with data is reported once, for the session shown.
      assert.deepEqual(
        host.received.filter((m) => m.type === 'painted'),
        [{ type: 'painted', session: 'fake-host-session' }],
      );
    });

    it('reveals an event the host names: centred, selected, detail open', async () => {
      // A duplicate in the middle of the session, so centring it is not clamped at an end.
      const { start, end } = session.timeRange;
      const dups = session.keyNames.flatMap((_, k) => session.findings(k, 'duplicate', 0, 100));
      const dup = dups.reduce((a, b) => (Math.abs(b.t1 - (start + end) / 2) < Math.abs(a.t1 - (start + end) / 2) ? b : a));
      await host.send({ type: 'reveal', event: dup });
      const s = await waitForSnapshot(page, (x) => x.selectedId === dup.id && x.detailEventId === dup.id, 'reveal');
      assert.ok(Math.abs((s.window!.t0 + s.window!.t1) / 2 - dup.t1) < (s.window!.t1 - s.window!.t0) * 0.01, 'centred on it');
      assert.ok((await page.locator('.ss-detail').innerText()).includes(dup.messageId!));
      assert.ok(
        host.received.some((m) => m.type === 'select' && m.eventId === dup.id),
        'select sent back',
      );
    });

    it('shows host errors in a dismissable bar', async () => {
      await host.send({ type: 'error', message: 'The capture file changed on disk: reload it.' });
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /The capture file changed on disk: reload it\./);
      await page.getByRole('button', { name: 'Dismiss the error' }).click();
      await alert.waitFor({ state: 'hidden' });
    });

    it('keeps the view in the webview state, so VS Code can restore it', async () => {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const s = await settled(page);
      await waitForSnapshot(page, () => (host.state() as { t0?: number } | undefined)?.t0 === s.window!.t0, 'setState');
      assert.deepEqual(host.state(), { sessionId: 'fake-host-session', t0: s.window!.t0, t1: s.window!.t1, scrollY: 0 });
      await page.screenshot({ path: join(RESULTS_DIR, 'timeline-vscode-replay-dark.png') });
    });
  });

  // Mocha runs a suite's own tests before its nested suites: this one goes last in its own suite.
  describe('all pages', () => {
    it('logged no console errors and no uncaught exceptions', () => {
      assert.ok(opened.length >= 2);
      assert.deepEqual(
        opened.flatMap((o) => o.errors),
        [],
      );
      assert.deepEqual(
        opened.flatMap((o) => o.dialogs),
        [],
      );
    });
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
