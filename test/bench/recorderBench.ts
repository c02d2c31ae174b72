/**
 * The recorder on its own: what writing a capture costs per message, plain and gzip-compressed,
 * for batches of 1 to 1 000 lines (a pull response's deliveries, each batch in an event-loop
 * turn of its own, as the live source hands them over). Lines are the sample capture's, CME
 * payloads included. Each run's file is read back and must hold exactly the lines appended.
 *
 * Three ways of writing:
 *   - plain: one write per batch (what the extension and `record --out x.jsonl` do);
 *   - gzip: `record --out x.jsonl.gz` — small batches gathered into members of up to 64 KiB or
 *     half a second (see captureRecorder.ts);
 *   - gzip, a member per batch (gzipGatherMs 0): shown so the reason for gathering is measured,
 *     not asserted — every member pays zlib's set-up and starts without a dictionary.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { CaptureRecorder, RecorderOptions } from '../../src/pubsub/captureRecorder';
import { ROOT } from './cliBench';
import { collectGarbage } from './timing';
import { checked, table } from './report';

/** Lines appended per run: enough for hundreds of 64 KiB members at 460 bytes a line. */
const MESSAGES = 60_000;
const REPS = 3;
const BATCHES = [1, 10, 100, 1000];

type Mode = 'plain' | 'gzip' | 'gzip, a member per batch';
const MODES: readonly { mode: Mode; options: RecorderOptions; batches: readonly number[] }[] = [
  { mode: 'plain', options: {}, batches: BATCHES },
  { mode: 'gzip', options: { gzip: true }, batches: BATCHES },
  { mode: 'gzip, a member per batch', options: { gzip: true, gzipGatherMs: 0 }, batches: [1, 10, 100] },
];

export interface RecorderRow {
  mode: Mode;
  linesPerBatch: number;
  /** Best CPU time per message (user + system, µs), and the wall time of that run. */
  cpuUsPerMsg: number;
  wallUsPerMsg: number;
  /** Text bytes / file bytes. */
  smaller: number;
  problems: string[];
}

function sampleLines(): string[] {
  return readFileSync(join(ROOT, 'media', 'samples', 'cme-sample.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => `${l}\n`);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function oneRun(path: string, lines: readonly string[], options: RecorderOptions, perBatch: number): Promise<{ cpuUs: number; wallUs: number }> {
  collectGarbage();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // The same scratch file each run: replacing it is the point.
  const rec = await CaptureRecorder.open(path, { ...options, overwrite: true, syncIntervalMs: 60_000 });
  let acked = 0;
  const ack = () => void acked++;
  for (let i = 0; i < MESSAGES; i += perBatch) {
    for (let j = i; j < Math.min(i + perBatch, MESSAGES); j++) rec.append(lines[j % lines.length], ack);
    await nextTurn();
  }
  await rec.close();
  const wallUs = (performance.now() - t0) * 1000;
  const c = process.cpuUsage(c0);
  if (acked !== MESSAGES) throw new Error(`${acked} of ${MESSAGES} lines acknowledged`);
  return { cpuUs: c.user + c.system, wallUs };
}

export async function benchRecorder(progress: (text: string) => void): Promise<RecorderRow[]> {
  const lines = sampleLines();
  const expected = Array.from({ length: MESSAGES }, (_, i) => lines[i % lines.length]).join('');
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-bench-rec-'));
  const rows: RecorderRow[] = [];
  try {
    for (const { mode, options, batches } of MODES) {
      for (const perBatch of batches) {
        progress(`recorder: ${mode}, ${perBatch} line${perBatch === 1 ? '' : 's'} a batch`);
        const path = join(dir, options.gzip ? 'r.jsonl.gz' : 'r.jsonl');
        await oneRun(path, lines, options, perBatch); // untimed warm-up
        let best = { cpuUs: Infinity, wallUs: Infinity };
        for (let r = 0; r < REPS; r++) {
          const run = await oneRun(path, lines, options, perBatch);
          if (run.cpuUs < best.cpuUs) best = run;
        }
        const file = readFileSync(path);
        const text = options.gzip ? gunzipSync(file).toString() : file.toString();
        rows.push({
          mode,
          linesPerBatch: perBatch,
          cpuUsPerMsg: best.cpuUs / MESSAGES,
          wallUsPerMsg: best.wallUs / MESSAGES,
          smaller: Buffer.byteLength(expected) / statSync(path).size,
          problems: text === expected ? [] : ['the file does not hold exactly the lines appended'],
        });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export function recorderReport(rows: readonly RecorderRow[], section: string): string[] {
  return [
    `## ${section}. Recorder: writing a capture, plain and gzip`,
    '',
    `\`CaptureRecorder\` appending ${MESSAGES.toLocaleString('en-US')} lines of the sample capture (CME payloads, ~490 bytes a line) in batches of 1 to 1 000, each batch in an event-loop turn of its own, every line acknowledged once written; open to close, best CPU of ${REPS} runs after a warm-up. "smaller" = text bytes / file bytes. ✓ = the file held exactly the lines appended.`,
    '',
    table(
      ['writing', 'lines a batch', 'CPU / message', 'wall / message', 'smaller', 'check'],
      rows.map((r) => [
        r.mode,
        r.linesPerBatch,
        `${r.cpuUsPerMsg.toFixed(2)} µs`,
        `${r.wallUsPerMsg.toFixed(2)} µs`,
        `${r.smaller.toFixed(2)}×`,
        checked(r.problems),
      ]),
    ),
    '',
  ];
}
