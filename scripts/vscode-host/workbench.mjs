// Drives the real VS Code 1.100 workbench: the bare VS Code server (installed by install.mjs)
// in its own process group, and Debian's Chromium through playwright-core. Used by
// run-suite.mjs (the integration suite in the extension host) and by the e2e tests.
// Selectors that work on this workbench: shared/recipes/vscode-host.md.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, URLSearchParams } from 'node:url';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, SERVER_MAIN, SERVER_NODE, VSCODE_VERSION, devExtensionPath, installedMarker, log } from './common.mjs';

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Resolves true when GET url answers 200 within two seconds. */
function answers(url) {
  return new Promise((resolve) => {
    const req = get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function tail(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts the bare VS Code server on a free loopback port, with fresh data folders under `dir`,
 * in its own process group. Resolves once GET /version answers.
 * @returns {Promise<{port: number, origin: string, logFile: string, stop(): Promise<void>}>}
 */
export async function startServer({ dir, env = {}, readyTimeoutMs = 60_000, smokeTestDriver = true, restricted = false } = {}) {
  if (!installedMarker()) throw new Error('the VS Code server is not installed: run node scripts/vscode-host/install.mjs');
  const port = await freePort();
  const logFile = join(dir, 'server.log');
  const sub = (name) => {
    const p = join(dir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const args = [
    SERVER_MAIN,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--server-data-dir',
    sub('server-data'),
    '--user-data-dir',
    sub('user-data'),
    '--extensions-dir',
    sub('extensions'),
    '--disable-telemetry',
  ];
  // Workspace trust is off unless the run is about Restricted Mode: then the folder opens
  // untrusted, without the startup question (a modal the smoke-test driver would refuse).
  if (!restricted) args.push('--disable-workspace-trust');
  // The smoke-test driver lets the integration tier report through codeAutomationLog/Exit, and
  // makes the workbench refuse modal dialogs (it answers them itself): the e2e-modal tier runs
  // without it, so that modals show as a user sees them.
  if (smokeTestDriver) args.push('--enable-smoke-test-driver');
  // Newer workbenches open a Chat view beside the editor at start, and it takes the focus the
  // tests' key presses are meant for; settings older versions do not know are ignored.
  const user = join(sub('user-data'), 'User');
  mkdirSync(user, { recursive: true });
  writeFileSync(
    join(user, 'settings.json'),
    JSON.stringify(
      {
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        ...(restricted && { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }),
      },
      null,
      2,
    ),
  );
  const fd = openSync(logFile, 'a');
  // detached: the server gets its own process group (setsid), which stop() kills whole,
  // extension host and pty host included.
  const child = spawn(SERVER_NODE, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, SEQSCOPE_VSCODE_VERSION: VSCODE_VERSION, ...env },
  });
  closeSync(fd);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = code ?? signal;
  });
  const killGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* gone */
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.on('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    killGroup('SIGTERM');
    for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
    killGroup('SIGKILL');
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`the VS Code server exited (${exited}) before answering; ${logFile}:\n${tail(logFile)}`);
    if (await answers(`${origin}/version`)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the VS Code server did not answer GET /version within ${readyTimeoutMs / 1000} s; ${logFile}:\n${tail(logFile)}`);
    }
    await sleep(250);
  }
  return { port, origin, logFile, pid: child.pid, stop };
}

/**
 * Debian's Chromium, headless, with a fresh profile (the folder cannot be given in args).
 * Signals are left to the caller (run-suite.mjs, mocha): playwright's own handlers would close
 * the browser under a cleanup that is still using it.
 */
export function launchBrowser(profileDir, { viewport = { width: 1400, height: 900 } } = {}) {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: BROWSER_ARGS,
    viewport,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/**
 * The workbench URL for a folder on the server's machine, with an optional test payload and a
 * file to open (a path on the server's machine).
 */
export function workbenchUrl(origin, { folder, extensionDevelopmentPath, extensionTestsPath, openFile } = {}) {
  const authority = new URL(origin).host;
  const payload = [];
  if (openFile) payload.push(['openFile', `vscode-remote://${authority}${openFile}`]);
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', `vscode-remote://${authority}${extensionDevelopmentPath}`]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://${authority}${extensionTestsPath}`]);
  payload.push(['skipWelcome', 'true']);
  const q = new URLSearchParams();
  if (folder) q.set('folder', folder);
  q.set('payload', JSON.stringify(payload));
  return `${origin}/?${q}`;
}

/**
 * Starts a server and a browser and opens the workbench on `folder` with the extension under
 * development loaded. `onLog(level, message)` / `onExit(code)` receive the workbench's
 * codeAutomationLog / codeAutomationExit calls (the test payload's output and exit code).
 * @returns {Promise<{page, context, server, url: string, dir: string, close(): Promise<void>}>}
 */
export async function openWorkbench({
  folder,
  extensionDevelopmentPath = devExtensionPath(),
  extensionTestsPath,
  onLog,
  onExit,
  loadTimeoutMs = 120_000,
  verbose = !!process.env.SEQSCOPE_HOST_VERBOSE,
  keep = false,
  signal,
  smokeTestDriver = true,
  restricted = false,
  viewport,
} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-host-'));
  let server;
  let context;
  let closing; // one close for every caller: the abort, the failed step, the test's after()
  const close = () =>
    (closing ??= (async () => {
      await context?.close().catch(() => {});
      await server?.stop();
      if (!keep) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    })());
  // Aborting (an overall time-out) closes whatever has started; the pending step then throws.
  const abort = () => {
    close().catch(() => {});
  };
  signal?.addEventListener('abort', abort, { once: true });
  // A step that finishes after an abort undoes itself (a server still starting, a browser).
  const step = async (promise, undo) => {
    const value = await promise;
    if (closing || signal?.aborted) {
      await undo(value).catch(() => {});
      await close();
      if (!keep) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      throw new Error('aborted');
    }
    return value;
  };
  try {
    const started = Date.now();
    server = await step(startServer({ dir, smokeTestDriver, restricted }), (srv) => srv.stop());
    log(`server ready on ${server.origin} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid group ${server.pid}, log ${server.logFile})`);
    context = await step(launchBrowser(join(dir, 'browser-profile'), { viewport }), (ctx) => ctx.close());
    const page = context.pages()[0] ?? (await context.newPage());
    await page.exposeFunction('codeAutomationLog', (level, message) => onLog?.(level, message));
    await page.exposeFunction('codeAutomationExit', (code) => onExit?.(code));
    if (verbose) {
      page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
      page.on('pageerror', (e) => console.log(`[browser pageerror] ${e.message}`));
    }
    const url = workbenchUrl(server.origin, { folder, extensionDevelopmentPath, extensionTestsPath });
    await page.goto(url);
    try {
      await page.waitForSelector('.monaco-workbench', { timeout: loadTimeoutMs });
    } catch {
      throw new Error(
        `the VS Code workbench never loaded at ${url} within ${loadTimeoutMs / 1000} s ` +
          `(SEQSCOPE_HOST_VERBOSE=1 shows the browser console); the server log ends:\n${tail(server.logFile)}`,
      );
    }
    log(`workbench loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { page, context, server, url, dir, close };
  } catch (e) {
    await close();
    throw e;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * Runs a command by its title through F1 (e.g. "View: Toggle Panel"). The Command Palette lists
 * the commands known when it opens: one an extension registers later is not in it, so this
 * closes the palette and tries again until `timeoutMs`. Resolves to the time (epoch ms) the
 * command's row was clicked, for callers that time what the command does.
 */
export async function runCommand(page, title, { timeoutMs = 30_000 } = {}) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + timeoutMs;
  let clickedAt = 0;
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      // The palette can close again before it is typed into: a webview that is still loading
      // takes the focus (the timeline as a session opens). Then the whole attempt is retried.
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      // Each attempt waits its whole 5 s, the last one too: a command arriving just before the
      // deadline (an extension activating on a loaded machine) was seen listed, yet refused.
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      // Click the row itself: Enter would run the focused (first) row, and the palette's fuzzy
      // match can put another command first ("Preferences: Color Theme" lists "Preferences: Browse
      // Color Themes in Marketplace" above it). The palette can also close under the click (a
      // terminal starting in the panel takes the focus): then the attempt is retried too.
      await row.click({ timeout: 5_000 });
      clickedAt = Date.now();
      break;
    } catch (e) {
      await page.keyboard.press('Escape');
      if (Date.now() >= deadline) {
        const rows = await page
          .locator('.quick-input-widget .monaco-list-row')
          .allInnerTexts()
          .catch(() => []);
        throw new Error(
          `no command "${title}" in the Command Palette after ${attempt} tries in ${timeoutMs / 1000} s` +
            ` (rows: ${rows.join(' | ') || 'none'}): ${e.message.split('\n')[0]}`,
        );
      }
      await sleep(500);
    }
  }
  // The palette closes, or the command reuses the quick input (a picker, an input box).
  const until = Date.now() + 10_000;
  while ((await input.isVisible()) && (await input.inputValue().catch(() => '')) === `>${title}`) {
    if (Date.now() > until) throw new Error(`the Command Palette did not run "${title}"`);
    await sleep(100);
  }
  return clickedAt;
}

/** The text of the visible rows of a tree view in an extension's view container. */
export async function treeRows(page, containerId) {
  const rows = page.locator(`[id="workbench.view.extension.${containerId}"] .monaco-list-row`);
  return (await rows.allInnerTexts()).map((t) => t.trim());
}

/**
 * The frame of a webview whose document contains `selector`. Webview iframes are overlaid at
 * the workbench root (not inside the view's DOM) and the inner frame's name reads
 * `pending-frame`, so this polls every frame of the page.
 */
export async function findWebviewFrame(page, selector, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    await sleep(250);
  }
  throw new Error(`no webview frame contains ${selector} after ${timeoutMs / 1000} s (${page.frames().length} frames)`);
}

/** Saves a PNG of the whole window, creating the folder. */
export async function screenshot(page, path) {
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
  return path;
}
