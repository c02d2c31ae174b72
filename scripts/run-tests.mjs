#!/usr/bin/env node
// `npm test`: runs every test tier and ends with one line "N passed, N failed, N skipped".
// Tiers: unit (plain Node, mocha). Each tier's reporter appends its counts to a results file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const resultsDir = join(root, '.test-results');
const results = join(resultsDir, 'counts.jsonl');
mkdirSync(resultsDir, { recursive: true });
rmSync(results, { force: true });

const tiers = [
  { name: 'unit', cmd: process.execPath, args: [join(root, 'node_modules/mocha/bin/mocha.js')] },
];

let crashed = 0;
for (const t of tiers) {
  console.log(`\n=== ${t.name} tests ===`);
  const r = spawnSync(t.cmd, t.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SEQSCOPE_TEST_RESULTS: results, SEQSCOPE_TEST_TIER: t.name },
  });
  const counted = readCounts().some((c) => c.tier === t.name);
  if (!counted) {
    // The tier died before reporting (crash, compile error): count it as a failure, loudly.
    console.error(`!!! ${t.name} tests did not report results (exit ${r.status ?? r.signal})`);
    crashed++;
  }
}

function readCounts() {
  try {
    return readFileSync(results, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

const total = { passed: 0, failed: crashed, skipped: 0 };
for (const c of readCounts()) {
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
}
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
