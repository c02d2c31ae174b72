/**
 * Issue 25: "the MDP decoder adds nothing to a replay that does not ask for it". A CME Smart
 * Stream-shaped capture — every payload a binary MDP 3.0 packet whose header MsgSeqNum agrees
 * with the attribute, as on CME's topics — replayed by the built CLI (`--json`, all threads):
 *
 *   - `--preset cme`: numbered from the MsgSeqNum attribute; the decoder is not asked for;
 *   - the same on a build of the CLI (and its scanning threads) in which the decoder module is
 *     replaced by one whose decode functions throw: the decoder is not imported at all, and a run
 *     that finishes shows by itself that nothing on its path calls it;
 *   - `--preset cme --seq mdp3 --time mdp3`: the number and sending time from every packet's
 *     header (decoded, and checked against the attribute), what asking for it costs.
 *
 * Interleaved, best of REPS CPU times (user + system, all threads) and wall times. Each run's
 * summary must be the capture's: every message delivered, no gap, nothing invalid.
 */
import { build, Plugin } from 'esbuild';
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { encodeMdp3Packet, base64 } from '../support/mdp3Packets';
import { BENCH_DIR, bestRuns, ROOT, ProcessRun } from './cliBench';
import { checked, count, mib, ratio, seconds, table } from './report';

const MESSAGES = 1_000_000;
const CHANNELS = 10;
const REPS = 3;
/** CME's tutorial shows MsgSeqNum 1539130 on channel 310: 32-bit numbers. */
const FIRST = 1_539_000;

export interface Mdp3Row {
  readonly label: string;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly maxRss: number;
  readonly problems: string[];
}

/** The capture, written once into .bench/ (about 300 bytes a line). */
function capture(): { path: string; bytes: number } {
  const path = join(BENCH_DIR, `mdp3-${MESSAGES}.jsonl`);
  if (!existsSync(path)) {
    mkdirSync(BENCH_DIR, { recursive: true });
    const fd = openSync(path, 'w');
    const t0 = Date.parse('2026-11-30T09:30:00Z');
    try {
      let text = '';
      for (let i = 0; i < MESSAGES; i++) {
        const channel = String(310 + (i % CHANNELS));
        const seq = FIRST + Math.floor(i / CHANNELS);
        const ms = t0 + Math.floor(i / 10);
        // Two messages a packet: an incremental refresh (template 46) and a trade summary (48).
        const packet = encodeMdp3Packet({
          msgSeqNum: seq,
          sendingTimeNs: BigInt(ms) * 1_000_000n + BigInt(i % 1000),
          messages: [
            { templateId: 46, blockLength: 11, size: 96 },
            { templateId: 48, blockLength: 11, size: 64 },
          ],
        });
        const iso = new Date(ms).toISOString();
        text +=
          JSON.stringify({
            message: {
              data: base64(packet),
              attributes: { Channel: channel, MsgSeqNum: String(seq), SendingTime: String(ms) },
              messageId: String(9_000_000_000_000 + i),
              publishTime: iso,
              orderingKey: channel,
            },
            receivedAt: new Date(ms + 2).toISOString(),
          }) + '\n';
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
  return { path, bytes: statSync(path).size };
}

/**
 * dist/cli.js and dist/scanWorker.js built again into .bench/no-mdp3/, with src/core/capture/mdp3.ts
 * replaced: base64Bytes (a base64 reader other code shares) stays, every decode function throws.
 */
export async function buildWithoutDecoder(): Promise<string> {
  const dir = join(BENCH_DIR, 'no-mdp3');
  mkdirSync(dir, { recursive: true });
  const stub = join(dir, 'mdp3-stub.ts');
  writeFileSync(
    stub,
    [
      "const gone = (..._args: unknown[]): never => { throw new Error('the MDP 3.0 decoder is not in this build'); };",
      'export const PACKET_HEADER_BYTES = 12;',
      'export const MESSAGE_HEADER_BYTES = 10;',
      'export const isMdp3Error = gone;',
      'export const decodeMdp3 = gone;',
      'export const decodeMdp3Base64 = gone;',
      'export const sendingTimeMs = gone;',
      'export function base64Bytes(s: string): Uint8Array | undefined {',
      "  return /^[A-Za-z0-9+/_-]*={0,2}$/.test(s) ? new Uint8Array(Buffer.from(s, 'base64')) : undefined;",
      '}',
      '',
    ].join('\n'),
  );
  const plugin: Plugin = {
    name: 'no-mdp3',
    setup(b) {
      b.onResolve({ filter: /(^|\/)mdp3$/ }, () => ({ path: stub }));
      b.onResolve({ filter: /^\.\.\/pubsub$/ }, () => ({ path: './pubsub.js', external: true }));
    },
  };
  for (const [entry, out] of [
    ['src/cli/main.ts', 'cli.js'],
    ['src/timeline/node/scanWorker.ts', 'scanWorker.js'],
  ]) {
    await build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: join(dir, out),
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      define: { SEQSCOPE_VERSION: '"bench"' },
      plugins: [plugin],
      logLevel: 'error',
    });
  }
  return join(dir, 'cli.js');
}

function checkRun(run: ProcessRun): string[] {
  const s = JSON.parse(run.stdout) as Record<string, number>;
  const want: Record<string, number> = { received: MESSAGES, delivered: MESSAGES, gaps: 0, duplicates: 0, invalid: 0, keys: CHANNELS };
  return Object.keys(want)
    .filter((k) => s[k] !== want[k])
    .map((k) => `${k} ${s[k]} ≠ ${want[k]}`);
}

export async function benchMdp3(progress: (text: string) => void, cli: string): Promise<{ rows: Mdp3Row[]; bytes: number }> {
  progress('mdp3: writing (or reusing) the capture');
  const { path, bytes } = capture();
  progress('mdp3: building the CLI without the decoder');
  const stubbed = await buildWithoutDecoder();
  const cases = [
    { label: '`--preset cme` (decoder not asked for)', args: [cli, 'replay', path, '--preset', 'cme', '--json'] },
    { label: '`--preset cme`, a build without the decoder', args: [stubbed, 'replay', path, '--preset', 'cme', '--json'] },
    {
      label: '`--preset cme --seq mdp3 --time mdp3` (every packet decoded)',
      args: [cli, 'replay', path, '--preset', 'cme', '--seq', 'mdp3', '--time', 'mdp3', '--json'],
    },
  ];
  const runs = bestRuns(
    REPS,
    cases.map((c) => c.args),
    (i, run) => progress(`mdp3: ${cases[i].label} ${seconds(run.cpuMs)} CPU`),
  );
  const best = runs.map((run, i) => ({ label: cases[i].label, cpuMs: run.cpuMs, wallMs: run.wallMs, maxRss: run.maxRssAll, problems: checkRun(run) }));
  return { rows: best, bytes };
}

export function mdp3Report(o: { rows: Mdp3Row[]; bytes: number }, n: number): string[] {
  const base = o.rows[0];
  return [
    `## ${n}. The MDP 3.0 decoder: what a replay that does not ask for it pays`,
    '',
    `${count(MESSAGES)} messages on ${CHANNELS} channels (${mib(o.bytes)}), each payload a binary MDP 3.0 packet of two SBE messages whose header MsgSeqNum agrees with the attribute; built CLI, all threads, best of ${REPS} interleaved runs. The build without the decoder replaces its module with one whose decode functions throw: that it finishes shows nothing on a \`--preset cme\` replay's path calls the decoder.`,
    '',
    table(
      ['replay', 'CPU', '× `--preset cme`', 'wall', 'peak RSS', 'check'],
      o.rows.map((r) => [r.label, seconds(r.cpuMs), ratio(r.cpuMs / base.cpuMs), seconds(r.wallMs), mib(r.maxRss), checked(r.problems)]),
    ),
    '',
  ];
}
