/**
 * `npm run soak`: the long runs behind docs/reliability.md's soak row (issue 29, item 6). Not part
 * of `npm test` or `npm run bench`: together they take tens of minutes.
 *
 *   npm run soak                  # both parts
 *   npm run soak -- replay        # (a) only
 *   npm run soak -- live          # (b) only
 *
 * (a) **Replay**: a generated CME-style capture of SEQSCOPE_SOAK_MESSAGES lines (default
 * 10 000 000; 10 channels, 16-bit wrapping numbers, 5 % reordered, 0.5 % redelivered, 0.5 %
 * republished, 4 losses), written line by line to .bench/ (never held in memory as lines: the
 * generator keeps a few typed arrays per message), replayed by the built CLI as a user would:
 * `seqscope replay <file> --preset cme --seq-bits 16 --json`. A --require hook in the CLI
 * process samples every second its RSS, its heap before and after a forced full GC, its CPU and
 * the bytes it has read (/proc/self/io), from which the checkpoints every 10 % of the messages
 * are taken. The summary must equal what the generator injected.
 *
 * (b) **Live**: SEQSCOPE_SOAK_LIVE_MESSAGES (default 1 000 000) CME-style messages (4 ordering
 * keys, 16-bit wrapping MsgSeqNum) published to the emulator in rounds, each round with one
 * number skipped on channel 310 and one message published a second time on another channel,
 * received by one long-lived process doing what a live session does per delivery: LiveSource
 * turns it into a record, the CaptureRecorder writes it (the ack waits for the write), and the
 * ReplayEngine sequences it (test/bench/pubsubReceiver.ts, mode `seqscope`). The emulator keeps
 * every message in its capped heap, so it is restarted (topic and subscription made again, the
 * numbering carried on) every SEQSCOPE_SOAK_LIVE_PER_EMULATOR messages, between rounds; the
 * receiving process and its engine live through the whole run. At the end every delivery must be
 * acked and in the recording, the engine's verdict must be the published stream's (gaps = the
 * skips, duplicates − redeliveries = the second publishes), and `seqscope replay` of the
 * recording must give the same verdict.
 *
 * Memory is "flat" when, from the first checkpoint after warm-up (the engine's per-key history of
 * 65 536 message ids filled, and at least 10 % of the run) to the last, the live heap (after a
 * full GC) grows by less than FLAT_SHARE and RSS by less than FLAT_SHARE.
 *
 * Prints a Markdown report on stdout (progress on stderr) and writes .bench/soak.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamOptions } from '../../scripts/lib/captureGenerator';
import { connect, PubsubConnection } from '../../src/pubsub/connection';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { BENCH_DIR, bundleForNode, captureOptions, checkSummary, ensureCapture, ROOT } from './cliBench';
import { machineInfo } from './machine';
import { CHANNELS, cmePublisher, newCmeStream, publishInRounds, ReceiverProcess, StreamFault } from './pubsubBench';
import type { ReceiverResult } from './pubsubReceiver';
import { count, mib, seconds, table } from './report';

const FLAT_SHARE = 0.1;
/** The engine remembers this many messageIds per key (Sequencer DEFAULT_HISTORY): memory grows until they are in. */
const ID_HISTORY = 65_536;
const CHECKPOINTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const PROJECT = 'seqscope-soak';

function positiveEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, not "${text}"`);
  return n;
}

function progress(text: string): void {
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

const load = () => Math.round(loadavg()[0] * 100) / 100;

interface Checkpoint {
  /** Messages handled (live) or read (replay, from the bytes read: ± one second's worth). */
  messages: number;
  elapsedMs: number;
  rss: number;
  /** Heap used after a forced full GC: what the process holds. */
  liveHeap: number;
  load: number;
}

interface Flatness {
  from: number;
  heapGrowth: number;
  rssGrowth: number;
  flat: boolean;
}

function flatness(points: readonly Checkpoint[], warmUp: number): Flatness {
  const after = points.filter((p) => p.messages >= warmUp);
  if (after.length < 2) return { from: NaN, heapGrowth: NaN, rssGrowth: NaN, flat: false };
  const [a, b] = [after[0], after[after.length - 1]];
  const heapGrowth = b.liveHeap / a.liveHeap - 1;
  const rssGrowth = b.rss / a.rss - 1;
  return { from: a.messages, heapGrowth, rssGrowth, flat: heapGrowth < FLAT_SHARE && rssGrowth < FLAT_SHARE };
}

// ---------------------------------------------------------------------------------------------
// (a) replay

/** A CME-style capture of about `numbers` messages; its losses lie in each channel's first 65 536 numbers, where a raw number names one position. */
function soakCaptureOptions(numbers: number): StreamOptions {
  const base = captureOptions(numbers);
  const start = (k: number) => (k * 6007 + 1) % 65536;
  const first = Math.min(base.messagesPerKey, 65_536);
  const loss = (k: number, at: number, n: number) => {
    const offset = Math.floor(first * at);
    return { key: String(310 + k), from: (start(k) + offset) % 65536, to: (start(k) + offset + n - 1) % 65536 };
  };
  return { ...base, seed: 29, losses: [loss(0, 0.15, 3), loss(3, 0.3, 1), loss(6, 0.45, 10), loss(9, 0.6, 2)] };
}

/** The --require hook: samples the CLI process (its main thread) once a second into SEQSCOPE_SOAK_PROBE. */
function probeHook(): string {
  const path = join(BENCH_DIR, 'soak-probe.cjs');
  writeFileSync(
    path,
    `const { isMainThread } = require('node:worker_threads');
const fs = require('node:fs');
if (isMainThread && process.env.SEQSCOPE_SOAK_PROBE) {
  const fd = fs.openSync(process.env.SEQSCOPE_SOAK_PROBE, 'w');
  const t0 = Date.now();
  const rchar = () => { try { return Number(/rchar: (\\d+)/.exec(fs.readFileSync('/proc/self/io', 'latin1'))[1]); } catch { return -1; } };
  // The peak RSS so far (VmHWM, kB): a peak between two samples shows when it happened.
  const hwm = () => { try { return Number(/VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'latin1'))[1]) * 1024; } catch { return -1; } };
  const sample = () => {
    const rss = process.memoryUsage.rss();
    const heapUsed = process.memoryUsage().heapUsed;
    global.gc();
    const live = process.memoryUsage().heapUsed;
    const c = process.cpuUsage();
    fs.writeSync(fd, JSON.stringify({ ms: Date.now() - t0, rchar: rchar(), rss, hwm: hwm(), heapUsed, live, cpuMs: (c.user + c.system) / 1000, load: require('node:os').loadavg()[0] }) + '\\n');
  };
  setInterval(sample, 1000).unref();
  process.on('exit', () => {
    sample();
    const u = process.resourceUsage();
    fs.writeSync(fd, JSON.stringify({ end: true, maxRss: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }) + '\\n');
  });
}
`,
  );
  return path;
}

interface ProbeSample {
  ms: number;
  rchar: number;
  rss: number;
  /** Peak RSS so far. */
  hwm: number;
  heapUsed: number;
  live: number;
  cpuMs: number;
  load: number;
}

export interface ReplaySoakResult {
  messages: number;
  bytes: number;
  generateMs: number;
  wallMs: number;
  cpuMs: number;
  maxRss: number;
  /** When the peak RSS was first reached: ms and messages read then (NaN: after the last sample). */
  peakAt: { ms: number; messages: number };
  /** The largest RSS of the samples (once a second). */
  maxSampledRss: number;
  maxHeapUsed: number;
  checkpoints: Checkpoint[];
  flat: Flatness;
  loadBefore: number;
  loadAfter: number;
  problems: string[];
}

async function soakReplay(): Promise<ReplaySoakResult> {
  const numbers = positiveEnv('SEQSCOPE_SOAK_MESSAGES', 10_000_000);
  mkdirSync(BENCH_DIR, { recursive: true });
  progress(`replay: generating (or reusing) a capture of about ${count(numbers)} messages in ${BENCH_DIR}`);
  const g0 = Date.now();
  const capture = ensureCapture(`soak-${numbers}`, soakCaptureOptions(numbers));
  const generateMs = Date.now() - g0;
  progress(`replay: ${count(capture.lines)} lines, ${mib(capture.bytes)}${capture.generated ? ` written in ${seconds(generateMs)}` : ' (reused)'}; replaying`);
  const probe = join(BENCH_DIR, 'soak-probe.jsonl');
  const cli = join(ROOT, 'dist', 'cli.js');
  const loadBefore = load();
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--require', probeHook(), cli, 'replay', capture.path, '--preset', 'cme', '--seq-bits', '16', '--json', '--no-progress'],
    {
      cwd: ROOT,
      env: { ...process.env, SEQSCOPE_SOAK_PROBE: probe },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const ticker = setInterval(() => progress(`replay: ${seconds(Date.now() - t0)} (load ${load()})`), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(ticker);
  const wallMs = Date.now() - t0;
  const problems: string[] = [];
  if (code !== 0) problems.push(`seqscope replay exited ${code}: ${stderr.trim()}`);
  const rows = readFileSync(probe, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ProbeSample & { end?: boolean; maxRss?: number });
  const end = rows.find((r) => r.end);
  const samples = rows.filter((r) => !r.end);
  const finalRead = samples[samples.length - 1]?.rchar ?? 0;
  // Bytes read (all threads) over all bytes read: the share of the capture read by then.
  const checkpoints: Checkpoint[] = [];
  for (const f of CHECKPOINTS) {
    const s = samples.find((x) => x.rchar / finalRead >= f);
    if (s)
      checkpoints.push({
        messages: Math.round((s.rchar / finalRead) * capture.lines),
        elapsedMs: s.ms,
        rss: s.rss,
        liveHeap: s.live,
        load: Math.round(s.load * 100) / 100,
      });
  }
  if (code === 0) problems.push(...checkSummary(stdout, capture.truth));
  if (finalRead < capture.bytes) problems.push(`read ${finalRead} bytes of a ${capture.bytes}-byte capture`);
  const peak = Math.max(...samples.map((s) => s.hwm));
  const peakAt = samples.find((s) => s.hwm === peak);
  const warmUp = Math.max(10 * ID_HISTORY, 0.1 * capture.lines);
  const flat = flatness(checkpoints, warmUp);
  if (!flat.flat) problems.push(`memory not flat after warm-up: live heap ${pct(flat.heapGrowth)}, RSS ${pct(flat.rssGrowth)}`);
  return {
    messages: capture.lines,
    bytes: capture.bytes,
    generateMs: capture.generated ? generateMs : NaN,
    wallMs,
    cpuMs: end?.cpuMs ?? NaN,
    maxRss: end?.maxRss ?? NaN,
    peakAt: peakAt ? { ms: peakAt.ms, messages: Math.round((peakAt.rchar / finalRead) * capture.lines) } : { ms: NaN, messages: NaN },
    maxSampledRss: Math.max(...samples.map((s) => s.rss)),
    maxHeapUsed: Math.max(...samples.map((s) => s.heapUsed)),
    checkpoints,
    flat,
    loadBefore,
    loadAfter: load(),
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// (b) live

export interface LiveSoakResult {
  published: number;
  rounds: number;
  restarts: number;
  skips: number;
  republished: number;
  publishMs: number;
  elapsedMs: number;
  receiver: Omit<ReceiverResult, 'samples'>;
  checkpoints: Checkpoint[];
  flat: Flatness;
  replayed?: Record<string, number>;
  loadBefore: number;
  loadAfter: number;
  problems: string[];
}

/**
 * The two faults a sequencer must report, in each round of the live soak: a third of the way in,
 * channel 310 skips one number (a gap of 1: the first time its turn comes in the four messages
 * from there); two thirds of the way in, the message just sent on the channel before the current
 * one is published again in that message's place (a second publish: same number, new messageId).
 */
const soakFaults: StreamFault = (i, total, st, send) => {
  const third = Math.ceil(total / 3);
  if (st.k === 0 && i >= third && i < third + CHANNELS.length) st.seq[0] = (st.seq[0] + 1) % 65_536;
  if (i !== Math.floor((2 * total) / 3)) return false;
  const k = (st.k + CHANNELS.length - 1) % CHANNELS.length;
  send(k, (st.seq[k] + 65_535) % 65_536);
  return true;
};

async function soakLive(): Promise<LiveSoakResult | { skipped: string }> {
  const found = findEmulator();
  if ('missing' in found) {
    announceMissing(found.missing, 'live soak');
    return { skipped: found.missing };
  }
  const n = positiveEnv('SEQSCOPE_SOAK_LIVE_MESSAGES', 1_000_000);
  const roundSize = positiveEnv('SEQSCOPE_SOAK_LIVE_ROUND', 100_000);
  const perEmulator = positiveEnv('SEQSCOPE_SOAK_LIVE_PER_EMULATOR', 300_000);
  const started = Date.now();
  const loadBefore = load();
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-soak-live-'));
  const out = join(dir, 'live.jsonl');
  progress(`live: starting the emulator (${found.launcher})`);
  const emu = await PubsubEmulator.start(found.launcher);
  let conn: PubsubConnection | undefined;
  const stream = newCmeStream();
  const prepare = async () => {
    await conn?.close();
    conn = await connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
    const [topic] = await conn.client.createTopic('soak-cme');
    // A generous ack deadline: a receiver starved for a few seconds on a shared machine would
    // otherwise see redeliveries (which are still told apart, but not what is measured here).
    await topic.createSubscription('soak-live', { enableMessageOrdering: true, ackDeadlineSeconds: 60 });
    return cmePublisher(conn, 'soak-cme', stream, soakFaults);
  };
  let receiver: ReceiverProcess | undefined;
  try {
    const publish = await prepare();
    const rc = new ReceiverProcess(
      bundleForNode('pubsubReceiver'),
      { mode: 'seqscope', emulatorHost: emu.host, projectId: PROJECT, subscription: 'soak-live', expected: n, out, checkpoints: CHECKPOINTS },
      (t) => progress(`live: ${t.replace(/^pubsub: /, '')}`),
    );
    receiver = rc;
    const { publishMs, restarts, rounds } = await publishInRounds(
      {
        emu,
        prepare,
        n,
        round: roundSize,
        perEmulator,
        restarting: (since) => progress(`live: restarting the emulator after ${count(since)} messages (it keeps them all in its capped heap)`),
      },
      publish,
      async (done, r, last, roundMs) => {
        progress(`live: round ${r + 1}: published ${count(done)} in ${seconds(roundMs)}; receiving (load ${load()})`);
        await rc.drain(done, last ? 5000 : 0);
      },
    );
    const result = await receiver.finish();
    const problems: string[] = [];
    const expect = (what: string, got: number | undefined, want: number) => {
      if (got !== want) problems.push(`${what} ${got} ≠ ${want}`);
    };
    // Every delivery (a redelivery included) acked and in the recording.
    expect('acked', result.acked, result.received);
    expect('recorded lines', result.recordedLines, result.received);
    const s = result.summary;
    const verdict = (x: NonNullable<ReceiverResult['summary']>) => ({
      delivered: x.delivered,
      'duplicates − redeliveries': x.duplicates - x.redeliveries,
      gaps: x.gaps,
      lost: x.lost,
      late: x.late,
      invalid: x.invalid,
      keys: x.keys,
    });
    const want = { delivered: n - rounds, 'duplicates − redeliveries': rounds, gaps: rounds, lost: rounds, late: 0, invalid: 0, keys: CHANNELS.length };
    if (!s) problems.push('no engine summary');
    else for (const [k, v] of Object.entries(verdict(s))) expect(`live ${k}`, v, want[k as keyof typeof want]);
    progress('live: replaying the recording with the CLI');
    const replay = await runCli(['replay', out, '--preset', 'cme', '--seq-bits', '16', '--json', '--no-progress']);
    let replayed: Record<string, number> | undefined;
    if (replay.code !== 0) problems.push(`seqscope replay of the recording exited ${replay.code}: ${replay.stderr.trim()}`);
    else {
      replayed = JSON.parse(replay.stdout) as Record<string, number>;
      for (const k of ['received', 'delivered', 'duplicates', 'redeliveries', 'gaps', 'lost', 'late', 'invalid', 'keys'] as const) {
        if (s && replayed[k] !== s[k]) problems.push(`replay of the recording: ${k} ${replayed[k]} ≠ the live session's ${s[k]}`);
      }
    }
    const checkpoints: Checkpoint[] = result.checkpoints.map((c) => {
      const near = result.samples.find((x) => x.received >= c.received);
      return { messages: c.received, elapsedMs: near?.ms ?? NaN, rss: c.rss, liveHeap: c.heapAfterGc, load: NaN };
    });
    const flat = flatness(checkpoints, Math.max(CHANNELS.length * ID_HISTORY, 0.1 * n));
    if (!flat.flat) problems.push(`memory not flat after warm-up: live heap ${pct(flat.heapGrowth)}, RSS ${pct(flat.rssGrowth)}`);
    const { samples: _samples, ...receiverResult } = result;
    return {
      published: n,
      rounds,
      restarts,
      skips: rounds,
      republished: rounds,
      publishMs,
      elapsedMs: Date.now() - started,
      receiver: receiverResult,
      checkpoints,
      flat,
      replayed,
      loadBefore,
      loadAfter: load(),
      problems,
    };
  } finally {
    receiver?.kill();
    await conn?.close().catch(() => undefined);
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// ---------------------------------------------------------------------------------------------
// report

function pct(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
}

function checkpointTable(points: readonly Checkpoint[], withLoad: boolean): string {
  return table(
    ['messages', 'elapsed', 'RSS', 'heap after full GC', ...(withLoad ? ['load (1 min)'] : [])],
    points.map((p) => [count(p.messages), seconds(p.elapsedMs), mib(p.rss), mib(p.liveHeap), ...(withLoad ? [String(p.load)] : [])]),
  );
}

function replayReport(r: ReplaySoakResult): string[] {
  return [
    `## Replay soak: ${count(r.messages)} messages`,
    '',
    `\`seqscope replay --preset cme --seq-bits 16 --json\` of a generated ${mib(r.bytes)} capture (10 channels, 16-bit numbers wrapping, 5 % reordered, 0.5 % redelivered, 0.5 % republished, 4 losses): ${seconds(r.wallMs)} wall, ${seconds(r.cpuMs)} CPU (all threads), peak RSS ${mib(r.maxRss)} (reached at ${seconds(r.peakAt.ms)}, ≈ ${count(r.peakAt.messages)} messages read; the largest of the samples once a second ${mib(r.maxSampledRss)}), largest heap sampled (before GC) ${mib(r.maxHeapUsed)}; load average ${r.loadBefore} before, ${r.loadAfter} after. Checkpoints from the bytes read (± one second of reading):`,
    '',
    checkpointTable(r.checkpoints, true),
    '',
    `From ${count(r.flat.from)} messages to the end: live heap ${pct(r.flat.heapGrowth)}, RSS ${pct(r.flat.rssGrowth)} (${r.flat.flat ? 'flat' : 'NOT flat'}). Summary ${r.problems.length ? `problems: ${r.problems.join('; ')}` : 'equal to what the generator injected'}.`,
    '',
  ];
}

function liveReport(r: LiveSoakResult | { skipped: string }): string[] {
  if ('skipped' in r) return ['## Live soak', '', `SKIPPED: ${r.skipped}`, ''];
  const s = r.receiver.summary;
  return [
    `## Live soak: ${count(r.published)} messages through the emulator`,
    '',
    `${count(r.published)} messages on ${CHANNELS.length} ordering keys in ${r.rounds} rounds (${r.skips} numbers skipped, ${r.republished} second publishes; the emulator restarted ${r.restarts}×), one receiving process (LiveSource → CaptureRecorder → ReplayEngine) for the whole run: ${seconds(r.elapsedMs)} in all (publishing ${seconds(r.publishMs)}, receiving ${seconds(r.receiver.wallMs)} at ${Math.round(r.receiver.received / (r.receiver.wallMs / 1000))}/s, ${seconds(r.receiver.cpuMs)} CPU), peak RSS ${mib(r.receiver.maxRss)}; load average ${r.loadBefore} before, ${r.loadAfter} after.`,
    '',
    checkpointTable(r.checkpoints, false),
    '',
    `Received ${count(r.receiver.received)}, acked ${count(r.receiver.acked)}, recorded ${count(r.receiver.recordedLines ?? NaN)} lines. Verdict: ${s ? `${count(s.delivered)} delivered, ${s.gaps} gaps (${s.lost} lost), ${s.duplicates} duplicates (${s.redeliveries} redeliveries), ${s.late} late, ${s.invalid} invalid, ${s.keys} keys` : 'none'}; \`seqscope replay\` of the recording: ${r.replayed ? 'the same' : 'not run'}.`,
    `From ${count(r.flat.from)} messages to the end: live heap ${pct(r.flat.heapGrowth)}, RSS ${pct(r.flat.rssGrowth)} (${r.flat.flat ? 'flat' : 'NOT flat'}).${r.problems.length ? ` Problems: ${r.problems.join('; ')}` : ''}`,
    '',
  ];
}

async function main(): Promise<void> {
  const parts = process.argv.slice(2);
  const bad = parts.filter((p) => p !== 'replay' && p !== 'live');
  if (bad.length) throw new Error(`unknown soak part ${bad.join(', ')}: expected replay, live or nothing (both)`);
  const want = (p: string) => parts.length === 0 || parts.includes(p);
  const m = machineInfo();
  const lines = [
    `# Soak (${new Date().toISOString()})`,
    '',
    `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}, load average ${m.loadAverage} at the start.`,
    '',
  ];
  const results: { replay?: ReplaySoakResult; live?: LiveSoakResult | { skipped: string } } = {};
  let failed = false;
  if (want('replay')) {
    results.replay = await soakReplay();
    lines.push(...replayReport(results.replay));
    failed ||= results.replay.problems.length > 0;
    // On stderr at once: the live part takes a while longer.
    process.stderr.write(`${replayReport(results.replay).join('\n')}\n`);
  }
  if (want('live')) {
    results.live = await soakLive();
    lines.push(...liveReport(results.live));
    failed ||= !('skipped' in results.live) && results.live.problems.length > 0;
  }
  writeFileSync(join(BENCH_DIR, `soak${parts.length ? `-${parts.join('-')}` : ''}.json`), JSON.stringify({ machine: m, ...results }, null, 2));
  process.stdout.write(`\n${lines.join('\n')}\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(2);
});
