// The integration suite's entry point: VS Code's extension host loads this file (the compiled
// out/integration/index.js, named by extensionTestsPath) and awaits run(). Mocha runs every
// compiled *.test.js beside it, prints the spec output and ends with one machine-readable line,
// `SEQSCOPE_COUNTS {"passed":n,"failed":n,"skipped":n}`, that scripts/vscode-host/run-suite.mjs
// reads for the closing "N passed, N failed, N skipped" line of `npm test`.
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import Mocha from 'mocha';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

/** The spec reporter, plus the counts line. */
class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    runner.on(EVENT_TEST_PASS, () => counts.passed++);
    runner.on(EVENT_TEST_FAIL, () => counts.failed++);
    runner.on(EVENT_TEST_PENDING, () => counts.skipped++);
    runner.once(EVENT_RUN_END, () => console.log(`SEQSCOPE_COUNTS ${JSON.stringify(counts)}`));
  }
}

/** Every test file of the suite but those of `restricted/`, which run in a window of their own (restricted/index.ts). */
export async function run(): Promise<void> {
  await runFiles(__dirname, (f) => !f.startsWith('restricted/'));
}

/** Runs the compiled test files under `dir` that `pick` keeps (paths relative to `dir`, with `/`). */
export async function runFiles(dir: string, pick: (file: string) => boolean): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: CountingSpecReporter,
    ...(process.env.SEQSCOPE_GREP ? { grep: process.env.SEQSCOPE_GREP } : {}),
  });
  const files = readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(sep).join('/'))
    .filter((f) => f.endsWith('.test.js') && pick(f))
    .sort();
  if (files.length === 0) throw new Error(`no test files under ${dir}`);
  for (const f of files) mocha.addFile(join(dir, f));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
