/**
 * One receiver of the Pub/Sub live benchmark, run as its own node process (bundled like
 * dist/cli.js) so that process.cpuUsage() counts that receiver and nothing else: not the
 * publisher, not the other receiver, not the parent's heap. Started by pubsubBench.ts as
 *
 *   node --expose-gc pubsubReceiver.js '<ReceiverArgs as JSON>'
 *
 * with an IPC channel: the parent sends `{ drain: upTo, graceMs }` once a round of messages is
 * published, the receiver opens its stream, handles messages until `upTo` in all are handled,
 * closes the stream and answers `{ drained }`; `{ finish: true }` gets the ReceiverResult.
 * The process — its heap, recorder and engine — lives for the whole run, so memory over all
 * rounds is what a long session holds.
 *
 * - `bare`: a plain @google-cloud/pubsub subscriber with LiveSource's stream settings that acks
 *   every message and counts it — the least any consumer of the stream must do.
 * - `seqscope`: what a live SeqScope session does per delivery — LiveSource turns it into a
 *   capture record, the CaptureRecorder writes its line (the ack waits for the write), and the
 *   record goes into a ReplayEngine with the cme preset.
 *
 * Both measure CPU (user + system, all threads) and wall time from a round's first delivery to
 * its last message fully handled, summed over the rounds, and sample memory once a second.
 */
import type { Message, Subscription } from '@google-cloud/pubsub';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { CaptureEntry, ReceivedMessage } from '../../src/core/capture/captureRecord';
import { ReplayEngine } from '../../src/core/replay/replayEngine';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { CaptureRecorder } from '../../src/pubsub/captureRecorder';
import { connect, loadPubsub } from '../../src/pubsub/connection';
import { LiveSource } from '../../src/pubsub/liveSource';
import { PullStream, subscriberCalls } from '../../src/pubsub/pullStream';
import { parseResourceName } from '../../src/pubsub/resourceNames';

/**
 * `bare` and `seqscope` are the benchmark's two sides. The others are probes, run only when
 * SEQSCOPE_BENCH_PUBSUB_PROBES names them, to split SeqScope's cost in the same run:
 * - `stream`: SeqScope's stream alone (PullStream on the generated client, as LiveSource drives
 *   it): acks each response at once, makes no record — the transport under SeqScope's own work;
 * - `record`: LiveSource + CaptureRecorder (ack after the write), no engine;
 * - `engine`: LiveSource without a recorder (ack at once) + ReplayEngine;
 * - `idletimer`: bare, plus a 50 ms interval timer that does nothing: what event-loop wakeups
 *   that are not the stream's cost. (Until this was fixed it ran a whole SeqScope receiver, and
 *   the earlier finding (docs/performance.md) that such a timer costs as much as SeqScope came from that.)
 */
export type ReceiverMode = 'bare' | 'seqscope' | 'stream' | 'record' | 'engine' | 'idletimer';

export interface ReceiverArgs {
  mode: ReceiverMode;
  emulatorHost: string;
  projectId: string;
  /** Subscription id in projectId. */
  subscription: string;
  /** Messages the whole run publishes (memory checkpoints are fractions of it). */
  expected: number;
  /** Recording path (seqscope and record). */
  out?: string;
  /** Fractions of `expected` at which memory is measured after a full GC (default CHECKPOINTS). */
  checkpoints?: number[];
}

/** Parent → receiver. */
export type ReceiverCommand = { drain: number; graceMs: number } | { finish: true };
/** Receiver → parent. */
export type ReceiverReply = { drained: number } | { result: ReceiverResult } | { progress: number };

export interface MemorySample {
  /** ms since the first delivery. */
  ms: number;
  received: number;
  rss: number;
  heapUsed: number;
}

/** heapUsed right after a forced full GC: what the process really holds at that point. */
export interface Checkpoint {
  fraction: number;
  received: number;
  rss: number;
  heapAfterGc: number;
}

export interface ReceiverResult {
  mode: ReceiverMode;
  expected: number;
  /** Deliveries seen, grace periods included (> expected means redeliveries). */
  received: number;
  acked: number;
  /** CPU (user + system) inside the rounds' windows, forced GCs excluded, ms. */
  cpuMs: number;
  userMs: number;
  systemMs: number;
  /** Wall time inside the rounds' windows, ms. */
  wallMs: number;
  /** Pull responses inside the windows, told apart by their receive time (see Meter.arrived). */
  responses: number;
  /** CPU inside the windows by thread name (Linux /proc; clock ticks turned to ms), else empty. */
  threads: Record<string, number>;
  /** Garbage collections inside the windows (forced ones excluded): count and main-thread pause, ms. */
  gc: { scavenges: number; majors: number; scavengeMs: number; majorMs: number };
  rounds: number;
  samples: MemorySample[];
  checkpoints: Checkpoint[];
  /** Peak RSS of the process, bytes. */
  maxRss: number;
  /** seqscope only: lines in the recording, and the engine's verdict after finish(). */
  recordedLines?: number;
  recordedBytes?: number;
  summary?: {
    received: number;
    delivered: number;
    duplicates: number;
    redeliveries: number;
    gaps: number;
    lost: number;
    late: number;
    invalid: number;
    keys: number;
  };
  states?: string[];
}

const CHECKPOINTS = [0.1, 0.25, 0.5, 0.75, 1];
/** USER_HZ: /proc's CPU times are in these ticks per second (100 on Linux). */
const CLOCK_TICKS = 100;

/** utime + stime of each thread of this process, by "name\0tid" (empty where /proc is not there). */
function threadTicks(): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  // Node 20 does not name its threads: they are told apart by creation order (the main thread
  // first, then V8's platform workers, then libuv's pool as it starts).
  tids.sort((x, y) => Number(x) - Number(y));
  for (const [i, tid] of tids.entries()) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
      // "tid (comm) state ..." — comm may hold spaces, so split after the last ')'.
      const close = stat.lastIndexOf(')');
      const name = `${i === 0 ? 'main' : `#${i}`} ${stat.slice(stat.indexOf('(') + 1, close)}`;
      const f = stat.slice(close + 2).split(' ');
      out.set(`${name}\0${tid}`, Number(f[11]) + Number(f[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/**
 * The measurement shared by both receivers. A round's window opens at its first delivery
 * (`arrived()`) and closes when `handled(n)` reaches the round's target; CPU and wall time are
 * summed over the windows.
 */
class Meter {
  received = 0;
  rounds = 0;
  private target = 0;
  private open: { cpu: NodeJS.CpuUsage; t: number } | undefined;
  private firstAt = 0;
  private user = 0;
  private system = 0;
  private wall = 0;
  private gcCpuUs = 0;
  private next = 0;
  private reached: (() => void) | undefined;
  readonly samples: MemorySample[] = [];
  readonly checkpoints: Checkpoint[] = [];
  private readonly gc = (globalThis as { gc?: () => void }).gc;
  /** Every GC V8 reports (start, duration, kind), and the windows and forced GCs to sort them by. */
  private readonly gcs: { start: number; ms: number; kind: number }[] = [];
  private readonly windows: [number, number][] = [];
  private readonly forced: [number, number][] = [];
  /** Pull responses inside the windows (see arrived()). */
  responses = 0;
  private lastReceivedAt: unknown;
  private threadsAtOpen: Map<string, number> = new Map();
  private readonly threadMs: Record<string, number> = {};
  private readonly gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      this.gcs.push({ start: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 });
  });
  // Sampling memory is a cheap read; once a second does not show in the CPU figures.
  private readonly timer = setInterval(() => this.sample(), 1000);

  constructor(
    readonly mode: ReceiverMode,
    readonly expected: number,
    private readonly fractions: readonly number[] = CHECKPOINTS,
  ) {
    this.gcObserver.observe({ entryTypes: ['gc'] });
  }

  /** Resolves once `upTo` messages in all are handled. */
  round(upTo: number): Promise<void> {
    this.target = upTo;
    this.rounds++;
    return new Promise((resolve) => (this.reached = resolve));
  }

  /**
   * A delivery. `receivedAt` is the client's receive time, shared by the messages of one pull
   * response: a new value starts a new response. (Counted without scheduling anything: a
   * setImmediate or a timer here would be work in the measured window, of the kind that costs.)
   */
  arrived(receivedAt: unknown): void {
    this.received++;
    if (receivedAt !== this.lastReceivedAt && this.open) this.responses++;
    this.lastReceivedAt = receivedAt;
    if (this.open || !this.reached) return;
    if (this.firstAt === 0) this.firstAt = performance.now();
    this.threadsAtOpen = threadTicks();
    this.open = { cpu: process.cpuUsage(), t: performance.now() };
  }

  handled(n: number): void {
    if (!this.reached) return;
    while (this.next < this.fractions.length && n >= this.expected * this.fractions[this.next]) this.checkpoint(n);
    if (n < this.target || !this.open) return;
    const c = process.cpuUsage(this.open.cpu);
    for (const [tid, ticks] of threadTicks()) {
      const [name] = tid.split('\0');
      this.threadMs[name] = (this.threadMs[name] ?? 0) + ((ticks - (this.threadsAtOpen.get(tid) ?? 0)) * 1000) / CLOCK_TICKS;
    }
    this.windows.push([this.open.t, performance.now()]);
    this.wall += performance.now() - this.open.t;
    this.user += c.user;
    this.system += c.system;
    this.open = undefined;
    const reached = this.reached;
    this.reached = undefined;
    reached();
  }

  stop(): Pick<ReceiverResult, 'cpuMs' | 'userMs' | 'systemMs' | 'wallMs' | 'responses' | 'threads' | 'gc' | 'rounds' | 'samples' | 'checkpoints'> {
    clearInterval(this.timer);
    // The checkpoints' forced GCs are the benchmark's, not the receiver's: their CPU is taken
    // out (a few full GCs per run, the same number in both receivers).
    return {
      cpuMs: (this.user + this.system - this.gcCpuUs) / 1000,
      userMs: this.user / 1000,
      systemMs: this.system / 1000,
      wallMs: this.wall,
      responses: this.responses,
      threads: this.threadMs,
      gc: this.gcInWindows(),
      rounds: this.rounds,
      samples: this.samples,
      checkpoints: this.checkpoints,
    };
  }

  /**
   * GC counts and main-thread pauses inside the windows, the forced ones left out: more
   * scavenges for the same messages mean more allocated, or a young generation collected early.
   */
  private gcInWindows(): ReceiverResult['gc'] {
    const r = { scavenges: 0, majors: 0, scavengeMs: 0, majorMs: 0 };
    const inside = (t: number, spans: [number, number][]) => spans.some(([a, b]) => t >= a && t <= b);
    for (const g of this.gcs) {
      if (!inside(g.start, this.windows) || inside(g.start, this.forced)) continue;
      if (g.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        r.scavenges++;
        r.scavengeMs += g.ms;
      } else if (g.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        r.majors++;
        r.majorMs += g.ms;
      }
    }
    return r;
  }

  private checkpoint(n: number): void {
    const fraction = this.fractions[this.next++];
    const c0 = process.cpuUsage();
    const f0 = performance.now();
    this.gc?.();
    this.forced.push([f0, performance.now()]);
    const m = process.memoryUsage();
    const c = process.cpuUsage(c0);
    this.gcCpuUs += c.user + c.system;
    this.checkpoints.push({ fraction, received: n, rss: m.rss, heapAfterGc: this.gc ? m.heapUsed : NaN });
  }

  private sample(): void {
    if (this.firstAt === 0) return;
    const m = process.memoryUsage();
    const ms = Math.round(performance.now() - this.firstAt);
    this.samples.push({ ms, received: this.received, rss: m.rss, heapUsed: m.heapUsed });
    reply({ progress: this.received });
  }
}

/** What each receiver does per round: open its stream, and close it (acks sent). */
interface Receiver {
  open(): Promise<void>;
  close(): Promise<void>;
  finish(): Promise<Partial<ReceiverResult>>;
}

async function bare(a: ReceiverArgs, meter: Meter): Promise<Receiver> {
  const { PubSub } = await loadPubsub();
  let idle: NodeJS.Timeout | undefined;
  // The same client construction as connect() (emulator mode through apiEndpoint), so both
  // receivers talk to the emulator over the same transport.
  const client = new PubSub({ projectId: a.projectId, apiEndpoint: a.emulatorHost, emulatorMode: true });
  let acked = 0;
  let sub: Subscription | undefined;
  return {
    async open() {
      // LiveSource's settings: 1000 messages in flight, five streams (the library's default).
      sub = client.subscription(`projects/${a.projectId}/subscriptions/${a.subscription}`, {
        flowControl: { maxMessages: 1000, maxBytes: 64 << 20, allowExcessMessages: false },
        streamingOptions: { maxStreams: 5 },
      });
      if (a.mode === 'idletimer') idle ??= setInterval(() => undefined, 50);
      sub.on('message', (m: Message) => {
        meter.arrived(m.received);
        m.ack();
        meter.handled(++acked);
      });
      sub.on('error', (e: Error) => process.stderr.write(`[bench] bare subscriber error: ${e.message}\n`));
    },
    async close() {
      await sub?.close();
      sub = undefined;
    },
    async finish() {
      clearInterval(idle);
      await client.close();
      return { acked };
    },
  };
}

async function stream(a: ReceiverArgs, meter: Meter): Promise<Receiver> {
  const connection = await connect({ emulatorHost: a.emulatorHost, projectId: a.projectId, env: {} });
  const calls = await subscriberCalls(connection);
  const subscription = parseResourceName('subscriptions', a.subscription, a.projectId);
  let acked = 0;
  let pull: PullStream | undefined;
  return {
    async open() {
      // LiveSource's settings: 1000 messages in flight, the subscription's deadline (10 s here).
      pull = new PullStream(
        calls,
        { subscription: subscription.path, ackDeadlineSeconds: 10, maxMessages: 1000, maxBytes: 64 << 20 },
        {
          messages(batch, at) {
            const ids = new Array<string>(batch.length);
            for (let i = 0; i < batch.length; i++) {
              meter.arrived(at);
              ids[i] = batch[i].ackId ?? '';
            }
            pull!.ack(ids);
            for (let i = 0; i < batch.length; i++) meter.handled(++acked);
          },
          failed: (e) => process.stderr.write(`[bench] stream receiver error: ${e.message}\n`),
        },
      );
    },
    async close() {
      await pull?.close();
      pull = undefined;
    },
    async finish() {
      await calls.close();
      await connection.close();
      return { acked };
    },
  };
}

async function seqscope(a: ReceiverArgs, meter: Meter): Promise<Receiver> {
  const connection = await connect({ emulatorHost: a.emulatorHost, projectId: a.projectId, env: {} });
  const recorder = a.mode === 'engine' ? undefined : await CaptureRecorder.open(a.out!, { overwrite: true });
  const engine = a.mode === 'record' ? undefined : new ReplayEngine(resolveOptions({ preset: 'cme', seqBits: 16 }));
  const subscription = parseResourceName('subscriptions', a.subscription, a.projectId);
  const states: string[] = [];
  let line = 0;
  let acked = 0;
  let source: LiveSource | undefined;
  return {
    async open() {
      source = new LiveSource(
        { connection, subscription, recorder },
        {
          record(rm: ReceivedMessage, offset: number, length: number, time: number) {
            // The receive time's text is cached per millisecond: one string per response.
            meter.arrived(rm.receivedAt);
            if (!engine) return;
            // The entry LiveFeed.push makes (the receive time as the clock, as the live source hands it).
            const entry: CaptureEntry = { file: 0, line: ++line, offset, length, time, record: rm };
            engine.push(entry);
          },
          // Fully handled = written to the recording and acked (the ack waits for the write).
          acked: () => meter.handled(++acked),
          state: (st, detail) => states.push(`${st}: ${detail}`),
          problem: (e) => process.stderr.write(`[bench] live source problem: ${e.message}\n`),
        },
      );
      await source.start();
    },
    async close() {
      await source?.stop();
      source = undefined;
    },
    async finish() {
      await recorder?.close();
      await connection.close();
      if (!engine) return { acked, recordedLines: await countLines(a.out!), recordedBytes: recorder?.bytesWritten };
      engine.finish();
      const s = engine.summary();
      return {
        acked,
        recordedLines: recorder ? await countLines(a.out!) : undefined,
        recordedBytes: recorder?.bytesWritten,
        summary: {
          received: s.received,
          delivered: s.delivered,
          duplicates: s.duplicates,
          redeliveries: s.redeliveries,
          gaps: s.gaps,
          lost: s.lost,
          late: s.late,
          invalid: s.invalid,
          keys: s.keys,
        },
        states,
      };
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function reply(r: ReceiverReply): void {
  process.send?.(r);
}

async function countLines(path: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  }
  return n;
}

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2]) as ReceiverArgs;
  process.env.METADATA_SERVER_DETECTION = 'none';
  const meter = new Meter(a.mode, a.expected, a.checkpoints);
  const receiver = await (a.mode === 'bare' || a.mode === 'idletimer' ? bare(a, meter) : a.mode === 'stream' ? stream(a, meter) : seqscope(a, meter));
  // Commands arrive one at a time (the parent waits for each answer); a chain keeps them in order.
  let chain = Promise.resolve();
  process.on('message', (cmd: ReceiverCommand) => {
    chain = chain
      .then(async () => {
        if ('drain' in cmd) {
          const reached = meter.round(cmd.drain);
          await receiver.open();
          await reached;
          // After the last round: listen a little longer, for deliveries that should not come.
          if (cmd.graceMs) await sleep(cmd.graceMs);
          await receiver.close();
          reply({ drained: meter.received });
          return;
        }
        const measured = meter.stop();
        const extra = await receiver.finish();
        reply({
          result: {
            mode: a.mode,
            expected: a.expected,
            received: meter.received,
            acked: 0,
            ...measured,
            ...extra,
            maxRss: process.resourceUsage().maxRSS * 1024,
          },
        });
        // gRPC keeps handles open for a while after close(); the result is out, so leave now.
        setTimeout(() => process.exit(0), 100);
      })
      .catch((e: Error) => {
        console.error(e);
        process.exit(1);
      });
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
