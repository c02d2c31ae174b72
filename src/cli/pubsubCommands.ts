/**
 * The live Pub/Sub subcommands: `record` (in recordCommand.ts), `publish`, `seek` and `taps`. The
 * Pub/Sub layer (and the client library in it) is loaded only when one of them runs.
 */
import { Command, Option } from 'commander';
import type * as PubsubLayer from '../pubsub';
import { CaptureReader } from '../core/capture/captureReader';
import { formatDuration, parseWhen } from '../core/util/duration';
import { noun } from '../core/util/plural';
import { futureSeekProblem } from '../core/util/seekTime';
import { Io, RunAction } from './cliIo';
import { positiveInt } from './numberFlags';
import { bytesDone, progressLineFor } from './progressLine';
import { addConnectionOptions, ConnectionFlags, loadLayer, onInterrupt, openConnection } from './pubsubConnection';
import { publishInput, type PublishInput } from './publishSchema';
import { record, RecordFlags } from './recordCommand';
import { collectSchema, schemasFromFlags } from './schemaFlags';
import { addSequencingOptions } from './sequencingFlags';
import { inputName, standardInputProblem } from './standardInput';
import { UsageError } from './usageError';

// ---------------------------------------------------------------- publish

interface PublishFlags extends ConnectionFlags {
  topic: string;
  pace: string;
  concurrency?: string;
  retries?: string;
  skipRedeliveries?: boolean;
  schema?: string[];
  json?: boolean;
  /** False with --no-progress. */
  progress?: boolean;
}

export async function publish(paths: string[], flags: PublishFlags, io: Io): Promise<number> {
  const concurrency = positiveInt(flags.concurrency, '--concurrency') ?? 16;
  const retries = flags.retries === undefined ? 3 : Number(flags.retries);
  if (!Number.isInteger(retries) || retries < 0) throw new UsageError(`--retries must be a whole number ≥ 0, not "${flags.retries}"`, '--retries');
  const stdinProblem = standardInputProblem(paths, io.stdin, 'seqscope publish - --topic T');
  if (stdinProblem) throw new UsageError(stdinProblem);
  const sources = schemasFromFlags(flags.schema);
  const layer = await loadLayer();
  layer.paceSpeed(flags.pace); // a bad --pace is a usage error before anything connects
  const conn = await openConnection(layer, flags);
  const interrupt = onInterrupt();
  const progress = progressLineFor(io.stderr, inputName(paths[0]), flags.progress);
  const say = (line: string) => (progress ? progress.note(line) : io.stderr.write(line));
  const abort = new AbortController();
  interrupt.signal.addEventListener('abort', () => abort.abort(), { once: true });
  let input: PublishInput | undefined;
  let reader: CaptureReader | undefined;
  try {
    const topicName = layer.parseResourceName('topics', flags.topic, conn.projectId);
    input = await publishInput(layer, conn, topicName, paths[0], io.stdin, sources, {
      signal: abort.signal,
      warn: say,
      progress: progress && ((line) => progress.show(line)),
    }).finally(() => progress?.clear());
    if (abort.signal.aborted) return 130;
    reader = new CaptureReader(input.path, 0, input.stream);
    await reader.open();
    const sink = layer.openTopicSink(conn, topicName);
    const attempts = new Map<string, number>();
    let failure: string | undefined;
    const started = Date.now();
    const publisher: PubsubLayer.CapturePublisher = new layer.CapturePublisher({
      sink,
      pace: flags.pace as PubsubLayer.Pace,
      concurrency,
      skipRedeliveries: flags.skipRedeliveries,
      encode: input.encode,
      signal: abort.signal,
      onProgress:
        progress &&
        ((p) => {
          const rate = Math.round((p.published * 1000) / Math.max(1, Date.now() - started));
          const paused = p.paused.length ? ` · ${p.paused.length} ${noun(p.paused.length, 'key')} paused` : '';
          progress.show(
            `publishing ${inputName(paths[0])}: read ${bytesDone(reader!.bytesRead, reader!.size)} · ${p.published} published · ${rate}/s${paused}`,
          );
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
    printResult(io, flags, paths[0], topicName.path, input.schema, result);
    if (failure) {
      io.stderr.write(`seqscope: ${failure}; ${result.unpublished} message(s) not published (nothing after a failed message of its key was sent)\n`);
      return 1;
    }
    return result.cancelled ? 130 : 0;
  } finally {
    interrupt.dispose();
    await reader?.close();
    await input?.dispose();
    await conn.close().catch(() => undefined);
  }
}

function printResult(
  io: Io,
  flags: PublishFlags,
  file: string,
  topic: string,
  schema: PubsubLayer.TopicSchema | undefined,
  result: PubsubLayer.PublishResult,
): void {
  const reencoded = schema && { schema: schema.definition.source, encoding: schema.encoding };
  const out = {
    file,
    topic,
    pace: flags.pace,
    ...reencoded,
    ...result,
    paused: result.paused.map((p) => ({ key: p.key, pending: p.pending, line: p.line, error: p.error.message })),
  };
  if (flags.json) {
    io.stdout.write(JSON.stringify(out) + '\n');
    return;
  }
  io.stdout.write(
    `Published ${result.published} of ${result.read} ${noun(result.read, 'message')} (${result.keys} ${noun(result.keys, 'key')}) from ${inputName(file)} to ${topic}` +
      `${reencoded ? `, re-encoded with ${reencoded.schema} (${reencoded.encoding}),` : ''} in ${formatDuration(result.elapsedMs)}` +
      `${result.skipped ? `; ${result.skipped} skipped` : ''}${result.cancelled ? `; stopped with ${result.unpublished} not published` : ''}.\n`,
  );
}

// ---------------------------------------------------------------- seek, taps

interface SeekFlags extends ConnectionFlags {
  subscription: string;
  time?: string;
  snapshot?: string;
  force?: boolean;
}

export async function seek(flags: SeekFlags, io: Io): Promise<number> {
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

export async function taps(flags: TapsFlags, io: Io): Promise<number> {
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
export function registerPubsubCommands(program: Command, io: Io, run: RunAction): void {
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
      .option(
        '--schema <file>',
        "into a topic bound to a schema, payloads are re-encoded with the topic's schema: this decodes those without a schema of their own (FILE.avsc, FILE.proto[:package.Message]) or of schema NAME (NAME=FILE); once per schema",
        collectSchema,
      )
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
