/**
 * End-to-end: the timeline webview inside the real VS Code 1.100 workbench (headless Chromium),
 * opened from the Command Palette as a person would, with the extension host answering it.
 *
 * The webview is two nested iframes overlaid on the workbench (the outer `webview` frame and
 * the inner `active-frame`, whose name reads `pending-frame`); findWebviewFrame finds the inner
 * one by our canvas. What the timeline drew is read from its test hook
 * (window.__seqscopeTimeline.snapshot(), as the standalone tests do) and checked against the
 * canvas pixels at the positions it reports, and against the capture files themselves.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { clockTime } from '../../src/webview/format';
import type { DrawnLane, DrawnMark, TimelineSnapshot } from '../../src/webview/timelineSnapshot';
import { choiceValue, pickChoice, setCheckbox, settled, snapshot, waitForSnapshot } from '../support/e2e/browser';
import { editorTab, openCaptureFromPalette, SHOTS, until, useWorkbench } from '../support/e2e/workbench';

const SAMPLE = join(ROOT, 'media', 'samples', 'cme-sample.jsonl');
const XSS = join(ROOT, 'test', 'fixtures', 'xss.jsonl');
const XSS_PAYLOAD = '<img src=x onerror=alert(1)>';

interface CaptureLine {
  message: { messageId: string; attributes: Record<string, string> };
  deliveryAttempt?: number;
  receivedAt: string;
}

/** The sample's records, line by line (line n is element n − 1): the ground truth to check against. */
const sampleLines = (): CaptureLine[] =>
  readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CaptureLine);

/** The theme colour each kind of finding is drawn in (src/webview/theme.ts). */
const MARK_COLOUR: Record<string, string> = {
  gap: '--vscode-charts-red',
  redelivery: '--vscode-charts-orange',
  republish: '--vscode-charts-purple',
};

/** The little of the page's DOM the pixel check uses (the Node tsconfig has no DOM types). */
interface Canvas2d {
  fillStyle: string;
  globalAlpha: number;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
interface PageCanvas {
  width: number;
  getBoundingClientRect(): { width: number };
  getContext(type: '2d', options?: { willReadFrequently: boolean }): Canvas2d;
}
interface PageGlobals {
  document: { querySelector(selector: string): unknown; createElement(tag: 'canvas'): PageCanvas; body: unknown };
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string };
}

/**
 * For each mark, how close the canvas comes to the mark's theme colour around the position the
 * hook reports: the largest per-channel difference of the best pixel (0 = exact). Measured on
 * the sample: 0–1 at every mark; the same probes one lane lower, 52–255. A gap band counts its
 * translucent fill too (the theme colour at 22 % over its lane's background, as laneLayer.ts
 * draws it): its two solid edges can both be hidden, one under a duplicate's mark, the other
 * under the replay cursor (VS Code 1.139's light theme at this width: 45 without the fill).
 */
function colourDistances(frame: Frame, marks: DrawnMark[], lanes: readonly DrawnLane[] = []): Promise<{ id: number; kind: string; best: number }[]> {
  // No named inner functions: the TypeScript loader would wrap them with a helper the page lacks.
  return frame.evaluate(
    ({ marks, vars, lanes }) => {
      const page = globalThis as unknown as PageGlobals;
      const document = page.document;
      const canvas = document.querySelector('canvas.ss-canvas') as PageCanvas;
      const ctx = canvas.getContext('2d');
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const out: { id: number; kind: string; best: number }[] = [];
      for (const m of marks) {
        probe.clearRect(0, 0, 1, 1);
        probe.fillStyle = page.getComputedStyle(document.body).getPropertyValue(vars[m.kind]).trim();
        probe.fillRect(0, 0, 1, 1);
        const want = probe.getImageData(0, 0, 1, 1).data;
        const half = m.w !== undefined ? m.w / 2 + 2 : 7;
        const x0 = Math.max(0, Math.floor((m.x - half) * scale));
        const y0 = Math.max(0, Math.floor((m.y - 8) * scale));
        const px = ctx.getImageData(x0, y0, Math.ceil(2 * half * scale), Math.ceil(16 * scale)).data;
        const wanted = [want];
        const lane = lanes.find((l) => m.y >= l.y && m.y < l.y + l.height);
        if (m.kind === 'gap' && lane) {
          // The lane's background in the band's column, just above the band (which starts 3 px down).
          const bg = ctx.getImageData(Math.floor(m.x * scale), Math.floor((lane.y + 1) * scale), 1, 1).data;
          probe.globalAlpha = 1;
          probe.fillStyle = `rgb(${bg[0]}, ${bg[1]}, ${bg[2]})`;
          probe.fillRect(0, 0, 1, 1);
          probe.globalAlpha = 0.22;
          probe.fillStyle = page.getComputedStyle(document.body).getPropertyValue(vars.gap).trim();
          probe.fillRect(0, 0, 1, 1);
          probe.globalAlpha = 1;
          wanted.push(probe.getImageData(0, 0, 1, 1).data);
        }
        let best = 255;
        for (const w of wanted) {
          for (let i = 0; i < px.length; i += 4) {
            best = Math.min(best, Math.max(Math.abs(px[i] - w[0]), Math.abs(px[i + 1] - w[1]), Math.abs(px[i + 2] - w[2])));
          }
        }
        out.push({ id: m.id, kind: m.kind, best });
      }
      return out;
    },
    { marks, vars: MARK_COLOUR, lanes },
  );
}

/** Clicks a mark where the timeline drew it (canvas-relative CSS px, as the hook reports). */
async function clickMark(frame: Frame, m: DrawnMark): Promise<void> {
  await frame.locator('canvas.ss-canvas').click({ position: { x: m.x, y: m.y } });
}

/** The detail pane's rows (Event, Record, Attributes) as name → value. */
async function detailRows(frame: Frame): Promise<Map<string, string>> {
  const rows = await frame
    .locator('.ss-detail tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''] as [string, string]));
  return new Map(rows);
}

describe('timeline webview in the VS Code workbench (e2e)', () => {
  const workbench = useWorkbench((folder) => copyFileSync(XSS, join(folder, 'xss.jsonl')));
  let frame: Frame;
  /** Dialogs (alert, confirm…) from any frame, and console lines that betray injected markup. */
  const dialogs: string[] = [];
  const suspicious: string[] = [];

  before(() => {
    const { page } = workbench();
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    // A sandboxed webview cannot open a dialog, and its CSP refuses inline handlers: an injected
    // <img onerror> would show up here as the refusal (or the ignored alert), not as a dialog.
    page.on('console', (m) => {
      if (/alert|inline event handler|allow-modals/i.test(m.text())) suspicious.push(m.text());
    });
  });

  it('opens the sample from the Command Palette and draws its gaps and duplicates in the timeline', async () => {
    const { page } = workbench();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith('cme-sample.jsonl')), 60_000);
    // Opening the sample shows its timeline too; the webview takes the focus when it loads,
    // which would close a Command Palette opened meanwhile: let it load first.
    const { tab, close } = editorTab(page, 'Timeline: cme-sample.jsonl');
    await tab.waitFor({ timeout: 30_000 });
    await settled(await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 }), 60_000);
    // Closed with its tab's close button, then shown again from the Command Palette.
    await close.click();
    await tab.waitFor({ state: 'detached', timeout: 10_000 });
    await runCommand(page, 'SeqScope: Show Timeline');
    await tab.waitFor({ timeout: 30_000 });
    frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    const s = await settled(frame, 60_000);

    // The webview VS Code loaded is ours, with its strict CSP: scripts by nonce only.
    const csp = (await frame.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, `script nonce in ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    // VS Code injects one script of its own (acquireVsCodeApi, #_vscodeApiScript). Ours: the
    // bundle, inlined, by nonce; and the first view as an inert JSON data block (never run).
    const ours = await frame.locator('script:not(#_vscodeApiScript)').evaluateAll((els) =>
      els.map((e) => ({
        id: e.id,
        type: e.getAttribute('type') ?? '',
        nonce: (e as unknown as { nonce: string }).nonce,
        src: e.getAttribute('src') ?? '',
        length: e.textContent?.length ?? 0,
      })),
    );
    const runnable = ours.filter((x) => x.type !== 'application/json');
    assert.equal(runnable.length, 1, JSON.stringify(ours));
    assert.equal(runnable[0].nonce, nonce);
    assert.equal(runnable[0].src, '', 'the bundle is inlined, not loaded');
    assert.ok(runnable[0].length > 10_000, 'the inline script is the bundle');
    assert.deepEqual(
      ours.filter((x) => x.type === 'application/json').map((x) => x.id),
      ['seqscope-preview'],
      'one data block: the first view',
    );
    assert.match(csp, /style-src 'nonce-/, 'styles by nonce too');

    // Against the sample's injected truth (media/samples/README.md): 3 channels, 2 gaps,
    // 5 redeliveries and 5 republishes.
    assert.equal(s.standalone, false);
    assert.deepEqual(s.lanes.map((l) => l.name).sort(), ['310', '312', '318']);
    assert.ok(s.fitAll && s.lanes.every((l) => l.fresh && l.hasData));
    assert.deepEqual({ gap: s.marks!.gap, redelivery: s.marks!.redelivery, republish: s.marks!.republish }, { gap: 2, redelivery: 5, republish: 5 });
    assert.equal(s.findings.length, 12, 'every finding is listed with its position');
    // ... and the canvas has each one's colour where the hook says it drew it.
    const far = (await colourDistances(frame, s.findings)).filter((d) => d.best > 24);
    assert.deepEqual(far, [], 'marks whose colour is not on the canvas at their position');
    // The replay toolbar is there in VS Code (a standalone export has none).
    await frame.getByRole('toolbar', { name: 'Replay' }).waitFor();
    await screenshot(page, join(SHOTS, 'workbench-timeline.png'));

    // The tree's Summary opens on the session's hold and latency percentiles, a row a measure.
    const summary = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row', { hasText: /^Summary/ }).first();
    await summary.click();
    const measureRows = async () =>
      (await treeRows(page, 'seqscope')).filter((r) => /p50 .* · max /s.test(r)).map((r) => r.replace(/\s+/g, ' ').replace(/ ?p50 /, ' p50 '));
    await until(async () => (await measureRows()).length === 4, 15_000).catch(async (e: Error) =>
      assert.fail(`${e.message}; tree rows: ${(await treeRows(page, 'seqscope')).join(' | ')}`),
    );
    const measures = await measureRows();
    // The sample's gaps waited the 10 s gap timeout; most messages were released as they arrived.
    assert.equal(measures[0], 'hold (arrival → release) p50 0ms · p90 0ms · p99 8.4s · max 10s');
    assert.deepEqual(
      measures.slice(1).map((r) => r.split(' p50 ')[0]),
      ['sent → published', 'published → received', 'sent → received'],
    );
    for (const r of measures) assert.match(r, / p50 [\d.]+m?s · p90 [\d.]+m?s · p99 [\d.]+m?s · max [\d.]+m?s$/);
    await screenshot(page, join(SHOTS, 'workbench-tree-percentiles.png'));
    await summary.click();
    await until(async () => (await measureRows()).length === 0, 15_000);
  });

  it('shows the message detail (messageId, attributes) when a duplicate mark is clicked', async () => {
    const lines = sampleLines();
    for (const kind of ['redelivery', 'republish']) {
      const s = await settled(frame);
      const mark = s.findings.find((f) => f.kind === kind)!;
      await clickMark(frame, mark);
      await waitForSnapshot(frame, (x) => x.detailEventId === mark.id, `detail of the ${kind} ${mark.id}`);
      await frame.locator('.ss-detail .ss-payload').waitFor();
      const rows = await detailRows(frame);
      // The hold and latency percentiles of the mark's key and of all keys, under the record.
      const percentiles = await frame.locator('.ss-detail .ss-percentiles').evaluateAll((sections) =>
        sections.map((sec) => ({
          heading: sec.querySelector('h3')?.textContent ?? '',
          rows: [...sec.querySelectorAll('tr')].map((tr) => `${tr.querySelector('th')?.textContent ?? ''}: ${tr.querySelector('td')?.textContent ?? ''}`),
        })),
      );
      assert.deepEqual(
        percentiles.map((p) => p.heading),
        [`Key ${rows.get('Key')}: p50 / p90 / p99 / max`, 'All keys: p50 / p90 / p99 / max'],
      );
      for (const p of percentiles) {
        assert.deepEqual(
          p.rows.map((r) => r.split(': ')[0]),
          ['hold (arrival → release)', 'sent → published', 'published → received', 'sent → received'],
        );
        for (const r of p.rows) assert.match(r, /: (?:[\d.]+ (?:µs|ms|s) \/ ){3}[\d.]+ (?:µs|ms|s)$/);
      }
      assert.equal(percentiles[1].rows[0], 'hold (arrival → release): 0 µs / 0 µs / 8.42 s / 10 s');
      const id = rows.get('messageId');
      assert.ok(id, `a messageId row in ${JSON.stringify([...rows])}`);
      // The capture itself: a redelivery repeats its first copy's messageId (attempt 2); a
      // republish has a new one, with the number of another record of its channel.
      const same = lines.filter((l) => l.message.messageId === id);
      const attrs = same[0]?.message.attributes;
      assert.ok(attrs, `messageId ${id} is in the capture`);
      assert.equal(rows.get('Channel'), attrs.Channel);
      assert.equal(rows.get('MsgSeqNum'), attrs.MsgSeqNum);
      assert.equal(rows.get('SendingTime'), same.at(-1)!.message.attributes.SendingTime);
      const sameNumber = lines.filter((l) => l.message.attributes.Channel === attrs.Channel && l.message.attributes.MsgSeqNum === attrs.MsgSeqNum);
      if (kind === 'redelivery') {
        assert.equal(same.length, 2, 'delivered twice under one messageId');
        assert.equal(rows.get('deliveryAttempt'), '2');
      } else {
        assert.equal(same.length, 1, 'a new messageId');
        assert.ok(sameNumber.length >= 2, 'the number was published before under another messageId');
      }
    }
    await screenshot(workbench().page, join(SHOTS, 'workbench-timeline-detail.png'));
    await frame.getByRole('button', { name: 'Close the detail pane' }).click();
  });

  it('steps forward, back and to the next gap: the cursor moves and the state panel follows', async () => {
    const lines = sampleLines();
    const timeOf = (line: number) => Date.parse(lines[line - 1].receivedAt);
    const bar = frame.getByRole('toolbar', { name: 'Replay' });
    const panel = frame.getByRole('complementary', { name: 'Sequencer state at the replay position' });
    const s0 = await snapshot(frame);
    assert.equal(s0.cursorTime, undefined, 'no cursor before replay starts');
    assert.ok(await panel.isHidden(), 'no state panel before replay starts');

    const step = async (name: string, line: number, what: string): Promise<TimelineSnapshot> => {
      await bar.getByRole('button', { name }).click();
      // The host answers, the page redraws: wait for the cursor drawn at that arrival's time.
      const s = await waitForSnapshot(frame, (x) => x.cursorTime === timeOf(line), what);
      await panel.locator('p', { hasText: `Arrival ${line}:` }).waitFor({ timeout: 10_000 });
      assert.match(
        await panel.innerText(),
        new RegExp(`Arrival ${line}: key ${lines[line - 1].message.attributes.Channel}, seq ${lines[line - 1].message.attributes.MsgSeqNum}, line ${line}`),
      );
      return s;
    };
    await step('Step forward one arrival', 1, 'step 1');
    await step('Step forward one arrival', 2, 'step 2');
    await step('Step forward one arrival', 3, 'step 3');
    assert.match(await bar.innerText(), new RegExp(`arrival 3 of 3\u202f006 · ${clockTime(timeOf(3))}`));
    // VS Code's status bar says the same, compactly.
    await workbench().page.locator('.statusbar-item', { hasText: 'cme-sample.jsonl · 0 gaps · 0 dup · 0 late · 3/3006' }).waitFor({ timeout: 10_000 });
    assert.match(await panel.innerText(), /0 gaps \(0 lost\)/);
    // What each key holds in its start window after three arrivals, as runs of consecutive
    // numbers with a count ("7100–7101 (2)"), not a number a line.
    const heldAt3 = new Map<string, number[]>();
    for (const l of lines.slice(0, 3))
      heldAt3.set(l.message.attributes.Channel, [...(heldAt3.get(l.message.attributes.Channel) ?? []), Number(l.message.attributes.MsgSeqNum)]);
    const cell = (nums: number[]): string => {
      const sorted = [...new Set(nums)].sort((a, b) => a - b);
      const runs: string[] = [];
      for (let i = 0; i < sorted.length; ) {
        let j = i;
        while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
        runs.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
        i = j + 1;
      }
      return runs.join(', ') + (sorted.length > 1 ? ` (${sorted.length})` : '');
    };
    const heldCells = new Map(
      await panel.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[2].textContent] as [string, string])),
    );
    assert.deepEqual(heldCells, new Map([...heldAt3].map(([k, nums]) => [k, cell(nums)])));
    // The lane labels count up to the position (the start windows hold: no findings yet).
    const upTo3 = (name: string) => `${lines.slice(0, 3).filter((l) => l.message.attributes.Channel === name).length} rcv`;
    const at3 = await waitForSnapshot(
      frame,
      (x) => x.allFresh && x.lanes.length === 3 && x.lanes.every((l) => l.label === upTo3(l.name)),
      'lane labels at arrival 3',
    );
    assert.equal(
      at3.lanes.reduce((a, l) => a + Number(l.label.split(' ')[0]), 0),
      3,
      'three arrivals in all',
    );
    // The lane the keyboard moves to is announced with the same counts.
    await frame.locator('canvas.ss-canvas').press('ArrowDown');
    const focused = await waitForSnapshot(frame, (x) => x.focusedLane !== undefined && x.canvasFocused, 'a lane focused from the keyboard');
    const name = focused.lanes[focused.focusedLane!].name;
    await frame.locator('#ss-status', { hasText: `Lane ${name} at the replay position: ${upTo3(name).split(' ')[0]} received, ` }).waitFor({ timeout: 10_000 });
    await step('Step back one arrival', 2, 'step back');
    // Pages now stop at the position: nothing after arrival 2 is drawn.
    const early = await settled(frame);
    assert.equal(early.marks!.gap, 0, 'no gap drawn at arrival 2');

    // Next gap: the position runs to where the first gap opens (the first message held behind
    // it), then to where it is declared lost; it is drawn there.
    await bar.getByRole('button', { name: 'Step to the next gap' }).click();
    await waitForSnapshot(frame, (x) => (x.cursorTime ?? 0) > timeOf(2), 'the cursor where the gap opens');
    await bar.getByRole('button', { name: 'Step to the next gap' }).click();
    await panel.locator('p', { hasText: /· 1 gap \(\d+ lost\)/ }).waitFor({ timeout: 15_000 });
    const s = await waitForSnapshot(frame, (x) => (x.cursorTime ?? 0) > timeOf(2), 'the cursor at the next gap');
    const at = /Arrival ([\d\u202f]+):/.exec(await panel.innerText());
    assert.ok(at && Number(at[1].replace(/\u202f/g, '')) > 2, `moved past arrival 2: ${at?.[1]}`);
    assert.equal(s.cursorTime, timeOf(Number(at[1].replace(/\u202f/g, ''))), 'the cursor is drawn at that arrival');
    await frame.getByRole('button', { name: 'Fit all: show the whole session' }).click();
    const g = await waitForSnapshot(frame, (x) => x.allFresh && x.marks?.gap === 1, 'the declared gap drawn, the other not yet');
    const gap = g.findings.find((f) => f.kind === 'gap')!;
    assert.deepEqual(
      (await colourDistances(frame, [gap], g.lanes)).filter((d) => d.best > 24),
      [],
      'the gap band on the canvas',
    );
    await screenshot(workbench().page, join(SHOTS, 'workbench-timeline-replay.png'));
    // The state table's headers each on one line in the narrow panel (they wrapped: "Ke", "y").
    const headerLines = await panel.locator('thead th').evaluateAll((ths) =>
      ths.map((th) => {
        const r = th.ownerDocument.createRange();
        r.selectNodeContents(th);
        return `${th.textContent}: ${r.getClientRects().length}`;
      }),
    );
    assert.deepEqual(headerLines, ['Key: 1', 'Expected: 1', 'Held: 1', 'Open gap: 1', 'Waited: 1']);
    await bar.getByRole('button', { name: 'To the end' }).click();
    const atEnd = await waitForSnapshot(frame, (x) => x.marks?.gap === 2 && x.allFresh, 'both gaps at the end');
    assert.match(await bar.innerText(), /end of input · 3\u202f006 arrivals/);
    // At the end the counts are the totals (media/samples/README.md: 318 has one gap, two duplicates).
    assert.equal(atEnd.lanes.find((l) => l.name === '318')?.label, '1k rcv · 1 gap · 2 dup');
  });

  it('never takes keys typed elsewhere: "gld" reaches the Command Palette, the Search view and the filter box whole; on the canvas the keys step the replay', async () => {
    const { page } = workbench();
    const bar = frame.getByRole('toolbar', { name: 'Replay' });
    const canvas = frame.locator('canvas.ss-canvas');
    await bar.getByRole('button', { name: 'Back to the start' }).click();
    await waitForSnapshot(frame, (x) => x.replayPosition === 0, 'replay at the start');
    /** The timeline open and focused: its canvas has the focus. */
    const focusTimeline = async () => {
      // Focus asked for again until the canvas has it: a focus asked for while the workbench is
      // still moving it (the quick input closing) can be taken back, as a user's click can.
      await until(async () => {
        await canvas.focus();
        return (await snapshot(frame)).canvasFocused === true;
      }, 10_000).catch(async (e: Error) => assert.fail(`the timeline focused: ${e.message}; last snapshot: ${JSON.stringify(await snapshot(frame))}`));
    };
    /**
     * The replay is still at the start after typing into `where`. A key taken there would have
     * sent a replay command to the extension host before this: → on the canvas goes through the
     * same host after it, so an answer of exactly 1 (not a gap's, a duplicate's or a late
     * arrival's position + 1) proves nothing moved, with no wait for something not to happen.
     */
    const stillAtStart = async (where: string) => {
      await focusTimeline();
      await page.keyboard.press('ArrowRight');
      await waitForSnapshot(frame, (x) => x.replayPosition === 1, `typing into ${where} left the replay where it was (→ steps from 0 to 1)`);
      await page.keyboard.press('ArrowLeft');
      await waitForSnapshot(frame, (x) => x.replayPosition === 0, '← steps back to the start');
    };

    // The Command Palette, opened from the focused timeline.
    await focusTimeline();
    await page.keyboard.press('F1');
    const palette = page.locator('.quick-input-widget .quick-input-box input');
    await palette.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('gld');
    assert.equal(await palette.inputValue(), '>gld', 'the palette got every key');
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden', timeout: 10_000 });
    await stillAtStart('the Command Palette');

    // The Search view's input, opened from the focused timeline (Ctrl+Shift+F).
    await focusTimeline();
    await page.keyboard.press('Control+Shift+F');
    const search = page.locator('.search-view .search-widget .monaco-findInput').first().locator('textarea, input').first();
    // (Should the shortcut not reach the workbench from the webview, the command opens it: typing is what is checked.)
    if (
      !(await search.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    )
      await runCommand(page, 'View: Show Search');
    await search.waitFor({ state: 'visible', timeout: 10_000 });
    await until(async () => await search.evaluate((e) => e === e.ownerDocument.activeElement), 10_000);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('gld');
    assert.equal(await search.inputValue(), 'gld', 'the Search view got every key');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await stillAtStart('the Search view');
    // Back to SeqScope's view (the tree the next tests read).
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click();

    // The timeline's own filter bar: a text field, a number field and the keys' list, each with
    // the replay's keys (letters, arrows, Space, Home, End, Escape) typed into it.
    await focusTimeline();
    await frame.getByRole('button', { name: 'Show the filter bar' }).click();
    const valueBox = frame.getByRole('textbox', { name: 'Attribute value' });
    await valueBox.click();
    await page.keyboard.type('gld');
    for (const key of ['ArrowLeft', 'Home', 'ArrowRight', 'End', ' ', 'Escape']) await page.keyboard.press(key);
    assert.equal(await valueBox.inputValue(), 'gld ', 'the filter box got every key');
    await valueBox.fill('');
    const fromBox = frame.getByRole('spinbutton', { name: 'Sequence from' });
    await fromBox.click();
    await page.keyboard.type('12');
    for (const key of ['Home', 'End', 'ArrowLeft', 'ArrowRight', 'Escape']) await page.keyboard.press(key);
    assert.equal(await fromBox.inputValue(), '12', 'the number field kept its number');
    await fromBox.fill('');
    // The keys' list narrows to what is typed; Escape closes it.
    const keysBox = frame.getByRole('combobox', { name: 'Keys to show (none selected: all)' });
    await keysBox.click();
    await page.keyboard.type('gld');
    assert.equal(await keysBox.inputValue(), 'gld', "the keys' list got every key");
    await frame.getByText('No options').waitFor();
    await page.keyboard.press('Escape');
    await frame.getByText('No options').waitFor({ state: 'hidden' });
    await frame.getByRole('button', { name: 'Hide the filter bar' }).click();
    await stillAtStart('the filter bar');

    // On the canvas the keys drive the replay: → steps (and does not pan), G runs to the next
    // gap, Home goes back to the start. Each answer is awaited, so a key taken earlier would
    // show up as a position off by its move.
    await focusTimeline();
    const w0 = (await snapshot(frame)).window;
    await page.keyboard.press('ArrowRight');
    await waitForSnapshot(frame, (x) => x.replayPosition === 1, '→ steps to arrival 1');
    await page.keyboard.press('ArrowRight');
    const at2 = await waitForSnapshot(frame, (x) => x.replayPosition === 2, '→ steps to arrival 2');
    assert.deepEqual(at2.window, w0, '→ does not pan');
    await page.keyboard.press('g');
    const gap = await waitForSnapshot(frame, (x) => (x.replayPosition ?? 0) > 2, 'g runs to the next gap');
    await page.keyboard.press('ArrowLeft');
    await waitForSnapshot(frame, (x) => x.replayPosition === gap.replayPosition! - 1, '← steps back');
    await page.keyboard.press('Shift+ArrowRight');
    await waitForSnapshot(frame, (x) => x.window!.t0 > w0!.t0, 'Shift+→ pans');
    assert.equal((await snapshot(frame)).replayPosition, gap.replayPosition! - 1, 'Shift+→ does not step');
    await page.keyboard.press('Home');
    await waitForSnapshot(frame, (x) => x.replayPosition === 0, 'Home goes to the start');
    // ? lists the keys, the replay's among them; Escape gives the canvas its focus back.
    await page.keyboard.press('?');
    const help = frame.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    assert.match(await help.innerText(), /Replay: step back \/ forward one arrival/);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await waitForSnapshot(frame, (x) => x.canvasFocused, 'the canvas focused again after the help');
    await frame.getByRole('button', { name: 'Fit all: show the whole session' }).click();
    await bar.getByRole('button', { name: 'To the end' }).click();
    await waitForSnapshot(frame, (x) => x.allFresh && x.marks?.gap === 2, 'back at the end, as the next test expects');
    // Gaps are findings, not a fault: the status bar says them without a warning colour (VS
    // Code's own kinds: warning-kind, error-kind; an error is kept for a disconnected live session).
    const item = page.locator('.statusbar-item', { hasText: /cme-sample\.jsonl · 2 gaps/ });
    await item.waitFor({ timeout: 10_000 });
    assert.doesNotMatch((await item.getAttribute('class')) ?? '', /\b(warning|error)-kind\b/);
  });

  it('follows the light, dark and high-contrast themes, every control named and reachable by keyboard (a screenshot per theme)', async () => {
    const { page } = workbench();
    /** Picks a colour theme as a person does, and waits for the workbench and the webview to show it. */
    const pickTheme = async (label: string, workbenchClass: string, webviewClass: string) => {
      await runCommand(page, 'Preferences: Color Theme');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor({ timeout: 15_000 });
      await input.fill(label);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 15_000 });
      await input.press('Enter');
      await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
      await frame.waitForFunction(
        (c) => (globalThis as unknown as { document: { body: { classList: { contains(c: string): boolean } } } }).document.body.classList.contains(c),
        webviewClass,
        { timeout: 15_000 },
      );
    };
    await frame.getByRole('button', { name: 'Show the filter bar' }).click();
    const backgrounds = new Map<string, string>();
    let before = (await snapshot(frame)).background;
    for (const [label, workbenchClass, webviewClass, file] of [
      // The test workbench starts light: each theme picked differs from the one before, and
      // the last brings the light one back for the tests that follow.
      ['Dark Modern', 'vs-dark', 'vscode-dark', 'dark'],
      ['Dark High Contrast', 'hc-black', 'vscode-high-contrast', 'high-contrast'],
      ['Light Modern', 'vs', 'vscode-light', 'light'],
    ]) {
      await pickTheme(label, workbenchClass, webviewClass);
      // The canvas redraws in the theme's colours (read from VS Code's CSS variables).
      const s = await waitForSnapshot(frame, (x) => x.allFresh && x.background !== before, `the canvas redrawn in ${label}`);
      before = s.background;
      backgrounds.set(label, s.background ?? '');
      // Every control, as assistive technology reads it (Playwright's accessible names): none
      // without a name. An unnamed one reads `- button` where a named one reads `- button "Zoom in"`.
      const tree = await frame.locator('body').ariaSnapshot();
      const controls = tree
        .split('\n')
        .filter((l) => /^\s*- (button|combobox|listbox|textbox|checkbox|spinbutton|slider|radio|switch|link|menuitem|tab)\b/.test(l));
      assert.ok(controls.length >= 15, `the toolbar, replay bar and filter bar are in the tree:\n${tree}`);
      assert.deepEqual(
        controls.filter((l) => !/^\s*- \w+ "[^"]+"/.test(l)),
        [],
        `controls without an accessible name in ${label}`,
      );
      // Reachable by keyboard: no enabled control is taken out of the tab order (but for a part of
      // a web component whose own input is in it: the keys list's chevron button, which opens the
      // same list as ↓ in its input).
      const untabbable = await frame.locator('button, select, input, textarea, [role="button"], canvas').evaluateAll((els) =>
        els
          .filter((e) => !(e as unknown as { disabled?: boolean }).disabled && (e as unknown as { tabIndex: number }).tabIndex < 0 && !e.closest('[hidden]'))
          .filter((e) => {
            const root = e.getRootNode() as unknown as { host?: unknown; querySelectorAll(s: string): ArrayLike<{ tabIndex: number }> };
            return !(root.host && Array.from(root.querySelectorAll('input')).some((i) => i.tabIndex >= 0));
          })
          .map((e) => e.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(untabbable, [], `controls out of the tab order in ${label}`);
      await screenshot(page, join(SHOTS, `workbench-timeline-${file}.png`));
    }
    assert.equal(new Set(backgrounds.values()).size, 3, `one background per theme: ${JSON.stringify([...backgrounds])}`);
    await frame.getByRole('button', { name: 'Hide the filter bar' }).click();
  });

  it('orders the lanes from its Keys menu and from Sort Keys…, the tree alike; a filter cleared from the Command Palette reaches it', async () => {
    const { page } = workbench();
    const lanesBecome = async (want: string[], what: string) =>
      (await waitForSnapshot(frame, (x) => x.lanes.map((l) => l.name).join() === want.join(), what, 15_000)).lanes;
    // The sample's key rows in the Sessions tree: "310" and "997 delivered · …", read as one text.
    const treeKeysBecome = (want: string[]) =>
      until(
        async () =>
          (await treeRows(page, 'seqscope'))
            .filter((r) => /^3\d\d\d+ delivered/.test(r))
            .map((r) => r.slice(0, 3))
            .join() === want.join(),
        15_000,
      ).catch(async (e: Error) => assert.fail(`${e.message}; tree rows: ${(await treeRows(page, 'seqscope')).join(' | ')}`));
    const keysMenu = frame.getByRole('combobox', { name: 'Order of the lanes' });
    assert.equal(await choiceValue(keysMenu), 'arrival');
    await lanesBecome(['318', '310', '312'], 'first seen, as the capture has them');

    await pickChoice(frame, keysMenu, 'Keys: name');
    await lanesBecome(['310', '312', '318'], 'lanes by name');
    await treeKeysBecome(['310', '312', '318']);

    // From the Command Palette: 310 lost 3 numbers, 318 one, 312 none.
    await runCommand(page, 'SeqScope: Sort Keys…');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Most findings' }).first().click();
    await lanesBecome(['310', '318', '312'], 'lanes by findings');
    assert.equal(await choiceValue(keysMenu), 'findings', 'the menu shows the order the palette set');
    await treeKeysBecome(['310', '318', '312']);

    // A filter applied in the timeline and cleared from the Command Palette: the timeline hears of
    // it (it kept showing the filter, and only the keys with gaps, until reopened).
    await frame.getByRole('button', { name: 'Show the filter bar' }).click();
    const form = frame.getByRole('form', { name: 'Filter the timeline' });
    await setCheckbox(form, 'message', false);
    await setCheckbox(form, 'duplicate', false);
    await frame.getByRole('button', { name: 'Apply the filter' }).click();
    await lanesBecome(['310', '318'], 'the keys with gaps, by findings');
    await runCommand(page, 'SeqScope: Clear Filter');
    await lanesBecome(['310', '318', '312'], 'every lane again');
    assert.equal(await form.getByRole('checkbox', { name: 'message' }).isChecked(), true, 'the filter bar shows no filter');
    assert.equal(await frame.locator('.ss-filter-summary').innerText(), '');
    await frame.getByRole('button', { name: 'Hide the filter bar' }).click();

    await pickChoice(frame, keysMenu, 'Keys: first seen');
    await lanesBecome(['318', '310', '312'], 'first seen again');
    await treeKeysBecome(['318', '310', '312']);
  });

  it('shows a hostile payload, messageId and key name as text: no element, no dialog', async () => {
    const { page } = workbench();
    await openCaptureFromPalette(page, 'xss.jsonl', 'Preset: cme');
    await runCommand(page, 'SeqScope: Show Timeline');
    // The open panel follows the active session: wait for the fixture's lanes.
    await waitForSnapshot(frame, (x) => x.lanes.some((l) => l.name === XSS_PAYLOAD) && x.allFresh, 'the XSS fixture', 30_000);
    const s = await settled(frame);
    assert.deepEqual(s.lanes.map((l) => l.name).sort(), [XSS_PAYLOAD, 'XSS'].sort());
    assert.match(await frame.locator('.ss-title').innerText(), /xss\.jsonl/);
    // Click every mark; keep what each detail showed.
    const payloads: string[] = [];
    const details: string[] = [];
    const payload: Locator = frame.locator('.ss-detail .ss-payload');
    for (const { id } of [...s.findings, ...s.messages]) {
      const now = await settled(frame);
      const m = [...now.findings, ...now.messages].find((x) => x.id === id)!;
      await clickMark(frame, m);
      await waitForSnapshot(frame, (x) => x.detailEventId === m.id, `detail of ${m.id}`);
      details.push(await frame.locator('.ss-detail').innerText());
      if (await payload.count()) payloads.push(`${await payload.getAttribute('data-view')}:${await payload.textContent()}`);
    }
    assert.ok(payloads.includes(`text:${XSS_PAYLOAD}`), `the payload as text among ${JSON.stringify(payloads)}`);
    assert.ok(
      details.some((d) => d.includes('<svg onload=alert(3)>')),
      'the hostile messageId as text',
    );
    assert.ok(
      details.some((d) => d.includes('</script><img src=x onerror=alert(2)>')),
      'the hostile attribute as text',
    );
    // The last detail drawn: an element made from data would be in the page by now.
    await settled(frame);
    // (#seqscope-preview is the first view's inert JSON block; its `<` are \u003c escapes.)
    // In the page's own tree: the web components draw their icons (svg) inside their shadow
    // roots from their templates, never from data. (Typed by hand: the tests have no DOM types.)
    const made = await frame.evaluate(
      (sel) => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll(sel).length,
      'img, svg, iframe, object, embed, script:not([nonce]):not(#_vscodeApiScript):not(#seqscope-preview[type="application/json"])',
    );
    assert.equal(made, 0, 'no element was created from data');
    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.deepEqual(suspicious, [], 'no refused handler, no ignored alert');
    await screenshot(page, join(SHOTS, 'workbench-timeline-xss.png'));
  });
});
