#!/usr/bin/env node
// Compiles the integration suite (test/integration/**) into out/integration/: index.js, the
// entry point the extension host loads, and one *.test.js per test file. `vscode` is provided
// by the host and mocha is required from node_modules at run time, so both stay external.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './common.mjs';

export const SUITE_SRC = join(ROOT, 'test', 'integration');
export const SUITE_OUT = join(ROOT, 'out', 'integration');
export const SUITE_INDEX = join(SUITE_OUT, 'index.js');

export async function buildSuite() {
  const entryPoints = readdirSync(SUITE_SRC, { recursive: true })
    .map(String)
    .filter((f) => f === 'index.ts' || f.endsWith('/index.ts') || f.endsWith('.test.ts'))
    .map((f) => join(SUITE_SRC, f));
  rmSync(SUITE_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: SUITE_OUT,
    outbase: SUITE_SRC,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    sourcesContent: false,
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return { files: entryPoints.length, index: SUITE_INDEX };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  buildSuite().then(
    ({ files, index }) => {
      console.log(`[vscode-host] built ${files} integration file(s) into ${index.replace(ROOT + '/', '')} in ${Date.now() - started} ms`);
    },
    (e) => {
      console.error(`[vscode-host] building the integration suite failed: ${e.message}`);
      process.exit(1);
    },
  );
}
