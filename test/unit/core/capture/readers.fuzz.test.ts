/**
 * Fuzzed capture readers: real captures of every format SeqScope reads (JSON Lines, a JSON
 * array, a pull response compact and pretty, gzip, Cloud Storage and BigQuery Avro archives),
 * mutated (bytes flipped, ranges deleted or repeated, random bytes inserted) and truncated, read
 * end to end and replayed. What must hold for every case: no uncaught exception; the read either
 * ends, every record that cannot be read reported as an invalid entry with its line and a
 * reason, or stops with a CaptureError (the user-facing error, exit 2) naming the file.
 *
 * `npm test` runs SEQSCOPE_FUZZ_RUNS cases (default 2 000, fixed seed); `npm run test:stress`
 * runs 50 000. The seed is SEQSCOPE_FUZZ_SEED (default 29), so any failure reproduces.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { CaptureError, CaptureReader } from '../../../../src/core/capture/captureReader';
import { InlineScanPool } from '../../../../src/core/capture/parallelReader';
import { ReplayEngine } from '../../../../src/core/replay/replayEngine';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures');
const RUNS = Number(process.env.SEQSCOPE_FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.SEQSCOPE_FUZZ_SEED ?? 29);

/** The seeds: real captures, by the name (extension) they are read under. */
function seeds(): { name: string; bytes: Buffer }[] {
  const at = (...p: string[]) => readFileSync(join(FIXTURES, ...p));
  const basic = at('captures', 'basic.jsonl');
  // 200 lines of the CME sample: a real feed's gaps, reordering and redeliveries.
  const cme = Buffer.from(
    readFileSync(join(FIXTURES, '..', '..', 'media', 'samples', 'cme-sample.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 200)
      .join('\n') + '\n',
  );
  return [
    { name: 'cme.jsonl', bytes: cme },
    { name: 'cme.jsonl.gz', bytes: gzipSync(cme) },
    { name: 'basic.jsonl', bytes: basic },
    { name: 'with-invalid.jsonl', bytes: at('captures', 'with-invalid.jsonl') },
    { name: 'array.json', bytes: at('captures', 'array.json') },
    { name: 'pull-compact.json', bytes: at('captures', 'pull-compact.json') },
    { name: 'pull-pretty.json', bytes: at('captures', 'pull-pretty.json') },
    { name: 'xss.jsonl', bytes: at('xss.jsonl') },
    { name: 'basic.jsonl.gz', bytes: gzipSync(basic) },
    { name: 'gcs-metadata.avro', bytes: at('archives', 'gcs-metadata.avro') },
    { name: 'gcs-data-only.avro', bytes: at('archives', 'gcs-data-only.avro') },
    { name: 'bigquery.avro', bytes: at('archives', 'bigquery.avro') },
    { name: 'gcs-metadata-deflate.avro.gz', bytes: at('archives', 'gcs-metadata-deflate.avro.gz') },
  ];
}

type Mutation =
  | { op: 'flip'; at: number; xor: number }
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'repeat'; at: number; len: number }
  | { op: 'truncate'; at: number };

/** Positions are fractions of the length, so one arbitrary serves inputs of any size. */
const pos = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1e6);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('flip' as const), at: pos, xor: fc.integer({ min: 1, max: 255 }) }).map((m) => ({ ...m, at: m.at })) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: pos, len: fc.integer({ min: 1, max: 64 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('insert' as const),
      at: pos,
      // Random bytes, or the characters JSON, gzip and Avro readers care about most.
      bytes: fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        fc.constantFrom(...['\n', '{', '}', '[', ']', '"', '\\', ',', '\u2028', '\r\n', '\u0000', '\ufeff'].map((s) => new Uint8Array(Buffer.from(s)))),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), at: pos, len: fc.integer({ min: 1, max: 200 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: pos }) },
) as fc.Arbitrary<Mutation>;

function mutate(input: Buffer, mutations: readonly Mutation[]): Buffer {
  let b = input;
  for (const m of mutations) {
    const at = Math.floor(m.at * (b.length + 1));
    switch (m.op) {
      case 'flip':
        if (b.length === 0) break;
        b = Buffer.from(b);
        b[Math.min(at, b.length - 1)] ^= m.xor;
        break;
      case 'delete':
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.len)]);
        break;
      case 'insert':
        b = Buffer.concat([b.subarray(0, at), m.bytes, b.subarray(at)]);
        break;
      case 'repeat':
        b = Buffer.concat([b.subarray(0, at + m.len), b.subarray(at, at + m.len), b.subarray(at + m.len)]);
        break;
      case 'truncate':
        b = b.subarray(0, at);
        break;
    }
  }
  return b;
}

/** What one case did, for the report. */
interface Outcome {
  records: number;
  invalid: number;
  captureError: boolean;
}

async function readAndReplay(path: string): Promise<Outcome> {
  const reader = new CaptureReader(path);
  const engine = new ReplayEngine(resolveOptions({}), () => {}, [path]);
  const out: Outcome = { records: 0, invalid: 0, captureError: false };
  try {
    for await (const batch of reader.batches()) {
      for (const e of batch) {
        if (e.record === undefined) {
          out.invalid++;
          assert.ok(Number.isInteger(e.line) && e.line >= 1, `an invalid entry names its line: ${JSON.stringify(e)}`);
          assert.ok(typeof e.invalid === 'string' && e.invalid.length > 0, `an invalid entry says why: ${JSON.stringify(e)}`);
        } else out.records++;
      }
      engine.pushAll(batch);
    }
  } catch (e) {
    // The only acceptable failure: the user-facing error, naming the file.
    if (!(e instanceof CaptureError)) throw e;
    assert.ok(e.message.length > 0 && e.path === path, `a CaptureError names the file: ${e.message}`);
    out.captureError = true;
    if (process.env.SEQSCOPE_FUZZ_SHOW) console.log(path, e.message);
  } finally {
    await reader.close();
  }
  engine.finish();
  const s = engine.summary();
  assert.equal(s.received + s.invalid, out.records + out.invalid, 'every entry read is accounted for');
  assert.equal(s.received, s.delivered + s.duplicates + s.late, 'received = delivered + duplicates + late');
  return out;
}

describe('capture readers, fuzzed', function () {
  this.timeout(0);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-fuzz-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`read mutated and truncated real captures of every format without an uncaught exception (${RUNS} cases, seed ${SEED})`, async () => {
    const inputs = seeds();
    const tally = { cases: 0, records: 0, invalid: 0, captureErrors: 0 };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: inputs.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async (which, mutations) => {
        const input = inputs[which];
        const path = join(dir, `${n++ % 16}-${input.name}`);
        writeFileSync(path, mutate(input.bytes, mutations));
        if (process.env.SEQSCOPE_FUZZ_SHOW) console.log('case', n - 1, which, JSON.stringify(mutations));
        const o = await readAndReplay(path);
        tally.cases++;
        tally.records += o.records;
        tally.invalid += o.invalid;
        if (o.captureError) tally.captureErrors++;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The figures docs/reliability.md reports.
    console.log(
      `      fuzz: ${tally.cases} cases, ${tally.records} records read, ${tally.invalid} invalid entries reported, ${tally.captureErrors} clear capture errors, 0 uncaught`,
    );
    assert.equal(tally.cases, RUNS);
    assert.ok(tally.invalid > 0 && tally.records > 0, 'the mutations both kept and broke records');
  });

  it(`scans mutated JSON Lines captures to the summary the full parse gives (${Math.ceil(RUNS / 4)} cases, seed ${SEED})`, async () => {
    const inputs = seeds().filter((s) => s.name.endsWith('.jsonl'));
    const presets = [resolveOptions({ preset: 'cme', seqBits: '16' }), resolveOptions({}), resolveOptions({ preset: 'cme-json' })];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: inputs.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        fc.nat(presets.length - 1),
        async (which, mutations, preset) => {
          const path = join(dir, `scan-${n++ % 16}-${inputs[which].name}`);
          writeFileSync(path, mutate(inputs[which].bytes, mutations));
          const replay = (scanPool?: InlineScanPool) =>
            runReplay({ paths: [path], options: presets[preset], scanPool }).then(
              (r) => r.summary,
              (e: Error) => `${e.name}: ${e.message}`,
            );
          assert.deepEqual(await replay(new InlineScanPool()), await replay());
        },
      ),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED, endOnFailure: true },
    );
  });

  it('reads every seed unmutated with no invalid entry (but the one with-invalid.jsonl holds on purpose)', async () => {
    for (const s of seeds()) {
      const path = join(dir, `clean-${s.name}`);
      writeFileSync(path, s.bytes);
      const o = await readAndReplay(path);
      assert.equal(o.captureError, false, s.name);
      assert.ok(o.records > 0, s.name);
      if (!s.name.startsWith('with-invalid') && !s.name.startsWith('xss')) assert.equal(o.invalid, 0, s.name);
    }
  });
});
