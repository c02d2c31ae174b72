/**
 * The extension in the real VS Code 1.100 extension host on a ~1 000 000-message capture (the
 * CLI benchmark's, reused from .bench/ when present): how much memory the extension host process
 * takes for it, and how long the timeline takes to paint it.
 *
 *   - RSS of the extension host process (found in /proc: the server's process group, command
 *     line `--type=extensionHost`), from /proc/<pid>/status: after SeqScope has activated
 *     (baseline), once the capture is open, once the timeline has painted; VmHWM is its peak.
 *   - first paint: the click on "SeqScope: Show Timeline" in the Command Palette → the first
 *     frame of the webview that drew data (its test hook's firstPaintMs, on the webview's own
 *     clock, turned into epoch time with performance.timeOrigin); and the same for the
 *     3 000-message sample, the floor (a new webview with next to nothing to query).
 *   - opening: Open Capture… through the Command Palette, the timeline opening with the load;
 *     from the choice in the picker (SeqScope's log: the "opened … in N ms" line's time less N)
 *     to the first frame with data — the session is shown from the loader's first chunk on —
 *     and to the whole session (that N), beside the CLI's replay of the same file.
 *   - check: the Sessions tree's summary of the session against what the generator injected.
 *   - VS Code's own Markdown preview, three times: click → its document and its first paint, the
 *     webview start-up beneath any extension's on this machine.
 *   - a capture of 100 000 keys (three messages each) opened once with its timeline: the steps
 *     whose cost grows with the keys (the lanes in `init`, the columns the loading worker hands
 *     over) rather than with the messages.
 * Targets: ≤ 250 MiB above the baseline with the capture open and its timeline shown; the first
 * frame ≤ 1 s after the choice; the whole session ≤ 1.5× the CLI's replay.
 *
 * Standalone: npx tsx test/bench/hostMemoryBench.ts (after node esbuild.js --production).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { installedMarker } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, openWorkbench, runCommand, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { settled } from '../support/e2e/browser';
import { openCaptureFromPalette, until } from '../support/e2e/workbench';
import type { StreamOptions } from '../../scripts/lib/captureGenerator';
import { BENCH_DIR, ROOT, captureOptions, checkSummary, ensureCapture, runNode } from './cliBench';
import { checked, count, mib, seconds, table, verdict } from './report';

const TARGET_ABOVE_BASELINE = 250 * 2 ** 20;
const FIRST_PAINT_TARGET_MS = 500;
/** Open Capture…: the choice in the picker → the first frame with data (the session shown while it loads). */
const OPEN_PAINT_TARGET_MS = 1000;
/** The whole session in VS Code against the CLI's replay of the same file. */
const LOADER_RATIO_TARGET = 1.5;
/** As the CLI benchmark's capture, so the same file serves both. */
const CAPTURE_NUMBERS = 990_000;
/** Loading a million lines in the extension host on two shared cores: allow plenty. */
const LOAD_TIMEOUT_MS = 10 * 60_000;
/** Opens of the capture with its timeline; the first paint is the median. */
const OPEN_RUNS = 3;
/** The bench workspace's settings (see benchHostMemory). */
const SETTINGS = { 'seqscope.seqBits': 16 };
/** Opens of the capture with the timeline closed, after those with it. */
const BARE_RUNS = 2;
/** Opens of VS Code's Markdown preview, the webview start-up beneath every extension's. */
const MARKDOWN_RUNS = 3;
const MARKDOWN_FILE = 'notes.md';
/**
 * A second capture with a key per three messages, opened once: what grows with the keys (the
 * lanes in `init`, the per-key lists the loading worker hands over) shows here, not on the
 * 10-key capture. Until 2026-12-01 this open took three minutes from the file read to the paint.
 */
const MANY_KEYS = 100_000;
const MANY_KEYS_OPTIONS: StreamOptions = { seed: 11, keys: MANY_KEYS, messagesPerKey: 3, seqBits: 16, reorderFraction: 0.05, reorderWindow: 4 };

export interface HostMemoryBenchResult {
  capture: { lines: number; bytes: number };
  pid: number;
  baselineRss: number;
  openRss: number;
  timelineRss: number;
  /** Lowest RSS over the idle period after the timeline was shown. */
  idleRss: number;
  peakRss: number;
  /** idleRss − baselineRss: what the target is judged on. */
  aboveBaseline: number;
  openMs: number;
  /**
   * The loader's own time for each open of the capture (SeqScope's log: "opened … in N ms", from
   * the choice in the picker to the whole session), in run order; the CLI's replay of the same
   * file beside it.
   */
  loaderMs: number[];
  /** The same with the timeline closed (seqscope.timeline.showOnOpen false), BARE_RUNS opens. */
  bareLoaderMs: number[];
  cli: { wallMs: number; problems: string[] };
  /** Opening with the timeline (the default): from the choice to the first paint; the median run. */
  openPaint: OpenPaintTimes;
  /** That figure in each run, in run order. */
  openPaintRuns: number[];
  /** The loader's median against the CLI's time. */
  loaderRatio: number;
  firstPaintMs: number;
  /** Where the first paint's time went. */
  paint: PaintTimes;
  /** The same for the 3 000-message sample: webview start-up with next to nothing to query. */
  sampleFirstPaintMs: number;
  /** Opening the capture of MANY_KEYS keys with its timeline, once. */
  manyKeys: { keys: number; lines: number; bytes: number; openMs: number; paint: OpenPaintTimes };
  samplePaint: PaintTimes;
  /** VS Code's own Markdown preview (a webview of a built-in extension), opened MARKDOWN_RUNS times. */
  markdownPreview: MarkdownPreviewTimes[];
  problems: string[];
  loadAverage: number;
  targets: { aboveBaseline: number; firstPaintMs: number; openPaintMs: number; loaderRatio: number };
  met: { memory: boolean; openPaint: boolean; loader: boolean; showTimeline: boolean };
}

function progress(text: string): void {
  process.stderr.write(`[bench:host] ${text}\n`);
}

/** The extension host processes in a process group (the server's: it was started with setsid). */
export function extensionHosts(group: number): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // After "(comm)": state, ppid, pgrp.
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== group) continue;
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes('--type=extensionHost')) pids.push(Number(d));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** VmRSS and VmHWM (peak) of a process, bytes. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** One load of a capture, from SeqScope's log. */
interface LoadLog {
  /** When the user chose (epoch ms): the "opened" line's time less the load's. */
  choiceAt: number;
  /** The choice → the whole session. */
  loaderMs: number;
  /** The choice → its first chunk shown ("showing … while it loads, N ms after the choice"). */
  shownMs: number | undefined;
}

/**
 * The loads of `fileName` so far, from SeqScope's log channel (a LogOutputChannel, written to a
 * file under the workbench's user data in the background; its lines stamped in local time).
 */
function loadLogs(dir: string, fileName: string): LoadLog[] {
  const channel = readdirSync(dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile() && d.name === 'SeqScope.log');
  if (!channel) return [];
  const text = readFileSync(join(channel.parentPath, channel.name), 'utf8');
  const out: LoadLog[] = [];
  let shownMs: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.includes(`/${fileName} `)) continue;
    const shown = / \[info\] showing .+ while it loads, (\d+) ms after the choice/.exec(line);
    if (shown) shownMs = Number(shown[1]);
    const opened = /^(\S+ \S+) \[info\] opened .+ in (\d+) ms: \d+ received/.exec(line);
    if (!opened) continue;
    const loaderMs = Number(opened[2]);
    out.push({ choiceAt: new Date(opened[1].replace(' ', 'T')).getTime() - loaderMs, loaderMs, shownMs });
    shownMs = undefined;
  }
  return out;
}

/** Waits for the log to hold `n` loads of `fileName`; returns the last one. */
async function loadLog(dir: string, fileName: string, n: number): Promise<LoadLog> {
  let logs: LoadLog[] = [];
  await until(async () => (logs = loadLogs(dir, fileName)).length >= n, LOAD_TIMEOUT_MS);
  return logs[n - 1];
}

/** Idle time before the memory figure that counts. */
export const IDLE_MS = 45_000;

/** The lowest RSS seen over `ms` of idling, sampled every second. */
export async function lowestRss(pid: number, ms: number): Promise<number> {
  let low = memory(pid).rss;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    low = Math.min(low, memory(pid).rss);
  }
  return low;
}

/** RSS once it has stopped moving by more than 1 MiB over a second (at most `maxMs`). */
export async function steadyRss(pid: number, maxMs = 15_000): Promise<number> {
  let last = memory(pid).rss;
  const deadline = Date.now() + maxMs;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = memory(pid).rss;
    if (Math.abs(now - last) < 2 ** 20 || Date.now() > deadline) return now;
    last = now;
  }
}

/** A tree row's "N delivered · N gaps · …" counts. */
export function counts(row: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of row.matchAll(/(\d+) (delivered|gaps|lost|dup|late|invalid)\b/g)) out[m[2]] = Number(m[1]);
  return out;
}

export async function summaryRow(page: Page): Promise<string> {
  let row = '';
  await until(async () => {
    row = (await treeRows(page, 'seqscope')).find((r) => r.startsWith('Summary')) ?? '';
    return row !== '';
  }, 30_000);
  return row;
}

/** Opening a capture with its timeline (seqscope.timeline.showOnOpen), ms. */
export interface OpenPaintTimes {
  /** The user's choice in the picker (the load's start, SeqScope's log) → the first frame with data: the session shown while it loads. */
  choiceToPaintMs: number;
  /** The choice → the whole session (SeqScope's log: "opened … in N ms"). */
  loaderMs: number;
  /** The choice → the host showing the session's first chunk (SeqScope's log), when it came in chunks. */
  shownMs: number | undefined;
  /** The session's first init reaching the webview → the first frame with data. */
  sessionToPaintMs: number;
}

/** Times from the click on "Markdown: Open Preview", ms: the floor any extension's webview stands on. */
export interface MarkdownPreviewTimes {
  /** …to the start of the preview document's navigation (VS Code creating the panel and its iframe). */
  documentMs: number;
  /** …to its HTML received (the navigation's responseEnd). */
  receivedMs: number;
  /** …to the preview's first contentful paint. */
  paintMs: number;
}

/** Times from the click on "SeqScope: Show Timeline", ms. */
interface PaintTimes {
  /** …to the webview's first frame that drew data (the target's figure). */
  firstPaintMs: number;
  /** …to the start of the webview document's navigation (VS Code creating the panel and its iframe). */
  documentMs: number;
  /** …to the webview document's HTML received (its navigation's responseEnd) and parsed as far as the script (domLoading). */
  receivedMs: number;
  /** …to the timeline script starting. */
  bootMs: number;
  /** …to the session's description arriving from the extension host. */
  initMs: number;
  /** …to the first page request, and to its reply. */
  requestMs: number;
  pageMs: number;
}

/**
 * Runs "SeqScope: Show Timeline" (its panel closed) and returns when, from the click on the
 * command, the webview's document started, its script booted, the session arrived and the first
 * frame with data was drawn.
 */
async function showTimeline(page: Page): Promise<PaintTimes> {
  const clicked = await runCommand(page, 'SeqScope: Show Timeline');
  const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
  await settled(frame, 120_000);
  // The webview's marks are on its own clock: performance.timeOrigin makes them epoch time.
  // (No named functions inside: the page has no __name helper that tsx's output would call.)
  const t = await frame.evaluate(() => {
    const g = globalThis as unknown as {
      performance: { timeOrigin: number; getEntriesByName(name: string): { startTime: number }[] };
      __seqscopeTimeline: { snapshot(): { firstPaintMs?: number } };
    };
    const boot = g.performance.getEntriesByName('seqscope:boot')[0]?.startTime ?? NaN;
    const init = g.performance.getEntriesByName('seqscope:init')[0]?.startTime ?? NaN;
    const request = g.performance.getEntriesByName('seqscope:first-request')[0]?.startTime ?? NaN;
    const page = g.performance.getEntriesByName('seqscope:first-page')[0]?.startTime ?? NaN;
    const nav = (g.performance as unknown as { getEntriesByType(type: string): { responseEnd: number }[] }).getEntriesByType('navigation')[0];
    return {
      origin: g.performance.timeOrigin,
      received: nav?.responseEnd ?? NaN,
      boot,
      init,
      request,
      page,
      paint: g.__seqscopeTimeline.snapshot().firstPaintMs ?? NaN,
    };
  });
  return {
    firstPaintMs: t.origin + t.paint - clicked,
    documentMs: t.origin - clicked,
    receivedMs: t.origin + t.received - clicked,
    bootMs: t.origin + t.boot - clicked,
    initMs: t.origin + t.init - clicked,
    requestMs: t.origin + t.request - clicked,
    pageMs: t.origin + t.page - clicked,
  };
}

/**
 * Opens a Markdown file from Quick Open, then "Markdown: Open Preview" (VS Code's built-in
 * Markdown extension): when its webview's document started and first painted, from the click.
 */
async function markdownPreview(page: Page, fileName: string): Promise<MarkdownPreviewTimes> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(fileName);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: fileName }).first().click();
  await page.locator('.tab', { hasText: fileName }).first().waitFor({ timeout: 30_000 });
  const clicked = await runCommand(page, 'Markdown: Open Preview');
  const frame = await findWebviewFrame(page, '.markdown-body h1', { timeoutMs: 60_000 });
  const t = await frame.evaluate(() => {
    const g = globalThis as unknown as { performance: { timeOrigin: number; getEntriesByName(name: string): { startTime: number }[] } };
    const nav = (g.performance as unknown as { getEntriesByType(type: string): { responseEnd: number }[] }).getEntriesByType('navigation')[0];
    return {
      origin: g.performance.timeOrigin,
      received: nav?.responseEnd ?? NaN,
      paint: g.performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    };
  });
  for (const name of [`Preview ${fileName}`, fileName]) {
    const tab = page.locator('.tab', { hasText: name }).first();
    await tab.locator('.codicon-close').click();
    await tab.waitFor({ state: 'detached', timeout: 10_000 });
  }
  return { documentMs: t.origin - clicked, receivedMs: t.origin + t.received - clicked, paintMs: t.origin + t.paint - clicked };
}

/**
 * Opens the capture through the Command Palette as a user does, with its timeline (the default
 * seqscope.timeline.showOnOpen): what the user waits for once the file is read is the rest of
 * the load and the first paint.
 */
export async function closeTimelineTabs(page: Page): Promise<void> {
  // "Timeline: <session>", or "SeqScope Timeline" once its sessions are closed.
  const tabs = page.locator('.tab', { hasText: 'Timeline' });
  for (let n = await tabs.count(); n > 0; n = await tabs.count()) {
    await tabs.first().locator('.codicon-close').click();
    await until(async () => (await tabs.count()) < n, 10_000);
  }
}

export async function openWithTimeline(page: Page, dir: string, fileName: string, n: number): Promise<{ openMs: number; paint: OpenPaintTimes }> {
  const opening = Date.now();
  // Returns once the Sessions tree lists the capture: from its first chunk on, while it loads.
  await openCaptureFromPalette(page, fileName, 'Preset: cme', LOAD_TIMEOUT_MS);
  const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });
  await settled(frame, LOAD_TIMEOUT_MS);
  const onOpen = await frame.evaluate(() => {
    const g = globalThis as unknown as {
      performance: { timeOrigin: number; getEntriesByName(name: string): { startTime: number }[] };
      __seqscopeTimeline: { snapshot(): { firstPaintMs?: number } };
    };
    const init = g.performance.getEntriesByName('seqscope:init')[0]?.startTime ?? NaN;
    return { origin: g.performance.timeOrigin, init, paint: g.__seqscopeTimeline.snapshot().firstPaintMs ?? NaN };
  });
  // The whole session: logged, then the tree's row no longer says it is loading.
  const load = await loadLog(dir, fileName, n);
  await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(fileName) && !r.includes('loading')), LOAD_TIMEOUT_MS);
  const openMs = Date.now() - opening;
  // Host and browser run on this machine: one clock (epoch ms), so the host's log and the
  // webview's paint compare directly.
  const paint: OpenPaintTimes = {
    choiceToPaintMs: onOpen.origin + onOpen.paint - load.choiceAt,
    loaderMs: load.loaderMs,
    shownMs: load.shownMs,
    sessionToPaintMs: onOpen.paint - onOpen.init,
  };
  progress(
    `opened with its timeline: the choice → first frame ${paint.choiceToPaintMs.toFixed(0)} ms (first chunk shown ${paint.shownMs ?? '–'} ms; its init in → paint ${paint.sessionToPaintMs.toFixed(0)} ms); the whole session ${seconds(paint.loaderMs)}`,
  );
  return { openMs, paint };
}

export async function benchHostMemory(): Promise<HostMemoryBenchResult> {
  if (!installedMarker()) throw new Error('the VS Code test host is not installed: npm run host:install');
  mkdirSync(BENCH_DIR, { recursive: true });
  progress('preparing the 1 000 000-line capture');
  const capture = ensureCapture('capture-1m', captureOptions(CAPTURE_NUMBERS));
  progress(`preparing the ${count(MANY_KEYS)}-key capture`);
  const manyKeysCapture = ensureCapture('capture-keys-100k', MANY_KEYS_OPTIONS);
  // A workspace holding only the captures (links: .bench also has the large HTML exports).
  const folder = mkdtempSync(join(tmpdir(), 'seqscope-bench-host-'));
  symlinkSync(capture.path, join(folder, basename(capture.path)));
  symlinkSync(manyKeysCapture.path, join(folder, basename(manyKeysCapture.path)));
  writeFileSync(join(folder, MARKDOWN_FILE), '# Notes\n\nA page for the Markdown preview: the webview start-up of VS Code itself.\n');
  // The captures number in 16 bits: opened as a user of a 16-bit feed opens it, the cme preset
  // (32-bit, as CME's wire) with the width set to 16 in the settings, which apply over a preset
  // picked in Open Capture… (package.json's seqscope.preset: "set seqscope.seqBits to 16 for a
  // 16-bit feed").
  mkdirSync(join(folder, '.vscode'));
  const settingsPath = join(folder, '.vscode', 'settings.json');
  writeFileSync(settingsPath, JSON.stringify(SETTINGS));
  // The CLI on the same file first, alone on the machine: the figure the loader's stands beside.
  const cliPath = join(ROOT, 'dist/cli.js');
  if (!existsSync(cliPath)) throw new Error('dist/cli.js is missing: run `npm run bench` (it builds first) or `node esbuild.js --production`');
  progress('seqscope replay --preset cme --seq-bits 16 --json of the same capture (the CLI, all threads)');
  const cliRun = runNode([cliPath, 'replay', capture.path, '--preset', 'cme', '--seq-bits', '16', '--json']);
  const cli = { wallMs: cliRun.wallMs, problems: checkSummary(cliRun.stdout, capture.truth) };
  progress(`CLI replay: ${seconds(cli.wallMs)} ${checked(cli.problems)}`);
  const wb = await openWorkbench({ folder });
  try {
    const { page, server } = wb;
    // Activates SeqScope (its commands are its activation events) without opening anything.
    await runCommand(page, 'SeqScope: Show Log');
    let pids: number[] = [];
    await until(async () => (pids = extensionHosts(server.pid)).length > 0, 30_000);
    if (pids.length !== 1) throw new Error(`expected one extension host in process group ${server.pid}, found ${pids.join(', ')}`);
    const pid = pids[0];
    const baselineRss = await steadyRss(pid);
    progress(`extension host pid ${pid}: baseline RSS ${mib(baselineRss)}`);

    progress(`opening ${capture.path} (${mib(capture.bytes)}) through the Command Palette`);
    const first = await openWithTimeline(page, wb.dir, basename(capture.path), 1);
    const openMs = first.openMs;
    progress(`the loader: ${seconds(first.paint.loaderMs)} (the CLI: ${seconds(cli.wallMs)})`);
    const got = counts(await summaryRow(page));
    const t = capture.truth;
    const want: Record<string, number> = { delivered: t.distinct, gaps: t.gaps, lost: t.lost, dup: t.duplicates, late: t.late, invalid: 0 };
    const problems = Object.keys(want)
      .filter((k) => got[k] !== want[k])
      .map((k) => `${k} ${got[k]} ≠ ${want[k]}`);
    const openPaints = [first.paint];
    await closeTimelineTabs(page);
    const openRss = await steadyRss(pid);
    progress(`open in ${(openMs / 1000).toFixed(1)} s; RSS ${mib(openRss)}`);

    const paint = await showTimeline(page);
    const firstPaintMs = paint.firstPaintMs;
    const timelineRss = await steadyRss(pid);
    const peakRss = memory(pid).peak;
    progress(`timeline first paint ${firstPaintMs.toFixed(0)} ms (${phases(paint)}); RSS ${mib(timelineRss)}, peak ${mib(peakRss)}`);
    // V8 keeps the load's garbage until its memory reducer runs, some 20–30 s after allocation
    // stops; what the capture holds for as long as it is open is the RSS after that.
    progress(`waiting ${IDLE_MS / 1000} s idle for V8's memory reducer`);
    const idleRss = await lowestRss(pid, IDLE_MS);
    progress(`RSS after ${IDLE_MS / 1000} s idle: ${mib(idleRss)}`);
    const aboveBaseline = idleRss - baselineRss;
    // The floor under that figure: the same steps for the 3 000-message sample (a new webview,
    // next to nothing to query).
    const timelineTab = page.locator('.tab', { hasText: 'Timeline:' });
    await timelineTab.locator('.codicon-close').click();
    await runCommand(page, 'SeqScope: Open Sample Capture');
    await page.locator('.tab', { hasText: 'Timeline: cme-sample.jsonl' }).waitFor({ timeout: 60_000 });
    await settled(await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 }), 60_000);
    await timelineTab.locator('.codicon-close').click();
    await timelineTab.waitFor({ state: 'detached', timeout: 10_000 });
    const samplePaint = await showTimeline(page);
    const sampleFirstPaintMs = samplePaint.firstPaintMs;
    progress(`the sample's timeline: first paint ${sampleFirstPaintMs.toFixed(0)} ms (${phases(samplePaint)})`);
    // VS Code's own webview start-up on the same machine, for the floor under both figures.
    const markdownPreviews: MarkdownPreviewTimes[] = [];
    for (let run = 1; run <= MARKDOWN_RUNS; run++) markdownPreviews.push(await markdownPreview(page, MARKDOWN_FILE));
    progress(
      `VS Code's Markdown preview: ${markdownPreviews.map((m) => `document +${m.documentMs.toFixed(0)} · received +${m.receivedMs.toFixed(0)} · painted +${m.paintMs.toFixed(0)} ms`).join('; ')}`,
    );
    // The opening first paint again (it varies with what else the two cores do at that moment):
    // the figure is the median of the runs.
    for (let run = 2; run <= OPEN_RUNS; run++) {
      await closeTimelineTabs(page);
      await runCommand(page, 'SeqScope: Close All Sessions');
      progress(`opening the capture again (${run} of ${OPEN_RUNS})`);
      openPaints.push((await openWithTimeline(page, wb.dir, basename(capture.path), run)).paint);
    }
    await closeTimelineTabs(page);
    await runCommand(page, 'SeqScope: Close All Sessions');
    // The load alone: the same open with the timeline left closed (seqscope.timeline.showOnOpen),
    // what the timeline drawing while the capture loads costs the loader.
    writeFileSync(settingsPath, JSON.stringify({ ...SETTINGS, 'seqscope.timeline.showOnOpen': false }));
    const bare: number[] = [];
    for (let run = 1; run <= BARE_RUNS; run++) {
      progress(`opening the capture with the timeline closed (${run} of ${BARE_RUNS})`);
      await openCaptureFromPalette(page, basename(capture.path), 'Preset: cme', LOAD_TIMEOUT_MS);
      bare.push((await loadLog(wb.dir, basename(capture.path), OPEN_RUNS + run)).loaderMs);
      await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(basename(capture.path)) && !r.includes('loading')), LOAD_TIMEOUT_MS);
      if (await page.locator('.tab', { hasText: 'Timeline' }).count()) problems.push('a timeline opened with seqscope.timeline.showOnOpen false');
      progress(`the loader, timeline closed: ${seconds(bare[bare.length - 1])}`);
      await runCommand(page, 'SeqScope: Close All Sessions');
    }
    writeFileSync(settingsPath, JSON.stringify(SETTINGS));
    progress(`opening the ${count(MANY_KEYS)}-key capture (${mib(manyKeysCapture.bytes)})`);
    const many = await openWithTimeline(page, wb.dir, basename(manyKeysCapture.path), 1);
    const manyGot = counts(await summaryRow(page));
    if (manyGot.delivered !== manyKeysCapture.truth.distinct)
      problems.push(`${count(MANY_KEYS)} keys: delivered ${manyGot.delivered} ≠ ${manyKeysCapture.truth.distinct}`);
    const byChoice = [...openPaints].sort((a, b) => a.choiceToPaintMs - b.choiceToPaintMs);
    const openPaint = byChoice[Math.floor((byChoice.length - 1) / 2)];
    const loaderMs = openPaints.map((p) => p.loaderMs);
    const loaderRatio = median(loaderMs) / cli.wallMs;
    return {
      capture: { lines: capture.lines, bytes: capture.bytes },
      pid,
      baselineRss,
      openRss,
      timelineRss,
      idleRss,
      peakRss,
      aboveBaseline,
      openMs,
      loaderMs,
      bareLoaderMs: bare,
      cli,
      openPaint,
      openPaintRuns: openPaints.map((p) => p.choiceToPaintMs),
      loaderRatio,
      firstPaintMs,
      paint,
      sampleFirstPaintMs,
      samplePaint,
      markdownPreview: markdownPreviews,
      manyKeys: { keys: MANY_KEYS, lines: manyKeysCapture.lines, bytes: manyKeysCapture.bytes, openMs: many.openMs, paint: many.paint },
      problems,
      loadAverage: loadavg()[0],
      targets: {
        aboveBaseline: TARGET_ABOVE_BASELINE,
        firstPaintMs: FIRST_PAINT_TARGET_MS,
        openPaintMs: OPEN_PAINT_TARGET_MS,
        loaderRatio: LOADER_RATIO_TARGET,
      },
      met: {
        memory: aboveBaseline <= TARGET_ABOVE_BASELINE,
        openPaint: openPaint.choiceToPaintMs <= OPEN_PAINT_TARGET_MS,
        loader: loaderRatio <= LOADER_RATIO_TARGET,
        showTimeline: firstPaintMs <= FIRST_PAINT_TARGET_MS,
      },
    };
  } finally {
    await wb.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The middle value (the lower of the two middle ones of an even count), as the report's medians. */
function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

function phases(p: PaintTimes): string {
  return `document +${p.documentMs.toFixed(0)} · received +${p.receivedMs.toFixed(0)} · boot +${p.bootMs.toFixed(0)} · session +${p.initMs.toFixed(0)} · page asked +${p.requestMs.toFixed(0)} · page in +${p.pageMs.toFixed(0)} ms`;
}

/** The report section (Markdown), as `npm run bench` prints it. */
export function hostMemoryReport(r: HostMemoryBenchResult): string[] {
  const check = r.problems.length ? `✗ ${r.problems.join('; ')}` : '✓';
  const loader = median(r.loaderMs);
  return [
    `## 5. Extension host on 1 M messages (VS Code 1.100.3 server, headless Chromium, 1400×900)`,
    '',
    `Capture: ${count(r.capture.lines)} lines, ${mib(r.capture.bytes)}, opened through the Command Palette with \`Preset: cme\` and \`seqscope.seqBits\` 16 in the workspace settings (its numbers are 16-bit); the Sessions tree's summary against the injected truth: ${check}. RSS of the extension host process (pid ${r.pid}, /proc/<pid>/status) once steady; load average ${r.loadAverage.toFixed(1)}.`,
    '',
    table(
      ['measure', 'result', 'target', ''],
      [
        [
          `the loader (VS Code: the choice in the picker → the whole session, SeqScope's log), median of ${r.loaderMs.length} opens · the CLI on the same file, \`seqscope replay --preset cme --seq-bits 16 --json\` (all threads, once, check ${checked(r.cli.problems)}) · their ratio`,
          `${seconds(loader)} (runs: ${r.loaderMs.map((x) => seconds(x)).join(', ')}) · ${seconds(r.cli.wallMs)} · ${r.loaderRatio.toFixed(2)}×`,
          `≤ ${r.targets.loaderRatio}×`,
          verdict(r.met.loader),
        ],
        [
          `… the same with the timeline closed (\`seqscope.timeline.showOnOpen\` false), median of ${r.bareLoaderMs.length} opens · its ratio to the CLI`,
          `${seconds(median(r.bareLoaderMs))} (runs: ${r.bareLoaderMs.map((x) => seconds(x)).join(', ')}) · ${(median(r.bareLoaderMs) / r.cli.wallMs).toFixed(2)}×`,
          '',
          '',
        ],
        ['RSS after SeqScope activated (baseline)', mib(r.baselineRss), '', ''],
        [`RSS with the capture open (open took ${(r.openMs / 1000).toFixed(1)} s)`, `${mib(r.openRss)} (+${mib(r.openRss - r.baselineRss)})`, '', ''],
        ['RSS with its timeline shown, right away', `${mib(r.timelineRss)} (+${mib(r.timelineRss - r.baselineRss)})`, '', ''],
        [
          `… after ${IDLE_MS / 1000} s idle (V8's memory reducer has returned the load's garbage): what the capture holds`,
          `${mib(r.idleRss)} (+${mib(r.aboveBaseline)})`,
          `≤ +${mib(r.targets.aboveBaseline)}`,
          verdict(r.met.memory),
        ],
        ['peak RSS (VmHWM), while loading included', `${mib(r.peakRss)} (+${mib(r.peakRss - r.baselineRss)})`, '', ''],
        [
          `first paint, opening the capture (the timeline opens with the load and shows the session from its first chunk on): the choice in the picker → first frame with data; median of ${r.openPaintRuns.length} opens`,
          `${r.openPaint.choiceToPaintMs.toFixed(0)} ms (runs: ${r.openPaintRuns.map((x) => x.toFixed(0)).join(', ')})`,
          `≤ ${r.targets.openPaintMs} ms`,
          verdict(r.met.openPaint),
        ],
        [
          '… in that run: the choice → the host showing the first chunk · its init reaching the webview → first frame',
          `${r.openPaint.shownMs ?? '–'} ms · ${r.openPaint.sessionToPaintMs.toFixed(0)} ms`,
          '',
          '',
        ],
        [
          'first paint, Show Timeline later (panel closed): click → first frame with data',
          `${r.firstPaintMs.toFixed(0)} ms`,
          `≤ ${r.targets.firstPaintMs} ms`,
          verdict(r.met.showTimeline),
        ],
        [
          '… of which: webview document started · its HTML received · script booted · session arrived · first page asked · its reply in',
          phases(r.paint),
          '',
          '',
        ],
        ['… the same for the 3 000-message sample (webview start-up: the floor)', `${r.sampleFirstPaintMs.toFixed(0)} ms (${phases(r.samplePaint)})`, '', ''],
        [
          `VS Code's own Markdown preview (built-in extension), ${r.markdownPreview.length} opens: click → its document started · its HTML received · its first contentful paint; medians`,
          `${median(r.markdownPreview.map((m) => m.documentMs)).toFixed(0)} ms · ${median(r.markdownPreview.map((m) => m.receivedMs)).toFixed(0)} ms · ${median(r.markdownPreview.map((m) => m.paintMs)).toFixed(0)} ms (runs: ${r.markdownPreview.map((m) => `${m.documentMs.toFixed(0)}/${m.receivedMs.toFixed(0)}/${m.paintMs.toFixed(0)}`).join(', ')})`,
          '',
          '',
        ],
        [
          `opening a capture of ${count(r.manyKeys.keys)} keys (${count(r.manyKeys.lines)} lines, ${mib(r.manyKeys.bytes)}) with its timeline, once: the choice → first frame with data · the choice → the whole session`,
          `${r.manyKeys.paint.choiceToPaintMs.toFixed(0)} ms · ${seconds(r.manyKeys.paint.loaderMs)}`,
          '',
          '',
        ],
      ],
    ),
    '',
  ];
}

if (require.main === module) {
  benchHostMemory()
    .then((r) => process.stdout.write(hostMemoryReport(r).join('\n') + '\n'))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
