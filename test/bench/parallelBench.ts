/**
 * Parallel replay against DuckDB on the CLI section's million-line capture: `seqscope replay
 * --preset cme --seq-bits 16 --json` on 1 thread and on more (the scaling curve), and the DuckDB query of
 * duckdbQuery.ts, each a separate node process (process start included), runs interleaved;
 * every run's wall time is kept, so the report gives the best and the spread.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { BENCH_DIR, ProcessRun, runNode } from './cliBench';

export interface ParallelRow {
  readonly label: string;
  readonly threads?: number;
  /** Wall time of every run, ms, in the order run. */
  readonly wallMs: number[];
  readonly cpuMs: number;
  readonly maxRss: number;
  readonly stdout: string;
}

export interface ParallelBenchResult {
  readonly cores: number;
  readonly rows: ParallelRow[];
  /** Load average (1 min) before and after. */
  readonly load: [number, number];
  /** Why DuckDB was not measured, if it was not. */
  readonly duckdbMissing?: string;
}

/** Thread counts of the scaling curve: 1, 2, the cores, and one more than the cores. */
export function threadCounts(cores = availableParallelism()): number[] {
  return [...new Set([1, 2, cores, cores + 1])].sort((a, b) => a - b);
}

function bundleDuckdbQuery(): string {
  const out = join(BENCH_DIR, 'duckdbQuery.js');
  buildSync({
    entryPoints: [join(__dirname, 'duckdbQuery.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
    external: ['@duckdb/*'],
  });
  return out;
}

export function benchParallel(cli: string, capture: string, reps: number): ParallelBenchResult {
  const cores = availableParallelism();
  const load0 = loadavg()[0];
  const commands: { label: string; threads?: number; args: string[] }[] = threadCounts(cores).map((t) => ({
    label: `\`seqscope replay --preset cme --seq-bits 16 --json --threads ${t}\``,
    threads: t,
    args: [cli, 'replay', capture, '--preset', 'cme', '--seq-bits', '16', '--json', '--threads', String(t)],
  }));
  let duckdbMissing: string | undefined;
  const duck = bundleDuckdbQuery();
  try {
    runNode([duck, join(__dirname, '..', 'fixtures', 'cme', 'smartstream-310.jsonl')]);
    commands.push({
      label: "DuckDB `read_json(…, format='newline_delimited')`, `GROUP BY key, seq`, `LAG(seq) OVER (PARTITION BY key ORDER BY seq)`",
      args: [duck, capture],
    });
  } catch (e) {
    duckdbMissing = `DuckDB did not run (${(e as Error).message.split('\n')[0]}): install the dev dependencies (npm ci)`;
  }
  const runs: ProcessRun[][] = commands.map(() => []);
  for (let i = 0; i < reps; i++) commands.forEach((c, j) => runs[j].push(runNode(c.args)));
  const rows = commands.map((c, j) => ({
    label: c.label,
    threads: c.threads,
    wallMs: runs[j].map((r) => r.wallMs),
    cpuMs: Math.min(...runs[j].map((r) => r.cpuMs)),
    maxRss: Math.max(...runs[j].map((r) => r.maxRss)),
    stdout: runs[j][0].stdout,
  }));
  return { cores, rows, load: [load0, loadavg()[0]], duckdbMissing };
}

export function parallelReport(r: ParallelBenchResult, seconds: (ms: number) => string, mib: (b: number) => string): string[] {
  const duck = r.rows.find((row) => row.threads === undefined);
  const one = r.rows.find((row) => row.threads === 1);
  const best = (row: ParallelRow) => Math.min(...row.wallMs);
  const spread = (row: ParallelRow) => `${seconds(Math.min(...row.wallMs))}–${seconds(Math.max(...row.wallMs))}`;
  const lines = [
    `### Parallel replay and DuckDB (${r.cores} cores; load average ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after)`,
    '',
    `Each a separate node process, process start included, ${r.rows[0].wallMs.length} runs each, interleaved. DuckDB's answer is information only: it counts holes and duplicate numbers, not gaps declared after a timeout, redeliveries or late messages.`,
    '',
    '| run | best wall | spread | vs 1 thread | vs DuckDB | CPU time | peak RSS |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of r.rows) {
    lines.push(
      `| ${row.label} | ${seconds(best(row))} | ${spread(row)} | ${one ? (best(one) / best(row)).toFixed(2) + '×' : ''} | ${duck ? (best(row) / best(duck)).toFixed(2) + '×' : ''} | ${seconds(row.cpuMs)} | ${mib(row.maxRss)} |`,
    );
  }
  if (duck) lines.push('', `DuckDB's answer: ${duck.stdout.trim()}`);
  if (r.duckdbMissing) lines.push('', r.duckdbMissing);
  lines.push('');
  return lines;
}
