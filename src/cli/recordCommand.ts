/**
 * `seqscope record`: live messages from a subscription, or from topics through temporary taps,
 * into a capture file; then the replay summary of what was recorded.
 */
import type * as PubsubLayer from '../pubsub';
import { HeapGuard } from '../core/replay/heapGuard';
import { HeapStop, runReplay } from '../core/replay/replayRun';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { mebibytes } from '../core/util/byteSize';
import { formatDuration, parseDuration } from '../core/util/duration';
import { noun } from '../core/util/plural';
import { Io } from './cliIo';
import { positiveInt } from './numberFlags';
import { ProgressLine, progressLineFor } from './progressLine';
import { ConnectionFlags, loadLayer, onInterrupt, openConnection } from './pubsubConnection';
import { DRAIN_QUIET_MS, DrainRule, drainRule, watchDrain } from './recordDrain';
import { optionsFromFlags, SequencingFlags } from './sequencingFlags';
import { formatSummary } from './summaryTable';
import { UsageError } from './usageError';

export interface RecordFlags extends ConnectionFlags, SequencingFlags {
  subscription?: string;
  /** Repeated and/or comma-separated: every topic is tapped into the one recording. */
  topic?: string[];
  out: string;
  append?: boolean;
  overwrite?: boolean;
  maxMessages?: string;
  duration?: string;
  /** --drain: true (the ack deadline plus 2 s), or how long nothing must arrive. */
  drain?: boolean | string;
  json?: boolean;
  /** False with --no-progress. */
  progress?: boolean;
}

/** The exit code of a `--drain` that stopped without evidence that the subscription is empty. */
const DRAIN_UNCONFIRMED = 4;

/** When a recording stops besides Ctrl-C, as the flags say; checked before anything connects. */
interface StopRules {
  /** --max-messages */
  readonly stopAfter: number | undefined;
  /** --duration */
  readonly durationMs: number | undefined;
  /** --drain's quiet, when given. */
  readonly drainQuietMs: number | undefined;
}

/** Records until told to stop, then prints what was recorded and its summary; resolves to the exit code. */
export async function record(flags: RecordFlags, io: Io): Promise<number> {
  const rules = stopRules(flags);
  // Checked before connecting, so a typo costs nothing.
  const options = optionsFromFlags(flags, (line) => io.stderr.write(line));
  const layer = await loadLayer();
  const recorderOptions = await outFileOptions(layer, flags);
  const conn = await openConnection(layer, flags);
  const run = new RecordingRun(layer, conn, flags, io);
  try {
    const why = await run.record(rules, recorderOptions);
    return await reportRecording(run, why, options, flags, io);
  } finally {
    await run.dispose();
  }
}

/** What to record from and when to stop: a usage error for flags that do not go together. */
function stopRules(flags: RecordFlags): StopRules {
  const topicTexts = flags.topic ?? [];
  if (!!flags.subscription === topicTexts.length > 0)
    throw new UsageError(
      'give one of --subscription (consume it) or --topic (record through a temporary tap; repeat it to record several topics into one file)',
    );
  const stopAfter = positiveInt(flags.maxMessages, '--max-messages');
  const durationMs = flags.duration === undefined ? undefined : parseDuration(flags.duration);
  const drainQuietMs = typeof flags.drain === 'string' ? parseDuration(flags.drain) : undefined;
  if (drainQuietMs !== undefined && drainQuietMs < DRAIN_QUIET_MS)
    throw new UsageError(`--drain ${flags.drain}: give at least ${formatDuration(DRAIN_QUIET_MS)}`, '--drain');
  return { stopAfter, durationMs, drainQuietMs };
}

/** The recorder's options for --out, once the file is known to take a recording: refused before connecting. */
async function outFileOptions(layer: typeof PubsubLayer, flags: RecordFlags): Promise<PubsubLayer.RecorderOptions> {
  // A name ending in .gz records gzip-compressed (as --export does); --append keeps the file's own format.
  if (flags.append && flags.overwrite) throw new UsageError('--append continues the file and --overwrite replaces it: give one of them', '--append');
  const recorderOptions = { append: flags.append, overwrite: flags.overwrite, gzip: /\.gz$/i.test(flags.out) };
  const outProblem = await layer.CaptureRecorder.problemWith(flags.out, recorderOptions);
  if (outProblem) throw new UsageError(`--out: ${outProblem}`, '--out');
  return recorderOptions;
}

/**
 * One recording under way: its taps (or subscription), the file, a live source per
 * subscription, and what it says on stderr meanwhile. `dispose` releases all of it, taps
 * deleted, however the recording ended.
 */
class RecordingRun {
  /** The taps made for --topic; none with --subscription. */
  taps: PubsubLayer.Tap[] = [];
  subscriptions: PubsubLayer.ResourceName[] = [];
  readonly sources: PubsubLayer.LiveSource[] = [];
  readonly started = Date.now();
  /** Whether the file is gzip-compressed (with --append, as it was). */
  gzip = false;
  /** --drain's rule, once the subscriptions' ack deadlines are known. */
  drain: DrainRule | undefined;
  private recorder: PubsubLayer.CaptureRecorder | undefined;
  private readonly interrupt = onInterrupt();
  private readonly progress: ProgressLine | undefined;
  private lastArrival = Date.now();
  private ticker: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  /** Ends the recording with why it stopped. */
  private stop: (why: string) => void = () => undefined;

  constructor(
    private readonly layer: typeof PubsubLayer,
    private readonly conn: PubsubLayer.PubsubConnection,
    private readonly flags: RecordFlags,
    private readonly io: Io,
  ) {
    this.progress = progressLineFor(io.stderr, flags.out, flags.progress);
  }

  /** Several topics into one file. */
  get several(): boolean {
    return this.subscriptions.length > 1;
  }

  /** What is said while recording goes above the progress line, not after it on the same line. */
  private readonly say = (line: string) => (this.progress ? this.progress.note(line) : this.io.stderr.write(line));

  /** Records until a stop rule or Ctrl-C ends it; resolves with why it stopped, the file closed. */
  async record(rules: StopRules, recorderOptions: PubsubLayer.RecorderOptions): Promise<string> {
    const { layer, flags, progress } = this;
    await this.subscribe();
    const recorder = await layer.CaptureRecorder.open(flags.out, recorderOptions).catch((e: Error) => {
      // Checked above, but the disk can change while the tap is made.
      throw new UsageError(`--out: ${e.message}`, '--out');
    });
    this.recorder = recorder;
    const done = this.stopped(rules, recorder);
    const ackDeadlineSeconds = await this.openStreams();
    // Taps said so as they were made; a subscription says it here, once its stream is open (a
    // script starting several recorders can wait for this line before publishing).
    if (!this.taps.length) this.say(`seqscope: recording ${this.subscriptions[0].path} to ${flags.out}\n`);
    this.lastArrival = Date.now();
    this.drain = flags.drain ? drainRule(ackDeadlineSeconds, rules.drainQuietMs, this.conn.emulatorHost !== undefined) : undefined;
    if (this.drain)
      this.drainTimer = watchDrain(
        this.drain,
        () => this.lastArrival,
        this.say,
        (why) => this.stop(why),
      );
    if (progress) this.ticker = recordingProgress(progress, () => this.received(), this.started);
    const why = await done;
    clearInterval(this.ticker);
    clearInterval(this.drainTimer);
    progress?.clear();
    for (const source of this.sources) await source.stop();
    this.gzip = recorder.gzip;
    await recorder.close();
    this.recorder = undefined;
    return why;
  }

  /** The taps for --topic, each said on stderr as it is made, or the subscription. */
  private async subscribe(): Promise<void> {
    const { layer, conn, flags, io } = this;
    const topicTexts = flags.topic ?? [];
    if (!topicTexts.length) {
      this.subscriptions = [layer.parseResourceName('subscriptions', flags.subscription!, conn.projectId)];
      return;
    }
    this.taps = await layer.createTaps(conn, layer.parseTopicList(topicTexts, conn.projectId));
    this.subscriptions = this.taps.map((t) => t.subscription);
    for (const t of this.taps) {
      for (const note of t.notes ?? []) io.stderr.write(`seqscope: note: ${note}\n`);
      io.stderr.write(`seqscope: tapping ${t.topic.path} through ${t.subscription.path} (deleted when recording stops)\n`);
    }
    if (this.taps.length > 1)
      io.stderr.write(`seqscope: ${this.taps.length} topics into one recording: each line carries its "topic", and keys are per topic (topic/key)\n`);
  }

  /** A live source for each subscription, made now; resolves with why the recording stops. */
  private stopped(rules: StopRules, recorder: PubsubLayer.CaptureRecorder): Promise<string> {
    // One count for every source: --max-messages is what the recording holds.
    const budget = rules.stopAfter === undefined ? undefined : { remaining: rules.stopAfter };
    // The schema revisions messages name are fetched once each and recorded before their first message.
    const schemas = new this.layer.LiveSchemas(this.layer.schemaFetch(this.conn), { unavailable: (why) => this.say(`seqscope: ${why}\n`) });
    return new Promise<string>((resolve) => {
      this.stop = resolve;
      this.interrupt.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
      if (rules.durationMs !== undefined) setTimeout(() => resolve(`${this.flags.duration} elapsed`), rules.durationMs).unref();
      this.subscriptions.forEach((subscription, i) => {
        const label = this.several ? `${this.taps[i].topic.id}: ` : '';
        const topic = this.several ? this.taps[i].topic.path : undefined;
        this.sources.push(
          new this.layer.LiveSource(
            { connection: this.conn, subscription, recorder, budget, topic, schemas },
            {
              record: () => {
                this.lastArrival = Date.now();
                if (budget !== undefined && budget.remaining <= 0) resolve(`${rules.stopAfter} messages recorded`);
              },
              state: (state, detail) => {
                if (state === 'disconnected' || (state === 'live' && detail.startsWith('reconnected'))) this.say(`seqscope: ${label}${detail}\n`);
              },
              problem: (e) => {
                this.say(`seqscope: ${label}${e.message}\n`);
              },
            },
          ),
        );
      });
    });
  }

  /** Opens each source's stream, noting what its subscription cannot promise; returns the longest ack deadline. */
  private async openStreams(): Promise<number> {
    let ackDeadlineSeconds = 0;
    for (const source of this.sources) {
      const info = await source.start();
      ackDeadlineSeconds = Math.max(ackDeadlineSeconds, info.ackDeadlineSeconds);
      for (const caveat of this.layer.subscriptionCaveats(info)) this.say(`seqscope: note: ${caveat}\n`);
    }
    return ackDeadlineSeconds;
  }

  private received(): number {
    return this.sources.reduce((n, s) => n + s.stats.received, 0);
  }

  /** Stops everything still running, closes the file and the connection, and deletes the taps. */
  async dispose(): Promise<void> {
    const { layer, conn, io } = this;
    clearInterval(this.ticker);
    clearInterval(this.drainTimer);
    this.progress?.clear();
    this.interrupt.dispose();
    for (const source of this.sources) await source.stop().catch(() => undefined);
    await this.recorder?.close().catch(() => undefined);
    for (const tap of this.taps) {
      await layer
        .deleteTap(conn, tap.subscription)
        .catch((e: Error) =>
          io.stderr.write(
            `seqscope: could not delete tap ${tap.subscription.path}: ${e.message} (it expires by itself; \`seqscope taps --delete\` removes it)\n`,
          ),
        );
    }
    await conn.close().catch(() => undefined);
  }
}

/**
 * Prints what was recorded and the summary of a replay of the file just written: the same
 * verdict `seqscope replay` gives, and the same stop when its keys fill the heap (the recording
 * is whole either way). Returns the exit code.
 */
async function reportRecording(run: RecordingRun, why: string, options: SequencingOptions, flags: RecordFlags, io: Io): Promise<number> {
  const stats = sumStats(run.sources.map((s) => s.stats));
  const elapsed = Date.now() - run.started;
  const { summary, heapStop } = await runReplay({ paths: [flags.out], options, heapGuard: new HeapGuard() });
  const { taps, subscriptions, several, gzip, drain } = run;
  const stopped = heapStop && { summaryStopped: 'memory', summaryLines: heapStop.line ?? 0 };
  const from = several ? `${taps.length} topics (${taps.map((t) => t.topic.path).join(', ')})` : subscriptions[0].path;
  if (flags.json) {
    const what = {
      subscription: subscriptions[0].path,
      ...(several ? { subscriptions: subscriptions.map((s) => s.path) } : {}),
      ...(taps.length ? { topics: taps.map((t) => t.topic.path) } : {}),
    };
    io.stdout.write(
      JSON.stringify({
        recorded: { file: flags.out, gzip, ...what, tap: taps.length > 0, stoppedBecause: why, elapsedMs: elapsed, ...stats },
        summary,
        ...stopped,
      }) + '\n',
    );
  } else {
    io.stdout.write(
      `Recorded ${stats.received} ${noun(stats.received, 'message')} from ${from} to ${flags.out}${gzip ? ' (gzip)' : ''} in ${formatDuration(elapsed)} (${why}; ${stats.acked} acked${stats.released ? `, ${stats.released} released unrecorded to the subscription's other consumers` : ''}${stats.reconnects ? `, ${stats.reconnects} ${noun(stats.reconnects, 'reconnect')}` : ''}).\n\n`,
    );
    io.stdout.write(formatSummary(summary, { stoppedForMemory: heapStop !== undefined }));
  }
  const unconfirmed = drain?.unconfirmed !== undefined && why.startsWith('drained');
  if (unconfirmed) io.stderr.write(`seqscope: the drain is not confirmed: ${drain.unconfirmed}\n`);
  if (heapStop) {
    io.stderr.write(summaryStoppedMessage(heapStop, flags.out));
    return 2;
  }
  return unconfirmed ? DRAIN_UNCONFIRMED : 0;
}

/** Why the summary covers only part of a complete recording, and how to replay it all. */
function summaryStoppedMessage(heapStop: HeapStop, out: string): string {
  return (
    `seqscope: the recording is complete, but its summary covers only the first ${heapStop.line ?? 0} lines: its ${heapStop.keys} keys fill the memory Node allows (of ${mebibytes(heapStop.heap.limit)} MiB). ` +
    `Replay it with more memory: NODE_OPTIONS=--max-old-space-size=${Math.ceil((2 * heapStop.heap.limit) / 2 ** 30) * 1024} seqscope replay ${out}\n`
  );
}

/** The sources' counts added up (one recording from several taps). */
function sumStats(all: readonly PubsubLayer.LiveStats[]): PubsubLayer.LiveStats {
  const sum: PubsubLayer.LiveStats = { received: 0, acked: 0, nacked: 0, withheld: 0, reconnects: 0, released: 0, lastReconnectAt: 0 };
  for (const s of all) {
    sum.received += s.received;
    sum.acked += s.acked;
    sum.nacked += s.nacked;
    sum.withheld += s.withheld;
    sum.reconnects += s.reconnects;
    sum.released += s.released;
    sum.lastReconnectAt = Math.max(sum.lastReconnectAt, s.lastReconnectAt);
  }
  return sum;
}

/** Redraws "recording N messages · R/s · elapsed" every second; the caller clears the interval. */
function recordingProgress(progress: ProgressLine, count: () => number, started: number): NodeJS.Timeout {
  let last = 0;
  let lastAt = started;
  const draw = () => {
    const n = count();
    const now = Date.now();
    const rate = ((n - last) * 1000) / Math.max(1, now - lastAt);
    last = n;
    lastAt = now;
    progress.show(`recording ${n} ${noun(n, 'message')} · ${Math.round(rate)}/s · ${formatDuration(now - started)}`);
  };
  return setInterval(draw, 1000);
}
