/**
 * The Pub/Sub live benchmark: at the emulator's full delivery rate, SeqScope's CPU per message
 * over a bare @google-cloud/pubsub subscriber receiving the same stream in the same run (target
 * ≤ 1.10×), with no message dropped and memory flat over the run.
 *
 * Design, and why:
 * - One topic, two ordered subscriptions (more with probes) created before anything is
 *   published, so all hold the very same messages (same ids, attributes, payloads, order per key).
 * - Rounds: a round of messages is published (not timed) while no one receives, then the
 *   receivers drain their subscription one after the other, each round starting with the next
 *   receiver (bare first in even rounds, SeqScope first in odd ones, when there are no probes), so
 *   none always meets a fresher emulator. Draining a backlog is what "full delivery rate" means
 *   here: each receiver gets messages as fast as the emulator hands them out, and competes
 *   neither with the publisher nor with the other receivers for the two cores (receiving both at once would halve each one's rate and let one receiver's
 *   stalls shape the other's batches). Rounds rather than one backlog of everything: with its
 *   heap capped at 512 MiB the emulator ran out of memory holding ~450 k messages for two
 *   subscriptions. It also keeps acked messages: it ran out of memory again after ~400 k
 *   messages drained in rounds, so it is restarted (topic and subscriptions made again, the
 *   stream's numbering carried on) every PER_EMULATOR messages, between rounds.
 * - Each receiver is one node process for the whole run (test/bench/pubsubReceiver.ts, bundled
 *   like the shipped code), so process.cpuUsage() there counts exactly that receiver — its gRPC
 *   stream, acks, GC threads — and not the publisher's garbage or the other receiver's heap, and
 *   its memory over all rounds is what a long session holds. The parent only waits while a
 *   receiver drains. A round's window runs from its first delivery to its last message handled;
 *   opening and closing the stream between rounds is outside it.
 * - CPU is judged rather than wall time: the emulator sets the pace, and on a shared machine CPU
 *   time does not count waiting for a core.
 * - The bare subscriber is what a user would otherwise run: the library's high-level
 *   `Subscription` with LiveSource's flow control. SeqScope receives through its own stream on
 *   the library's generated client (src/pubsub/pullStream.ts says why); the `stream` probe is that
 *   stream with nothing on top, so SeqScope's own work per message is seqscope − stream.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, PubsubConnection } from '../../src/pubsub/connection';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { bundleForNode } from './cliBench';
import type { ReceiverArgs, ReceiverCommand, ReceiverMode, ReceiverReply, ReceiverResult } from './pubsubReceiver';
import { checked, count, mib, rate, ratio, seconds, table, verdict } from './report';

export const PUBSUB_TARGET = 1.1;
const PROJECT = 'seqscope-bench';
/** CME-style channels, each its own ordering key and MsgSeqNum run. */
export const CHANNELS = ['310', '311', '312', '313'];
/** The engine keeps the last 65 536 messageIds per key (Sequencer DEFAULT_HISTORY). */
const ID_HISTORY = 65_536;
/** Bytes of opaque payload per message (an MDP3 incremental refresh is about this size). */
const PAYLOAD_BYTES = 64;
/** Memory is "flat" when, over the second half of the run, it grows by less than this share. */
const FLAT_SHARE = 0.1;
/**
 * Messages per round: what the emulator holds at most (twice: one copy per subscription).
 * SEQSCOPE_BENCH_PUBSUB_ROUND overrides it (an emulator with a larger heap takes more).
 */
const ROUND = positiveEnv('SEQSCOPE_BENCH_PUBSUB_ROUND', Math.floor(200_000 / subscriptionCount()));
/**
 * Messages one emulator (512 MiB heap) takes before it is restarted: see the design notes.
 * SEQSCOPE_BENCH_PUBSUB_PER_EMULATOR overrides it.
 */
const PER_EMULATOR = positiveEnv('SEQSCOPE_BENCH_PUBSUB_PER_EMULATOR', Math.floor(600_000 / subscriptionCount()));

/**
 * SEQSCOPE_BENCH_PUBSUB_PROBES=stream,record,engine,bare,seqscope: more receivers in the same
 * run, each on its own subscription of the same topic, to split SeqScope's cost into its parts
 * (see ReceiverMode) and to see the spread between two receivers of the same kind. Reported in a
 * table of their own; the target is judged on the first bare and seqscope receivers only.
 */
function probeModes(): ReceiverMode[] {
  // Local: the round size (a module constant above) already needs it.
  const PROBE_MODES: readonly ReceiverMode[] = ['bare', 'seqscope', 'stream', 'record', 'engine', 'idletimer'];
  const text = process.env.SEQSCOPE_BENCH_PUBSUB_PROBES ?? '';
  const modes = text
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  for (const m of modes)
    if (!PROBE_MODES.includes(m as ReceiverMode)) throw new Error(`SEQSCOPE_BENCH_PUBSUB_PROBES: unknown receiver "${m}" (one of ${PROBE_MODES.join(', ')})`);
  return modes as ReceiverMode[];
}

/** Subscriptions the emulator holds each message for: bare, seqscope and the probes. */
function subscriptionCount(): number {
  return 2 + probeModes().length;
}

export interface PubsubBenchResult {
  messages: number;
  channels: number;
  publishMs: number;
  bare: ReceiverResult;
  seqscope: ReceiverResult;
  bareUsPerMsg: number;
  seqscopeUsPerMsg: number;
  ratio: number;
  met: boolean;
  /** RSS growth over the second half of the run, projected to 1 M messages (bytes). */
  rssSlopePerMillion: number;
  rounds: number;
  /** Emulator restarts between rounds. */
  restarts: number;
  /** The probe receivers (SEQSCOPE_BENCH_PUBSUB_PROBES), in the order named. */
  probes: ReceiverResult[];
  memory: { judged: boolean; flat: boolean; why: string };
  problems: string[];
  /** Wall time of the whole section: emulator start, publishing, both receivers. */
  elapsedMs: number;
}

export type PubsubBenchOutcome = { skipped: string } | PubsubBenchResult;

/** Message count: SEQSCOPE_BENCH_PUBSUB_N, else 1 000 000 (what the memory claim is about). */
export function pubsubMessages(): number {
  return positiveEnv('SEQSCOPE_BENCH_PUBSUB_N', 1_000_000);
}

function positiveEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, not "${text}"`);
  return n;
}

export async function benchPubsub(progress: (text: string) => void): Promise<PubsubBenchOutcome> {
  const found = findEmulator();
  if ('missing' in found) {
    announceMissing(found.missing, 'Pub/Sub live benchmark');
    return { skipped: found.missing };
  }
  const started = Date.now();
  const n = pubsubMessages();
  const receiver = bundleForNode('pubsubReceiver');
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-bench-pubsub-'));
  progress(`pubsub: starting the emulator (${found.launcher})`);
  const emu = await PubsubEmulator.start(found.launcher);
  let conn: PubsubConnection | undefined;
  const receivers: ReceiverProcess[] = [];
  const stream = newCmeStream();
  const probes = probeModes();
  const subscriptionIds = ['bench-bare', 'bench-seqscope', ...probes.map((m, i) => `bench-probe${i}-${m}`)];
  /** A fresh emulator's topic and subscriptions, and a publisher that carries the stream on. */
  const prepare = async (): Promise<(count: number) => Promise<void>> => {
    await conn?.close();
    conn = await connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
    const [topic] = await conn.client.createTopic('bench-cme');
    // A generous ack deadline: on a shared machine a receiver may be starved for a few seconds,
    // and a redelivery it caused would make the two runs receive different streams.
    for (const id of subscriptionIds) await topic.createSubscription(id, { enableMessageOrdering: true, ackDeadlineSeconds: 60 });
    return cmePublisher(conn, 'bench-cme', stream);
  };
  try {
    const publish = await prepare();
    const modes: ReceiverMode[] = ['bare', 'seqscope', ...probes];
    for (let i = 0; i < modes.length; i++) {
      const args: ReceiverArgs = {
        mode: modes[i],
        emulatorHost: emu.host,
        projectId: PROJECT,
        subscription: subscriptionIds[i],
        expected: n,
        out: join(dir, `${subscriptionIds[i]}.jsonl`),
      };
      receivers.push(new ReceiverProcess(receiver, args, progress));
    }
    const { publishMs, restarts, rounds } = await publishInRounds(
      {
        emu,
        prepare,
        n,
        round: ROUND,
        perEmulator: PER_EMULATOR,
        restarting: (since) => progress(`pubsub: restarting the emulator after ${count(since)} messages (it keeps them all in its capped heap)`),
      },
      publish,
      async (done, r, last) => {
        progress(`pubsub: round ${r + 1}: published ${count(done)}; draining`);
        // Each round starts with the next receiver, so that none always meets a fresher emulator.
        for (let i = 0; i < receivers.length; i++) await receivers[(i + r) % receivers.length].drain(done, last ? 2000 : 0);
      },
    );
    const results: ReceiverResult[] = [];
    for (const rc of receivers) results.push(await rc.finish());
    const [b, s, ...p] = results;
    return { ...evaluate(n, publishMs, b, s), probes: p, rounds, restarts, elapsedMs: Date.now() - started };
  } finally {
    // A profiled receiver writes its profile as it exits: give it the time to.
    if (process.env.SEQSCOPE_BENCH_PUBSUB_CPU_PROF) await new Promise((r) => setTimeout(r, 5000));
    for (const rc of receivers) rc.kill();
    await conn?.close().catch(() => undefined);
    await emu.stop();
    // The recording is ~350 bytes a message: do not leave hundreds of MiB in /tmp.
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Rounds {
  readonly emu: PubsubEmulator;
  /** A fresh emulator's topic and subscriptions, and a publisher that carries the stream on. */
  readonly prepare: () => Promise<(count: number) => Promise<void>>;
  /** Messages in all. */
  readonly n: number;
  /** Messages a round. */
  readonly round: number;
  /** Messages an emulator takes before it is restarted (between rounds). */
  readonly perEmulator: number;
  /** Said before a restart, with the messages published since the last. */
  readonly restarting: (since: number) => void;
}

/**
 * Publishes `n` messages in rounds with `publish` (from `prepare`, called by the caller before its
 * receivers subscribe), restarting the emulator (it keeps every message in its capped heap) and
 * preparing it again every `perEmulator` messages; after each round, `received(done, round,
 * last, roundMs)` waits for the receivers.
 */
export async function publishInRounds(
  o: Rounds,
  first: (count: number) => Promise<void>,
  received: (done: number, round: number, last: boolean, roundMs: number) => Promise<void>,
): Promise<{ publishMs: number; restarts: number; rounds: number }> {
  let publish = first;
  let publishMs = 0;
  let restarts = 0;
  const rounds = Math.ceil(o.n / o.round);
  for (let r = 0, done = 0, sinceStart = 0; r < rounds; r++) {
    const size = Math.min(o.round, o.n - done);
    if (sinceStart + size > o.perEmulator) {
      o.restarting(sinceStart);
      await o.emu.restart();
      publish = await o.prepare();
      restarts++;
      sinceStart = 0;
    }
    sinceStart += size;
    const t0 = Date.now();
    await publish(size);
    const roundMs = Date.now() - t0;
    publishMs += roundMs;
    done += size;
    await received(done, r, r === rounds - 1, roundMs);
  }
  return { publishMs, restarts, rounds };
}

/**
 * Returns publish(count): the next `count` messages, round-robin over the channels, CME-style:
 * ordering key and Channel = the channel, MsgSeqNum its own 16-bit wrapping counter,
 * SendingTime the publish time in ms. Large batches and many requests in flight: publishing is
 * not what is measured.
 */
export interface CmeStream {
  /** Next MsgSeqNum per channel. */
  seq: number[];
  /** Next channel (round-robin). */
  k: number;
}

export function newCmeStream(): CmeStream {
  return { seq: CHANNELS.map((_, k) => (1 + k * 20_011) % 65_536), k: 0 }; // different starting points, each wraps
}

/**
 * A fault put into the stream: asked before each of a round's `total` messages (`i` the message's
 * place in the round), it may change the stream's state (e.g. skip a number) and may send a
 * message of its own in that message's place through `send` (then it answers true).
 */
export type StreamFault = (i: number, total: number, st: CmeStream, send: (k: number, seq: number) => void) => boolean;

/** Publishes the next `count` messages of the stream, round-robin over the channels, each with its fault if any. */
export function cmePublisher(conn: PubsubConnection, topicId: string, st: CmeStream, fault?: StreamFault): (count: number) => Promise<void> {
  const topic = conn.client.topic(topicId, { messageOrdering: true, batching: { maxMessages: 1000, maxMilliseconds: 20 } });
  const payload = Buffer.alloc(PAYLOAD_BYTES, 0x5a);
  return async (total: number) => {
    let pending: Promise<string>[] = [];
    const send = (k: number, seq: number) => {
      const channel = CHANNELS[k];
      pending.push(
        topic.publishMessage({
          data: payload,
          orderingKey: channel,
          attributes: { Channel: channel, MsgSeqNum: String(seq), SendingTime: String(Date.now()) },
        }),
      );
    };
    for (let i = 0; i < total; i++) {
      if (!fault?.(i, total, st, send)) {
        send(st.k, st.seq[st.k]);
        st.seq[st.k] = (st.seq[st.k] + 1) % 65_536;
        st.k = (st.k + 1) % CHANNELS.length;
      }
      // Bounded in flight, so the publisher's memory does not grow with the round.
      if (pending.length === 20_000) {
        await Promise.all(pending);
        pending = [];
      }
    }
    await Promise.all(pending);
    await topic.flush();
  };
}

/** A receiver process, driven over IPC (see pubsubReceiver.ts). */
export class ReceiverProcess {
  private readonly child: ChildProcess;
  private stderr = '';
  private waiting: { resolve: (r: ReceiverReply) => void; reject: (e: Error) => void } | undefined;
  private exited: string | undefined;
  private lastProgressAt = 0;
  private lastProgress = 0;

  constructor(
    script: string,
    private readonly args: ReceiverArgs,
    private readonly progress: (text: string) => void,
  ) {
    // SEQSCOPE_BENCH_PUBSUB_CPU_PROF=<dir>: a V8 CPU profile of each receiver, to see where the
    // difference goes (a profiled run's figures are not representative).
    const profDir = process.env.SEQSCOPE_BENCH_PUBSUB_CPU_PROF;
    const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${args.subscription}.cpuprofile`] : [];
    // SEQSCOPE_BENCH_PUBSUB_TRACE_GC=<dir>: V8's --trace-gc of each receiver, in <dir>/<subscription>.log
    // (why each collection ran).
    const gcDir = process.env.SEQSCOPE_BENCH_PUBSUB_TRACE_GC;
    const stdout = gcDir ? openSync(join(gcDir, `${args.subscription}.log`), 'w') : 'ignore';
    // SEQSCOPE_BENCH_PUBSUB_NODE_FLAGS: more node/V8 flags, the same for every receiver.
    const flags = (process.env.SEQSCOPE_BENCH_PUBSUB_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    this.child = spawn(process.execPath, [...flags, ...prof, ...(gcDir ? ['--trace-gc'] : []), '--expose-gc', script, JSON.stringify(args)], {
      stdio: ['ignore', stdout, 'pipe', 'ipc'],
    });
    if (typeof stdout === 'number') closeSync(stdout);
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.child.on('message', (m: ReceiverReply) => {
      if ('progress' in m) {
        // A round takes a while at a few thousand messages a second: say how far it is.
        if (Date.now() - this.lastProgressAt < 15_000 || m.progress === this.lastProgress) return;
        this.lastProgressAt = Date.now();
        this.lastProgress = m.progress;
        this.progress(`pubsub: ${this.args.mode} receiver: ${count(m.progress)} received`);
        return;
      }
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve(m);
    });
    this.child.once('exit', (code, signal) => {
      this.exited = `exited ${code ?? signal}`;
      this.waiting?.reject(new Error(`the ${this.args.mode} receiver ${this.exited}:\n${this.stderr}`));
    });
  }

  /** Handles messages until `upTo` in all are handled. */
  async drain(upTo: number, graceMs: number): Promise<void> {
    this.lastProgressAt = Date.now();
    // At least 300 msg/s (the slowest seen is over 1 k/s on a loaded machine).
    await this.ask({ drain: upTo, graceMs }, 120_000 + (ROUND / 300) * 1000);
  }

  async finish(): Promise<ReceiverResult> {
    const r = await this.ask({ finish: true }, 120_000);
    if (!('result' in r)) throw new Error(`the ${this.args.mode} receiver answered ${JSON.stringify(r)}`);
    return r.result;
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Sends a command; a stalled emulator must not hang the bench, hence the timeout. */
  private ask(cmd: ReceiverCommand, timeoutMs: number): Promise<ReceiverReply> {
    if (this.exited) return Promise.reject(new Error(`the ${this.args.mode} receiver ${this.exited}:\n${this.stderr}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the ${this.args.mode} receiver did not answer ${JSON.stringify(cmd)} within ${seconds(timeoutMs)}:\n${this.stderr}`)),
        timeoutMs,
      );
      this.waiting = {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      this.child.send(cmd);
    });
  }
}

function evaluate(
  n: number,
  publishMs: number,
  bare: ReceiverResult,
  seqscope: ReceiverResult,
): Omit<PubsubBenchResult, 'elapsedMs' | 'rounds' | 'restarts' | 'probes'> {
  const problems: string[] = [];
  const expect = (what: string, got: number | undefined, want: number) => {
    if (got !== want) problems.push(`${what} ${got} ≠ ${want}`);
  };
  expect('bare received', bare.received, n);
  expect('SeqScope received', seqscope.received, n);
  expect('SeqScope acked', seqscope.acked, n);
  expect('recorded lines', seqscope.recordedLines, n);
  const s = seqscope.summary;
  if (!s) problems.push('no engine summary');
  else {
    // Every message delivered once by the sequencer, none missing, none seen twice.
    expect('engine received', s.received, n);
    expect('engine delivered', s.delivered, n);
    expect('duplicates', s.duplicates, 0);
    expect('gaps', s.gaps, 0);
    expect('lost', s.lost, 0);
    expect('invalid', s.invalid, 0);
    expect('keys', s.keys, CHANNELS.length);
  }
  const bareUs = (bare.cpuMs * 1000) / n;
  const seqUs = (seqscope.cpuMs * 1000) / n;
  const slope = rssSlope(receivingSamples(seqscope).filter((x) => x.received >= n / 2));
  const memory = judgeMemory(n, seqscope, slope);
  return {
    messages: n,
    channels: CHANNELS.length,
    publishMs,
    bare,
    seqscope,
    bareUsPerMsg: bareUs,
    seqscopeUsPerMsg: seqUs,
    ratio: seqUs / bareUs,
    met: seqUs / bareUs <= PUBSUB_TARGET,
    rssSlopePerMillion: slope,
    memory,
    problems,
  };
}

/**
 * The memory samples taken while the receiver was receiving (its count moved since the sample
 * before). While the other receivers drain, or the emulator restarts, a receiver sits idle at
 * one count for minutes, its RSS shrinking as V8 and the OS take pages back; those samples say
 * nothing about growth per message, yet they pulled the fit down at that count.
 */
function receivingSamples(r: ReceiverResult): ReceiverResult['samples'] {
  return r.samples.filter((x, i, all) => i > 0 && x.received !== all[i - 1].received);
}

/** Least-squares RSS growth per message, × 1 M (bytes per million messages). */
function rssSlope(samples: ReceiverResult['samples']): number {
  if (samples.length < 3) return NaN;
  const mx = samples.reduce((a, x) => a + x.received, 0) / samples.length;
  const my = samples.reduce((a, x) => a + x.rss, 0) / samples.length;
  let num = 0;
  let den = 0;
  for (const x of samples) {
    num += (x.received - mx) * (x.rss - my);
    den += (x.received - mx) ** 2;
  }
  return (num / den) * 1e6;
}

/**
 * What SeqScope holds grows with keys, not messages: per key the last 65 536 messageIds, the
 * start window and whatever waits behind a gap. Once the histories are full (keys × 65 536
 * messages) nothing should grow any more, so the second half of the run is judged — and only
 * when the histories are full by then, else growth there is expected and says nothing.
 */
function judgeMemory(n: number, r: ReceiverResult, slopePerMillion: number): PubsubBenchResult['memory'] {
  const full = CHANNELS.length * ID_HISTORY;
  if (n / 2 < full)
    return { judged: false, flat: false, why: `not judged: the per-key id histories fill at ${count(full)} messages, more than half of ${count(n)}` };
  const at = (f: number) => r.checkpoints.find((c) => c.fraction === f);
  const half = at(0.5);
  const end = at(1);
  if (!half || !end) return { judged: false, flat: false, why: 'not judged: checkpoints missing' };
  const heapGrowth = end.heapAfterGc / half.heapAfterGc - 1;
  // The slope over the second half, over that half's messages, against RSS at its start.
  const rssGrowth = (slopePerMillion * (n / 2)) / 1e6 / half.rss;
  const flat = heapGrowth <= FLAT_SHARE && rssGrowth <= FLAT_SHARE;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return { judged: true, flat, why: `second half: heap after GC ${pct(heapGrowth)}, RSS trend ${pct(rssGrowth)} (flat: both ≤ ${pct(FLAT_SHARE)})` };
}

/** The report section (Markdown lines). */
export function pubsubReport(o: PubsubBenchOutcome, section: string): string[] {
  const title = `## ${section}. Pub/Sub live: SeqScope against a bare subscriber (emulator, same stream, same run)`;
  if ('skipped' in o) return [title, '', `**SKIPPED — NOT MEASURED:** ${o.skipped}`, ''];
  const r = o;
  const b = r.bare;
  const s = r.seqscope;
  const perMsg = (x: ReceiverResult) => `${((x.cpuMs * 1000) / r.messages).toFixed(1)} µs`;
  const split = (x: ReceiverResult) => `${seconds(x.userMs)} + ${seconds(x.systemMs)}`;
  const gcs = (x: ReceiverResult) => `${x.gc.scavenges} / ${x.gc.majors} (${seconds(x.gc.scavengeMs + x.gc.majorMs)})`;
  const row = (label: string, x: ReceiverResult) => [
    label,
    perMsg(x),
    split(x),
    gcs(x),
    (x.received / x.responses).toFixed(1),
    seconds(x.wallMs),
    `${rate((r.messages / x.wallMs) * 1000)} msg/s`,
    mib(x.maxRss),
    count(x.received),
  ];
  const lines = [title, ''];
  lines.push(
    `${count(r.messages)} messages on ${r.channels} ordering keys (CME-style: Channel, 16-bit wrapping MsgSeqNum, SendingTime; ${PAYLOAD_BYTES}-byte payload), to one topic with ${2 + r.probes.length} ordered subscriptions, in ${r.rounds} round${r.rounds === 1 ? '' : 's'} of up to ${count(ROUND)}${r.restarts ? ` (the emulator restarted ${r.restarts}× between rounds, every ${count(PER_EMULATOR)} messages: it keeps them all in its 512 MiB heap)` : ''}: publish the round (${seconds(r.publishMs)} in all, not measured), then each receiver — its own node process for the whole run — drains its subscription at the emulator's full rate, the others idle (each round starting with the next receiver). Both: 1000 messages in flight over five streams; the bare subscriber through the library's Subscription, SeqScope through its own StreamingPull streams on the library's generated client (PullStream)${r.probes.some((x) => x.mode === 'stream') ? ', the stream probe being one such stream alone' : ''}. CPU = user + system of the receiver process from each round's first delivery to its last message handled (SeqScope: written to the recording and acked), summed, the benchmark's own forced GCs excluded; wall and receive rate over the same windows. Section wall time ${seconds(r.elapsedMs)}.`,
    '',
  );
  lines.push(
    table(
      ['receiver', 'CPU / msg', 'CPU (user + sys)', 'GCs: scavenges / majors (pause)', 'msgs / response', 'wall', 'receive rate', 'peak RSS', 'received'],
      [row('bare `@google-cloud/pubsub` subscriber (ack + count)', b), row('SeqScope: LiveSource + CaptureRecorder + ReplayEngine (cme)', s)],
    ),
    '',
  );
  lines.push(
    table(
      ['measure', 'result', 'target', ''],
      [
        ['SeqScope CPU / bare CPU per message', ratio(r.ratio), `≤ ${ratio(PUBSUB_TARGET)}`, verdict(r.met)],
        [
          'messages dropped (received, recorded lines, sequencer delivered; no gaps, no duplicates)',
          r.problems.length ? checked(r.problems) : '0 ✓',
          '0',
          verdict(r.problems.length === 0),
        ],
        ['memory over the run', r.memory.why, 'flat', r.memory.judged ? verdict(r.memory.flat) : '—'],
      ],
    ),
    '',
  );
  if (r.probes.length) {
    lines.push(
      `Probes (SEQSCOPE_BENCH_PUBSUB_PROBES), same run, each on its own subscription; ratio against the bare subscriber above:`,
      '',
      table(
        ['probe', 'CPU / msg', 'CPU (user + sys)', 'ratio', 'GCs: scavenges / majors (pause)', 'msgs / response', 'receive rate', 'received'],
        r.probes.map((x) => [
          x.mode,
          perMsg(x),
          split(x),
          ratio((x.cpuMs * 1000) / r.messages / r.bareUsPerMsg),
          gcs(x),
          (x.received / x.responses).toFixed(1),
          `${rate((r.messages / x.wallMs) * 1000)} msg/s`,
          count(x.received),
        ]),
      ),
      '',
    );
  }
  const all = [b, s, ...r.probes];
  // Main thread first, then by creation order; threads that did nothing in any receiver left out.
  const order = (nm: string) => (nm.startsWith('main') ? 0 : Number(nm.slice(1).split(' ')[0]));
  const names = [...new Set(all.flatMap((x) => Object.keys(x.threads)))]
    .filter((nm) => all.some((x) => ((x.threads[nm] ?? 0) * 1000) / r.messages >= 0.05))
    .sort((p, q) => order(p) - order(q));
  if (names.length) {
    lines.push(
      "CPU per message by thread (Linux /proc, 10 ms ticks), inside the same windows (by Node's start-up order, #2–#5 are V8's platform workers: concurrent marking, parallel scavenging, background compiling):",
      '',
      table(
        ['thread', ...all.map((x, i) => (i === 0 ? 'bare' : i === 1 ? 'seqscope' : `probe ${x.mode}`))],
        names.map((nm) => [nm, ...all.map((x) => `${(((x.threads[nm] ?? 0) * 1000) / r.messages).toFixed(1)} µs`)]),
      ),
      '',
    );
  }
  const cp = (x: ReceiverResult) => x.checkpoints.map((c) => `${Math.round(c.fraction * 100)} %: ${mib(c.rss)} / ${mib(c.heapAfterGc)}`).join(', ');
  lines.push(
    `Memory at 10/25/50/75/100 % of the messages, RSS / heap after a forced GC — SeqScope: ${cp(s)}; bare: ${cp(b)}. SeqScope's RSS trend over the second half: ${mib(r.rssSlopePerMillion)} per million messages (least squares over the ${receivingSamples(s).filter((x) => x.received >= r.messages / 2).length} one-second samples taken while it received). Recording: ${count(s.recordedLines ?? 0)} lines, ${mib(s.recordedBytes ?? 0)}.`,
    '',
  );
  return lines;
}
