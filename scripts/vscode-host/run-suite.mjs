#!/usr/bin/env node
// Runs the compiled integration suite (out/integration/index.js, built by build-suite.mjs)
// inside a real VS Code 1.100 extension host: the bare VS Code server plus headless Chromium
// opening the workbench with a test payload. Streams the suite's output, appends its counts to
// $SEQSCOPE_TEST_RESULTS (tier $SEQSCOPE_TEST_TIER, default "integration") and exits with the
// suite's code. Any run that ends without the suite's counts is recorded as a failure.
//
//   node scripts/vscode-host/run-suite.mjs [--restricted] [--workspace DIR] [--extension DIR] [--suite FILE] [--timeout S] [--load-timeout S]
//
// --restricted: the folder opens in Restricted Mode (workspace trust on, the folder untrusted, its
// settings holding values the manifest restricts) and the suite is out/integration/restricted/index.js
// (test/integration/restricted/); its counts are recorded as the tier "… (Restricted Mode)".
// --workspace: the folder the workbench opens (default: a temp copy of test/fixtures/captures);
// --extension: the extension under development (default: the repository root); --timeout: for the whole run (default 600);
// --load-timeout: for the workbench to appear (default 120).
// SEQSCOPE_GREP=pattern runs only matching tests; SEQSCOPE_HOST_VERBOSE=1 shows the browser console.
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout } from 'node:timers';
import { format, parseArgs } from 'node:util';
import { ROOT, devExtensionPath, log } from './common.mjs';
import { openWorkbench } from './workbench.mjs';

const { values: opts } = parseArgs({
  options: {
    workspace: { type: 'string' },
    extension: { type: 'string' },
    suite: { type: 'string' },
    restricted: { type: 'boolean', default: false },
    timeout: { type: 'string', default: process.env.SEQSCOPE_HOST_TIMEOUT ?? '600' },
    'load-timeout': { type: 'string', default: '120' },
  },
});

/** Workbench log lines that say nothing about the suite (connection set-up; no gallery offline). */
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^ChatSessionStore:/,
  /ENOTFOUND open-vsx\.org/,
  /^\[Service Worker\] registration/,
];
const verbose = !!process.env.SEQSCOPE_HOST_VERBOSE;
const restricted = opts.restricted;
const suite = opts.suite ?? join(ROOT, 'out', 'integration', ...(restricted ? ['restricted'] : []), 'index.js');
const tier = `${process.env.SEQSCOPE_TEST_TIER || 'integration'}${restricted ? ' (Restricted Mode)' : ''}`;
const started = Date.now();
const timeoutMs = Number(opts.timeout) * 1000;

/** Kept in step with test/integration/restricted/restrictedMode.test.ts. */
const RESTRICTED_WORKSPACE_SETTINGS = {
  'seqscope.pubsub.emulatorHost': 'localhost:1',
  'seqscope.pubsub.projectId': 'not-trusted',
  'seqscope.tree.pageSize': 77,
};

let workspace = opts.workspace && resolve(opts.workspace);
let tempWorkspace;
if (!workspace) {
  tempWorkspace = mkdtempSync(join(tmpdir(), 'seqscope-ws-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'captures'), tempWorkspace, { recursive: true });
  // Settings the manifest restricts: Restricted Mode must read them from the folder and not apply them.
  if (restricted) {
    mkdirSync(join(tempWorkspace, '.vscode'));
    writeFileSync(join(tempWorkspace, '.vscode', 'settings.json'), JSON.stringify(RESTRICTED_WORKSPACE_SETTINGS, null, 2));
  }
  workspace = tempWorkspace;
}

let counts = null;
let wb;
let opening = Promise.resolve();
const aborter = new globalThis.AbortController();
let finished = false;

function record(result) {
  const file = process.env.SEQSCOPE_TEST_RESULTS;
  if (file) appendFileSync(file, JSON.stringify({ tier, ...result }) + '\n');
}

/** Lines of the SeqScope log kept after a failing run: enough to reach back to the failure. */
const LOG_LINES_ON_FAILURE = 300;

/** The SeqScope log of each extension host of the run (VS Code writes them under the user data's logs). */
function extensionLogs(dir) {
  const logs = join(dir, 'user-data', 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(join('seqscope.seqscope', 'SeqScope.log')))
    .map((f) => join(logs, f));
}

/** After a failure: the end of the extension's own log, which says what it did meanwhile. */
function printExtensionLogs(dir) {
  for (const file of extensionLogs(dir)) {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    console.error(`\n--- the extension's log (${file}), its last ${Math.min(lines.length, LOG_LINES_ON_FAILURE)} of ${lines.length} lines:`);
    console.error(lines.slice(-LOG_LINES_ON_FAILURE).join('\n'));
  }
}

/** Records the outcome once, cleans up, exits. */
async function finish(code, reason) {
  if (finished) return;
  finished = true;
  let result = counts;
  if (!result) {
    console.error(`\n!!! integration suite: ${reason ?? `ended with exit code ${code} without reporting its counts`}`);
    result = { passed: 0, failed: 1, skipped: 0 };
    code = 1;
  } else if (code !== 0 && result.failed === 0) {
    // The suite itself failed (a test file that did not load, a rejected run()): a failure.
    console.error(`\n!!! integration suite exited with code ${code} although no test failed: counted as one failure`);
    result = { ...result, failed: 1 };
  } else if (code === 0 && result.failed > 0) {
    code = 1;
  }
  record(result);
  if (result.failed > 0 && wb) printExtensionLogs(wb.dir);
  // Cleanup gets 30 s; then the exit handlers kill the server's process group and the browser.
  setTimeout(() => {
    console.error('!!! cleanup took over 30 s: killing the server and the browser');
    process.exit(code);
  }, 30_000).unref();
  aborter.abort();
  await opening.catch(() => {});
  await wb?.close().catch((e) => console.error(`cleanup: ${e.message}`));
  if (tempWorkspace) rmSync(tempWorkspace, { recursive: true, force: true });
  log(
    `integration run: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${code})`,
  );
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130, `interrupted (${sig})`));
setTimeout(() => finish(1, `timed out after ${opts.timeout} s (set --timeout or SEQSCOPE_HOST_TIMEOUT)`), timeoutMs);

const exitCode = new Promise((resolveExit) => {
  const extension = opts.extension ? resolve(opts.extension) : devExtensionPath();
  log(`extension under development: ${extension}`);
  log(`suite: ${suite}; workspace: ${workspace}${restricted ? ' (Restricted Mode)' : ''}`);
  opening = openWorkbench({
    signal: aborter.signal,
    loadTimeoutMs: Number(opts['load-timeout']) * 1000,
    folder: workspace,
    extensionDevelopmentPath: extension,
    extensionTestsPath: resolve(suite),
    restricted,
    onLog: (level, message) => {
      const text = Array.isArray(message) ? format(...message) : String(message);
      const m = /^SEQSCOPE_COUNTS (\{.*\})$/m.exec(text);
      if (m) counts = JSON.parse(m[1]);
      if (verbose) console.log(`[${level}] ${text}`);
      else if (!NOISE.some((re) => re.test(text))) console.log(text);
    },
    onExit: (code) => resolveExit(code),
  });
  opening.then(
    (opened) => {
      wb = opened;
    },
    (e) => finish(1, e.message),
  );
});

finish(await exitCode);
