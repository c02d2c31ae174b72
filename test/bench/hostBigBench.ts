/**
 * The extension in the real VS Code extension host on a 10 000 000-message capture (side A of the
 * compare benchmark's 10 M pair, ~5 GB, reused from .bench/ when present): whether it opens, in
 * how long, and what the extension host process takes for it — RSS before, its peak (VmHWM) while
 * loading, with the session open and after idling — with the CLI's replay of the same file beside
 * it. The session's counts (the Sessions tree's summary) are checked against the CLI's, which the
 * compare benchmark checks against the generator's truth. SeqScope's log gives the estimate the
 * open was judged on and the extension host's heap limit.
 *
 * In `npm run bench -- host` with SEQSCOPE_BENCH_HOST_10M=1 (it writes the ~10 GB pair first
 * when .bench/ lacks it); standalone: npx tsx test/bench/hostBigBench.ts (after node esbuild.js --production).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { installedMarker } from '../../scripts/vscode-host/common.mjs';
import { openWorkbench, runCommand } from '../../scripts/vscode-host/workbench.mjs';
import { until } from '../support/e2e/workbench';
import { BENCH_DIR, ROOT, runNode } from './cliBench';
import { writePair } from './compareBench';
import {
  closeTimelineTabs,
  counts,
  extensionHosts,
  IDLE_MS,
  lowestRss,
  memory,
  openWithTimeline,
  OpenPaintTimes,
  steadyRss,
  summaryRow,
} from './hostMemoryBench';
import { count, mib, seconds, table } from './report';

const LINES = 10_000_000;

export interface HostBigBenchResult {
  capture: { lines: number; bytes: number };
  cli: { wallMs: number; maxRss: number };
  baselineRss: number;
  /** VmHWM once the session was whole: the load's peak. */
  peakRss: number;
  openRss: number;
  idleRss: number;
  paint: OpenPaintTimes;
  /** SeqScope's log line with the estimate and the heap limit. */
  estimate: string;
  problems: string[];
  loadAverage: number;
}

function progress(text: string): void {
  process.stderr.write(`[bench:host-big] ${text}\n`);
}

/** SeqScope's log line that judged the open. */
function estimateLine(dir: string, fileName: string): string {
  const channel = readdirSync(dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile() && d.name === 'SeqScope.log');
  if (!channel) return '';
  const text = readFileSync(join(channel.parentPath, channel.name), 'utf8');
  return text.split('\n').find((l) => l.includes(`${fileName}: about`)) ?? '';
}

export async function benchHostBig(): Promise<HostBigBenchResult> {
  if (!installedMarker()) throw new Error('the VS Code test host is not installed: npm run host:install');
  mkdirSync(BENCH_DIR, { recursive: true });
  const { a } = writePair(LINES, progress);
  const bytes = statSync(a).size;
  const cliPath = join(ROOT, 'dist/cli.js');
  progress(`seqscope replay --preset cme --seq-bits 16 --json of ${a} (the CLI, all threads)`);
  const run = runNode([cliPath, 'replay', a, '--preset', 'cme', '--seq-bits', '16', '--json']);
  const want = JSON.parse(run.stdout) as { delivered: number; gaps: number; lost: number; duplicates: number; late: number; invalid: number };
  progress(`CLI replay: ${seconds(run.wallMs)}, peak RSS ${mib(run.maxRss)}`);
  const folder = mkdtempSync(join(tmpdir(), 'seqscope-bench-host-big-'));
  symlinkSync(a, join(folder, basename(a)));
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'seqscope.seqBits': 16 }));
  const wb = await openWorkbench({ folder });
  try {
    const { page, server } = wb;
    await runCommand(page, 'SeqScope: Show Log');
    let pids: number[] = [];
    await until(async () => (pids = extensionHosts(server.pid)).length > 0, 30_000);
    const pid = pids[0];
    const baselineRss = await steadyRss(pid);
    progress(`extension host pid ${pid}: baseline RSS ${mib(baselineRss)}`);
    const opened = await openWithTimeline(page, wb.dir, basename(a), 1);
    const peakRss = memory(pid).peak;
    const estimate = estimateLine(wb.dir, basename(a));
    progress(
      `opened: the whole session ${seconds(opened.paint.loaderMs)}, first frame ${opened.paint.choiceToPaintMs.toFixed(0)} ms; peak RSS ${mib(peakRss)}; ${estimate}`,
    );
    const got = counts(await summaryRow(page));
    const problems = (['delivered', 'gaps', 'lost', 'late', 'invalid'] as const).filter((k) => got[k] !== want[k]).map((k) => `${k} ${got[k]} ≠ ${want[k]}`);
    if (got.dup !== want.duplicates) problems.push(`dup ${got.dup} ≠ ${want.duplicates}`);
    await closeTimelineTabs(page);
    const openRss = await steadyRss(pid);
    progress(`RSS with the session open ${mib(openRss)}; waiting ${IDLE_MS / 1000} s idle`);
    const idleRss = await lowestRss(pid, IDLE_MS);
    progress(`RSS after idling ${mib(idleRss)} (+${mib(idleRss - baselineRss)}); checks ${problems.length ? problems.join('; ') : '✓'}`);
    return {
      capture: { lines: LINES, bytes },
      cli: { wallMs: run.wallMs, maxRss: run.maxRss },
      baselineRss,
      peakRss,
      openRss,
      idleRss,
      paint: opened.paint,
      estimate,
      problems,
      loadAverage: loadavg()[0],
    };
  } finally {
    await wb.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The report's lines (Markdown), after section 5's. */
export function hostBigReport(r: HostBigBenchResult): string[] {
  const above = (x: number) => `${mib(x)} (+${mib(x - r.baselineRss)})`;
  return [
    `### 5b. Extension host on 10 M messages`,
    '',
    `Capture: ${count(r.capture.lines)} lines, ${mib(r.capture.bytes)} (side A of the compare section's 10 M pair), opened through the Command Palette with \`Preset: cme\` and \`seqscope.seqBits\` 16; the Sessions tree's counts against the CLI's: ${r.problems.length ? `✗ ${r.problems.join('; ')}` : '✓'}. Load average ${r.loadAverage.toFixed(1)}. SeqScope's log: ${r.estimate.replace(/^\S+ \S+ \[info\] /, '')}.`,
    '',
    table(
      ['measure', 'result'],
      [
        [
          "the choice → first frame with data · → the whole session (SeqScope's log)",
          `${r.paint.choiceToPaintMs.toFixed(0)} ms · ${seconds(r.paint.loaderMs)}`,
        ],
        [
          'the CLI on the same file (`seqscope replay --preset cme --seq-bits 16 --json`) · its peak RSS · the ratio',
          `${seconds(r.cli.wallMs)} · ${mib(r.cli.maxRss)} · ${(r.paint.loaderMs / r.cli.wallMs).toFixed(2)}×`,
        ],
        ['RSS after SeqScope activated (baseline)', mib(r.baselineRss)],
        ['peak RSS (VmHWM) while loading', above(r.peakRss)],
        ['RSS with the session open', above(r.openRss)],
        [`… after ${IDLE_MS / 1000} s idle`, above(r.idleRss)],
      ],
    ),
    '',
  ];
}

if (require.main === module) {
  benchHostBig()
    .then((r) => process.stdout.write(JSON.stringify(r, null, 2) + '\n' + hostBigReport(r).join('\n') + '\n'))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
