/**
 * End-to-end replay: the built CLI on a large generated capture, against a bare
 * read-split-JSON.parse loop over the same file, each in its own node process.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { GroundTruth, StreamOptions, planStream, renderLine } from '../../scripts/lib/captureGenerator';

export const ROOT = join(__dirname, '../..');
export const BENCH_DIR = join(ROOT, '.bench');
const GENERATOR_SOURCE = join(ROOT, 'scripts/lib/captureGenerator.ts');
const TIME = '/usr/bin/time';

export interface Capture {
  readonly path: string;
  readonly bytes: number;
  readonly lines: number;
  readonly truth: GroundTruth;
  /** False when an existing file with the same parameters was reused. */
  readonly generated: boolean;
}

/** A CME-style capture of about `numbers` messages: 10 channels, wrapping 16-bit numbers, a few losses. */
export function captureOptions(numbers: number): StreamOptions {
  const keys = 10;
  const n = Math.round(numbers / keys);
  const start = (k: number) => (k * 6007 + 1) % 65536;
  // Four gaps at fixed fractions of the channels' runs, one spanning several numbers; all within
  // the first 65 536 numbers, where a raw number names a single position.
  const loss = (k: number, at: number, count: number) => ({
    key: String(310 + k),
    from: (start(k) + Math.floor(n * at)) % 65536,
    to: (start(k) + Math.floor(n * at) + count - 1) % 65536,
  });
  return {
    seed: 7,
    keys,
    messagesPerKey: n,
    startSeq: start,
    seqBits: 16,
    reorderFraction: 0.05,
    reorderWindow: 4,
    redeliveryFraction: 0.005,
    republishFraction: 0.005,
    losses: [loss(0, 0.15, 3), loss(3, 0.3, 1), loss(6, 0.45, 10), loss(9, 0.6, 2)],
    burst: { min: 1, max: 6 },
    burstGapMs: 1,
    intraBurstMs: 0.2,
  };
}

/** Ordering keys of the `--seq none` memory case: a topic keyed per customer or per order. */
export const MANY_KEYS = 20_000;

/**
 * A capture of about `numbers` messages over MANY_KEYS ordering keys, in order, 0.5 % of them
 * redelivered (same messageId): what the default options (`--seq none`, duplicates by
 * messageId) replay. Its ids are what such a replay remembers, so memory is measured on it.
 */
export function manyKeysOptions(numbers: number): StreamOptions {
  return {
    seed: 11,
    keys: MANY_KEYS,
    messagesPerKey: Math.round(numbers / MANY_KEYS),
    seqBits: 64,
    redeliveryFraction: 0.005,
    burst: { min: 1, max: 3 },
    burstGapMs: 0.2,
    intraBurstMs: 0.05,
  };
}

/** A capture of `keys` messages, each of its own ordering key (a topic keyed per order): what fills a replay's memory. */
export function keyPerMessageOptions(keys: number): StreamOptions {
  return { seed: 13, keys, messagesPerKey: 1, seqBits: 64, burst: { min: 1, max: 1 }, burstGapMs: 0.05, intraBurstMs: 0 };
}

/**
 * The keys and the messages received that a (text) summary's total row gives, or a problem:
 * with millions of keys `--json` is hundreds of megabytes, more than a pipe should carry here.
 */
export function summaryTotals(stdout: string): { keys: number; received: number } | string {
  const m = /total \((\d+) keys?\)\s+(\d+)/.exec(stdout);
  return m ? { keys: Number(m[1]), received: Number(m[2]) } : 'no total row in the summary';
}

/** What a `--seq none` replay of a manyKeysOptions capture must say (duplicates are its redeliveries). */
export function checkUnsequencedSummary(stdout: string, t: GroundTruth): string[] {
  return summaryDifferences(stdout, {
    received: t.deliveries,
    delivered: t.deliveries - t.redeliveries,
    duplicates: t.redeliveries,
    redeliveries: t.redeliveries,
    gaps: 0,
    invalid: 0,
  });
}

/** The fields of a `--json` summary that differ from `want`, each as "field got ≠ wanted". */
function summaryDifferences(stdout: string, want: Record<string, number>): string[] {
  const s = JSON.parse(stdout) as Record<string, number>;
  return Object.keys(want)
    .filter((k) => s[k] !== want[k])
    .map((k) => `${k} ${s[k]} ≠ ${want[k]}`);
}

/**
 * Writes the capture unless a file generated from the same options by the same generator source
 * is already there (generating a million lines takes a while; the bench reruns should not).
 */
export function ensureCapture(name: string, options: StreamOptions): Capture {
  const path = join(BENCH_DIR, `${name}.jsonl`);
  const metaPath = join(BENCH_DIR, `${name}.meta.json`);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify(options, (_k, v: unknown) => (typeof v === 'function' ? v.toString() : v)))
    .update(readFileSync(GENERATOR_SOURCE))
    .digest('hex');
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { fingerprint: string; bytes: number; truth: GroundTruth };
    if (meta.fingerprint === fingerprint && statSync(path).size === meta.bytes) {
      return { path, bytes: meta.bytes, lines: meta.truth.deliveries, truth: meta.truth, generated: false };
    }
  }
  const plan = planStream(options);
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    const BATCH = 4096;
    for (let j = 0; j < plan.count; j += BATCH) {
      let text = '';
      for (let i = j; i < Math.min(plan.count, j + BATCH); i++) text += renderLine(plan, i) + '\n';
      bytes += writeSync(fd, text);
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(metaPath, JSON.stringify({ fingerprint, bytes, truth: plan.truth }));
  return { path, bytes, lines: plan.count, truth: plan.truth, generated: true };
}

/**
 * A gzip copy of a capture beside it (`<name>.jsonl.gz`, zlib's default level, as `gzip` makes
 * them), made again when the capture is newer.
 */
export function ensureGzipCopy(c: Capture): { path: string; bytes: number } {
  const path = `${c.path}.gz`;
  if (!existsSync(path) || statSync(path).mtimeMs < statSync(c.path).mtimeMs) {
    const script =
      "const [a, b] = process.argv.slice(1); require('node:stream').pipeline(require('node:fs').createReadStream(a), require('node:zlib').createGzip(), require('node:fs').createWriteStream(b), (e) => process.exit(e ? 1 : 0));";
    const r = spawnSync(process.execPath, ['-e', script, c.path, path], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`could not gzip ${c.path}`);
  }
  return { path, bytes: statSync(path).size };
}

/**
 * Bundles test/bench/<name>.ts to .bench/<name>.js, the way dist/cli.js and dist/pubsub.js are
 * built (dependencies included), so it runs on plain node like the shipped code.
 */
export function bundleForNode(name: string): string {
  const out = join(BENCH_DIR, `${name}.js`);
  buildSync({ entryPoints: [join(__dirname, `${name}.ts`)], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error' });
  return out;
}

/** The bare parse loop, bundled. */
export function buildBareParse(): string {
  return bundleForNode('bareParse');
}

export interface ProcessRun {
  wallMs: number;
  /** User + system CPU time of the process (all its threads), ms. */
  cpuMs: number;
  /** Peak resident set size, bytes. */
  maxRss: number;
  stdout: string;
  /** What the process wrote on stderr (without the measuring tool's report). */
  stderr: string;
}

/**
 * Runs `node <args>` and measures its wall time from the parent, and its CPU time and peak RSS:
 * from GNU time -v when installed, else from a --require hook that reports
 * process.resourceUsage() as the process exits. Both add the same small constant to every
 * process measured.
 */
export function runNode(args: string[], exitCode = 0): ProcessRun {
  const useTime = existsSync(TIME);
  const cmd = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-v', process.execPath, ...args] : ['--require', rssHook(), ...args];
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== exitCode) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}, not ${exitCode}: ${r.stderr.slice(-2000)}`);
  const m = useTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr) : /SEQSCOPE_BENCH_MAXRSS=(\d+) CPU=(\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no peak RSS in the output of node ${args.join(' ')}`);
  let cpuMs: number;
  if (useTime) {
    const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
    cpuMs = user && system ? (Number(user[1]) + Number(system[1])) * 1000 : NaN;
  } else {
    cpuMs = Number(m[2]) / 1000;
  }
  // GNU time's report (after "Command exited with non-zero status N" when it did) follows what
  // the process wrote; the hook's line likewise.
  const end = useTime ? r.stderr.search(/(Command exited with non-zero status \d+\n)?\tCommand being timed/) : m.index;
  const stderr = (end >= 0 ? r.stderr.slice(0, end) : r.stderr).trim();
  return { wallMs, cpuMs, maxRss: Number(m[1]) * 1024, stdout: r.stdout, stderr };
}

/**
 * The largest live heap of `node <args>`: a --require hook forces a full collection every 250 ms
 * and keeps the largest heap left after it. What a process holds, where peak RSS also counts
 * garbage V8 has not collected yet (it lets the heap grow with the allocation rate).
 */
export function liveHeap(args: string[]): { bytes: number; stdout: string } {
  const hook = join(BENCH_DIR, 'live-heap-hook.cjs');
  writeFileSync(
    hook,
    "let max = 0; setInterval(() => { global.gc(); max = Math.max(max, process.memoryUsage().heapUsed); }, 250).unref(); process.on('exit', () => process.stderr.write('SEQSCOPE_BENCH_LIVEHEAP=' + max + '\\n'));\n",
  );
  const r = spawnSync(process.execPath, ['--expose-gc', '--require', hook, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  const m = /SEQSCOPE_BENCH_LIVEHEAP=(\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no live heap in the output of node ${args.join(' ')}`);
  return { bytes: Number(m[1]), stdout: r.stdout };
}

/** Writes (every time, so it is never stale) the hook used when GNU time is missing. */
function rssHook(): string {
  const path = join(BENCH_DIR, 'rss-hook.cjs');
  writeFileSync(
    path,
    "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('SEQSCOPE_BENCH_MAXRSS=' + u.maxRSS + ' CPU=' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });\n",
  );
  return path;
}

/**
 * Best wall time of `reps` runs of each command, runs interleaved (a, b, c, a, b, c, …) so load
 * from elsewhere hits every command alike; with the highest peak RSS of any run (conservative).
 * `onRun` hears each run as it ends (for progress).
 */
export function bestRuns(reps: number, commands: readonly string[][], onRun?: (command: number, run: ProcessRun) => void): BestRun[] {
  const best: BestRun[] = commands.map(() => ({ wallMs: Infinity, cpuMs: Infinity, maxRss: 0, stdout: '', stderr: '', maxRssAll: 0 }));
  for (let i = 0; i < reps; i++) {
    commands.forEach((args, j) => {
      const r = runNode(args);
      onRun?.(j, r);
      const b = best[j];
      const cpuMs = Math.min(b.cpuMs, r.cpuMs);
      const maxRssAll = Math.max(b.maxRssAll, r.maxRss);
      best[j] = r.wallMs < b.wallMs ? { ...r, cpuMs, maxRssAll } : { ...b, cpuMs, maxRssAll };
    });
  }
  return best;
}

/** Best wall time, best CPU time (each over all runs), and the highest peak RSS of any run. */
export type BestRun = ProcessRun & { maxRssAll: number };

/** Summary fields that must match the injected truth. */
export function checkSummary(stdout: string, t: GroundTruth): string[] {
  return summaryDifferences(stdout, {
    received: t.deliveries,
    delivered: t.distinct,
    gaps: t.gaps,
    lost: t.lost,
    duplicates: t.duplicates,
    redeliveries: t.redeliveries,
    late: t.late,
    invalid: 0,
  });
}
