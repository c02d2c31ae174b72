/**
 * Exports of a replay on the parallel reader are the bytes of the one-thread replay's, in every
 * format, filtered or not, for random captures cut into random ranges scanned in random order
 * by any number of threads.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { ScanPool } from '../../../../src/core/capture/parallelReader';
import { TraceWriter } from '../../../../src/core/export/traceWriter';
import { TraceFormat } from '../../../../src/core/export';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { DEFAULT_OPTIONS, SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { traceEventMatcher } from '../../../../src/core/trace/traceFilter';
import { captureBytes, CME, countingPool, parallelRunArb, suiteFolder } from '../../../support/parallelCaptures';

describe('Exports on the parallel reader', () => {
  const { write, file } = suiteFolder('seqscope-parallel-export-');

  /** The export's bytes (decompressed) and the summary. */
  async function exported(
    paths: string[],
    options: SequencingOptions,
    format: TraceFormat,
    gz: boolean,
    filtered: boolean,
    pool?: ScanPool,
  ): Promise<[string, unknown]> {
    const out = file('out', `.${format === 'csv' ? 'csv' : format === 'chrome-trace' ? 'json' : 'jsonl'}${gz ? '.gz' : ''}`);
    const writer = await TraceWriter.open(out, format);
    const exportFilter = filtered ? traceEventMatcher({ kinds: ['duplicate', 'late', 'invalid'] }) : undefined;
    const { summary } = await runReplay({ paths, options, writer, exportFilter, scanPool: pool });
    const bytes = readFileSync(out);
    return [(gz ? gunzipSync(bytes) : bytes).toString('utf8'), summary];
  }

  it('writes the one-thread replay’s bytes in every format, for any cut and thread count', async () => {
    const counter = { scans: 0 };
    await fc.assert(
      fc.asyncProperty(
        parallelRunArb,
        fc.constantFrom<TraceFormat>('jsonl', 'jsonl', 'csv', 'chrome-trace'),
        fc.boolean(),
        fc.boolean(),
        async (run, format, gz, filtered) => {
          const paths = run.captures.map((c, i) => write(Math.abs(run.seed + i) % 3 === 0 ? gzipSync(captureBytes(c)) : captureBytes(c)));
          const options = run.cme ? CME : DEFAULT_OPTIONS;
          const one = await exported(paths, options, format, gz, filtered);
          const many = await exported(paths, options, format, gz, filtered, countingPool(run, counter));
          assert.equal(many[0], one[0]);
          assert.deepEqual(many[1], one[1]);
        },
      ),
      { numRuns: 150 },
    );
    assert.ok(counter.scans > 150, 'the replays went through the pool');
  });
});
