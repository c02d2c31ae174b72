/**
 * A capture carries the schema revisions it was recorded with (schema lines, schemaLine.ts):
 * every reader takes them for the lines after them, counts them neither as records nor as
 * invalid, and gives the same result whatever the number of threads and however the capture is
 * cut into ranges; a malformed one is an invalid record with the reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CaptureReader } from '../../../../src/core/capture/captureReader';
import { scanLines } from '../../../../src/core/capture/lineScan';
import { InlineScanPool, type ScanPool } from '../../../../src/core/capture/parallelReader';
import { runReplay } from '../../../../src/core/replay/replayRun';
import type { ReplaySummary } from '../../../../src/core/replay/replayEngine';
import { readSchemaLine, schemaLine } from '../../../../src/core/schema/schemaLine';
import { readsJson, resolveOptions, type SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'schemas');
const AVSC = readFileSync(join(FIXTURES, 'trades.avsc'), 'utf8');
const LINES = readFileSync(join(FIXTURES, 'avro-binary.jsonl'), 'utf8').trim().split('\n');
const REF = { name: 'projects/demo-project/schemas/trades', revisionId: 'a1b2c3d4' };
const DEF_LINE = schemaLine(REF, { type: 'AVRO', definition: AVSC, source: 'anything' }).trimEnd();
const OPTIONS: SequencingOptions = resolveOptions({ key: 'json:channel', seq: 'json:seq' });

/** A pool whose threads get a copy of each job and take the range's bytes (as a worker does), and answer in a shuffled order. */
function cloningPool(threads: number, rangeBytes: number, seed: number): ScanPool {
  let a = seed >>> 0;
  const random = () => (a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) % 4;
  return {
    threads,
    rangeBytes,
    async scan(range, job, keep) {
      const bytes = new Uint8Array(range);
      const copy = structuredClone(job);
      // A worker pool moves the bytes it may: they are gone from the reader's thread.
      if (!keep) range.fill(0);
      for (let i = random(); i > 0; i--) await new Promise((r) => setImmediate(r));
      return scanLines(bytes, copy.options, copy.maxRecordBytes);
    },
  };
}

/** A replay of `lines` read from standard input a line per chunk: the pool's ranges are cut at chunks, so a small range holds a line or two. */
function fromStdin(lines: readonly string[], scanPool: ScanPool) {
  const stdin = Readable.from(lines.map((l) => Buffer.from(`${l}\n`)));
  return runReplay({ paths: ['-'], stdin, options: OPTIONS, scanPool });
}

/** What a summary says about counts and keys. */
function counts(s: ReplaySummary): unknown {
  return { received: s.received, invalid: s.invalid, gaps: s.gaps, duplicates: s.duplicates, keys: s.byKey.map((k) => `${k.key}:${k.received}`) };
}

describe('schema lines in captures', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-schema-lines-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, lines: readonly string[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  };

  it('decode the messages after them with no --schema and no Schema service, and are counted neither as records nor as invalid', async () => {
    const path = write('recorded.jsonl', [DEF_LINE, ...LINES]);
    const run = await runReplay({ paths: [path], options: OPTIONS });
    assert.deepEqual(counts(run.summary), { received: 7, invalid: 1, gaps: run.summary.gaps, duplicates: 0, keys: ['A:5', 'B:2'] });
    assert.deepEqual(Object.keys(run.recordedSchemas), ['projects/demo-project/schemas/trades@a1b2c3d4']);
    // Without the line, nothing decodes: every binary payload is invalid.
    const bare = await runReplay({ paths: [write('bare.jsonl', LINES)], options: OPTIONS });
    assert.equal(bare.summary.received, 0);
    assert.equal(bare.summary.invalid, 8);
  });

  it('give the same result on 1 and N threads, the line in the same range as its messages or a range before them', async () => {
    const path = write('threads.jsonl', ['', DEF_LINE, ...LINES.slice(0, 3), '  ', ...LINES.slice(3)]);
    const one = await runReplay({ paths: [path], options: OPTIONS });
    assert.equal(one.summary.received, 7);
    const pools: ScanPool[] = [new InlineScanPool(), cloningPool(2, 1 << 20, 1), cloningPool(3, 120, 2), cloningPool(4, 700, 3), cloningPool(2, 1, 4)];
    for (const scanPool of pools) {
      const many = await runReplay({ paths: [path], options: OPTIONS, scanPool });
      assert.deepEqual(counts(many.summary), counts(one.summary), `${scanPool.threads} threads, ranges of ${scanPool.rangeBytes ?? 'default'} bytes`);
      assert.deepEqual(many.summary, one.summary);
      const cut = await fromStdin(['', DEF_LINE, ...LINES.slice(0, 3), '  ', ...LINES.slice(3)], scanPool);
      assert.deepEqual(
        counts(cut.summary),
        counts(one.summary),
        `${scanPool.threads} threads, a line per chunk, ranges of ${scanPool.rangeBytes ?? 'default'} bytes`,
      );
    }
  });

  it('apply to the lines after them only, alike on every reader', async () => {
    // The first message comes before the line: it has no definition yet.
    const path = write('after.jsonl', [LINES[0], DEF_LINE, ...LINES.slice(1)]);
    const one = await runReplay({ paths: [path], options: OPTIONS, scanPool: cloningPool(1, 1 << 20, 5) });
    assert.equal(one.summary.received, 6);
    assert.equal(one.summary.invalid, 2);
    const split = await fromStdin([LINES[0], DEF_LINE, ...LINES.slice(1)], cloningPool(3, 1, 6));
    assert.deepEqual(counts(split.summary), counts(one.summary));
  });

  it('are reported by a run that does not read payloads, in order, alike on 1 and N threads', async () => {
    // Sequenced by publish time: the scanning threads decode nothing, the schema lines only tell the run what the capture records.
    const byPublish = resolveOptions({});
    assert.equal(readsJson(byPublish), false);
    const quotes = schemaLine(
      { name: 'projects/demo-project/schemas/quotes', revisionId: 'q1' },
      { type: 'AVRO', definition: AVSC, source: 'anything' },
    ).trimEnd();
    const lines = [...LINES.slice(0, 3), DEF_LINE, ...LINES.slice(3, 6), quotes, DEF_LINE, ...LINES.slice(6)];
    const path = write('publish-order.jsonl', lines);
    const one = await runReplay({ paths: [path], options: byPublish });
    assert.deepEqual(Object.keys(one.recordedSchemas), ['projects/demo-project/schemas/trades@a1b2c3d4', 'projects/demo-project/schemas/quotes@q1']);
    assert.equal(one.summary.received, 8);
    const pools: ScanPool[] = [new InlineScanPool(), cloningPool(2, 1 << 20, 8), cloningPool(3, 1, 9), cloningPool(2, 300, 10)];
    for (const scanPool of pools) {
      const many = await runReplay({ paths: [path], options: byPublish, scanPool });
      assert.deepEqual(many.summary, one.summary, `${scanPool.threads} threads, ranges of ${scanPool.rangeBytes ?? 'default'} bytes`);
      assert.deepEqual(Object.entries(many.recordedSchemas), Object.entries(one.recordedSchemas));
    }
  });

  it('a malformed one is an invalid record with the reason, on every reader, and its messages stay undecoded', async () => {
    const bad = ['{"seqscopeSchema":{"name":"trades","type":"AVRO","definition":"{}"}}', '{"seqscopeSchema":{"name":'];
    const path = write('malformed.jsonl', [...bad, ...LINES]);
    const reasons: string[] = [];
    const one = await runReplay({ paths: [path], options: OPTIONS, listener: (ev) => void (ev.type === 'invalid' && reasons.push(ev.reason)) });
    assert.equal(one.summary.received, 0);
    assert.equal(one.summary.invalid, 10);
    assert.match(reasons[0], /recorded schema line whose "name" is not projects\/P\/schemas\/S/);
    assert.match(reasons[1], /recorded schema line that is not valid JSON/);
    for (const scanPool of [new InlineScanPool(), cloningPool(2, 1, 7)]) {
      const many = await runReplay({ paths: [path], options: OPTIONS, scanPool });
      assert.deepEqual(many.summary, one.summary);
      assert.deepEqual(counts((await fromStdin([...bad, ...LINES], scanPool)).summary), counts(one.summary));
    }
    assert.deepEqual(readSchemaLine('{"seqscopeSchema":{"name":"projects/p/schemas/s","type":"JSON","definition":""}}'), {
      invalid:
        'a recorded schema line whose "type" is "JSON", not AVRO or PROTOCOL_BUFFER: expected {"seqscopeSchema":{"name","revisionId","type","definition"}}',
    });
  });

  it('are skipped by readers that do not decode (publish, search), in JSON Lines and in a JSON array, their line numbers kept', async () => {
    const reader = new CaptureReader(write('skip.jsonl', [DEF_LINE, ...LINES]), 0);
    const entries = [];
    for await (const batch of reader.batches()) entries.push(...batch);
    assert.equal(entries.length, 8);
    assert.deepEqual(
      entries.map((e) => e.line),
      [2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.ok(entries.every((e) => e.record !== undefined));
    const arrayPath = join(dir, 'array.json');
    writeFileSync(arrayPath, `[${[DEF_LINE, ...LINES].join(',\n')}]`);
    const run = await runReplay({ paths: [arrayPath], options: OPTIONS });
    assert.deepEqual(counts(run.summary), counts((await runReplay({ paths: [write('again.jsonl', [DEF_LINE, ...LINES])], options: OPTIONS })).summary));
  });
});
