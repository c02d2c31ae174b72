#!/usr/bin/env node
// `npm start`: SeqScope in a real VS Code, the bundled sample's timeline showing. Run after a
// build (`npm start` builds first).
//
// - Desktop VS Code when `code` is on the PATH: a new window with this repository as the
//   extension under development (--extensionDevelopmentPath) on a demo folder, the sample open
//   in SeqScope's capture editor. The window is VS Code's: this script returns at once.
// - Else (or with --server) the VS Code server the test tiers use (.vscode-test/, installed on
//   first run with its progress): prints the URL to open in a browser and stays up until Ctrl+C.
//
//   node scripts/start.mjs [--server]
//
// The demo folder holds a copy of the sample and workspace settings that open *.jsonl with
// SeqScope's editor and sequence by the CME preset; it is made afresh in the temp folder and
// removed when the server stops. The sample is opened by a helper extension beside SeqScope
// (scripts/start-opener/), not by the window's own "open this file": the workbench resolves
// that file's editor before the extensions under development register theirs, so a fresh
// browser (or profile) showed it as text.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, installedMarker } from './vscode-host/common.mjs';

/** The helper extension that opens the sample in SeqScope's editor once the window is up. */
const OPENER = join(ROOT, 'scripts', 'start-opener');

const { values } = parseArgs({ options: { server: { type: 'boolean', default: false } } });
const SAMPLE = 'cme-sample.jsonl';

/** A folder with the sample and settings that open it as SeqScope's timeline. */
function demoFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'seqscope-start-'));
  copyFileSync(join(ROOT, 'media', 'samples', SAMPLE), join(folder, SAMPLE));
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'workbench.editorAssociations': { '*.jsonl': 'seqscope.captureEditor' },
        'seqscope.preset': 'cme',
      },
      null,
      2,
    ) + '\n',
  );
  return folder;
}

const codeOnPath = () => spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).status === 0;

if (!values.server && codeOnPath()) {
  const folder = demoFolder();
  console.log(`Opening SeqScope in VS Code (extension under development: ${ROOT}) on ${folder}`);
  const r = spawnSync('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, `--extensionDevelopmentPath=${OPENER}`, folder], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

if (!installedMarker()) {
  console.log('First run: installing the VS Code server into .vscode-test/ (about 2 minutes; later runs start at once)…');
  // The installer prints its steps as it goes; its exit code says whether the machine lacks something.
  const code = await new Promise((resolve) =>
    spawn(process.execPath, [join(ROOT, 'scripts', 'vscode-host', 'install.mjs')], { stdio: 'inherit' }).on('close', resolve),
  );
  if (code !== 0) process.exit(code ?? 1);
}

// Imported only now: workbench.mjs loads playwright-core, which the desktop path does not need.
const { startServer, workbenchUrl } = await import('./vscode-host/workbench.mjs');
const folder = demoFolder();
const dir = mkdtempSync(join(tmpdir(), 'seqscope-start-host-'));
// The server loads one extension under development (the last given), so the opener is installed
// instead: a folder in its extensions folder, which it scans when it starts.
cpSync(OPENER, join(dir, 'extensions', 'seqscope-dev.seqscope-start-opener-0.0.0'), { recursive: true });
const server = await startServer({ dir });
const url = workbenchUrl(server.origin, { folder, extensionDevelopmentPath: ROOT });
console.log(`\nSeqScope is running in VS Code (server log: ${server.logFile}). Open this URL in a browser:\n\n  ${url}\n\nCtrl+C stops it.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the VS Code server…');
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Stays up while the server runs (its child process keeps this one alive), until a signal.
