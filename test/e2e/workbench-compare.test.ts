/**
 * End-to-end: Compare with… in the real VS Code workbench, as a person uses it — two captures of
 * one stream opened, the Sessions tree's context menu on one, the other picked from the list; the
 * comparison's timeline draws an A, a B and a merged lane per key one above the other; a range
 * both lost, clicked in the tree, opens its gap in the timeline's detail pane; the merged lane's
 * only-A / only-B / lost-in-both marks are drawn, named in the legend, clicked and filtered; the replay bar
 * steps through the merged stream. Screenshots go to .test-results/e2e/.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { findWebviewFrame, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { pairLines, planPair } from '../../scripts/lib/abPairGenerator';
import { setCheckbox, settled, waitForSnapshot } from '../support/e2e/browser';
import type { DrawnMark } from '../../src/webview/timelineSnapshot';
import { openCaptureFromPalette, SHOTS, until, useWorkbench } from '../support/e2e/workbench';

const PAIR = planPair({
  stream: {
    seed: 31,
    keys: ['310', '311'],
    messagesPerKey: 300,
    seqBits: 32,
    startSeq: 3_100_000,
    reorderFraction: 0,
    redeliveries: 0,
    republishes: 0,
    losses: [{ key: '311', from: 3_100_100, to: 3_100_103 }],
    // Some 40 s: the cme preset's 10 s gap timeout declares gaps well inside the capture.
    burstGapMs: 300,
  },
  dropA: 0.05,
  dropB: 0.05,
  lagMsB: 2,
});

const TITLE = 'a.jsonl ⇄ b.jsonl';

/** A row of the Sessions view by its text (key names are isolated by U+2068 … U+2069: a substring, not a start). */
function sessionsRow(page: Page, text: string | RegExp) {
  return page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row', { hasText: text }).first();
}

describe('Compare with… in the VS Code workbench (e2e)', function () {
  this.timeout(300_000);
  const workbench = useWorkbench((folder) => {
    writeFileSync(join(folder, 'a.jsonl'), [...pairLines(PAIR, 0)].map((l) => l + '\n').join(''));
    writeFileSync(join(folder, 'b.jsonl'), [...pairLines(PAIR, 1)].map((l) => l + '\n').join(''));
  });
  let frame: Frame;

  it('Sessions tree › Compare with… › the other session: A, B and merged lanes drawn one above the other', async () => {
    const { page } = workbench();
    await openCaptureFromPalette(page, 'a.jsonl', 'Preset: cme');
    await openCaptureFromPalette(page, 'b.jsonl', 'Preset: cme');
    await sessionsRow(page, /^a\.jsonl/).click({ button: 'right' });
    // The menu takes a hover and Enter as a person's click (a synthetic click can land as it opens).
    const item = page.locator('.context-view .action-menu-item', { hasText: 'Compare with…' });
    await item.hover({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    const title = page.locator('.quick-input-widget .quick-input-title');
    await until(async () => (await title.innerText().catch(() => '')).startsWith('Compare a.jsonl (A) with… (B)'), 15_000);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'b.jsonl' }).first().click();
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(TITLE)), 60_000);
    await page.locator('.tab', { hasText: `Timeline: ${TITLE}` }).waitFor({ timeout: 30_000 });
    frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    const s = await waitForSnapshot(frame, (x) => x.allFresh && x.lanes.length === 6, 'six lanes drawn', 60_000);
    const names = s.lanes.map((l) => l.name);
    for (const key of ['310', '311']) {
      const at = names.indexOf(`${key} · A (a.jsonl)`);
      assert.ok(at >= 0, `${key}'s A lane in ${names}`);
      assert.deepEqual(names.slice(at, at + 3), [`${key} · A (a.jsonl)`, `${key} · B (b.jsonl)`, `${key} · merged`]);
      const [a, b, m] = s.lanes.slice(at, at + 3);
      assert.ok(a.y < b.y && b.y < m.y, 'A above B above merged');
      assert.ok(a.hasData && b.hasData && m.hasData);
    }
    // Each side's lane has the gaps that side missed; the merged lane only what both lost.
    const gapsOn = (name: string) => Number(/(\d+) gaps?/.exec(s.lanes.find((l) => l.name === name)!.label)?.[1] ?? 0);
    assert.ok(gapsOn('311 · A (a.jsonl)') > 0 && gapsOn('311 · B (b.jsonl)') > 0, 'each side missed some');
    assert.ok(gapsOn('311 · merged') >= 1, 'the merged lane shows the loss both had');
    // The merged lane marks what only one side had and what both lost, counts them in its label,
    // and draws no duplicates: the pair has none on either side, and the other side's copy of a
    // number both had is no finding.
    const label = (name: string) => s.lanes.find((l) => l.name === name)!.label;
    for (const key of ['310', '311']) {
      assert.match(label(`${key} · merged`), /^\d+ rcv · A [1-9]\d* · B [1-9]\d* · × \d+/, key);
      assert.doesNotMatch(label(`${key} · merged`), / dup/, key);
      assert.doesNotMatch(label(`${key} · A (a.jsonl)`), / · A \d/, key);
    }
    assert.match(label('311 · merged'), / · × [1-9]/);
    const marks = s.marks!;
    assert.ok(marks.onlyA > 0 && marks.onlyB > 0 && marks.lostBoth > 0, JSON.stringify(marks));
    assert.equal(marks.duplicate, 0);
    const legend = await frame.locator('.ss-legend').innerText();
    for (const name of ['only A', 'only B', 'lost in both', "duplicates: a side's own"]) assert.ok(legend.includes(name), `${name} in the legend: ${legend}`);
    const info = (await treeRows(page, 'seqscope')).find((r) => r.startsWith('A: a.jsonl'));
    assert.match(info ?? '', /^A: a\.jsonl \(\d[\d,]* records\) ⇄ B: b\.jsonl \(\d[\d,]* records\)/);
    await screenshot(page, join(SHOTS, 'compare-lanes.png'));
  });

  it('a range lost in both, clicked in the tree, opens its gap in the timeline', async () => {
    const { page } = workbench();
    const merged = sessionsRow(page, '311 · merged');
    await merged.click();
    await page.keyboard.press('ArrowRight');
    const group = sessionsRow(page, 'Lost in both');
    await group.waitFor({ timeout: 15_000 });
    await group.click();
    await page.keyboard.press('ArrowRight');
    const range = sessionsRow(page, '#3100100–3100103');
    await range.waitFor({ timeout: 15_000 });
    await range.click();
    const s = await waitForSnapshot(frame, (x) => x.detailEventId !== undefined, 'the detail pane on the revealed gap', 20_000);
    assert.equal(s.selectedId, s.detailEventId);
    const heading = frame.locator('.ss-detail-title', { hasText: 'Gap 3100100–3100103 (4)' });
    await heading.waitFor({ timeout: 10_000 });
    // The key's name is isolated (U+2068 … U+2069) in the heading.
    assert.match((await heading.innerText()).replace(/[\u2068\u2069]/g, ''), /· 311 · merged$/);
    assert.match(await frame.locator('.ss-detail').innerText(), /Reason\s+gap timeout/);
    await screenshot(page, join(SHOTS, 'compare-missed-range.png'));
    await frame.getByRole('button', { name: 'Close the detail pane' }).click();
  });

  it('a merged lane’s only-A mark, clicked, says its numbers and sides; the filter bar hides the only-A marks', async () => {
    const { page } = workbench();
    // The whole session again (revealing the range zoomed onto it).
    await frame.getByRole('button', { name: 'Fit all: show the whole session' }).click();
    // Clicked where the latest frame drew it: the layout can still move once after Fit all (the
    // detail pane closing), so a click that selected nothing is tried again on a fresh frame.
    let mark: DrawnMark | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const s = await waitForSnapshot(frame, (x) => x.allFresh && x.fitAll, 'the whole session', 30_000);
      // One clear of the other ribbons, so the click is its own.
      const ribbons = s.findings.filter((f) => f.kind === 'onlyA' || f.kind === 'onlyB' || f.kind === 'lostBoth');
      const clear = (f: DrawnMark) => ribbons.every((g) => g === f || Math.abs(g.y - f.y) > 20 || Math.abs(g.x - f.x) > ((g.w ?? 0) + (f.w ?? 0)) / 2 + 8);
      mark = ribbons.find((f) => f.kind === 'onlyA' && clear(f));
      assert.ok(mark, `an only-A mark clear of the others among ${ribbons.length}`);
      await frame.locator('canvas.ss-canvas').click({ position: { x: mark.x, y: mark.y } });
      const id = mark.id;
      const picked = await waitForSnapshot(frame, (x) => x.detailEventId === id, 'the detail pane on the only-A mark', 5_000).catch(() => undefined);
      if (picked) break;
      assert.ok(attempt < 4, `the only-A mark #${id} at (${mark.x}, ${mark.y}) never opened its detail pane`);
    }
    const detail = await frame.locator('.ss-detail').innerText();
    assert.match(detail, /Only in A \(a\.jsonl\) #\d+/);
    assert.match(detail, /only in A \(a\.jsonl\): #\d+(–\d+)?, \d+ numbers?/);
    assert.match(detail, /B \(b\.jsonl\) missed them/);
    assert.doesNotMatch(detail, /no record/, 'a range is about numbers, not a record');
    await screenshot(page, join(SHOTS, 'compare-only-a.png'));
    await frame.getByRole('button', { name: 'Close the detail pane' }).click();

    await frame.getByRole('button', { name: 'Show the filter bar' }).click();
    const form = frame.getByRole('form', { name: 'Filter the timeline' });
    await setCheckbox(form, 'only A', false);
    await frame.getByRole('button', { name: 'Apply the filter' }).click();
    const filtered = await waitForSnapshot(frame, (x) => x.allFresh && x.marks?.onlyA === 0, 'no only-A marks', 20_000);
    assert.ok(filtered.marks!.onlyB > 0 && filtered.marks!.lostBoth > 0, 'the other marks stay');
    await frame.getByRole('button', { name: 'Clear the filter' }).click();
    await waitForSnapshot(frame, (x) => x.allFresh && (x.marks?.onlyA ?? 0) > 0, 'only-A marks again', 20_000);
    await frame.getByRole('button', { name: 'Hide the filter bar' }).click();
  });

  it('steps through the merged stream: each arrival on its key’s merged lane', async () => {
    const { page } = workbench();
    await settled(frame, 30_000);
    const bar = frame.getByRole('toolbar', { name: 'Replay' });
    const panel = frame.getByRole('complementary', { name: 'Sequencer state at the replay position' });
    for (let i = 1; i <= 3; i++) {
      await bar.getByRole('button', { name: 'Step forward one arrival' }).click();
      await waitForSnapshot(frame, (x) => x.replayPosition === i, `step ${i}`);
    }
    // Each of the three arrivals is received on its side's lane and on its key's merged lane.
    const rcv = (lanes: { name: string; label: string }[], side: RegExp) =>
      lanes.filter((l) => side.test(l.name)).reduce((n, l) => n + Number(/^(\d+) rcv/.exec(l.label)?.[1] ?? NaN), 0);
    const at3 = await waitForSnapshot(frame, (x) => x.allFresh && x.replayPosition === 3, 'lane counts at arrival 3');
    assert.equal(rcv(at3.lanes, / · [AB] \(/), 3);
    assert.equal(rcv(at3.lanes, / · merged$/), 3);
    await panel.locator('p', { hasText: 'Arrival 3:' }).waitFor({ timeout: 10_000 });
    assert.match(await panel.innerText(), /Arrival 3: key 31[01] · merged, seq \d+/);
    const total = PAIR.truth.totals.aReceived + PAIR.truth.totals.bReceived;
    assert.match(await bar.innerText(), new RegExp(`arrival 3 of ${total.toLocaleString('en-US').replace(',', '\u202f')}`));
    await screenshot(page, join(SHOTS, 'compare-replay.png'));
  });
});
