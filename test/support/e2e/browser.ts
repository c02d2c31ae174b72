/**
 * Helpers for the timeline's browser tests and benchmark: export a capture as standalone HTML,
 * open it in the system Chromium through playwright-core, and read the timeline's test hook.
 * Every page records console errors, uncaught exceptions and dialogs, so a test can assert that
 * none happened.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Frame, Locator, Page } from 'playwright-core';
import { describeOptions, resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { writeStandaloneHtml } from '../../../src/timeline/node/standaloneHtml';
import type { CaptureSession } from '../../../src/timeline/captureSession';
import { loadSession } from '../../../src/timeline/node/loadSession';
import type { SnapshotSince, TimelineSnapshot } from '../../../src/webview/timelineSnapshot';
import { fileRecordSource } from './fileRecords';

export const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS_DIR = join(ROOT, '.test-results', process.env.SEQSCOPE_TEST_TIER || 'e2e');
export const CHROMIUM = process.env.SEQSCOPE_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Loads a capture (with the CME preset unless told) and writes its standalone export to `out`. */
export async function exportCapture(
  capture: string,
  out: string,
  maxEmbeddedRecords?: number,
  options = resolveOptions({ preset: 'cme' }),
): Promise<CaptureSession> {
  const { session } = await loadSession([capture], options);
  const records = fileRecordSource(session);
  try {
    mkdirSync(join(out, '..'), { recursive: true });
    await writeStandaloneHtml(session, out, {
      title: capture.split('/').pop() as string,
      options: describeOptions(options),
      seqBits: options.seqBits,
      bundleDir: join(ROOT, 'dist'),
      readRecord: records,
      maxEmbeddedRecords,
    });
  } finally {
    await records.close();
  }
  return session;
}

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Dialogs (alert, confirm, …) that opened: an XSS would show here. */
  dialogs: string[];
}

export async function openTimeline(
  browser: Browser,
  html: string,
  opts: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 720 }, colorScheme: opts.colorScheme ?? 'light' });
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(`file://${html}`);
  await settled(page);
  return { page, errors, dialogs };
}

/** The page's globals as these callbacks use them (they run in the page, not in Node). */
interface PageGlobals {
  __seqscopeTimeline?: { snapshot(since?: SnapshotSince): TimelineSnapshot };
  requestAnimationFrame(cb: () => void): void;
}

// Callbacks, not strings: the export's CSP forbids eval, and Playwright evaluates string
// predicates with it (functions go through the DevTools protocol, which the CSP does not govern).

/**
 * Where the timeline runs: a page of its own (standalone export, fake host), or the inner frame
 * of a VS Code webview inside the workbench page.
 */
export type TimelineTarget = Page | Frame;

function frameOf(target: TimelineTarget): Frame {
  return 'mainFrame' in target ? target.mainFrame() : target;
}

/** The timeline's snapshot; `since`: only the draws after those a reader already took (see SnapshotSince). */
export function snapshot(target: TimelineTarget, since: SnapshotSince = {}): Promise<TimelineSnapshot> {
  return frameOf(target).evaluate((s) => (globalThis as unknown as PageGlobals).__seqscopeTimeline!.snapshot(s), since);
}

/** Waits until the timeline has drawn fresh pages for its current view and nothing is in flight. */
export async function settled(target: TimelineTarget, timeout = 30_000): Promise<TimelineSnapshot> {
  const page = frameOf(target);
  await page.waitForFunction(
    () => {
      const s = (globalThis as unknown as PageGlobals).__seqscopeTimeline?.snapshot();
      return !!s && s.firstPaintMs !== undefined && s.allFresh && s.pendingRequests === 0;
    },
    undefined,
    { timeout, polling: 50 },
  );
  // One more frame, so the snapshot describes what is on screen.
  await page.evaluate(
    () =>
      new Promise<void>((r) =>
        (globalThis as unknown as PageGlobals).requestAnimationFrame(() => (globalThis as unknown as PageGlobals).requestAnimationFrame(r)),
      ),
  );
  return snapshot(page);
}

/** Waits for the snapshot to satisfy `pred` (polling the hook). */
export async function waitForSnapshot(page: TimelineTarget, pred: (s: TimelineSnapshot) => boolean, what: string, timeout = 10_000): Promise<TimelineSnapshot> {
  const until = Date.now() + timeout;
  let last: TimelineSnapshot | undefined;
  while (Date.now() < until) {
    last = await snapshot(page);
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`timed out waiting for ${what}; last snapshot: ${JSON.stringify({ ...last, drawMs: undefined, messages: last?.messages.length })}`);
}

/** Page coordinates of a drawn mark. */
export function at(s: TimelineSnapshot, m: { x: number; y: number }): { x: number; y: number } {
  return { x: s.canvas.x + m.x, y: s.canvas.y + m.y };
}

/**
 * A drop-down's value: the timeline's are @vscode-elements' vscode-single-select, whose
 * combobox sits in the component's shadow root (Playwright's inputValue is for native ones).
 */
export function choiceValue(combobox: Locator): Promise<string> {
  // Typed by hand: this runs in the page, and the Node tests have no DOM types.
  return combobox.evaluate((e) => (e as unknown as { getRootNode(): { host: { value: string } } }).getRootNode().host.value);
}

/** Picks a drop-down's option as a person does: opens the list, clicks the option by its text. */
export async function pickChoice(target: TimelineTarget, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await target.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Sets a check box (a vscode-checkbox: its input lies under its label) as a person does, by
 * clicking its label, and checks it took.
 */
export async function setCheckbox(scope: Locator, label: string, checked: boolean): Promise<void> {
  const box = scope.getByRole('checkbox', { name: label });
  if ((await box.isChecked()) !== checked) await scope.getByText(label, { exact: true }).click();
  if ((await box.isChecked()) !== checked) throw new Error(`the check box "${label}" did not become ${checked ? 'checked' : 'unchecked'}`);
}
