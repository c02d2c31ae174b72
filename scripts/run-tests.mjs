#!/usr/bin/env node
// `npm test`: runs every test tier and ends with one line "N passed, N failed, N skipped".
// Tiers: unit (plain Node, mocha); emulator (plain Node, against the Pub/Sub emulator); integration (mocha inside a real VS Code 1.100 extension
// host: scripts/vscode-host/run-suite.mjs, then test/integration/restricted/ again in a window in Restricted Mode); e2e (Playwright on the VS Code workbench, mocha in
// plain Node); e2e-modal (the same, on a workbench without the smoke-test driver, so that modal
// dialogs show; against the Pub/Sub emulator). Each tier's reporter appends its counts to a results file.
// The host tiers run on the oldest VS Code `engines.vscode` allows (1.100), and the integration
// and e2e tiers again on the newest the registry carries (scripts/vscode-host/common.mjs, HOSTS):
// `integration-newest`, `e2e-newest`.
// `node scripts/run-tests.mjs unit e2e` runs only the tiers named.
//
// The two host tiers need the VS Code server (scripts/vscode-host/install.mjs, cached in
// .vscode-test/). Where it cannot be installed (no Chromium, no root for apt-get), their tests
// are counted as skipped, loudly; in CI (CI=true) a missing host is a failure.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { countTests } from './vscode-host/common.mjs';

const root = new URL('..', import.meta.url).pathname;
const resultsDir = join(root, '.test-results');
const results = join(resultsDir, 'counts.jsonl');
mkdirSync(resultsDir, { recursive: true });
rmSync(results, { force: true });

const node = process.execPath;
const mocha = join(root, 'node_modules/mocha/bin/mocha.js');
const vscodeHost = (script) => join(root, 'scripts/vscode-host', script);
const inCI = /^(1|true)$/i.test(process.env.CI ?? '');

const tiers = [
  { name: 'unit', steps: [[node, mocha]] },
  // Against the real Pub/Sub emulator, which the tests start themselves (test/emulator/); where it
  // is not installed they report themselves skipped, loudly.
  { name: 'emulator', steps: [[node, mocha, '--config', join(root, '.mocharc.emulator.json')]] },
  ...['oldest', 'newest'].flatMap((vscode) => {
    const suffix = vscode === 'oldest' ? '' : `-${vscode}`;
    return [
      {
        name: `integration${suffix}`,
        vscode,
        testsDir: join(root, 'test/integration'),
        steps: [
          [node, vscodeHost('build-suite.mjs')],
          [node, vscodeHost('run-suite.mjs')],
          [node, vscodeHost('run-suite.mjs'), '--restricted'],
        ],
      },
      { name: `e2e${suffix}`, vscode, testsDir: join(root, 'test/e2e'), steps: [[node, mocha, '--config', join(root, '.mocharc.e2e.json')]] },
    ];
  }),
  // The workbench without the smoke-test driver, which would answer modal dialogs itself: modals
  // as a user sees them (Attach's question, confirmations; none after an error notification).
  { name: 'e2e-modal', vscode: 'oldest', testsDir: join(root, 'test/e2e-modal'), steps: [[node, mocha, '--config', join(root, '.mocharc.e2e-modal.json')]] },
];

const only = process.argv.slice(2);
const unknown = only.filter((n) => !tiers.some((t) => t.name === n));
if (unknown.length) {
  console.error(`unknown tier(s): ${unknown.join(', ')}; tiers: ${tiers.map((t) => t.name).join(', ')}`);
  process.exit(2);
}

const hosts = {}; // by SEQSCOPE_VSCODE: { ok: boolean, why: string } once tried
function hostAvailable(vscode) {
  if (hosts[vscode]) return hosts[vscode];
  console.log(`\n=== VS Code test host (${vscode}) ===`);
  const r = spawnSync(node, [vscodeHost('install.mjs')], { cwd: root, stdio: 'inherit', env: { ...process.env, SEQSCOPE_VSCODE: vscode } });
  hosts[vscode] =
    r.status === 0
      ? { ok: true, why: '' }
      : {
          ok: false,
          why: r.status === 2 ? 'the machine lacks its prerequisites (see the line above)' : `its install failed (exit ${r.status ?? r.signal}; see above)`,
        };
  return hosts[vscode];
}

let crashed = 0;
for (const t of tiers.filter((x) => !only.length || only.includes(x.name))) {
  console.log(`\n=== ${t.name} tests ===`);
  if (t.vscode && !hostAvailable(t.vscode).ok) {
    const n = countTests(t.testsDir);
    const bar = '!'.repeat(100);
    const counted = inCI ? `counted as FAILED (CI=true)` : `counted as SKIPPED, not passed`;
    console.error(
      `${bar}\n!!! ${t.name} tests NOT RUN: the VS Code test host (${t.vscode}) is unavailable: ${hosts[t.vscode].why}.\n!!! ${n} test(s) ${counted}.\n${bar}`,
    );
    appendFileSync(
      results,
      JSON.stringify(inCI ? { tier: t.name, passed: 0, failed: Math.max(n, 1), skipped: 0 } : { tier: t.name, passed: 0, failed: 0, skipped: n }) + '\n',
    );
    continue;
  }
  const started = Date.now();
  if (t.name.startsWith('e2e')) rmSync(join(resultsDir, t.name), { recursive: true, force: true }); // screenshots
  let r;
  for (const [cmd, ...args] of t.steps) {
    r = spawnSync(cmd, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SEQSCOPE_TEST_RESULTS: results, SEQSCOPE_TEST_TIER: t.name, ...(t.vscode && { SEQSCOPE_VSCODE: t.vscode }) },
    });
    if (r.status !== 0) break;
  }
  const counted = readCounts().some((c) => c.tier === t.name);
  if (!counted) {
    // The tier died before reporting (crash, compile error): count it as a failure, loudly.
    console.error(`!!! ${t.name} tests did not report results (exit ${r.status ?? r.signal})`);
    crashed++;
  }
  console.log(`--- ${t.name} tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function readCounts() {
  try {
    return readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

const total = { passed: 0, failed: crashed, skipped: 0 };
const byTier = [];
for (const c of readCounts()) {
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
  byTier.push(`${c.tier} ${c.passed} passed ${c.failed} failed ${c.skipped} skipped`);
}
console.log(`\nby tier: ${byTier.join('; ')}`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
