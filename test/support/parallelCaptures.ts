/**
 * Random JSON Lines captures for the parallel reader's property tests (the reader itself, and
 * the session loader on it), and a scan pool that scans in this thread but finishes out of order.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { scanLines } from '../../src/core/capture/lineScan';
import { ScanPool } from '../../src/core/capture/parallelReader';
import { DEFAULT_OPTIONS, PRESETS, SequencingOptions } from '../../src/core/sequencer/sequencingOptions';
import { receivedMessage } from './captureLines';

/**
 * Scans in this thread, but finishes the ranges out of order: each waits a random number of
 * event-loop turns, as worker threads finish when they finish.
 */
export function shuffledPool(threads: number, seed: number, rangeBytes?: number): ScanPool {
  let a = seed >>> 0;
  const random = () => (a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) % 4;
  return {
    threads,
    rangeBytes,
    async scan(range, job) {
      const bytes = new Uint8Array(range);
      for (let i = random(); i > 0; i--) await new Promise((r) => setImmediate(r));
      return scanLines(bytes, job.options, job.maxRecordBytes);
    },
  };
}

/** The bound on a record's bytes the tests read with. */
export const MAX = 300;
export const CME: SequencingOptions = { ...DEFAULT_OPTIONS, ...PRESETS.cme, seqBits: 16, gapTimeoutMs: 50 };

/** One line of a random capture. */
export const lineArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({
        t: fc.integer({ min: 0, max: 400 }),
        seq: fc.integer({ min: 0, max: 12 }),
        channel: fc.constantFrom('310', '311', '312'),
        id: fc.constantFrom(undefined, 'dup-a', 'dup-b'),
        sendingTime: fc.option(fc.integer({ min: -5, max: 400 }), { nil: undefined }),
        data: fc.constantFrom(undefined, 'x', 'y'),
        publishLag: fc.option(fc.integer({ min: -3, max: 2000 }), { nil: undefined }),
        without: fc.constantFrom(undefined, undefined, undefined, 'publishTime' as const, 'receivedAt' as const),
      })
      .map((s) => JSON.stringify(receivedMessage(s))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '   ', '\t', '{"not json', '[1,2]', '{"message":{}}', '{"message":{"messageId":"m"}}', '"é€😀"', 'x'.repeat(MAX + 5)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 400 }).map((t) => JSON.stringify(receivedMessage({ t, seq: 70_000 }))) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 400 }).map((t) =>
      JSON.stringify({
        ...receivedMessage({ t, seq: 3 }),
        message: { messageId: `no-key-${t}`, attributes: { MsgSeqNum: '3' }, publishTime: new Date(t).toISOString() },
      }),
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 400 }).map((t) => JSON.stringify(receivedMessage({ t, seq: '-4', channel: '310' }))) },
);

/** A random capture's text: its lines, CRLF or LF ends, maybe a BOM, maybe no newline at the end. */
export const captureArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 40 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  lastNewline: fc.boolean(),
});

/**
 * A parallel run's random setup: 1–3 merged captures, the size of the ranges a file is cut into,
 * the thread count and the seed of the shuffled pool, and whether to sequence as CME (else the
 * defaults).
 */
export const parallelRunArb = fc.record({
  captures: fc.array(captureArb, { minLength: 1, maxLength: 3 }),
  rangeBytes: fc.integer({ min: 1, max: 200 }),
  threads: fc.integer({ min: 1, max: 4 }),
  seed: fc.integer(),
  cme: fc.boolean(),
});

/** The run's shuffled pool, counting the ranges it scans in `counter.scans` (to check the run went through it). */
export function countingPool(run: { threads: number; seed: number; rangeBytes: number }, counter: { scans: number }): ScanPool {
  const pool = shuffledPool(run.threads, run.seed, run.rangeBytes);
  return {
    ...pool,
    scan: (range, job, keep) => {
      counter.scans++;
      return pool.scan(range, job, keep);
    },
  };
}

export function captureBytes(c: { lines: string[]; crlf: boolean; bom: boolean; lastNewline: boolean }): Buffer {
  const nl = c.crlf ? '\r\n' : '\n';
  // A first line that is a record, so the content is told as JSON Lines.
  const text = [JSON.stringify(receivedMessage({ t: 0, seq: 0, channel: '310' })), ...c.lines].join(nl) + (c.lastNewline ? nl : '');
  return Buffer.concat([c.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text)]);
}

/**
 * A temporary folder for a suite's files, made before its tests and removed after them: `write`
 * puts a capture there, `file` names a new file (`<stem><n><ext>`).
 */
export function suiteFolder(prefix: string): { write(bytes: Buffer): string; file(stem: string, ext: string): string } {
  let dir = '';
  let n = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (stem: string, ext: string): string => join(dir, `${stem}${n++}${ext}`);
  return {
    file,
    write(bytes) {
      const p = file('c', '.jsonl');
      writeFileSync(p, bytes);
      return p;
    },
  };
}
