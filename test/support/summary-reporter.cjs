// Mocha reporter: the usual spec output, plus the counts for the closing
// "N passed, N failed, N skipped" line. scripts/run-tests.mjs sets SEQSCOPE_TEST_RESULTS to a
// file and prints one closing line for all tiers; run alone, the reporter prints it itself.
const fs = require('node:fs');
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, () => counts.passed++);
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, () => counts.failed++);
    runner.on(Mocha.Runner.constants.EVENT_TEST_PENDING, () => counts.skipped++);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.SEQSCOPE_TEST_RESULTS;
      if (file) fs.appendFileSync(file, JSON.stringify({ tier: process.env.SEQSCOPE_TEST_TIER || 'unit', ...counts }) + '\n');
      else process.nextTick(() => console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`));
    });
  }
}

module.exports = SummaryReporter;
