// The e2e-modal tier: the real workbench WITHOUT --enable-smoke-test-driver, which makes VS Code
// answer modal dialogs itself. Here they show as a user sees them (code-server's
// `.monaco-dialog-box`), are read from the screen and answered with a click: Attach's
// consume-or-tap question, the Recordings "Delete…" confirmation; Tap Topic…'s multi-select list
// with two topics ticked (one session, keys per topic, both taps gone on Detach); and a failing command (the
// emulator down) shows one error notification and no modal after it. One workbench and one
// Pub/Sub emulator for the whole file.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { generateCapture } from '../../scripts/lib/captureGenerator';
import { findWebviewFrame, runCommand, screenshot, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { connect, generatedClientOptions, type PubsubConnection } from '../../src/pubsub/connection';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { pickChoice, settled, snapshot, waitForSnapshot } from '../support/e2e/browser';
import type { DrawnLabel, TimelineSnapshot } from '../../src/webview/timelineSnapshot';
import { SHOTS, tapTopicFromPalette, until, useWorkbench } from '../support/e2e/workbench';

const PROJECT = 'seqscope-modal';
const TOPIC = 'md-feed';
const SUBSCRIPTION = 'md-consumer';

/** The modal dialog on screen (code-server draws VS Code's own, not the browser's). */
function dialog(page: Page) {
  const box = page.locator('.monaco-dialog-box');
  return {
    box,
    async read(): Promise<{ message: string; detail: string; buttons: string[] }> {
      await box.waitFor({ state: 'visible', timeout: 30_000 });
      return {
        message: (await box.locator('.dialog-message-text').innerText()).trim(),
        detail: (
          await box
            .locator('.dialog-message-detail')
            .innerText()
            .catch(() => '')
        ).trim(),
        buttons: (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim()),
      };
    },
    /** The default button's label (the one Enter presses). */
    async primary(): Promise<string> {
      return (await box.locator('.dialog-buttons .monaco-button:not(.secondary)').allInnerTexts()).map((b) => b.trim()).join(' | ');
    },
    async answer(label: string): Promise<void> {
      await box.locator('.dialog-buttons .monaco-button', { hasText: label }).click();
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
    },
  };
}

/** No two labels drawn on one line overlap. */
function assertNoOverlap(labels: readonly DrawnLabel[]): void {
  for (const a of labels) {
    for (const b of labels) {
      if (a === b || Math.abs(a.y - b.y) > 1) continue;
      assert.ok(a.x + a.w <= b.x || b.x + b.w <= a.x, `"${a.text}" and "${b.text}" overlap`);
    }
  }
}

describe('modal dialogs in the workbench (e2e, no smoke-test driver)', function () {
  let emu: PubsubEmulator | undefined;
  let conn: PubsubConnection | undefined;
  let recordings = '';

  before(async function () {
    const found = findEmulator();
    if ('missing' in found) {
      announceMissing(found.missing, 'e2e-modal tests');
      this.skip();
    }
    emu = await PubsubEmulator.start((found as { launcher: string }).launcher);
    conn = await connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
    const [topic] = await conn.client.createTopic(TOPIC);
    await topic.createSubscription(SUBSCRIPTION, { enableMessageOrdering: true });
  });

  const workbench = useWorkbench(
    (folder) => {
      recordings = join(folder, 'recordings');
      mkdirSync(recordings);
      writeFileSync(join(recordings, 'orders-2026-12-01T09-00-00Z.jsonl'), generateCapture({ seed: 3, keys: 2, messagesPerKey: 10 }).lines.join('\n') + '\n');
      mkdirSync(join(folder, '.vscode'));
      writeFileSync(
        join(folder, '.vscode', 'settings.json'),
        JSON.stringify({
          'seqscope.pubsub.emulatorHost': emu!.host,
          'seqscope.pubsub.projectId': PROJECT,
          'seqscope.pubsub.recordingDirectory': recordings,
          'seqscope.timeline.showOnOpen': false,
          // Numbered by the attribute n, per ordering key; a gap waits 6 s before it is declared.
          'seqscope.seq': 'attribute:n',
          'seqscope.gapTimeout': '6s',
        }),
      );
    },
    { smokeTestDriver: false, viewport: { width: 1280, height: 800 } },
  );

  before(async () => {
    // Opening the SeqScope view starts the extension; it has started once its status-bar item
    // for the emulator shows (a loaded machine takes a while): its commands are then in the palette.
    const { page } = workbench();
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click({ timeout: 60_000 });
    await page.locator('.statusbar-item', { hasText: 'Pub/Sub emulator' }).waitFor({ state: 'visible', timeout: 120_000 });
  });

  after(async () => {
    await conn?.close();
    await emu?.stop();
  });

  afterEach(async () => {
    // The command is offered only while a session is open.
    const { page } = workbench();
    if ((await treeRows(page, 'seqscope')).length) await runCommand(page, 'SeqScope: Close All Sessions');
  });

  const subscriptions = async () => (await conn!.client.getSubscriptions())[0].map((s) => s.name.split('/').pop()!).sort();
  /** Publishes the numbers on an ordering key (sym-1 unless told), in order. */
  const publishNumbers = async (numbers: number[], tag: string, orderingKey = 'sym-1') => {
    const t = conn!.client.topic(TOPIC, { messageOrdering: true });
    await Promise.all(numbers.map((n) => t.publishMessage({ data: Buffer.from(`${tag} ${n}`), orderingKey, attributes: { tag, n: String(n) } })));
  };
  const publish = (count: number, tag: string) =>
    publishNumbers(
      Array.from({ length: count }, (_, i) => i + 1),
      tag,
    );
  /** Pulls (and acks) what the consumer subscription holds now: the tags of its messages. */
  const drainConsumer = async (): Promise<string[]> => {
    const { v1 } = await import('@google-cloud/pubsub');
    const sub = new v1.SubscriberClient(await generatedClientOptions(conn!.client));
    const name = `projects/${PROJECT}/subscriptions/${SUBSCRIPTION}`;
    const tags: string[] = [];
    try {
      for (;;) {
        const [r] = await sub.pull({ subscription: name, maxMessages: 100, returnImmediately: true });
        const got = r.receivedMessages ?? [];
        if (!got.length) break;
        tags.push(...got.map((m) => m.message?.attributes?.tag ?? ''));
        await sub.acknowledge({ subscription: name, ackIds: got.map((m) => m.ackId!) });
      }
    } finally {
      await sub.close();
    }
    return tags;
  };

  /** "Attach to Subscription…" up to its modal: the subscription picked as a user would. */
  async function attachUpToTheQuestion(page: Page) {
    await runCommand(page, 'SeqScope: Attach to Subscription…');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: SUBSCRIPTION });
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    return dialog(page).read();
  }

  /** Answers the "how to sequence" picker that follows with "Use settings". */
  async function useSettings(page: Page, what: string) {
    const title = page.locator('.quick-input-widget .quick-input-title');
    await until(async () => (await title.innerText().catch(() => '')).startsWith(`SeqScope: how should ${what} be sequenced?`), 30_000);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Use settings' }).click();
  }

  async function sessionRow(page: Page, prefix: string, pattern: RegExp): Promise<string> {
    let rows: string[] = [];
    // The activity bar's icon toggles its view: click it only when the view is not showing.
    if (!(await page.locator('[id="workbench.view.extension.seqscope"]').isVisible()))
      await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click();
    await until(async () => (rows = await treeRows(page, 'seqscope')).some((r) => r.startsWith(prefix) && pattern.test(r)), 30_000).catch((e: Error) =>
      assert.fail(`${e.message}; tree rows: ${rows.join(' | ')}`),
    );
    return rows.find((r) => r.startsWith(prefix))!;
  }

  it("Attach's consume-or-tap question shows as a modal; Cancel attaches nothing", async () => {
    const { page } = workbench();
    const before = await subscriptions();
    const asked = await attachUpToTheQuestion(page);
    await screenshot(page, join(SHOTS, 'attach-question.png'));
    assert.equal(asked.message, `Attaching to ${SUBSCRIPTION} consumes it.`);
    assert.match(asked.detail, /SeqScope acks what it receives.*Tapping the topic instead creates a temporary subscription/s);
    // On Linux the dialog puts its first (default) button on the right, after Cancel.
    assert.deepEqual(asked.buttons.sort(), ['Cancel', 'Consume the Subscription', 'Tap the Topic Instead (recommended)']);
    assert.equal(await dialog(page).primary(), 'Tap the Topic Instead (recommended)', 'tapping is the default answer');
    await dialog(page).answer('Cancel');
    assert.equal(await page.locator('.quick-input-widget').isVisible(), false, 'nothing more is asked');
    assert.deepEqual(await treeRows(page, 'seqscope'), [], 'no session');
    assert.deepEqual(await subscriptions(), before, 'no tap made');
  });

  it('"Tap the Topic Instead" makes a tap and leaves the subscription\'s messages to its consumers', async () => {
    const { page } = workbench();
    await drainConsumer();
    await attachUpToTheQuestion(page);
    await dialog(page).answer('Tap the Topic Instead');
    await useSettings(page, `a tap on ${TOPIC}`);
    // Confirmed in the status bar, without a notification to dismiss.
    const confirmed = page.locator('.statusbar-item', { hasText: `SeqScope: tapped ${TOPIC}` });
    await confirmed.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await confirmed.innerText(), new RegExp(`tapped ${TOPIC} · .+ · recording ${TOPIC}-.+\\.jsonl`));
    await sessionRow(page, `tap · ${TOPIC}`, /live/);
    const taps = (await subscriptions()).filter((s) => s !== SUBSCRIPTION);
    assert.equal(taps.length, 1, `one tap beside ${SUBSCRIPTION}: ${taps.join(', ')}`);
    assert.match(taps[0], /^seqscope-tap-md-feed-/);
    await publish(5, 'tapped');
    await sessionRow(page, `tap · ${TOPIC}`, /5 received/);
    await screenshot(page, join(SHOTS, 'attach-tapped.png'));
    assert.deepEqual(await drainConsumer(), Array(5).fill('tapped'), `${SUBSCRIPTION} still holds all 5 for its consumers`);
  });

  it('"Consume the Subscription" reads the subscription itself: no tap, its messages taken', async () => {
    const { page } = workbench();
    await until(async () => (await subscriptions()).length === 1, 15_000); // the previous test's tap, deleted on close
    await attachUpToTheQuestion(page);
    await dialog(page).answer('Consume the Subscription');
    await useSettings(page, SUBSCRIPTION);
    await sessionRow(page, `subscription · ${SUBSCRIPTION}`, /live/);
    assert.deepEqual(await subscriptions(), [SUBSCRIPTION], 'no tap made');
    await publish(3, 'consumed');
    await sessionRow(page, `subscription · ${SUBSCRIPTION}`, /3 received/);
    await runCommand(page, 'SeqScope: Close All Sessions'); // acks are flushed as it detaches
    await until(async () => (await treeRows(page, 'seqscope')).length === 0, 15_000);
    assert.deepEqual(await drainConsumer(), [], 'SeqScope acked them: the subscription holds none');
  });

  it('a live timeline follows the data, shows an open gap growing until it is declared, and no label overlaps another', async () => {
    const { page } = workbench();
    // The user is typing in an editor, the Explorer showing.
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'File: New Untitled Text File');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.type('notes ');
    await tapTopicFromPalette(page, TOPIC);
    // The Sessions view shows the new session by itself; the editor keeps the keyboard.
    await page.locator('[id="workbench.view.extension.seqscope"]').waitFor({ state: 'visible', timeout: 30_000 });
    let rows: string[] = [];
    await until(async () => (rows = await treeRows(page, 'seqscope')).some((r) => r.startsWith(`tap · ${TOPIC}`)), 30_000).catch((e: Error) =>
      assert.fail(`${e.message}; tree rows: ${rows.join(' | ')}`),
    );
    await screenshot(page, join(SHOTS, 'tap-revealed.png'));
    await page.keyboard.type('go on');
    // The editor draws spaces as no-break spaces.
    await until(async () => /notes go on/.test((await editor.locator('.view-lines').innerText()).replace(/\s+/g, ' ')), 10_000).catch(async (e: Error) =>
      assert.fail(`${e.message}: the editor holds "${await editor.locator('.view-lines').innerText()}"`),
    );
    await runCommand(page, 'View: Revert and Close Editor');
    await page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).waitFor({ state: 'detached', timeout: 10_000 });
    await sessionRow(page, `tap · ${TOPIC}`, /live/);
    await runCommand(page, 'SeqScope: Show Timeline');
    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await publishNumbers([1, 2, 3, 4, 5], 'live');
    // sym-2 misses #2 among its first arrivals: an open gap at once, while its start window runs.
    await publishNumbers([1, 3], 'hole', 'sym-2');
    const hole = await waitForSnapshot(
      frame,
      (x) => (x.marks?.openGap ?? 0) > 0 && (x.labels ?? []).some((l) => /^waiting for #2 · [\d.]+ s of 6 s · starts in \d s$/.test(l.text)),
      'the hole in the start window, open',
      30_000,
    );
    await screenshot(page, join(SHOTS, 'live-start-hole.png'));
    assert.ok((hole.marks?.startWindow ?? 0) > 0, "sym-1's start window beside it");
    // The start window (6 s, the gap timeout) shows as a band counting down: "collecting: 5 s left".
    const left = (x: TimelineSnapshot) =>
      Number(/^collecting: (\d+) s left$/.exec((x.labels ?? []).map((l) => l.text).find((t) => t.startsWith('collecting')) ?? '')?.[1] ?? NaN);
    const collecting = await waitForSnapshot(frame, (x) => (x.marks?.startWindow ?? 0) > 0 && left(x) >= 0, 'the start window band', 30_000);
    await screenshot(page, join(SHOTS, 'live-start-window.png'));
    assert.ok(left(collecting) <= 6, `at most the 6 s window left: ${left(collecting)}`);
    await waitForSnapshot(frame, (x) => left(x) < left(collecting), 'the start window counting down', 15_000);
    // The start window passes (6 s): 1–5 delivered; sym-2's #2 declared lost.
    await sessionRow(page, `tap · ${TOPIC}`, /7 received/);
    // Messages are drawn where they are delivered: ticks once the start window is over, and its band is gone.
    await waitForSnapshot(
      frame,
      (x) => (x.marks?.message ?? 0) > 0 && (x.marks?.startWindow ?? 0) === 0,
      'the start window over: messages delivered, no band',
      30_000,
    ).catch(async (e: Error) => assert.fail(`${e.message}: ${JSON.stringify((await snapshot(frame)).marks)}`));
    assert.ok(!((await snapshot(frame)).labels ?? []).some((l) => l.text.startsWith('collecting')), 'no "collecting" label once the window has closed');
    const follow = frame.getByRole('switch', { name: /^Follow live/ });
    assert.equal(await follow.getAttribute('aria-checked'), 'true', 'following by default');
    // 6 is skipped: the key waits for it, for the 6 s of the gap timeout.
    await publishNumbers([7, 8, 9, 10], 'live');
    const open = await waitForSnapshot(
      frame,
      (x) => (x.marks?.openGap ?? 0) > 0 && (x.labels ?? []).some((l) => /^waiting for #6 · [\d.]+ s of 6 s$/.test(l.text)),
      'the open gap band',
      30_000,
    );
    await screenshot(page, join(SHOTS, 'live-open-gap.png'));
    assert.equal(open.followLive, true);
    assert.ok(open.window!.t1 >= open.domain!.t1, 'the window ends where the data ends');
    // It grows while it waits.
    const waited = (x: TimelineSnapshot) => Number(/waiting for #6 · ([\d.]+) s/.exec((x.labels ?? []).map((l) => l.text).join('\n'))?.[1] ?? NaN);
    await waitForSnapshot(frame, (x) => waited(x) > waited(open), 'the wait growing', 15_000);
    // At the timeout it is a declared gap.
    // Drawn from fresh pages: while new ones come, the last ones stand in (without the new gap).
    const declared = await waitForSnapshot(frame, (x) => x.allFresh && (x.marks?.gap ?? 0) >= 2 && (x.marks?.openGap ?? 0) === 0, 'the gap declared', 30_000);
    await screenshot(page, join(SHOTS, 'live-gap-declared.png'));
    assertNoOverlap(declared.labels ?? []);
    assert.ok(
      (declared.labels ?? []).some((l) => /^(missing )?6$/.test(l.text)),
      `the declared gap's label: ${(declared.labels ?? []).map((l) => l.text).join(' | ')}`,
    );
    // Following keeps the whole session in view as it grows: the arrivals before the gap stay in sight.
    const covers = (x: TimelineSnapshot) => x.window!.t0 <= x.domain!.t0 && x.window!.t1 >= x.domain!.t1;
    assert.ok(covers(declared), `the whole session in view: window ${JSON.stringify(declared.window)}, data ${JSON.stringify(declared.domain)}`);
    // A zoom by the user pauses following and says so; Resume brings it back at once.
    const paused = frame.getByRole('status').filter({ hasText: 'Following paused' });
    assert.equal(await paused.isVisible(), false, 'nothing paused yet');
    await frame.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await waitForSnapshot(frame, (x) => !x.fitAll, 'zoomed in');
    assert.equal(zoomed.followLive, false, 'zooming pauses following');
    await paused.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await follow.getAttribute('aria-checked'), 'false');
    await screenshot(page, join(SHOTS, 'live-follow-paused.png'));
    await paused.getByRole('button', { name: 'Resume following live' }).click();
    const resumed = await waitForSnapshot(frame, (x) => x.followLive === true && x.fitAll, 'following the whole session again');
    assert.ok(covers(resumed), 'back to the whole session');
    await paused.waitFor({ state: 'hidden', timeout: 10_000 });
    // Panning back in time pauses it too; the toggle resumes it.
    const box = (await frame.locator('canvas.ss-canvas').boundingBox())!;
    await frame.getByRole('button', { name: 'Zoom in' }).click();
    await paused.getByRole('button', { name: 'Resume following live' }).waitFor({ state: 'visible', timeout: 10_000 });
    await follow.click();
    await waitForSnapshot(frame, (x) => x.followLive === true, 'following after the toggle');
    const followWindow = frame.getByRole('combobox', { name: 'What following live keeps in view' });
    await pickChoice(frame, followWindow, 'Last 10 s');
    // At most the last 10 s, ending where the data ends (a shorter session shows whole).
    const lastTen = (x: TimelineSnapshot) => x.followLive === true && x.window!.t1 - x.window!.t0 <= 10_050 && x.window!.t1 >= x.domain!.t1;
    await waitForSnapshot(frame, lastTen, 'the last 10 s in view');
    // The canvas in page coordinates (the snapshot's are the webview's own).
    const from = { x: box.x + box.width * 0.5, y: box.y + box.height * 0.6 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 150, from.y, { steps: 5 });
    await page.mouse.up();
    await waitForSnapshot(frame, (x) => x.followLive === false, 'following paused after panning back');
    await paused.waitFor({ state: 'visible', timeout: 10_000 });
    await follow.click();
    await waitForSnapshot(frame, lastTen, 'following the last 10 s again');
    // The data goes on growing: the window moves with it (its end past the newest arrival). Meanwhile
    // the user types a filter, not yet applied: the live updates leave what is typed alone.
    await frame.getByRole('button', { name: 'Show the filter bar' }).click();
    const attrName = frame.getByRole('textbox', { name: 'Attribute name' });
    await attrName.fill('ta');
    await attrName.pressSequentially('g');
    const before = (await snapshot(frame)).domain!.t1;
    const updatesBefore = (await snapshot(frame)).draws;
    await publishNumbers([11, 12, 13], 'live');
    const grown = await waitForSnapshot(frame, (x) => x.domain!.t1 > before && (x.marks?.message ?? 0) > 0, 'the data grown', 30_000);
    assert.ok(lastTen(grown), `still the last 10 s, ending where the data ends: ${JSON.stringify({ window: grown.window, domain: grown.domain })}`);
    assert.ok(grown.draws > updatesBefore, 'updates were drawn while the field held the typed text');
    assert.equal(await attrName.inputValue(), 'tag', 'the typed filter field, through the live updates');
    // The field is inside its text field element's shadow root, which holds the focus.
    assert.equal(
      await attrName.evaluate((e) => (e.getRootNode() as unknown as { activeElement: unknown }).activeElement === e),
      true,
      'and it keeps the focus',
    );
    await screenshot(page, join(SHOTS, 'live-filter-typed.png'));
    await frame.getByRole('button', { name: 'Hide the filter bar' }).click();
    await pickChoice(frame, followWindow, 'Whole session');
    const whole = await waitForSnapshot(frame, (x) => x.followLive === true && x.fitAll, 'the whole session again');
    assert.ok(covers(whole));
    await screenshot(page, join(SHOTS, 'live-follow-again.png'));
  });

  it("Tap Topic… with two topics ticked: one session keyed <topic>/<key> with each topic's counts; Detach deletes both taps", async () => {
    const { page } = workbench();
    const other = 'md-news';
    await conn!.client.createTopic(other);
    // The earlier tests' taps are deleted as their sessions close.
    await until(async () => (await subscriptions()).join() === SUBSCRIPTION, 15_000);
    await runCommand(page, 'SeqScope: Tap Topic…');
    const rowOf = (topic: string) => page.locator(`.quick-input-widget .monaco-list-row[aria-label^="${topic},"]`);
    for (const topic of [TOPIC, other]) {
      await rowOf(topic).waitFor({ state: 'visible', timeout: 30_000 });
      await rowOf(topic).click();
      await until(async () => (await rowOf(topic).getAttribute('aria-checked')) === 'true', 5_000);
    }
    await screenshot(page, join(SHOTS, 'tap-two-topics-ticked.png'));
    await page.locator('.quick-input-widget .quick-input-box input').press('Enter');
    await useSettings(page, `a tap on 2 topics (${TOPIC}, ${other})`);
    const title = `tap · ${TOPIC} + ${other}`;
    await sessionRow(page, title, /live/);
    const taps = (await subscriptions()).filter((s) => s !== SUBSCRIPTION);
    assert.deepEqual(
      taps.map((s) => [TOPIC, other].find((t) => s.startsWith(`seqscope-tap-${t}-`))).sort(),
      [TOPIC, other],
      `one tap per topic: ${taps.join(', ')}`,
    );

    // The same ordering key and numbers on both topics: two keys, never one with duplicates.
    await publishNumbers([1, 2, 3, 4, 5], 'two-a');
    const b = conn!.client.topic(other, { messageOrdering: true });
    await Promise.all(
      [1, 2, 3].map((n) => b.publishMessage({ data: Buffer.from(`two-b ${n}`), orderingKey: 'sym-1', attributes: { tag: 'two-b', n: String(n) } })),
    );
    await sessionRow(page, title, /2 keys · 8 received/);
    // Delivered once the start window (6 s) has passed.
    let rows: string[] = [];
    // A row's text is its label, then its description (nothing between them).
    const counts = (key: string) =>
      rows
        .find((r) => r.startsWith(key))
        ?.slice(key.length)
        .trim() ?? '';
    await until(async () => {
      rows = await treeRows(page, 'seqscope');
      return /^5 delivered · 0 gaps · 0 lost · 0 dup/.test(counts(`${TOPIC}/sym-1`)) && /^3 delivered · 0 gaps · 0 lost · 0 dup/.test(counts(`${other}/sym-1`));
    }, 30_000).catch((e: Error) => assert.fail(`${e.message}; tree rows: ${rows.join(' | ')}`));
    await screenshot(page, join(SHOTS, 'tap-two-topics.png'));

    // Detach from the session row's inline action, as a user would.
    const row = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row', { hasText: title });
    await row.hover();
    await row.getByRole('button', { name: 'Detach' }).click();
    await until(async () => (await subscriptions()).join() === SUBSCRIPTION, 15_000).catch(async (e: Error) =>
      assert.fail(`${e.message}: subscriptions left ${(await subscriptions()).join(', ')}`),
    );
    // The recording reopens as a capture holding both topics' keys.
    await until(
      async () =>
        (rows = await treeRows(page, 'seqscope')).some(
          (r) => new RegExp(`^${TOPIC}\\+1-.*\\.jsonl`).test(r) && /2 keys/.test(r) && /8 records/.test(r.replace(/\s+/g, ' ')),
        ),
      30_000,
    ).catch((e: Error) => assert.fail(`${e.message}; tree rows: ${rows.join(' | ')}`));
  });

  it('an outage: the tap gone shows in the tree row and the timeline header; its notice, clicked after Re-tap from the tree, says what happened', async () => {
    const { page } = workbench();
    await until(async () => (await subscriptions()).join() === SUBSCRIPTION, 15_000); // the earlier taps, deleted on close
    await tapTopicFromPalette(page, TOPIC);
    await sessionRow(page, `tap · ${TOPIC}`, /live/);
    await runCommand(page, 'SeqScope: Show Timeline');
    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await publishNumbers([1, 2, 3], 'outage');
    await sessionRow(page, `tap · ${TOPIC}`, /3 received/);

    // The emulator restarts: it keeps nothing, the tap is gone.
    await emu!.restart();
    await until(
      () =>
        conn!.client.createTopic(TOPIC).then(
          () => true,
          (e: { code?: number }) => e.code === 6,
        ),
      60_000,
    );
    const notice = page.locator('.notification-list-item', { hasText: 'is gone' });
    await notice.first().waitFor({ state: 'visible', timeout: 90_000 });
    const row = await sessionRow(page, `tap · ${TOPIC}`, /^tap · md-feed\s*tap is gone · /);
    const header = frame.locator('.ss-connection');
    // While the emulator was down the header said so; once it is back, that the tap is gone.
    const gone = 'Disconnected: tap is gone — Re-tap makes a new one and continues the recording';
    await until(async () => (await header.innerText().catch(() => '')).trim() === gone, 30_000).catch(async (e: Error) =>
      assert.fail(`${e.message}: the header says "${await header.innerText().catch(() => '')}"`),
    );
    await screenshot(page, join(SHOTS, 'live-tap-gone.png'));
    assert.match(row, /tap is gone/);

    // Re-tap from the session row, as a user who saw the tree first.
    const tree = page.locator('[id="workbench.view.extension.seqscope"] .monaco-list-row', { hasText: `tap · ${TOPIC}` });
    await tree.hover();
    await tree.getByRole('button', { name: 'Re-tap' }).click();
    await sessionRow(page, `tap · ${TOPIC}`, /^tap · md-feed\s*live/);
    await header.waitFor({ state: 'hidden', timeout: 30_000 });
    const taps = async () => (await subscriptions()).filter((s) => s.startsWith('seqscope-tap-'));
    await until(async () => (await taps()).length === 1, 15_000);
    const [tap] = await taps();

    // The notice is still there (VS Code cannot take it back): its Re-tap now says what happened.
    if (!(await notice.first().isVisible())) await runCommand(page, 'Notifications: Show Notifications');
    await notice.first().getByRole('button', { name: 'Re-tap' }).click();
    const said = page.locator('.notification-list-item', { hasText: 'was re-tapped at' });
    await said.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(
      (await said.first().innerText()).replace(/\s+/g, ' '),
      /SeqScope: tap · md-feed was re-tapped at \d\d:\d\d:\d\d \(now reading seqscope-tap-md-feed-\S+\): nothing more to do/,
    );
    await screenshot(page, join(SHOTS, 'live-stale-notice.png'));
    assert.deepEqual(await taps(), [tap], 'not tapped again');
    assert.equal(await page.locator('.notification-list-item .codicon-error').count(), 0, 'no error anywhere');
    // Re-created by the restart's loss: the consumer subscription the earlier tests used.
    await conn!.client
      .topic(TOPIC)
      .createSubscription(SUBSCRIPTION, { enableMessageOrdering: true })
      .catch(() => undefined);
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it("the status bar at 1 280 px shows the session's counts and the replay position, whole", async () => {
    const { page } = workbench();
    assert.equal(page.viewportSize()?.width, 1280);
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await sessionRow(page, 'cme-sample.jsonl', /records/);
    // Three steps of replay, with the timeline's own button (it opened with the sample).
    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
    await settled(frame, 60_000);
    for (let i = 0; i < 3; i++) await frame.getByRole('toolbar', { name: 'Replay' }).getByRole('button', { name: 'Step forward one arrival' }).click();
    const item = page.locator('.statusbar-item', { hasText: 'cme-sample.jsonl' });
    await until(async () => / · 3\/\d+$/.test((await item.innerText().catch(() => '')).trim()), 30_000).catch(async (e: Error) =>
      assert.fail(`${e.message}: the status bar reads ${await page.locator('.statusbar').innerText()}`),
    );
    await screenshot(page, join(SHOTS, 'statusbar-1280.png'));
    const text = (await item.innerText()).trim();
    assert.match(text, /^cme-sample\.jsonl · \d+ gaps? · \d+ dup · \d+ late · 3\/\d+$/, `counts and position: ${text}`);
    // Whole: not cut by its own width, and clear of the items on the right.
    const label = item.locator('a');
    assert.ok(await label.evaluate((a) => a.scrollWidth <= a.clientWidth + 1), 'its text is not cut off');
    const box = (await item.boundingBox())!;
    const right = await page.locator('.statusbar .right-items').boundingBox();
    assert.ok(box.x + box.width <= (right?.x ?? 1280), `it ends (${box.x + box.width} px) before the right-hand items (${right?.x} px)`);
  });

  it('Recordings "Delete…" asks in a modal: Cancel keeps the file, Delete removes it', async () => {
    const { page } = workbench();
    const name = 'orders-2026-12-01T09-00-00Z.jsonl';
    const file = join(recordings, name);
    assert.ok(existsSync(file));
    await runCommand(page, 'SeqScope: Recordings…');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name });
    const trash = row.locator('.action-label[aria-label="Delete…"], .action-label[title="Delete…"]').first();
    const askDelete = async () => {
      await row.hover();
      await trash.click();
      return dialog(page).read();
    };
    const asked = await askDelete();
    await screenshot(page, join(SHOTS, 'recordings-delete.png'));
    assert.match(asked.message, new RegExp(`^Delete the recording ${name.replace(/\./g, '\\.')} \\(.+\\)\\?$`));
    assert.equal(asked.detail, 'This cannot be undone.');
    assert.deepEqual(asked.buttons.sort(), ['Cancel', 'Delete']);
    await dialog(page).answer('Cancel');
    await row.waitFor({ state: 'visible', timeout: 10_000 }); // the picker stays open behind the dialog
    assert.ok(existsSync(file), 'Cancel keeps it');

    await askDelete();
    await dialog(page).answer('Delete');
    await until(async () => !existsSync(file), 10_000);
    await row.waitFor({ state: 'hidden', timeout: 10_000 }); // and the list no longer shows it
    await page.keyboard.press('Escape');
  });

  it('a failing command (the emulator down: connection refused) shows one error notification and no modal', async () => {
    const { page } = workbench();
    await emu!.stop();
    // What earlier tests left on screen is theirs: this one counts its own.
    await runCommand(page, 'Notifications: Clear All Notifications');
    const toasts = page.locator('.notifications-toasts .notification-list-item');
    assert.equal(await toasts.count(), 0, 'no notification before');
    const clicked = await runCommand(page, 'SeqScope: Tap Topic…');
    const error = page.locator('.notifications-toasts .notification-list-item', { has: page.locator('.codicon-error') });
    await error.first().waitFor({ state: 'visible', timeout: 30_000 });
    const shownAfterMs = Date.now() - clicked;
    // The command has finished once its progress notification is gone; VS Code's own "Command …
    // resulted in an error" modal would follow that at once.
    const progress = page.locator('.notifications-toasts .notification-list-item', { hasText: 'connecting to Pub/Sub' });
    await progress.waitFor({ state: 'hidden', timeout: 30_000 });
    await runCommand(page, 'View: Toggle Panel'); // a round trip through the workbench after the command ended
    await screenshot(page, join(SHOTS, 'emulator-down.png'));
    assert.equal(await dialog(page).box.count(), 0, 'no modal dialog');
    const texts = (await toasts.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.equal(await error.count(), 1, `exactly one error notification: ${texts.join(' | ')}`);
    assert.match(texts.join(' | '), /emulator.*(not running|refused)/i);
    assert.match(await error.first().innerText(), /Open Settings/, 'the next step names the setting');
    console.log(`    the error showed ${shownAfterMs} ms after the command ran`);
  });
});
