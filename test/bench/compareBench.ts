/**
 * `seqscope compare` of two captures of one stream against replaying both one after the other,
 * in the same run (separate node processes, interleaved), with peak RSS; answers checked against
 * the A/B pair generator's truth. SEQSCOPE_BENCH_COMPARE_LINES sets the lines per side (default
 * 1 M). SEQSCOPE_BENCH_COMPARE_MEMORY=1 adds one compare of two 10 M-line captures (some 5 GB
 * each, generated once) for peak RSS and the largest live heap: flat means no more than at 1 M.
 * The machine is shared: wall times are noisy, the ratio of medians is the steadier figure.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PairOptions, pairLines, planPair } from '../../scripts/lib/abPairGenerator';
import { BENCH_DIR, liveHeap, ROOT, runNode } from './cliBench';
import { mib, seconds, table } from './report';

export interface CompareMemory {
  lines: number;
  maxRss: number;
  liveHeap: number;
}

export interface CompareBenchResult {
  lines: number;
  /** Largest live heap of a compare at `lines` (after forced collections). */
  liveHeap: number;
  /** The same at 10 M lines, when asked for. */
  memory?: CompareMemory;
  compareMs: number;
  replayBothMs: number;
  ratio: number;
  compareRss: number;
  replayRss: number;
  problems: string[];
}

const REPS = 3;

function pairOptions(lines: number): PairOptions {
  const keys = 10;
  return {
    stream: {
      seed: 21,
      keys,
      messagesPerKey: Math.round(lines / keys),
      seqBits: 16,
      startSeq: (k) => (k * 6007 + 1) % 65536,
      reorderFraction: 0.05,
      redeliveryFraction: 0.005,
      burst: { min: 1, max: 6 },
      burstGapMs: 1,
      intraBurstMs: 0.2,
    },
    dropA: 0.002,
    dropB: 0.003,
    lagMsB: 2,
    jitterMsB: 3,
  };
}

function writeSide(path: string, it: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    let text = '';
    for (const l of it) {
      text += l + '\n';
      if (text.length > 1 << 20) {
        writeSync(fd, text);
        text = '';
      }
    }
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

const FLAGS = ['--preset', 'cme', '--seq-bits', '16'];

export function writePair(lines: number, progress: (s: string) => void): { a: string; b: string; pair: ReturnType<typeof planPair> } {
  const pair = planPair(pairOptions(lines));
  const a = join(BENCH_DIR, `compare-${lines}-a.jsonl`);
  const b = join(BENCH_DIR, `compare-${lines}-b.jsonl`);
  if (!existsSync(a) || !existsSync(b)) {
    progress(`compare: generating two ${lines}-line captures`);
    writeSide(a, pairLines(pair, 0));
    writeSide(b, pairLines(pair, 1));
  }
  return { a, b, pair };
}

/** Totals that differ from the pair's truth, each as "field got ≠ wanted". */
function check(stdout: string, truth: ReturnType<typeof planPair>['truth']): string[] {
  const t = truth.totals;
  const got = JSON.parse(stdout) as {
    totals: { both: number; onlyA: number; onlyB: number; lostBoth: number; a: { received: number }; b: { received: number } };
  };
  const want = { both: t.both, onlyA: t.onlyA, onlyB: t.onlyB, lostBoth: t.lostBoth, aReceived: t.aReceived, bReceived: t.bReceived };
  const have = {
    both: got.totals.both,
    onlyA: got.totals.onlyA,
    onlyB: got.totals.onlyB,
    lostBoth: got.totals.lostBoth,
    aReceived: got.totals.a.received,
    bReceived: got.totals.b.received,
  };
  return (Object.keys(want) as (keyof typeof want)[]).filter((k) => want[k] !== have[k]).map((k) => `${k} ${have[k]} ≠ ${want[k]}`);
}

export function benchCompare(progress: (s: string) => void): CompareBenchResult {
  const lines = Number(process.env.SEQSCOPE_BENCH_COMPARE_LINES) || 1_000_000;
  const cli = join(ROOT, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run bench` (it builds first)');
  const { a, b, pair } = writePair(lines, progress);
  const flags = FLAGS;
  const compares: number[] = [];
  const replays: number[] = [];
  let compareRss = 0;
  let replayRss = 0;
  let out = '';
  for (let i = 0; i < REPS; i++) {
    const c = runNode([cli, 'compare', a, b, ...flags, '--json']);
    compares.push(c.wallMs);
    compareRss = Math.max(compareRss, c.maxRss);
    out = c.stdout;
    const ra = runNode([cli, 'replay', a, ...flags, '--json']);
    const rb = runNode([cli, 'replay', b, ...flags, '--json']);
    replays.push(ra.wallMs + rb.wallMs);
    replayRss = Math.max(replayRss, ra.maxRss, rb.maxRss);
    progress(`compare: run ${i + 1}: compare ${seconds(c.wallMs)}, replay A then B ${seconds(ra.wallMs + rb.wallMs)}`);
  }
  const problems = check(out, pair.truth);
  const heap = liveHeap([cli, 'compare', a, b, ...flags, '--json']).bytes;
  let memory: CompareMemory | undefined;
  if (process.env.SEQSCOPE_BENCH_COMPARE_MEMORY === '1') {
    const big = writePair(10_000_000, progress);
    const run = runNode([cli, 'compare', big.a, big.b, ...flags, '--json']);
    problems.push(...check(run.stdout, big.pair.truth).map((p) => `10 M: ${p}`));
    memory = { lines: 10_000_000, maxRss: run.maxRss, liveHeap: liveHeap([cli, 'compare', big.a, big.b, ...flags, '--json']).bytes };
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const compareMs = median(compares);
  const replayBothMs = median(replays);
  return { lines, liveHeap: heap, memory, compareMs, replayBothMs, ratio: compareMs / replayBothMs, compareRss, replayRss, problems };
}

export function compareReport(r: CompareBenchResult, n: string): string[] {
  return [
    `## ${n}. Compare two captures of one stream (separate node processes, medians of ${REPS} interleaved runs; shared machine, noisy)`,
    '',
    table(
      ['lines per side', 'compare', 'replay A then B', 'ratio (target ≤ 1.2)', 'compare peak RSS', 'replay peak RSS', 'checked'],
      [
        [
          r.lines,
          seconds(r.compareMs),
          seconds(r.replayBothMs),
          r.ratio.toFixed(2),
          mib(r.compareRss),
          mib(r.replayRss),
          r.problems.length ? r.problems.join('; ') : 'truth ✓',
        ],
      ],
    ),
    '',
    table(
      ['lines per side', 'compare peak RSS', 'largest live heap'],
      [[r.lines, mib(r.compareRss), mib(r.liveHeap)], ...(r.memory ? [[r.memory.lines, mib(r.memory.maxRss), mib(r.memory.liveHeap)]] : [])],
    ),
    '',
  ];
}
