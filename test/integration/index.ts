// The integration suite's entry point: VS Code's extension host loads this file (the compiled
// out/integration/index.js, named by extensionTestsPath) and awaits run(). Mocha runs every
// compiled *.test.js beside it, prints the spec output and ends with one machine-readable line,
// `SEQSCOPE_COUNTS {"passed":n,"failed":n,"skipped":n}`, that scripts/vscode-host/run-suite.mjs
// reads for the closing "N passed, N failed, N skipped" line of `npm test`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: CountingSpecReporter,
    ...(process.env.SEQSCOPE_GREP ? { grep: process.env.SEQSCOPE_GREP } : {}),
  });
  const files = readdirSync(__dirname, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(join(__dirname, f));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
