/**
 * The live Pub/Sub subcommands: `record`, `publish`, `seek` and `taps`. The Pub/Sub layer (and
 * the client library in it) is loaded only when one of them runs.
 */
import { Command, Option } from 'commander';
import { CaptureReader } from '../core/capture/captureReader';
import { noun } from '../core/util/plural';
import { UsageError } from './usageError';
import { positiveInt } from './numberFlags';
import { inputName, StandardInput, standardInputProblem } from './standardInput';
import { formatDuration, parseDuration, parseWhen } from '../core/util/duration';
import { futureSeekProblem } from '../core/util/seekTime';
import { mebibytes } from '../core/util/byteSize';
import { HeapGuard } from '../core/replay/heapGuard';
import { runReplay } from '../core/replay/replayRun';
import type * as PubsubLayer from '../pubsub';
import { addSequencingOptions, optionsFromFlags, SequencingFlags } from './sequencingFlags';
import { RunAction } from './cliIo';
import { formatSummary } from './summaryTable';
import { bytesDone, ProgressLine, progressLineFor } from './progressLine';
import { DRAIN_QUIET_MS, drainRule, watchDrain } from './recordDrain';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where `publish -` reads a capture from. */
  stdin?: StandardInput;
}

export interface ConnectionFlags {
  project?: string;
  emulatorHost?: string;
}

function loadLayer(): Promise<typeof PubsubLayer> {
  return import('../pubsub');
}

export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--project <id>', 'Google Cloud project for bare names (default: PUBSUB_PROJECT_ID, GOOGLE_CLOUD_PROJECT, else the gcloud/ADC default)')
    .option('--emulator-host <host:port>', 'use the Pub/Sub emulator there (default: PUBSUB_EMULATOR_HOST)');
}

async function openConnection(layer: typeof PubsubLayer, flags: ConnectionFlags): Promise<PubsubLayer.PubsubConnection> {
  return layer.connect({ projectId: flags.project, emulatorHost: flags.emulatorHost });
}

/** Resolves on SIGINT/SIGTERM (the normal way to stop a recording), with a way to stop listening. */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

// ---------------------------------------------------------------- record

interface RecordFlags extends ConnectionFlags, SequencingFlags {
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

export async function record(flags: RecordFlags, io: CliIo): Promise<number> {
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
  // Checked before connecting, so a typo costs nothing.
  const options = optionsFromFlags(flags, (line) => io.stderr.write(line));
  const layer = await loadLayer();
  // A name ending in .gz records gzip-compressed (as --export does); --append keeps the file's own format.
  if (flags.append && flags.overwrite) throw new UsageError('--append continues the file and --overwrite replaces it: give one of them', '--append');
  const recorderOptions = { append: flags.append, overwrite: flags.overwrite, gzip: /\.gz$/i.test(flags.out) };
  const outProblem = await layer.CaptureRecorder.problemWith(flags.out, recorderOptions);
  if (outProblem) throw new UsageError(`--out: ${outProblem}`, '--out');
  const conn = await openConnection(layer, flags);
  const interrupt = onInterrupt();
  let taps: PubsubLayer.Tap[] = [];
  let recorder: PubsubLayer.CaptureRecorder | undefined;
  const started = Date.now();
  const sources: PubsubLayer.LiveSource[] = [];
  const progress = progressLineFor(io.stderr, flags.out, flags.progress);
  // What is said while recording goes above the progress line, not after it on the same line.
  const say = (line: string) => (progress ? progress.note(line) : io.stderr.write(line));
  let ticker: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  try {
    let subscriptions: PubsubLayer.ResourceName[];
    if (topicTexts.length) {
      taps = await layer.createTaps(conn, layer.parseTopicList(topicTexts, conn.projectId));
      subscriptions = taps.map((t) => t.subscription);
      for (const t of taps) {
        for (const note of t.notes ?? []) io.stderr.write(`seqscope: note: ${note}\n`);
        io.stderr.write(`seqscope: tapping ${t.topic.path} through ${t.subscription.path} (deleted when recording stops)\n`);
      }
      if (taps.length > 1)
        io.stderr.write(`seqscope: ${taps.length} topics into one recording: each line carries its "topic", and keys are per topic (topic/key)\n`);
    } else {
      subscriptions = [layer.parseResourceName('subscriptions', flags.subscription!, conn.projectId)];
    }
    recorder = await layer.CaptureRecorder.open(flags.out, recorderOptions).catch((e: Error) => {
      // Checked above, but the disk can change while the tap is made.
      throw new UsageError(`--out: ${e.message}`, '--out');
    });
    const rec = recorder;
    // One count for every source: --max-messages is what the recording holds.
    const budget = stopAfter === undefined ? undefined : { remaining: stopAfter };
    const received = () => sources.reduce((n, s) => n + s.stats.received, 0);
    const several = subscriptions.length > 1;
    let lastArrival = Date.now();
    let stopDrained: (why: string) => void = () => undefined;
    const done = new Promise<string>((resolve) => {
      stopDrained = resolve;
      interrupt.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
      if (durationMs !== undefined) setTimeout(() => resolve(`${flags.duration} elapsed`), durationMs).unref();
      subscriptions.forEach((subscription, i) => {
        const label = several ? `${taps[i].topic.id}: ` : '';
        sources.push(
          new layer.LiveSource(
            { connection: conn, subscription, recorder: rec, budget, topic: several ? taps[i].topic.path : undefined },
            {
              record() {
                lastArrival = Date.now();
                if (budget !== undefined && budget.remaining <= 0) resolve(`${stopAfter} messages recorded`);
              },
              state(state, detail) {
                if (state === 'disconnected' || (state === 'live' && detail.startsWith('reconnected'))) say(`seqscope: ${label}${detail}\n`);
              },
              problem(e) {
                say(`seqscope: ${label}${e.message}\n`);
              },
            },
          ),
        );
      });
    });
    let ackDeadlineSeconds = 0;
    for (const source of sources) {
      const info = await source.start();
      ackDeadlineSeconds = Math.max(ackDeadlineSeconds, info.ackDeadlineSeconds);
      for (const caveat of layer.subscriptionCaveats(info)) say(`seqscope: note: ${caveat}\n`);
    }
    // Taps said so as they were made; a subscription says it here, once its stream is open (a
    // script starting several recorders can wait for this line before publishing).
    if (!taps.length) say(`seqscope: recording ${subscriptions[0].path} to ${flags.out}\n`);
    lastArrival = Date.now();
    const drain = flags.drain ? drainRule(ackDeadlineSeconds, drainQuietMs, conn.emulatorHost !== undefined) : undefined;
    if (drain)
      drainTimer = watchDrain(
        drain,
        () => lastArrival,
        say,
        (why) => stopDrained(why),
      );
    if (progress) ticker = recordingProgress(progress, received, started);
    const why = await done;
    clearInterval(ticker);
    clearInterval(drainTimer);
    progress?.clear();
    for (const source of sources) await source.stop();
    const gzip = recorder.gzip;
    await recorder.close();
    recorder = undefined;
    const stats = sumStats(sources.map((s) => s.stats));
    const elapsed = Date.now() - started;
    // The summary is a replay of the file just written: the same verdict `seqscope replay` gives,
    // and the same stop when its keys fill the heap (the recording is whole either way).
    const { summary, heapStop } = await runReplay({ paths: [flags.out], options, heapGuard: new HeapGuard() });
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
      io.stderr.write(
        `seqscope: the recording is complete, but its summary covers only the first ${heapStop.line ?? 0} lines: its ${heapStop.keys} keys fill the memory Node allows (of ${mebibytes(heapStop.heap.limit)} MiB). ` +
          `Replay it with more memory: NODE_OPTIONS=--max-old-space-size=${Math.ceil((2 * heapStop.heap.limit) / 2 ** 30) * 1024} seqscope replay ${flags.out}\n`,
      );
      return 2;
    }
    return unconfirmed ? DRAIN_UNCONFIRMED : 0;
  } finally {
    clearInterval(ticker);
    clearInterval(drainTimer);
    progress?.clear();
    interrupt.dispose();
    for (const source of sources) await source.stop().catch(() => undefined);
    await recorder?.close().catch(() => undefined);
    for (const tap of taps) {
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

// ---------------------------------------------------------------- publish

interface PublishFlags extends ConnectionFlags {
  topic: string;
  pace: string;
  concurrency?: string;
  retries?: string;
  skipRedeliveries?: boolean;
  json?: boolean;
  /** False with --no-progress. */
  progress?: boolean;
}

export async function publish(paths: string[], flags: PublishFlags, io: CliIo): Promise<number> {
  const concurrency = positiveInt(flags.concurrency, '--concurrency') ?? 16;
  const retries = flags.retries === undefined ? 3 : Number(flags.retries);
  if (!Number.isInteger(retries) || retries < 0) throw new UsageError(`--retries must be a whole number ≥ 0, not "${flags.retries}"`, '--retries');
  const stdinProblem = standardInputProblem(paths, io.stdin, 'seqscope publish - --topic T');
  if (stdinProblem) throw new UsageError(stdinProblem);
  const layer = await loadLayer();
  layer.paceSpeed(flags.pace); // a bad --pace is a usage error before anything connects
  const conn = await openConnection(layer, flags);
  const interrupt = onInterrupt();
  const reader = new CaptureReader(paths[0], 0, paths[0] === '-' ? io.stdin : undefined);
  const progress = progressLineFor(io.stderr, inputName(paths[0]), flags.progress);
  const say = (line: string) => (progress ? progress.note(line) : io.stderr.write(line));
  const started = Date.now();
  try {
    const topicName = layer.parseResourceName('topics', flags.topic, conn.projectId);
    await layer.checkTopic(conn, topicName);
    await reader.open();
    const sink = layer.openTopicSink(conn, topicName);
    const attempts = new Map<string, number>();
    const abort = new AbortController();
    interrupt.signal.addEventListener('abort', () => abort.abort(), { once: true });
    let failure: string | undefined;
    const publisher: PubsubLayer.CapturePublisher = new layer.CapturePublisher({
      sink,
      pace: flags.pace as PubsubLayer.Pace,
      concurrency,
      skipRedeliveries: flags.skipRedeliveries,
      signal: abort.signal,
      onProgress:
        progress &&
        ((p) => {
          const rate = Math.round((p.published * 1000) / Math.max(1, Date.now() - started));
          const paused = p.paused.length ? ` · ${p.paused.length} ${noun(p.paused.length, 'key')} paused` : '';
          progress.show(`publishing ${inputName(paths[0])}: read ${bytesDone(reader.bytesRead, reader.size)} · ${p.published} published · ${rate}/s${paused}`);
        }),
      onPaused(p) {
        const n = (attempts.get(p.key) ?? 0) + 1;
        attempts.set(p.key, n);
        const keyName = p.key === '' ? '(no ordering key)' : `"${p.key}"`;
        if (n > retries) {
          failure = `key ${keyName} still failing after ${retries} retr${retries === 1 ? 'y' : 'ies'} at line ${p.line}: ${p.error.message}`;
          abort.abort();
          return;
        }
        say(
          `seqscope: publish of key ${keyName} failed at line ${p.line} (${p.error.message}); the key is paused, others go on; retry ${n}/${retries} in ${n}s\n`,
        );
        setTimeout(() => publisher.resume(p.key), n * 1000).unref();
      },
    });
    const result = await publisher.run(reader.batches()).finally(() => progress?.clear());
    await sink.flush();
    const out = {
      file: paths[0],
      topic: topicName.path,
      pace: flags.pace,
      ...result,
      paused: result.paused.map((p) => ({ key: p.key, pending: p.pending, line: p.line, error: p.error.message })),
    };
    if (flags.json) io.stdout.write(JSON.stringify(out) + '\n');
    else {
      io.stdout.write(
        `Published ${result.published} of ${result.read} ${noun(result.read, 'message')} (${result.keys} ${noun(result.keys, 'key')}) from ${inputName(paths[0])} to ${topicName.path} in ${formatDuration(result.elapsedMs)}` +
          `${result.skipped ? `; ${result.skipped} skipped` : ''}${result.cancelled ? `; stopped with ${result.unpublished} not published` : ''}.\n`,
      );
    }
    if (failure) {
      io.stderr.write(`seqscope: ${failure}; ${result.unpublished} message(s) not published (nothing after a failed message of its key was sent)\n`);
      return 1;
    }
    return result.cancelled ? 130 : 0;
  } finally {
    interrupt.dispose();
    await reader.close();
    await conn.close().catch(() => undefined);
  }
}

// ---------------------------------------------------------------- seek, taps

interface SeekFlags extends ConnectionFlags {
  subscription: string;
  time?: string;
  snapshot?: string;
  force?: boolean;
}

export async function seek(flags: SeekFlags, io: CliIo): Promise<number> {
  if (!!flags.time === !!flags.snapshot) throw new UsageError('give one of --time or --snapshot');
  let time: Date | undefined;
  if (flags.time) {
    time = parseWhen(flags.time, Date.now());
    if (!time)
      throw new UsageError(`--time "${flags.time}" is not a time: write how long ago (5m, 30s, 1h) or a date-time (e.g. 2026-11-30T09:30:00Z)`, '--time');
    const problem = futureSeekProblem(time, Date.now());
    if (problem && !flags.force)
      throw new UsageError(`--time: ${problem}: give a time in the past, or add --force to acknowledge the backlog on purpose`, '--time');
  }
  const layer = await loadLayer();
  const conn = await openConnection(layer, flags);
  try {
    const sub = layer.parseResourceName('subscriptions', flags.subscription, conn.projectId);
    const target = time ? { time } : { snapshot: layer.parseResourceName('snapshots', flags.snapshot!, conn.projectId) };
    await layer.seekSubscription(conn, sub, target);
    io.stdout.write(`Seeked ${sub.path} to ${time ? time.toISOString() : flags.snapshot}: the server re-delivers what it retained from there.\n`);
    return 0;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

interface TapsFlags extends ConnectionFlags {
  delete?: boolean;
  json?: boolean;
}

export async function taps(flags: TapsFlags, io: CliIo): Promise<number> {
  const layer = await loadLayer();
  const conn = await openConnection(layer, flags);
  try {
    const found = await layer.findLeftoverTaps(conn);
    const deleted: string[] = [];
    if (flags.delete) {
      for (const t of found) {
        await layer.deleteTap(conn, t.name);
        deleted.push(t.name.path);
      }
    }
    if (flags.json) io.stdout.write(JSON.stringify({ taps: found.map((t) => ({ subscription: t.name.path, topic: t.topic })), deleted }) + '\n');
    else if (!found.length) io.stdout.write(`No SeqScope taps in project ${conn.projectId}.\n`);
    else {
      for (const t of found) io.stdout.write(`${flags.delete ? 'deleted ' : ''}${t.name.path}  (topic ${t.topic})\n`);
      if (!flags.delete)
        io.stdout.write(`${found.length} ${noun(found.length, 'tap')}; \`seqscope taps --delete\` deletes them (they also expire by themselves).\n`);
    }
    return 0;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Adds record / publish / seek / taps to the program. `run` maps an action's result to the exit code. */
export function registerPubsubCommands(program: Command, io: CliIo, run: RunAction): void {
  addSequencingOptions(
    addConnectionOptions(
      program
        .command('record')
        .description('Record live messages to a capture file (acks each message only after its line is written).')
        .option('--subscription <name>', 'consume this subscription (projects/P/subscriptions/S or S): takes messages from its other consumers')
        .option(
          '--topic <name>',
          'record through a temporary tap subscription on this topic (recommended: other consumers are untouched); projects/P/topics/T for a topic in another project; repeat it (or give a comma list) to record several topics into one file, keys per topic',
          (v: string, prev: string[] = []) => [...prev, v],
        )
        .requiredOption('--out <file>', 'capture file to write (JSON Lines of ReceivedMessage + receivedAt; a name ending in .gz is written gzip-compressed)')
        .option('--append', 'continue a file that holds a recording (in its own format, plain or gzip)')
        .option('--overwrite', 'replace a file that holds a recording (without this or --append, such a file is refused: its messages were acked)')
        .option('--max-messages <n>', 'stop after N messages')
        .option('--duration <duration>', 'stop after this long: 30s, 5m')
        .option(
          '--drain [quiet]',
          'stop once the subscription is empty: nothing arrived for QUIET (default: its ack deadline plus 2s, after which no recorder can still hold a message); exit 4 when that is not confirmed (a shorter QUIET, or the emulator)',
        )
        .option('--json', 'print what was recorded and the sequencer summary as one JSON object')
        .option('--no-progress', 'no progress line on stderr (shown only when stderr is a terminal)'),
    ),
  ).action((flags: RecordFlags) => run(record(flags, io)));

  addConnectionOptions(
    program
      .command('publish')
      .description('Publish a capture into a topic: one key strictly in order, different keys concurrently, ordering keys and attributes kept.')
      .argument('<capture>', 'capture file to publish (any format `replay` reads, gzip too; - reads standard input)')
      .requiredOption('--topic <name>', 'topic to publish to (projects/P/topics/T or T)')
      .addOption(new Option('--pace <pace>', "original: the capture's own timing; xN: N times faster (x10); max: as fast as possible").default('max'))
      .option('--concurrency <n>', 'keys published at once (default 16)')
      .option('--retries <n>', 'retries of a failed key before giving up (default 3)')
      .option('--skip-redeliveries', 'publish a messageId once, even when the capture holds its redeliveries')
      .option('--json', 'print the result as one JSON object')
      .option('--no-progress', 'no progress line on stderr (shown only when stderr is a terminal)'),
  ).action((path: string, flags: PublishFlags) => run(publish([path], flags, io)));

  addConnectionOptions(
    program
      .command('seek')
      .description('Seek a subscription (e.g. a tap) to a time or a snapshot, so the server re-sends what it retained.')
      .requiredOption('--subscription <name>', 'subscription to seek')
      .option(
        '--time <when>',
        'seek back to this time: how long ago (5m, 30s, 1h) or a date-time (RFC 3339); re-sends retained acked messages, which taps keep',
      )
      .option('--snapshot <name>', 'seek to this snapshot')
      .option('--force', 'seek even to a time in the future, which acknowledges every message published before it (refused without this)'),
  ).action((flags: SeekFlags) => run(seek(flags, io)));

  addConnectionOptions(
    program
      .command('taps')
      .description('List SeqScope tap subscriptions left in the project (and delete them with --delete).')
      .option('--delete', 'delete them')
      .option('--json', 'print them as JSON'),
  ).action((flags: TapsFlags) => run(taps(flags, io)));
}
