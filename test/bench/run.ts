/**
 * `npm run bench`: engine throughput, the CME sample consumer as a peer baseline, end-to-end
 * CLI replay against a bare parse loop, the timeline webview on a million events, and the
 * extension host's memory and first timeline paint on a million-line capture in VS Code, and live
 * Pub/Sub receiving against a bare subscriber on the emulator, and the recorder writing plain and gzip captures. Prints a Markdown report on stdout (progress goes to
 * stderr) and writes the figures to .bench/results.json.
 *
 * Every figure is checked against what the generator injected (a run that got the answer wrong
 * would be fast for the wrong reason), and compared with its target without special-casing:
 * a missed target is reported as missed.
 *
 * `npm run bench -- engine` (or `cli`, `timeline`, `host`, `pubsub`, `recorder`, `archives`, `compare`, `live`, several at once) runs only those sections, for
 * quick before/after comparisons; the figures then go to .bench/results-<sections>.json so a
 * partial run never overwrites the full one.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { benchTimeline, TimelineBenchResult } from './timelineBench';
import { benchHostMemory, HostMemoryBenchResult, hostMemoryReport } from './hostMemoryBench';
import { benchHostBig, hostBigReport } from './hostBigBench';
import { benchPubsub, PubsubBenchOutcome, pubsubReport } from './pubsubBench';
import { benchRecorder, RecorderRow, recorderReport } from './recorderBench';
import { ArchiveRow, archiveReport, benchArchives } from './archiveBench';
import { benchCompare, CompareBenchResult, compareReport } from './compareBench';
import { benchLiveFollow, liveFollowReport } from './liveFollowBench';
import { benchMdp3, Mdp3Row, mdp3Report } from './mdp3Bench';
import { benchSchemas, type SchemaBenchRow, schemaReport } from './schemaBench';
import { join } from 'node:path';
import { engineConfig } from './engineBench';
import { Contender, ContenderArgs, ContenderResult } from './engineContender';
import { EngineMemoryArgs, EngineMemoryResult } from './engineMemory';
import {
  BENCH_DIR,
  MANY_KEYS,
  ROOT,
  bestRuns,
  buildBareParse,
  bundleForNode,
  captureOptions,
  checkSummary,
  checkUnsequencedSummary,
  ensureCapture,
  ensureGzipCopy,
  keyPerMessageOptions,
  liveHeap,
  manyKeysOptions,
  runNode,
  summaryTotals,
} from './cliBench';
import { benchParallel, ParallelBenchResult, parallelReport } from './parallelBench';
import { compileCmeLoop, countDifferences, findJdk, JvmRun, median, runCmeLoop } from './jvmLoop';
import { StreamFileArgs } from './jvmStream';
import { loadAverage, machineInfo } from './machine';
import { checked, count, mib, rate, ratio, seconds, table, verdict } from './report';
import { StreamKind } from './streams';

const TARGETS = { inOrder: 10e6, reordered: 3e6, vsBaseline: 3, replayVsBare: 1.5, parquetVsJsonl: 2 } as const;
const REPS = 3;
/**
 * Fresh processes per engine contender, interleaved, best taken: on these shared machines one
 * process can run all of its passes up to twice as slow as the next (same code, no JIT event
 * between them: where the heap landed, the neighbours), for every contender alike.
 */
const ENGINE_PROCESSES = 2;
/**
 * Numbers per engine case, whatever the key count. SEQSCOPE_BENCH_ENGINE_TOTAL sets fewer for a
 * quick development run (the memory stream shrinks in proportion); the report says so.
 */
const FULL_ENGINE_TOTAL = 3_000_000;
const ENGINE_TOTAL = Number(process.env.SEQSCOPE_BENCH_ENGINE_TOTAL) || FULL_ENGINE_TOTAL;
/** The CME sample's loop on the JVM: untimed passes over the whole stream (the JIT's warm-up), then timed ones, per JVM. */
const JVM_WARMUPS = 5;
const JVM_PASSES = 5;
/**
 * Flags for that JVM: none by default (its defaults, as the sample would run: G1 here). With G1
 * some passes take up to 6× the best on this loop, with SerialGC none do:
 * SEQSCOPE_BENCH_JVM_FLAGS=-XX:+UseSerialGC shows the difference.
 */
const JVM_FLAGS = (process.env.SEQSCOPE_BENCH_JVM_FLAGS ?? '').split(' ').filter((f) => f !== '');
const KEY_COUNTS = [1, 1_000, 100_000];
const CAPTURE_NUMBERS = 990_000; // ≈ 1 000 000 lines once duplicates are added
const SMALL_CAPTURE_NUMBERS = 99_000;
/** The engine's memory on a long stream: keys, deliveries, and where it is measured. */
const MEMORY_STREAM: EngineMemoryArgs = ((scale: number) => ({
  keys: 10_000,
  total: 40_000_000 * scale,
  checkpoints: [10_000_000, 20_000_000, 40_000_000].map((n) => n * scale),
}))(ENGINE_TOTAL / FULL_ENGINE_TOTAL);
/** "Flat": what the engine keeps grows by at most this share from the first checkpoint to the last. */
const MEMORY_FLAT = 0.1;

type Section = 'engine' | 'cli' | 'timeline' | 'host' | 'pubsub' | 'recorder' | 'archives' | 'compare' | 'live';
const SECTIONS: readonly Section[] = ['engine', 'cli', 'timeline', 'host', 'pubsub', 'recorder', 'archives', 'compare', 'live'];

function sectionsFromArgs(args: readonly string[]): Set<Section> {
  const bad = args.filter((a) => !SECTIONS.includes(a as Section));
  if (bad.length) throw new Error(`unknown bench section ${bad.join(', ')}: expected ${SECTIONS.join(', ')}`);
  return new Set(args.length ? (args as Section[]) : SECTIONS);
}

function progress(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

interface EngineRow {
  stream: StreamKind;
  keys: number;
  seqBits: 16 | 64;
  deliveries: number;
  reorderedShare: number;
  duplicateShare: number;
  heldShare: number;
  bestMs: number;
  msgPerSec: number;
  /** Messages per CPU second: the steadier figure on a shared machine (see Timed.cpuMs). */
  msgPerCpuSec: number;
  target: number;
  met: boolean;
  problems: string[];
  /** The CME sample's loop as written (a skip list per key, as its ConcurrentSkipListSet): the target's baseline. */
  baseline?: BaselineRow;
  /** The same loop on a sorted array: not the sample's data structure, faster in JavaScript. */
  tunedBaseline?: BaselineRow;
  /** The ceiling loop (engineBench.runCeiling) against the sample's loop. */
  ceiling?: { msgPerSec: number; ratio: number };
  /** The sample's loop itself, in Java on the JVM (test/bench/jvm/CmeLoop.java), when there is a JDK. */
  jvm?: JvmRow;
}

interface JvmRow {
  /** Best timed pass of any JVM, as the TypeScript figures are best runs. */
  bestMs: number;
  msgPerSec: number;
  /** Median of every timed pass of every JVM. */
  medianMsgPerSec: number;
  msgPerCpuSec: number;
  /** Its counts against the TypeScript port's (the skip-list baseline's) on the same stream. */
  problems: string[];
  gc: string[];
}

/** The JDK the engine section runs the JVM loop with, or why it does not. */
type JvmSetup = { classPath: string; version: string } | { missing: string };

function jvmSetup(): JvmSetup {
  const jdk = findJdk();
  if ('missing' in jdk) {
    progress(`engine: the JVM side-by-side SKIPPED: ${jdk.missing}`);
    return jdk;
  }
  progress(`engine: compiling test/bench/jvm/CmeLoop.java (${jdk.version})`);
  return { classPath: compileCmeLoop(join(BENCH_DIR, 'jvm')), version: jdk.version };
}

interface BaselineRow {
  bestMs: number;
  msgPerSec: number;
  msgPerCpuSec: number;
  ratio: number;
  cpuRatio: number;
  met: boolean;
  problems: string[];
}

/** Runs one engine-section contender in a fresh node process (see engineContender.ts); it times itself. */
function timeContender(script: string, args: ContenderArgs): ContenderResult {
  return JSON.parse(runNode(['--expose-gc', script, JSON.stringify(args)]).stdout) as ContenderResult;
}

/** The fastest of one contender's processes, with the lowest CPU time of any, and every problem any found. */
function fastestOf(results: readonly ContenderResult[]): ContenderResult {
  const best = results.reduce((a, b) => (b.ms < a.ms ? b : a));
  return {
    ...best,
    cpuMs: Math.min(...results.map((r) => r.cpuMs)),
    problems: [...new Set(results.flatMap((r) => r.problems))],
  };
}

/** Scripts and setup an engine case runs with. */
interface EngineTools {
  contender: string;
  /** Writes a stream file for the JVM (jvmStream.ts, bundled). */
  streamWriter: string;
  jvm: JvmSetup;
}

function engineCase(tools: EngineTools, kind: StreamKind, keys: number, seqBits: 16 | 64, withBaseline: boolean): EngineRow {
  const contenders: Contender[] = withBaseline ? ['engine', 'baseline', 'tuned', 'ceiling'] : ['engine'];
  const jvm = withBaseline && 'classPath' in tools.jvm ? tools.jvm : undefined;
  progress(`engine: ${kind} stream, ${count(keys)} keys, ${seqBits}-bit: ${contenders.join(', ')}${jvm ? ', the JVM loop' : ''}, a process each`);
  // The same stream for the JVM, written by a process of its own (the generator is deterministic).
  const streamFile = join(BENCH_DIR, 'jvm-stream.bin');
  if (jvm) runNode([tools.streamWriter, JSON.stringify({ kind, keys, seqBits, total: ENGINE_TOTAL } satisfies StreamFileArgs), streamFile]);
  const jvmRuns: JvmRun[] = [];
  const rounds = Array.from({ length: ENGINE_PROCESSES }, () => {
    const round = contenders.map((contender) => timeContender(tools.contender, { contender, kind, keys, seqBits, total: ENGINE_TOTAL, reps: REPS }));
    if (jvm) jvmRuns.push(runCmeLoop(jvm.classPath, streamFile, JVM_WARMUPS, JVM_PASSES, JVM_FLAGS));
    return round;
  });
  if (jvm) rmSync(streamFile);
  const runs = contenders.map((_, j) => fastestOf(rounds.map((round) => round[j])));
  const e = runs[0];
  const shape = e.shape as NonNullable<ContenderResult['shape']>;
  const target = kind === 'in order' ? TARGETS.inOrder : TARGETS.reordered;
  const msgPerSec = (e.deliveries / e.ms) * 1000;
  const row: EngineRow = {
    stream: kind,
    keys,
    seqBits,
    deliveries: e.deliveries,
    ...shape,
    bestMs: e.ms,
    msgPerSec,
    msgPerCpuSec: (e.deliveries / e.cpuMs) * 1000,
    target,
    met: msgPerSec >= target,
    problems: e.problems,
  };
  if (withBaseline) {
    const against = (b: ContenderResult): BaselineRow => {
      const bRate = (b.deliveries / b.ms) * 1000;
      const bCpuRate = (b.deliveries / b.cpuMs) * 1000;
      return {
        bestMs: b.ms,
        msgPerSec: bRate,
        msgPerCpuSec: bCpuRate,
        ratio: msgPerSec / bRate,
        cpuRatio: row.msgPerCpuSec / bCpuRate,
        met: msgPerSec / bRate >= TARGETS.vsBaseline,
        problems: b.problems,
      };
    };
    row.baseline = against(runs[1]);
    row.tunedBaseline = against(runs[2]);
    const ceiling = (runs[3].deliveries / runs[3].ms) * 1000;
    row.ceiling = { msgPerSec: ceiling, ratio: ceiling / row.baseline.msgPerSec };
    if (jvmRuns.length) row.jvm = jvmRow(jvmRuns, runs[1]);
  }
  return row;
}

/** The JVM's figures: its best pass and the median pass, and its counts against the TypeScript port's. */
function jvmRow(jvmRuns: readonly JvmRun[], port: ContenderResult): JvmRow {
  const messages = jvmRuns[0].messages;
  const wall = jvmRuns.flatMap((r) => r.wallMs);
  const best = Math.min(...wall);
  const want = port.found;
  const problems = [
    ...(messages === port.deliveries ? [] : [`JVM read ${messages} messages ≠ ${port.deliveries}`]),
    ...(want ? [...new Set(jvmRuns.flatMap((r) => countDifferences(r.counts, want)))] : ['no counts from the TS port']),
  ];
  progress(`engine: the JVM loop: best ${seconds(best)} (${rate((messages / best) * 1000)} msg/s), counts ${checked(problems)}`);
  return {
    bestMs: best,
    msgPerSec: (messages / best) * 1000,
    medianMsgPerSec: (messages / median(wall)) * 1000,
    msgPerCpuSec: (messages / Math.min(...jvmRuns.flatMap((r) => r.cpuMs))) * 1000,
    problems,
    gc: jvmRuns[0].gc,
  };
}

/** Keys (one message each) of the capture that shows the heap guard, and the heap it is given. */
const KEY_PER_MESSAGE = 2_000_000;
const GUARDED_HEAP_MIB = 1024;

/** The line the heap guard's message says a replay stopped after (NaN if none). */
function stoppedAt(stderr: string): number {
  return Number(/^seqscope: stopped reading after line (\d+) of /.exec(stderr)?.[1]);
}

/**
 * With the default heap every key is summarised; with a small one the replay stops: one line
 * on stderr naming the line, a summary marked STOPPED of exactly the lines read.
 */
function keyPerMessageProblems(lines: number, fits: { stdout: string }, stops: { stdout: string; stderr: string }): string[] {
  const problems: string[] = [];
  const all = summaryTotals(fits.stdout);
  if (typeof all === 'string') problems.push(`default heap: ${all}`);
  else if (all.keys !== lines || all.received !== lines) problems.push(`default heap: ${all.keys} keys, ${all.received} received ≠ ${lines}`);
  const read = stoppedAt(stops.stderr);
  const part = summaryTotals(stops.stdout);
  if (!(read > 0 && read < lines)) problems.push(`small heap: no stop in ${JSON.stringify(stops.stderr.slice(0, 200))}`);
  if (stops.stderr.split('\n').length !== 1) problems.push('small heap: more than one line on stderr');
  if (!stops.stdout.includes('(STOPPED, memory full: partial result)')) problems.push('small heap: the summary is not marked STOPPED');
  if (typeof part === 'string') problems.push(`small heap: ${part}`);
  else if (part.received !== read) problems.push(`small heap: ${part.received} received ≠ ${read} lines read`);
  return problems;
}

function cliCases() {
  const cli = join(ROOT, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run bench` (it builds first) or `node esbuild.js --production`');
  progress('cli: preparing the 1 000 000-line capture');
  const big = ensureCapture('capture-1m', captureOptions(CAPTURE_NUMBERS));
  progress(`cli: ${big.generated ? 'generated' : 'reused'} ${big.path} (${mib(big.bytes)}, ${count(big.lines)} lines)`);
  const small = ensureCapture('capture-100k', captureOptions(SMALL_CAPTURE_NUMBERS));
  const gz = ensureGzipCopy(big);
  const gzExport = join(BENCH_DIR, 'export.jsonl.gz');
  const bare = buildBareParse();
  const replayArgs = (file: string) => [cli, 'replay', file, '--preset', 'cme', '--seq-bits', '16', '--json'];

  progress('cli: warming the page cache');
  runNode([bare, big.path]);
  progress(
    'cli: bare parse loop, seqscope replay --json, replay --export /dev/null as jsonl and as parquet, replay of the .gz copy, --export .jsonl.gz (interleaved)',
  );
  const [bareRun, replay, exported, parquet, gzReplay, gzExported] = bestRuns(REPS, [
    [bare, big.path],
    replayArgs(big.path),
    [...replayArgs(big.path), '--export', '/dev/null', '--format', 'jsonl'],
    [...replayArgs(big.path), '--export', '/dev/null', '--format', 'parquet'],
    replayArgs(gz.path),
    [...replayArgs(big.path), '--export', gzExport],
  ]);
  const gzExportBytes = statSync(gzExport).size;
  rmSync(gzExport);
  const bareLines = (JSON.parse(bareRun.stdout) as { lines: number }).lines;
  progress('cli: the 100 000-line capture (peak RSS)');
  const [smallBare, smallReplay] = bestRuns(1, [[bare, small.path], replayArgs(small.path)]);
  // Two million lines and four: the ids of the last 2^20 deliveries are remembered, so once that
  // many have passed memory should stay where it is.
  progress(`cli: --seq none over ${count(MANY_KEYS)} ordering keys, 2 000 000 and 4 000 000 lines (live heap)`);
  const keysSmall = ensureCapture('capture-keys-2m', manyKeysOptions(2_000_000));
  const keysBig = ensureCapture('capture-keys-4m', manyKeysOptions(4_000_000));
  const keysSmallRun = liveHeap([cli, 'replay', keysSmall.path, '--json']);
  const keysBigRun = liveHeap([cli, 'replay', keysBig.path, '--json']);
  progress(`cli: a key per message, ${count(KEY_PER_MESSAGE)} keys, with Node's default heap and with ${GUARDED_HEAP_MIB} MiB (the heap guard)`);
  const perKey = ensureCapture('capture-key-per-message-2m', keyPerMessageOptions(KEY_PER_MESSAGE));
  const fits = runNode([cli, 'replay', perKey.path, '--no-progress']);
  const stops = runNode([`--max-old-space-size=${GUARDED_HEAP_MIB}`, cli, 'replay', perKey.path, '--no-progress'], 2);
  return {
    capture: {
      path: big.path,
      bytes: big.bytes,
      lines: big.lines,
      generated: big.generated,
      gaps: big.truth.gaps,
      lost: big.truth.lost,
      duplicates: big.truth.duplicates,
    },
    bare: {
      wallMs: bareRun.wallMs,
      cpuMs: bareRun.cpuMs,
      maxRss: bareRun.maxRssAll,
      problems: bareLines === big.lines ? [] : [`lines ${bareLines} ≠ ${big.lines}`],
    },
    replay: { wallMs: replay.wallMs, cpuMs: replay.cpuMs, maxRss: replay.maxRssAll, problems: checkSummary(replay.stdout, big.truth) },
    export: { wallMs: exported.wallMs, cpuMs: exported.cpuMs, maxRss: exported.maxRssAll, problems: checkSummary(exported.stdout, big.truth) },
    parquet: { wallMs: parquet.wallMs, cpuMs: parquet.cpuMs, maxRss: parquet.maxRssAll, problems: checkSummary(parquet.stdout, big.truth) },
    gzip: { bytes: gz.bytes, wallMs: gzReplay.wallMs, cpuMs: gzReplay.cpuMs, maxRss: gzReplay.maxRssAll, problems: checkSummary(gzReplay.stdout, big.truth) },
    gzipExport: {
      bytes: gzExportBytes,
      wallMs: gzExported.wallMs,
      cpuMs: gzExported.cpuMs,
      maxRss: gzExported.maxRssAll,
      problems: checkSummary(gzExported.stdout, big.truth),
    },
    small: {
      bytes: small.bytes,
      lines: small.lines,
      replayRss: smallReplay.maxRssAll,
      bareRss: smallBare.maxRssAll,
      problems: checkSummary(smallReplay.stdout, small.truth),
    },
    manyKeys: {
      small: { lines: keysSmall.lines, bytes: keysSmall.bytes, liveHeap: keysSmallRun.bytes },
      big: { lines: keysBig.lines, bytes: keysBig.bytes, liveHeap: keysBigRun.bytes },
      problems: [...checkUnsequencedSummary(keysSmallRun.stdout, keysSmall.truth), ...checkUnsequencedSummary(keysBigRun.stdout, keysBig.truth)],
    },
    keyPerMessage: {
      lines: perKey.lines,
      bytes: perKey.bytes,
      fits: { wallMs: fits.wallMs, maxRss: fits.maxRss },
      stops: { wallMs: stops.wallMs, maxRss: stops.maxRss, message: stops.stderr, linesRead: stoppedAt(stops.stderr) },
      problems: keyPerMessageProblems(perKey.lines, fits, stops),
    },
  };
}

/** What the engine keeps on a stream 4–40× longer than the throughput cases, in a fresh process. */
function engineMemory(): EngineMemoryResult & { flat: boolean } {
  const m = MEMORY_STREAM;
  progress(`engine: memory over ${count(m.total)} in-order deliveries, ${count(m.keys)} keys`);
  const script = bundleForNode('engineMemory');
  const r = JSON.parse(runNode(['--expose-gc', script, JSON.stringify(m)]).stdout) as EngineMemoryResult;
  const kept = (p: EngineMemoryResult['points'][number]) => p.arrayBuffers + p.heapUsed;
  const first = kept(r.points[0]);
  return { ...r, flat: r.points.every((p) => kept(p) <= first * (1 + MEMORY_FLAT)) };
}

function engineMemoryReport(m: ReturnType<typeof engineMemory>): string[] {
  return [
    `### Engine memory on a long stream`,
    '',
    `${count(MEMORY_STREAM.total)} in-order deliveries over ${count(MEMORY_STREAM.keys)} keys in bursts of 8, generated as fed (as a capture, tens of GB), in ${seconds(m.ms)}. Measured after a forced full collection: typed arrays (the delivery history's pages, the per-key numbers) and the JS heap. Target: memory bounded by what is held (nothing here), not by the stream's length — at most ${MEMORY_FLAT * 100} % more at the last checkpoint than at the first.`,
    '',
    table(
      ['deliveries', 'typed arrays', 'JS heap', 'together', 'check'],
      m.points.map((p) => [count(p.deliveries), mib(p.arrayBuffers), mib(p.heapUsed), mib(p.arrayBuffers + p.heapUsed), checked(m.problems)]),
    ),
    '',
    `Flat: ${verdict(m.flat)}`,
    '',
  ];
}

function engineReport(engine: readonly EngineRow[], memory: ReturnType<typeof engineMemory> | undefined, jvm: JvmSetup | undefined): string[] {
  const cfg = engineConfig(64);
  const report: string[] = [];
  report.push('## 1. Engine throughput (`Sequencer` direct, counting sink)', '');
  report.push(
    `Gap timeout ${cfg.gapTimeoutMs / 1000} s, capacity ${count(cfg.capacity)}, ~${count(ENGINE_TOTAL)} numbers per case${ENGINE_TOTAL === FULL_ENGINE_TOTAL ? '' : ` (reduced from ${count(FULL_ENGINE_TOTAL)} by SEQSCOPE_BENCH_ENGINE_TOTAL: a development run)`}. Reordered streams: each moved message swapped with a later one of its key ≤ 8 arrivals and ≤ 5 ms away; duplicates half redeliveries, half republishes. Inputs are pre-built arrays; the timed loop is advance + offer per delivery, then finish.`,
    '',
  );
  report.push(
    table(
      ['stream', 'keys', 'bits', 'deliveries', 'reordered', 'duplicates', 'held¹', 'best', 'msg/s', 'target', '', 'msg/CPU-s²', 'check'],
      engine.map((r) => [
        r.stream,
        count(r.keys),
        r.seqBits,
        count(r.deliveries),
        `${(r.reorderedShare * 100).toFixed(1)} %`,
        `${(r.duplicateShare * 100).toFixed(1)} %`,
        `${(r.heldShare * 100).toFixed(1)} %`,
        seconds(r.bestMs),
        rate(r.msgPerSec),
        `≥ ${rate(r.target)}`,
        verdict(r.met),
        rate(r.msgPerCpuSec),
        checked(r.problems),
      ]),
    ),
    '',
  );

  report.push(
    "¹ Deliveries released later than they arrived: held by a key's 10 s start window (all of a key's first burst — large with 100 000 keys of ~30 numbers) or behind a reordered number.  ",
    '² Per second of CPU time (user + system, GC threads included) rather than wall time: it does not count waiting for a core (shared caches and hypervisor steal still show), so it is the steadier figure when the load average is above 1. Targets are judged on wall time.',
    '',
  );
  report.push('## 2. Against the CME sample consumer loop (same reordered streams, 64-bit)', '');
  report.push(
    "Baseline: `test/bench/cmeBaseline.ts`, the loop of CME's Java `OrderedPubSubListener` per key: its sorted set — a skip list, as the Java's ConcurrentSkipListSet (a node per element, index levels with probability 1/4 then 1/2; single-threaded, so no CAS) — rejects a held number; the loop polls while first = current + 1, drops first ≤ current, and skips to first once it has waited 10 s. Judged against that. \"Tuned\" is the same loop on a sorted array (binary-search insert, O(1) tail append, moving head): not the sample's data structure, but what the loop would be in JavaScript, shown so nothing is hidden.",
    '',
  );
  const withBaseline = engine.filter((r) => r.baseline);
  report.push(
    table(
      [
        'keys',
        'engine msg/s',
        'baseline msg/s',
        'engine / baseline',
        'target',
        '',
        'by CPU time²',
        'baseline check',
        'tuned msg/s',
        'engine / tuned',
        'ceiling³ msg/s',
        'ceiling / baseline',
      ],
      withBaseline.map((r) => {
        const b = r.baseline as BaselineRow;
        const tb = r.tunedBaseline as BaselineRow;
        const c = r.ceiling as { msgPerSec: number; ratio: number };
        return [
          count(r.keys),
          rate(r.msgPerSec),
          rate(b.msgPerSec),
          ratio(b.ratio),
          `≥ ${ratio(TARGETS.vsBaseline)}`,
          verdict(b.met),
          ratio(b.cpuRatio),
          checked([...b.problems, ...tb.problems]),
          rate(tb.msgPerSec),
          ratio(tb.ratio),
          rate(c.msgPerSec),
          ratio(c.ratio),
        ];
      }),
    ),
    '',
    '³ `runCeiling` in `test/bench/engineBench.ts`: the least any sequencer obeying the rules does per message — find the key, hash the messageId (to tell a redelivery from a second publish), compare one number, hand it on — with no holding, history, timers or findings. Not a sequencer (its count is not checked); where it is below 3× the baseline, the target is out of reach for any engine that does the work the rules ask.',
    '',
  );
  if (jvm) report.push(...jvmReport(withBaseline, jvm));
  if (memory) report.push(...engineMemoryReport(memory));
  return report;
}

/** The sample's loop in Java beside its TypeScript port and the engine, on the same streams. */
function jvmReport(rows: readonly EngineRow[], jvm: JvmSetup): string[] {
  const report = ['### The CME sample loop on the JVM, side by side', ''];
  if ('missing' in jvm) {
    report.push(`**SKIPPED: ${jvm.missing}** — the JVM side-by-side needs a JDK (javac and java 17 or later).`, '');
    return report;
  }
  const gc = rows.find((r) => r.jvm)?.jvm?.gc ?? [];
  report.push(
    `\`test/bench/jvm/CmeLoop.java\`: the sample's loop in Java, per key as the TypeScript port (a \`ConcurrentSkipListSet<UnitOfWork>\` ordered by MsgSeqNum per key, a \`HashMap\` of keys), compiled with javac at bench time and run with \`java -cp\` and ${JVM_FLAGS.length ? `the flags \`${JVM_FLAGS.join(' ')}\` (SEQSCOPE_BENCH_JVM_FLAGS)` : 'no flags'}, on the same stream written to a binary file. JVM: ${jvm.version}; collectors ${gc.join(', ') || 'unknown'}. JIT warm-up: ${JVM_WARMUPS} untimed passes over the whole stream, then ${JVM_PASSES} timed passes, each after \`System.gc()\`, in each of ${ENGINE_PROCESSES} fresh JVMs; "JVM" is the best pass (as every TypeScript figure is a best run), "median" the median pass. Check: the JVM's delivered, duplicates, gaps and lost equal the TypeScript port's on the same stream.`,
    '',
    table(
      [
        'stream',
        'keys',
        'JVM (ConcurrentSkipListSet) msg/s',
        'JVM median',
        'TS sample port msg/s',
        'TS tuned msg/s',
        'SeqScope engine msg/s',
        'JVM / TS port',
        'JVM msg/CPU-s²',
        'check',
      ],
      rows
        .filter((r) => r.jvm)
        .map((r) => {
          const j = r.jvm as JvmRow;
          const b = r.baseline as BaselineRow;
          return [
            `${r.stream}, ${r.seqBits}-bit`,
            count(r.keys),
            rate(j.msgPerSec),
            rate(j.medianMsgPerSec),
            rate(b.msgPerSec),
            rate((r.tunedBaseline as BaselineRow).msgPerSec),
            rate(r.msgPerSec),
            ratio(j.msgPerSec / b.msgPerSec),
            rate(j.msgPerCpuSec),
            checked(j.problems),
          ];
        }),
    ),
    '',
  );
  return report;
}

function cliReport(c: ReturnType<typeof cliCases>, vsBare: number): string[] {
  const report: string[] = [];
  report.push('## 3. CLI replay, end to end (separate node processes, wall time)', '');
  report.push(
    `Capture: ${count(c.capture.lines)} lines, ${mib(c.capture.bytes)}, 10 CME channels, 16-bit wrapping MsgSeqNum, ${c.capture.gaps} gaps (${c.capture.lost} lost), ${count(c.capture.duplicates)} duplicates (${c.capture.generated ? 'generated this run' : 'reused from .bench/'}). Bare loop: \`test/bench/bareParse.ts\` — 1 MB reads, split lines, JSON.parse, count. Peak RSS from ${existsSync('/usr/bin/time') ? 'GNU time -v' : 'process.resourceUsage().maxRSS'}, highest of the runs.`,
    '',
  );
  const lps = (ms: number) => `${rate((c.capture.lines / ms) * 1000)} lines/s`;
  const mbps = (ms: number) => `${((c.capture.bytes / 2 ** 20 / ms) * 1000).toFixed(0)} MiB/s`;
  /** A row with no target of its own: its times against the bare loop's. */
  const untargeted = (label: string, r: { wallMs: number; cpuMs: number; maxRss: number; problems: string[] }) => [
    label,
    seconds(r.wallMs),
    lps(r.wallMs),
    mbps(r.wallMs),
    mib(r.maxRss),
    ratio(r.wallMs / c.bare.wallMs),
    '',
    '',
    seconds(r.cpuMs),
    ratio(r.cpuMs / c.bare.cpuMs),
    checked(r.problems),
  ];
  report.push(
    table(
      ['run', 'best wall', 'throughput', '', 'peak RSS', 'vs bare loop', 'target', '', 'CPU time²', 'vs bare (CPU)', 'check'],
      [
        [
          'bare parse loop',
          seconds(c.bare.wallMs),
          lps(c.bare.wallMs),
          mbps(c.bare.wallMs),
          mib(c.bare.maxRss),
          ratio(1),
          '',
          '',
          seconds(c.bare.cpuMs),
          ratio(1),
          checked(c.bare.problems),
        ],
        [
          '`seqscope replay --preset cme --seq-bits 16 --json`',
          seconds(c.replay.wallMs),
          lps(c.replay.wallMs),
          mbps(c.replay.wallMs),
          mib(c.replay.maxRss),
          ratio(vsBare),
          `≤ ${ratio(TARGETS.replayVsBare)}`,
          verdict(vsBare <= TARGETS.replayVsBare),
          seconds(c.replay.cpuMs),
          ratio(c.replay.cpuMs / c.bare.cpuMs),
          checked(c.replay.problems),
        ],
        untargeted('… `--export /dev/null --format jsonl`', c.export),
        untargeted('… `--export /dev/null --format parquet`', c.parquet),
        untargeted(`\`seqscope replay\` of the capture gzip-compressed (${mib(c.gzip.bytes)})`, c.gzip),
        untargeted(`… \`--export trace.jsonl.gz\` (wrote ${mib(c.gzipExport.bytes)})`, c.gzipExport),
      ],
    ),
    '',
  );
  const parquetVsJsonl = c.parquet.wallMs / c.export.wallMs;
  report.push(
    `Parquet export against the JSON Lines export of the same trace: wall ${ratio(parquetVsJsonl)} (target ≤ ${ratio(TARGETS.parquetVsJsonl)}: ${verdict(parquetVsJsonl <= TARGETS.parquetVsJsonl)}), CPU time ${ratio(c.parquet.cpuMs / c.export.cpuMs)}.`,
    '',
  );
  report.push(
    `Peak RSS against capture size (a replay holds each key's start window, messages waiting behind a gap and 4-byte hashes of recent messageIds — 65 536 a key at most, 4 194 304 over all keys — so it should level off rather than grow with the file): ${count(c.small.lines)} lines (${mib(c.small.bytes)}) → ${mib(c.small.replayRss)} (bare loop ${mib(c.small.bareRss)}); ${count(c.capture.lines)} lines (${mib(c.capture.bytes)}) → ${mib(c.replay.maxRss)} (bare loop ${mib(c.bare.maxRss)}). Check of the smaller replay: ${checked(c.small.problems)}`,
    '',
  );
  const k = c.manyKeys;
  report.push(
    `Live heap without sequence numbers — \`seqscope replay --json\` with the default \`--seq none\`, which finds duplicates by messageId and remembers the ids of the last 2^20 deliveries of all keys, so once that many have passed it should stay level — over ${count(MANY_KEYS)} ordering keys, 0.5 % redelivered (the largest heap left after a forced full collection, every 250 ms; peak RSS would also count garbage not yet collected): ${count(k.small.lines)} lines (${mib(k.small.bytes)}) → ${mib(k.small.liveHeap)}; ${count(k.big.lines)} lines (${mib(k.big.bytes)}) → ${mib(k.big.liveHeap)}. Check of both: ${checked(k.problems)}`,
    '',
  );
  const p = c.keyPerMessage;
  report.push(
    `A key per message (a topic keyed per order): ${count(p.lines)} keys (${mib(p.bytes)}), \`seqscope replay\` with the default options. Every key keeps its counters and state, so keys are what memory grows with. With Node's default heap: ${seconds(p.fits.wallMs)}, peak RSS ${mib(p.fits.maxRss)}. With \`--max-old-space-size=${GUARDED_HEAP_MIB}\` the heap guard stops it after ${count(p.stops.linesRead)} lines (${seconds(p.stops.wallMs)}, peak RSS ${mib(p.stops.maxRss)}), exit 2, summary of what was read: "${p.stops.message}". Check (every key summarised; the stop: one line, exit 2, a STOPPED summary of exactly the lines read): ${checked(p.problems)}`,
    '',
  );
  return report;
}

/** 4. The timeline webview on a million events (standalone export in Chromium). */
async function timelineReport(report: string[]): Promise<TimelineBenchResult | undefined> {
  try {
    const timeline = await benchTimeline();
    report.push(
      '## 4. Timeline on 1 M events (standalone export, headless Chromium, 1280×720)',
      '',
      table(
        ['measure', 'result', 'target', ''],
        [
          ['first paint (navigation → first frame with data)', `${timeline.firstPaintMs.toFixed(0)} ms`, '≤ 500 ms', verdict(timeline.firstPaintMs <= 500)],
          [
            'frame time (main-thread work per frame) p50 / p95 / max while zooming and panning',
            `${timeline.workMsP50.toFixed(1)} / ${timeline.workMsP95.toFixed(1)} / ${timeline.workMsMax.toFixed(0)} ms (${timeline.frames} frames)`,
            '≤ 16 ms (p95)',
            verdict(timeline.met.frames),
          ],
          [
            'frame interval (requestAnimationFrame) p50 / p95 / max',
            `${timeline.frameMsP50.toFixed(1)} / ${timeline.frameMsP95.toFixed(1)} / ${timeline.frameMsMax.toFixed(0)} ms`,
            '',
            '',
          ],
          [
            `the timeline's draw() per call p50 / p95 / max (${timeline.drawCount} calls)`,
            `${timeline.drawMsP50.toFixed(1)} / ${timeline.drawMsP95.toFixed(1)} / ${timeline.drawMsMax.toFixed(0)} ms`,
            '',
            '',
          ],
          ['whole session decoded in the page', `${(timeline.sessionLoadedMs / 1000).toFixed(1)} s`, '', ''],
        ],
      ),
      '',
    );
    return timeline;
  } catch (e) {
    // Chromium may be missing on a developer machine: say so, keep the other figures.
    report.push('## 4. Timeline on 1 M events', '', `NOT MEASURED: ${(e as Error).message}`, '');
    return undefined;
  }
}

async function main(): Promise<void> {
  const sections = sectionsFromArgs(process.argv.slice(2));
  const started = Date.now();
  mkdirSync(BENCH_DIR, { recursive: true });
  const machine = machineInfo();
  progress(`${machine.cpu}, ${machine.cores} cores, node ${machine.node}`);

  const engine: EngineRow[] = [];
  let memory: ReturnType<typeof engineMemory> | undefined;
  let jvm: JvmSetup | undefined;
  if (sections.has('engine')) {
    if (ENGINE_TOTAL !== FULL_ENGINE_TOTAL)
      progress(`engine: ${count(ENGINE_TOTAL)} numbers per case (SEQSCOPE_BENCH_ENGINE_TOTAL), not ${count(FULL_ENGINE_TOTAL)}`);
    jvm = jvmSetup();
    const tools: EngineTools = { contender: bundleForNode('engineContender'), streamWriter: bundleForNode('jvmStream'), jvm };
    for (const kind of ['in order', 'reordered'] as const) {
      for (const keys of KEY_COUNTS) engine.push(engineCase(tools, kind, keys, 64, kind === 'reordered'));
    }
    // CME numbers are 16-bit: the same streams with wrap-around, where every number is unwrapped.
    for (const kind of ['in order', 'reordered'] as const) engine.push(engineCase(tools, kind, 1_000, 16, false));
    memory = engineMemory();
  }
  const cli = sections.has('cli') ? cliCases() : undefined;
  // Each section's report; the header goes above them once all have run (the time and load it gives).
  const report: string[] = [];

  if (engine.length) report.push(...engineReport(engine, memory, jvm));
  let vsBare: number | undefined;
  if (cli) {
    vsBare = cli.replay.wallMs / cli.bare.wallMs;
    report.push(...cliReport(cli, vsBare));
  }
  let parallel: ParallelBenchResult | undefined;
  if (sections.has('cli')) {
    progress('cli: seqscope replay on 1 thread and more, and the DuckDB query (interleaved)');
    parallel = benchParallel(join(ROOT, 'dist/cli.js'), ensureCapture('capture-1m', captureOptions(CAPTURE_NUMBERS)).path, REPS);
    report.push(...parallelReport(parallel, seconds, mib));
  }
  let timeline: TimelineBenchResult | undefined;
  if (sections.has('timeline')) timeline = await timelineReport(report);

  // 5. The extension in the real VS Code extension host on the same million-line capture.
  let host: HostMemoryBenchResult | undefined;
  if (sections.has('host')) {
    try {
      host = await benchHostMemory();
      report.push(...hostMemoryReport(host));
      if (process.env.SEQSCOPE_BENCH_HOST_10M === '1') report.push(...hostBigReport(await benchHostBig()));
    } catch (e) {
      // The VS Code test host may not be installed on a developer machine: say so.
      report.push('## 5. Extension host on 1 M messages', '', `NOT MEASURED: ${(e as Error).message}`, '');
    }
  }

  // 6. Live Pub/Sub: SeqScope's receiver against a bare subscriber on the emulator.
  let pubsub: PubsubBenchOutcome | undefined;
  if (sections.has('pubsub')) {
    pubsub = await benchPubsub(progress);
    report.push(...pubsubReport(pubsub, '6'));
  }

  // 7. The recorder alone, plain and gzip.
  let recorder: RecorderRow[] | undefined;
  if (sections.has('recorder')) {
    recorder = await benchRecorder(progress);
    report.push(...recorderReport(recorder, '7'));
  }

  // 8. Pub/Sub archives (Cloud Storage Avro) against the same messages as JSON Lines; and
  // 9. The MDP 3.0 decoder: a replay that does not ask for it, one that does, a build without it;
  // 10. Payloads decoded by their schema (Avro, Protocol Buffers) against JSON payloads.
  let archives: ArchiveRow[] | undefined;
  let mdp3: { rows: Mdp3Row[]; bytes: number } | undefined;
  let schemas: SchemaBenchRow[] | undefined;
  if (sections.has('archives')) {
    const cliPath = join(ROOT, 'dist/cli.js');
    if (!existsSync(cliPath)) throw new Error('dist/cli.js is missing: run `npm run bench` (it builds first)');
    archives = await benchArchives(progress, cliPath);
    report.push(...archiveReport(archives, '8'));
    mdp3 = await benchMdp3(progress, cliPath);
    report.push(...mdp3Report(mdp3, 9));
    schemas = await benchSchemas(progress, cliPath);
    report.push(...schemaReport(schemas, 10));
  }

  // 11. Compare two captures of one stream against replaying both.
  let compare: CompareBenchResult | undefined;
  if (sections.has('compare')) {
    compare = benchCompare(progress);
    report.push(...compareReport(compare, '11'));
  }

  // 12. Follow live in the workbench: a tap at 5 000 msg/s, the timeline following it.
  let live: Awaited<ReturnType<typeof benchLiveFollow>> | undefined;
  if (sections.has('live')) {
    live = await benchLiveFollow();
    report.push(...liveFollowReport(live).map((l) => l.replace(/^## Follow live/, '## 12. Follow live')));
  }

  const elapsedMs = Date.now() - started;
  const loadAtEnd = loadAverage();
  report.unshift(
    '# SeqScope benchmarks',
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}  `,
    `Load average (1 min): ${machine.loadAverage} at start, ${loadAtEnd} at end (the bench itself accounts for about 1; more is other work sharing the cores).  `,
    `Run: ${new Date(started).toISOString()}, ${seconds(elapsedMs)} in all. Every figure is the best of ${REPS} runs (engine: of ${REPS} runs in each of ${ENGINE_PROCESSES} fresh node processes per contender — engine, baselines, ceiling — interleaved with the others' and each after an untimed warm-up run, so none inherits the JIT state another left and no one process's luck decides a figure; CLI: contenders interleaved, after one untimed read of the file); ✓ = the run found exactly what the generator injected.`,
    '',
  );
  const text = report.join('\n');
  process.stdout.write(text + '\n');
  const file = join(BENCH_DIR, sections.size === SECTIONS.length ? 'results.json' : `results-${[...sections].join('-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date(started).toISOString(),
        elapsedMs,
        machine,
        loadAtEnd,
        targets: TARGETS,
        engine,
        engineMemory: memory,
        jvm,
        cli,
        replayVsBare: vsBare,
        parallel,
        timeline,
        host,
        pubsub,
        recorder,
        archives,
        mdp3,
        schemas,
        compare,
        live,
      },
      null,
      2,
    ) + '\n',
  );
  progress(`wrote ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
