/**
 * The parallel reader gives what the single-threaded reader gives: the same entries (line, byte
 * place, clock, why invalid) and, through the engine, the same summary and trace events, for
 * random captures cut into random ranges scanned in random order — lines across the cuts, CRLF,
 * a BOM, blank and too-long lines, gzip (whole and cut off), standard input, merged captures.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { CaptureReader } from '../../../../src/core/capture/captureReader';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { mergeCaptures } from '../../../../src/core/capture/mergeCaptures';
import { EntrySource, LineRangeCutter, ParallelLineReader, ScanPool } from '../../../../src/core/capture/parallelReader';
import { ReplayEngine, ReplaySummary } from '../../../../src/core/replay/replayEngine';
import { DEFAULT_OPTIONS, SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';
import { receivedMessage } from '../../../support/captureLines';
import { captureArb, captureBytes, CME, MAX, shuffledPool, suiteFolder } from '../../../support/parallelCaptures';

/** What an entry says, as far as a replay sees it. */
function entryView(e: CaptureEntry): unknown {
  return { file: e.file, line: e.line, offset: e.offset, length: e.length, time: e.time, invalid: e.invalid, record: e.record };
}

interface Outcome {
  entries: unknown[];
  events: unknown[];
  summary: ReplaySummary;
}

async function replay(sources: EntrySource[], options: SequencingOptions, paths: string[]): Promise<Outcome> {
  const events: unknown[] = [];
  const entries: unknown[] = [];
  const engine = new ReplayEngine(options, (ev: TraceEvent, e?: CaptureEntry) => events.push({ ev: { ...ev }, line: e?.line }), paths);
  for await (const batch of mergeCaptures(sources)) {
    for (const e of batch) {
      entries.push(entryView(e));
      engine.push(e);
    }
  }
  engine.finish();
  return { entries, events, summary: engine.summary() };
}

describe('ParallelLineReader', () => {
  const { write } = suiteFolder('seqscope-parallel-');

  /** Both readers over the same inputs: the single-threaded one, and the parallel one with the given ranges and pool. */
  /** Both readers' outcome, or the error each threw (a capture damaged in its first bytes fails to open). */
  async function both(
    inputs: (() => { path: string; stream?: NodeJS.ReadableStream })[],
    options: SequencingOptions,
    rangeBytes: number,
    pool: ScanPool,
  ): Promise<[Outcome | string, Outcome | string]> {
    const failed = (e: unknown) => `${(e as Error).name}: ${(e as Error).message}`;
    return [await singleThreaded(inputs, options).catch(failed), await parallelReader(inputs, options, rangeBytes, pool).catch(failed)];
  }

  async function singleThreaded(inputs: (() => { path: string; stream?: NodeJS.ReadableStream })[], options: SequencingOptions): Promise<Outcome> {
    const paths: string[] = [];
    const plain: EntrySource[] = inputs.map((make, i) => {
      const { path, stream } = make();
      paths.push(path);
      return new CaptureReader(path, i, stream, 'auto', MAX);
    });
    return replay(plain, options, paths);
  }

  async function parallelReader(
    inputs: (() => { path: string; stream?: NodeJS.ReadableStream })[],
    options: SequencingOptions,
    rangeBytes: number,
    pool: ScanPool,
  ): Promise<Outcome> {
    const paths: string[] = [];
    const parallel: EntrySource[] = [];
    for (const [i, make] of inputs.entries()) {
      const { path, stream } = make();
      paths.push(path);
      const r = new CaptureReader(path, i, stream, 'auto', MAX);
      await r.open();
      parallel.push(r.format === 'jsonl' ? new ParallelLineReader(r, pool, options, true, MAX, rangeBytes) : r);
    }
    return replay(parallel, options, paths);
  }

  it('reads random captures as the single-threaded reader does, for any cut and thread count', async () => {
    const measured = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        captureArb,
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        fc.boolean(),
        async (c, rangeBytes, threads, seed, cme) => {
          const path = write(captureBytes(c));
          const [single, parallel] = await both([() => ({ path })], cme ? CME : DEFAULT_OPTIONS, rangeBytes, shuffledPool(threads, seed));
          assert.deepEqual(parallel, single);
          // The hold and latency percentiles too (in the summary above; named here, as they come from
          // times the scanning threads read: publishTime, receivedAt, SendingTime).
          if (typeof single !== 'string' && typeof parallel !== 'string') {
            assert.deepEqual(parallel.summary.percentiles, single.summary.percentiles);
            assert.deepEqual(
              parallel.summary.byKey.map((k) => k.percentiles),
              single.summary.byKey.map((k) => k.percentiles),
            );
            measured.add(Object.keys(single.summary.percentiles).join());
          }
        },
      ),
      { numRuns: 150 },
    );
    // The random captures reached every measure (a capture of one measure only would compare little).
    assert.ok(
      [...measured].some((m) => m === 'hold,sendToPublish,publishToReceive,sendToReceive'),
      [...measured].join(' | '),
    );
  });

  it('reads gzip data, standard input and merged captures alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(captureArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer(),
        fc.constantFrom('file', 'gzip', 'stdin'),
        fc.integer({ min: 1, max: 64 }),
        async (cs, rangeBytes, threads, seed, how, piece) => {
          const inputs = cs.map((c, i) => {
            const bytes = captureBytes(c);
            if (how === 'gzip') {
              const path = write(gzipSync(bytes));
              return () => ({ path });
            }
            if (how === 'stdin' && i === 0) {
              // Standard input arrives in pieces of its own size.
              const pieces: Buffer[] = [];
              for (let at = 0; at < bytes.length; at += piece) pieces.push(bytes.subarray(at, at + piece));
              return () => ({ path: '-', stream: Readable.from(pieces) });
            }
            const path = write(bytes);
            return () => ({ path });
          });
          const [single, parallel] = await both(inputs, CME, rangeBytes, shuffledPool(threads, seed));
          assert.deepEqual(parallel, single);
          if (typeof single !== 'string' && typeof parallel !== 'string') assert.deepEqual(parallel.summary.percentiles, single.summary.percentiles);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('reports gzip data cut off where the single-threaded reader does', async () => {
    await fc.assert(
      fc.asyncProperty(captureArb, fc.double({ min: 0.2, max: 0.95, noNaN: true }), fc.integer({ min: 1, max: 200 }), async (c, keep, rangeBytes) => {
        const gz = gzipSync(captureBytes(c));
        const path = write(gz.subarray(0, Math.max(10, Math.floor(gz.length * keep))));
        const [single, parallel] = await both([() => ({ path })], CME, rangeBytes, shuffledPool(2, 1));
        assert.deepEqual(parallel, single);
      }),
      { numRuns: 60 },
    );
  });

  it('cuts owned chunks into ranges without copying them: each chunk one range, a straddling line one of its own', () => {
    let owned = 0;
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 8 }),
        (lines, sizes) => {
          const text = Buffer.from(lines.map((l) => l.replace(/\n/g, ' ') + '\n').join(''));
          const cutter = new LineRangeCutter(1000, 100, true);
          const pieces = [];
          const chunks: Buffer[] = [];
          for (let at = 0, k = 0; at < text.length; k++) {
            // Each chunk a buffer of its own, as a file's reads are.
            const chunk = Buffer.from(text.subarray(at, at + sizes[k % sizes.length]));
            chunks.push(chunk);
            at += chunk.length;
            pieces.push(...cutter.push(chunk));
          }
          pieces.push(...cutter.end());
          let offset = 0;
          const joined: Buffer[] = [];
          for (const p of pieces) {
            assert.ok('range' in p);
            assert.equal(p.offset, offset);
            offset += p.range.length;
            joined.push(Buffer.from(p.range));
            // An owned range is a view into its chunk, never a copy; the others hold whole lines too.
            if (p.owned) assert.ok(chunks.some((c) => c.buffer === p.range.buffer));
            assert.equal(p.range[p.range.length - 1], 0x0a);
          }
          assert.deepEqual(Buffer.concat(joined), text);
          owned += pieces.filter((p) => 'range' in p && p.owned).length;
        },
      ),
      { numRuns: 300 },
    );
    assert.ok(owned > 300, `${owned} ranges moved without a copy`);
  });

  it('stops a too-long line without holding it, as the single-threaded reader does', async () => {
    const long = 'y'.repeat(3 * MAX);
    const text = `${JSON.stringify(receivedMessage({ t: 0, seq: 0, channel: '310' }))}\r\n${long}\r\n${JSON.stringify(receivedMessage({ t: 1, seq: 1, channel: '310' }))}\n${long}`;
    const bytes = Buffer.from(text);
    const path = write(bytes);
    for (const rangeBytes of [1, 7, 64, 1000]) {
      for (const piece of [0, 1, 5, 100]) {
        // 0: the file (one chunk); else standard input in pieces of that size.
        const pieces: Buffer[] = [];
        for (let at = 0; at < bytes.length; at += piece || bytes.length) pieces.push(bytes.subarray(at, at + (piece || bytes.length)));
        const input = piece === 0 ? () => ({ path }) : () => ({ path: '-', stream: Readable.from(pieces) });
        const [single, parallel] = await both([input], CME, rangeBytes, shuffledPool(2, rangeBytes));
        assert.deepEqual(parallel, single, `ranges of ${rangeBytes} bytes, pieces of ${piece}`);
        assert.equal((single as Outcome).summary && ((single as Outcome).summary as { invalid: number }).invalid, 2);
      }
    }
  });
});
