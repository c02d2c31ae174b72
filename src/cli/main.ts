/**
 * `seqscope`: the sequencer on the command line, with no VS Code. Exit codes:
 *   0 success (findings are results, not errors) · 2 usage or input error · 3 a `--fail-on`
 *   finding occurred · 130 interrupted.
 */
import { Command, CommanderError, Option } from 'commander';
import { Writable } from 'node:stream';
import { CaptureError, INPUT_FORMATS, InputFormat } from '../core/capture/captureReader';
import { expandCapturePaths } from '../core/capture/capturePaths';
import { formatForPath, isTraceFormat, TRACE_FORMATS, TraceFormat } from '../core/export';
import { inputOverwrittenBy, repeatedInput, repeatedInputMessage } from '../core/capture/fileIdentity';
import { KEY_ORDER_DETAILS, KEY_ORDERS, KeyOrder, orderKeys } from '../core/trace/keyOrder';
import { noun } from '../core/util/plural';
import { mebibytes } from '../core/util/byteSize';
import { barePayloads } from '../core/replay/barePayloads';
import { HeapGuard } from '../core/replay/heapGuard';
import { HeapStop, runReplay } from '../core/replay/replayRun';
import { PRESETS } from '../core/sequencer/sequencingOptions';
import { ExportError, writeError } from '../core/export/outputFile';
import { TraceWriter } from '../core/export/traceWriter';
import { describeFilter, traceEventMatcher } from '../core/trace/traceFilter';
import { TraceEvent } from '../core/trace/traceEvents';
import { CaptureEntry } from '../core/capture/captureRecord';
import { addExportFilterOptions, ExportFilterFlags, exportFilterFromFlags, messageQueryFromFlags, parseNameList } from './exportFilterFlags';
import { describeQuery, traceEventQueryMatcher } from '../core/trace/messageMatch';
import { ReplaySummary, tooWideMessage } from '../core/replay/replayEngine';
import { inputName, StandardInput, standardInputProblem } from './standardInput';
import { formatSummary } from './summaryTable';
import { progressLineFor } from './progressLine';
import { registerPubsubCommands } from './pubsubCommands';
import { registerCompareCommand } from './compareCommand';
import { registerMcpCommand } from './mcpCommand';
import { redactSecrets } from '../core/util/secrets';
import { UsageError } from './usageError';
import { isInputError } from '../core/util/inputError';
import { optionsFromFlags, SequencingFlags } from './sequencingFlags';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultThreads, WorkerScanPool } from '../timeline/node/scanPool';
import { InlineScanPool } from '../core/capture/parallelReader';

declare const SEQSCOPE_VERSION: string;

/** 130 and 141 are what a shell reports for a process ended by SIGINT and SIGPIPE (128 + signal). */
export const EXIT = { ok: 0, failure: 1, usage: 2, findings: 3, interrupted: 130, brokenPipe: 141 } as const;

const FINDINGS = ['gap', 'duplicate', 'conflict', 'late', 'reordered', 'invalid', 'reset'] as const;
/** How `--fail-on` names what it found: "2 late messages", not "2 lates". */
const FINDING_NOUNS: Record<(typeof FINDINGS)[number], [string, string]> = {
  gap: ['gap', 'gaps'],
  duplicate: ['duplicate', 'duplicates'],
  conflict: ['conflicting copy', 'conflicting copies'],
  late: ['late message', 'late messages'],
  reordered: ['reordered message', 'reordered messages'],
  invalid: ['invalid record', 'invalid records'],
  reset: ['sequence reset', 'sequence resets'],
};
type Finding = (typeof FINDINGS)[number];

interface ReplayFlags extends SequencingFlags, ExportFilterFlags {
  export?: string;
  format?: string;
  json?: boolean;
  failOn?: string;
  /** False with --no-progress. */
  progress?: boolean;
  sortKeys?: KeyOrder;
  inputFormat?: InputFormat;
  threads?: string;
}

export interface Io {
  stdout: Writable;
  stderr: Writable;
  /** Where `replay -` and `publish -` read a capture from. */
  stdin?: StandardInput;
}

export async function main(argv: string[], io: Io = process): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('seqscope')
    .description(
      'Sequence ordered message streams (Google Pub/Sub captures, CME-style feeds): order per key, report gaps, duplicates and late messages, export the ordered trace.',
    )
    .version(typeof SEQSCOPE_VERSION === 'string' ? SEQSCOPE_VERSION : 'dev', '-V, --version')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`seqscope: ${s.replace(/^error: /, '')}`),
    })
    .exitOverride()
    .showSuggestionAfterError();

  const run = async (p: Promise<number>) => {
    exitCode = await p;
  };
  const replayCommand = addSequencingOptions(
    program
      .command('replay')
      .description('Replay capture files through the sequencer and summarise what it found.')
      .argument(
        '<capture...>',
        'capture files: JSON Lines of Pub/Sub ReceivedMessage, a JSON array of them, a pull response, BigQuery subscription rows (JSON Lines or Avro) or Cloud Storage subscription Avro files, plain or gzip-compressed; a folder or a quoted pattern ("archive/*.avro") stands for its files; "-" reads standard input; several are merged by their clock',
      ),
  )
    .addOption(
      new Option(
        '--input-format <format>',
        'auto: tell the format from the content; text: a Cloud Storage subscription text archive (bare payloads, one message per line, no ids or times)',
      )
        .choices([...INPUT_FORMATS])
        .default('auto'),
    )
    .option('--export <file>', 'write the ordered trace to FILE ("-" for stdout; a name ending in .gz is gzip-compressed)')
    .addOption(
      new Option(
        '--format <format>',
        'trace format; default from the file extension (.csv → csv, .json → chrome-trace, .parquet → parquet, else jsonl)',
      ).choices([...TRACE_FORMATS]),
    );
  addExportFilterOptions(replayCommand)
    .option('--json', 'print the summary as one JSON object on stdout')
    .addOption(
      new Option(
        '--sort-keys <order>',
        `order of the keys in the summary, in --json's byKey and of a Chrome trace's tracks: ${KEY_ORDERS.map((o) => `${o} (${KEY_ORDER_DETAILS[o]})`).join('; ')}`,
      )
        .choices([...KEY_ORDERS])
        .default('arrival'),
    )
    .option(
      '--threads <n>',
      'threads that read JSON Lines captures (other formats are read on one): 1 reads on the thread that sequences; the result is the same for any number (default: the available cores; 1 with --export)',
    )
    .option('--no-progress', 'no progress line on stderr (shown only when stderr is a terminal)')
    .option('--fail-on <findings>', `exit 3 when any of these occurred: comma-separated ${FINDINGS.join(',')}`)
    .addHelpText(
      'after',
      `
Sequencing rules (full text in README.md):
  A key's messages are held for the gap timeout after its first message; its lowest number is then
  the first expected one. The expected number is released at once, with every held successor. A
  higher number is held; a gap waits the gap timeout from the arrival of the earliest message held
  above it, then the missing range is declared lost (one gap event per range) and the held run
  released. A number delivered or held before is a duplicate (redelivery: same messageId); a
  number declared lost that then arrives is late. With --seq publishTime (the default for
  ordering keys) nothing is held: a message that arrives after one of its key published later
  is reordered. Records that cannot be sequenced are invalid:
  reported with their line, skipped, counted. Time is the capture's own clock (receivedAt, else
  publishTime).

Exit codes: 0 ok · 2 usage or input error, no record could be sequenced, or the keys filled the memory · 3 a --fail-on finding
occurred · 130 interrupted · 141 standard output closed early (| head): the replay stops there,
quietly.

Examples:
  seqscope replay capture.jsonl
  seqscope replay --preset cme feed.jsonl --export ordered.jsonl
  seqscope replay --preset cme feed.jsonl.gz --export ordered.jsonl.gz
  gcloud storage cat gs://captures/feed.jsonl | seqscope replay - --json
  seqscope replay a.jsonl b.jsonl --key attribute:customer --seq attribute:n --json
  seqscope replay 'archive/*.avro' --seq attribute:n            (Cloud Storage subscription files)
  seqscope replay --input-format text archive/                  (its text files: bare payloads)
  seqscope replay feed.jsonl --preset cme --export trace.json --format chrome-trace --fail-on gap,late
  seqscope replay feed.jsonl --preset cme --export - --only gap,late --only-key 310
  seqscope replay feed.jsonl --export - --grep '"sym":"ES[HZ]6"'`,
    )
    .action((paths: string[], flags: ReplayFlags) => run(replay(paths, flags, io)));

  registerCompareCommand(program, io, run, addSequencingOptions, scanPoolFor);
  registerPubsubCommands(program, io, run, addSequencingOptions);
  registerMcpCommand(program, io, run);

  // No command at all is a usage error (a script that lost its arguments must not pass): the
  // usage goes to stderr, exit 2. `seqscope --help` stays exit 0 on stdout.
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    return exitCodeFor(e, io);
  }
  return exitCode;
}

/**
 * What a failure prints and the exit code: 2 for the user's input (flags, arguments, captures that
 * cannot be read, Pub/Sub refusals with a next step), 1 for everything else (a bug: "internal
 * error", the stack with SEQSCOPE_DEBUG=1).
 */
export function exitCodeFor(e: unknown, io: Pick<Io, 'stderr'>, env: NodeJS.ProcessEnv = process.env): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
    // Commander has printed its one-line message already.
    return EXIT.usage;
  }
  // What read an exported trace on stdout went away (| head): not an error, see the exit code.
  if (e instanceof ExportError && e.code === 'EPIPE') return EXIT.brokenPipe;
  if (e instanceof ExportError) {
    io.stderr.write(`seqscope: ${e.message}: ${e.nextStep}\n`);
    return EXIT.usage;
  }
  // The user's input (flags, arguments, options; also from dist/pubsub.js, hence by name) and
  // captures that cannot be read. Not RangeError: V8's stack overflow and invariant checks are
  // bugs, reported below as internal errors (exit 1).
  if (isInputError(e) || e instanceof CaptureError) {
    io.stderr.write(`seqscope: ${e.message}\n`);
    return EXIT.usage;
  }
  // Pub/Sub failures come from the separately loaded dist/pubsub.js, so match by name, not class.
  if ((e as Error)?.name === 'PubsubError') {
    io.stderr.write(`seqscope: ${(e as Error).message}: ${(e as { nextStep: string }).nextStep}\n`);
    return EXIT.usage;
  }
  // Anything else is a bug — also a RangeError (V8's stack overflow, an invariant check): exit 1,
  // one short line, the stack with SEQSCOPE_DEBUG=1.
  io.stderr.write(internalError(e, env));
  return EXIT.failure;
}

/** "internal error: …" for stderr; the stack with SEQSCOPE_DEBUG=1; credentials a library quoted, redacted. */
function internalError(e: unknown, env: NodeJS.ProcessEnv): string {
  const err = e instanceof Error ? e : new Error(String(e));
  return redactSecrets(`seqscope: internal error: ${err.message}${env.SEQSCOPE_DEBUG ? '\n' + err.stack : ' (set SEQSCOPE_DEBUG=1 for details)'}\n`, env);
}

/** The sequencing flags `replay` and `record` share. */
function addSequencingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--preset <name>',
      `named option set; other flags override it (built in: ${Object.keys(PRESETS).join(', ')}; cme = --key attribute:Channel --seq attribute:MsgSeqNum --seq-bits 32, latency from SendingTime; cme-json = CME Smart Stream JSON, one sequence per topic: --key none --seq json:header.sequenceNumber --time json:header.sentTime)`,
    )
    .option('--preset-file <file>', 'JSON file of more presets: {"name": {"key": …, "seq": …, "seqBits": …, "time": …, "gapTimeout": …, "capacity": …}}')
    .option('--key <spec>', 'what orders together: orderingKey | attribute:<name> | json:<path> (a payload field) | none', undefined)
    .option(
      '--seq <spec>',
      'sequence number: attribute:<name> | mdp3 (the MsgSeqNum in the MDP 3.0 packet that is the payload; 32-bit; a record whose MsgSeqNum attribute disagrees is invalid) | json:<path> (a payload field, e.g. json:header.seq) | publishTime (no numbers: arrival order, a message that came after one of its key published later is reordered; the default with --key orderingKey) | none (keep arrival order, find duplicates by messageId)',
    )
    .option(
      '--time <spec>',
      "sender's time, for latency: attribute:<name> (ms since the epoch) | mdp3 (the MDP 3.0 packet's SendingTime, ns) | json:<path> (ISO 8601, zone-less read as UTC, or ms/ns since the epoch) | none",
    )
    .addOption(new Option('--seq-bits <bits>', 'sequence width; 16 and 32 wrap (RFC 1982 serial arithmetic)').choices(['16', '32', '64']))
    .option('--gap-timeout <duration>', 'how long a gap (and the start of a key) waits before missing numbers are declared lost: 500ms, 10s, 2m (default 10s)')
    .option('--capacity <n>', 'messages a key may hold; above it the lowest gap is declared lost at once (default 10000)')
    .option(
      '--reset-to <n>',
      'a jump back to exactly this number is a sequence reset at once (cme: 1); other far jumps down are resets when what follows continues from them',
    )
    .option('--no-resets', 'no reset detection: a jump back is late, duplicates or a gap');
}

async function replay(named: string[], flags: ReplayFlags, io: Io): Promise<number> {
  const paths = await expandCapturePaths(named);
  const options = optionsFromFlags(flags, (line) => io.stderr.write(line));
  const failOn = flags.failOn === undefined ? [] : parseNameList(flags.failOn, FINDINGS, '--fail-on', 'a finding');
  const filter = exportFilterFromFlags(flags, options.seqBits);
  const query = messageQueryFromFlags(flags);
  if ((filter || query) && flags.export === undefined) {
    throw new UsageError(
      '--only, --only-key, --numbers, --where, --grep and --message-id choose what --export writes: add --export FILE (or --export - for stdout)',
      query && !filter ? (flags.grep !== undefined ? '--grep' : '--message-id') : '--only',
    );
  }
  // An export keeps every record's bytes, which then cross threads: on one thread it takes less
  // CPU and no more time, so threads are for summaries unless asked for.
  const threads = flags.threads !== undefined ? parseThreads(flags.threads) : flags.export !== undefined ? 1 : defaultThreads();
  const stdinProblem = standardInputProblem(paths, io.stdin, 'seqscope replay -');
  if (stdinProblem) throw new UsageError(stdinProblem);
  const repeated = repeatedInput(paths.filter((p) => p !== '-'));
  if (repeated !== undefined) throw new UsageError(repeatedInputMessage(repeated, 'name each capture once'));
  let format: TraceFormat | undefined;
  if (flags.format !== undefined) {
    if (!isTraceFormat(flags.format)) throw new UsageError(`--format must be one of ${TRACE_FORMATS.join(', ')}`, '--format');
    if (flags.export === undefined) throw new UsageError('--format needs --export <file>', '--format');
    format = flags.format;
  }
  if (flags.export === '-' && flags.json) throw new UsageError('--export - and --json both want stdout: export to a file instead', '--export');
  const overwritten =
    flags.export !== undefined && flags.export !== '-'
      ? inputOverwrittenBy(
          flags.export,
          paths.filter((p) => p !== '-'),
        )
      : undefined;
  if (overwritten !== undefined) {
    const same = overwritten === flags.export ? '' : ` (the same file as ${overwritten})`;
    throw new UsageError(`--export ${flags.export} would overwrite a capture being read${same}: export to another file`, '--export');
  }

  // Counts what the filter lets through, for the summary.
  let exportedEvents = 0;
  // Records --grep passed over because their payload is binary (MDP 3.0 packets): said once.
  let binaryPayloads = 0;
  const matches = filter && traceEventMatcher(filter);
  const queryMatches = query && traceEventQueryMatcher(query, { flag: '--grep' }, () => binaryPayloads++);
  const exportMatcher =
    (matches || queryMatches) &&
    ((ev: TraceEvent, e?: CaptureEntry): boolean => {
      if (matches && !matches(ev, e)) return false;
      if (queryMatches && !queryMatches(ev, e)) return false;
      exportedEvents++;
      return true;
    });
  const writer =
    flags.export === undefined
      ? undefined
      : await TraceWriter.open(flags.export === '-' ? io.stdout : flags.export, format ?? formatForPath(flags.export), flags.sortKeys, {
          mdp3: options.payload === 'mdp3',
        });

  // Ctrl-C stops reading; what was read is still sequenced, exported and summarised.
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  // A terminal watching a gigabyte capture should see it move; logs and pipes get nothing.
  const progress = progressLineFor(io.stderr, paths.map(inputName).join(', '), flags.progress);
  const scanPool = scanPoolFor(threads, flags.export !== undefined);
  let result;
  try {
    result = await runReplay({
      scanPool,
      paths,
      options,
      writer,
      signal: abort.signal,
      // Many keys (a topic keyed per order) can fill Node's heap: stop with what was read and
      // say why, rather than die in V8's fatal error with nothing.
      heapGuard: new HeapGuard(),
      stdin: io.stdin,
      inputFormat: flags.inputFormat,
      exportFilter: exportMatcher,
      onProgress: progress && ((read, total) => progress.update(read, total)),
    });
  } finally {
    process.off('SIGINT', onSigint);
    progress?.clear();
    await scanPool?.close();
  }
  const { cancelled, heapStop } = result;
  for (const note of result.notes) io.stderr.write(`seqscope: note: ${note}\n`);
  const summary = sortedByKey(result.summary, flags.sortKeys ?? 'arrival');
  const summaryOut = flags.export === '-' ? io.stderr : io.stdout;
  const filterWords = [filter && describeFilter(filter), query && describeQuery(query)].filter(Boolean).join(' · ');
  const exportNote = (filter || query) && { filter: filterWords, events: exportedEvents };
  if (binaryPayloads > 0)
    io.stderr.write(
      `seqscope: note: --grep passed over ${binaryPayloads} ${noun(binaryPayloads, 'record')} whose payload is binary, not UTF-8 text (MDP 3.0 packets, say): --message-id or --where finds them\n`,
    );
  if (flags.json) {
    const stopped = heapStop ? { stopped: 'memory', heapMiB: mebibytes(heapStop.heap.used), heapLimitMiB: mebibytes(heapStop.heap.limit) } : {};
    writeJsonSummary(summaryOut, { ...summary, ...(cancelled ? { cancelled } : {}), ...stopped, ...(exportNote ? { exported: exportNote } : {}) });
  } else summaryOut.write(formatSummary(summary, { cancelled, stoppedForMemory: heapStop !== undefined, exported: flags.export, exportNote }));
  if (heapStop) {
    io.stderr.write(`seqscope: ${heapStopMessage(heapStop, flags.export !== undefined)}\n`);
    return EXIT.usage;
  }
  if (cancelled) return EXIT.interrupted;
  // Bare JSON payloads (a Cloud Storage text archive) read as JSON Lines in which no line is a message.
  // Records read and none sequenced: the options (or the input format) do not fit the capture.
  // A failed run, said once, with the fix: for bare payloads, the note that names --input-format.
  if (summary.unsequenced) {
    io.stderr.write(
      barePayloads(summary) ? `seqscope: note: ${BARE_PAYLOADS}\n` : `seqscope: ${summary.unsequenced.reason}: ${summary.unsequenced.fix.flag}\n`,
    );
    return EXIT.usage;
  }
  if (summary.tooWide) io.stderr.write(`seqscope: ${tooWideMessage(summary.tooWide, 'flag')}\n`);
  // Not an error (a recording of a quiet topic is empty), but a wrong file often is too.
  if (summary.received + summary.invalid === 0)
    io.stderr.write(`seqscope: note: ${paths.map(inputName).join(', ')} ${paths.length > 1 ? 'hold' : 'holds'} no records: nothing was sequenced\n`);
  const hit = failOn.filter((f) => count(summary, f) > 0);
  if (hit.length) {
    io.stderr.write(`seqscope: --fail-on: ${hit.map((f) => `${count(summary, f)} ${noun(count(summary, f), ...FINDING_NOUNS[f])}`).join(', ')}\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
}

/** `--threads`: a whole number of threads, 1 to 256. */
function parseThreads(text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= 256)) throw new UsageError(`--threads must be a whole number from 1 to 256, not ${JSON.stringify(text)}`, '--threads');
  return n;
}

/**
 * The scanning threads of a replay: with one thread (or when run from source, where there is no
 * bundled dist/scanWorker.js beside this file) records are scanned on this thread, same result.
 * An export reads each record whole anyway, so on one thread it parses each once instead.
 */
function scanPoolFor(threads: number, exporting: boolean): WorkerScanPool | InlineScanPool | undefined {
  const script = join(__dirname, 'scanWorker.js');
  if (threads >= 2 && existsSync(script)) return new WorkerScanPool(script, threads);
  return exporting ? undefined : new InlineScanPool();
}

const BARE_PAYLOADS =
  "no record is a Pub/Sub message: if these are bare payloads (a Cloud Storage subscription's text archive), read them with --input-format text";

/**
 * Why the heap guard stopped a replay, where, and what to do. The cause is the keys: all else
 * a replay keeps is bounded (see README, Performance), a key's state is not.
 */
function heapStopMessage(h: HeapStop, exported: boolean): string {
  const where = h.path === undefined ? '' : ` after line ${h.line} of ${inputName(h.path)}`;
  const share = h.totalBytes > 0 ? ` (${Math.floor((h.bytesRead / h.totalBytes) * 100)} % read)` : '';
  // Twice the heap, in whole GiB: enough for twice the keys.
  const more = Math.ceil((2 * h.heap.limit) / 2 ** 30) * 1024;
  return (
    `stopped reading${where}${share}: its ${h.keys} keys fill the memory Node allows the replay (${mebibytes(h.heap.used)} MiB in use and some ${mebibytes(h.heap.reserve)} MiB to summarise them, ` +
    `of ${mebibytes(h.heap.limit)} MiB; the sequencer keeps counters and state for each key). ${exported ? 'The summary and the exported trace cover' : 'The summary covers'} what was read. ` +
    `To read it all, give Node more memory (NODE_OPTIONS=--max-old-space-size=${more} seqscope replay …) or sequence by a coarser key (--key attribute:<name>, or --key none)`
  );
}

/**
 * Writes the JSON summary in pieces: with millions of keys its byKey list is hundreds of
 * megabytes as one string, which could itself exhaust the heap the replay just fit in.
 */
function writeJsonSummary(out: NodeJS.WritableStream, summary: ReplaySummary & Record<string, unknown>): void {
  const { byKey } = summary;
  const [head, tail] = JSON.stringify({ ...summary, byKey: [] }).split('"byKey":[]');
  out.write(`${head}"byKey":[`);
  const PIECE = 10_000;
  for (let i = 0; i < byKey.length; i += PIECE) {
    out.write(
      (i > 0 ? ',' : '') +
        byKey
          .slice(i, i + PIECE)
          .map((k) => JSON.stringify(k))
          .join(','),
    );
  }
  out.write(`]${tail}\n`);
}

function count(s: ReplaySummary, f: Finding): number {
  switch (f) {
    case 'gap':
      return s.gaps;
    case 'duplicate':
      return s.duplicates;
    case 'conflict':
      return s.conflicts;
    case 'late':
      return s.late;
    case 'reordered':
      return s.reordered;
    case 'invalid':
      return s.invalid;
    case 'reset':
      return s.resets;
  }
}

/**
 * The exit code once standard output has failed: a closed pipe (`seqscope replay x --export - |
 * head`) is 141, with no message, as for a tool ended by SIGPIPE; another failure (a full disk)
 * is said once and is 2, unless the command already failed and said why.
 */
function exitCodeAfterOutputFailure(code: number, failure: NodeJS.ErrnoException, say: (line: string) => void): number {
  if (failure.code === 'EPIPE') return EXIT.brokenPipe;
  if (code !== EXIT.ok && code !== EXIT.findings) return code;
  const e = writeError('stdout', failure);
  say(`seqscope: ${e.message}: ${e.nextStep}\n`);
  return EXIT.usage;
}

if (require.main === module) {
  // Node reports a failed write to stdout as an 'error' event, which unhandled printed a stack
  // trace (`seqscope --help | head -1`). Handled here, the command still finishes its cleanup
  // (a tap is deleted) and the exit code tells what happened, whichever of the two comes first.
  let mainCode: number | undefined;
  let failure: NodeJS.ErrnoException | undefined;
  let said = false;
  const settle = () => {
    if (mainCode === undefined) return;
    process.exitCode = failure
      ? exitCodeAfterOutputFailure(mainCode, failure, (line) => {
          if (!said) process.stderr.write(line);
          said = true;
        })
      : mainCode;
  };
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    failure ??= e;
    settle();
  });
  main(process.argv.slice(2)).then(
    (code) => {
      mainCode = code;
      settle();
    },
    (e) => {
      process.stderr.write(internalError(e, process.env));
      mainCode = EXIT.failure;
      settle();
    },
  );
  // Node's own printer shows the source line of what threw: for a library parsing a key file,
  // the key. An exception no caller can catch is an internal error like any other.
  process.on('uncaughtException', (e) => {
    process.stderr.write(internalError(e, process.env));
    process.exit(EXIT.failure);
  });
}

/** The summary with its keys in the order `--sort-keys` asks for (the engine lists them as they appeared). */
function sortedByKey(summary: ReplaySummary, order: KeyOrder): ReplaySummary {
  if (order === 'arrival') return summary;
  const byKey = summary.byKey;
  return { ...summary, byKey: orderKeys(byKey, order, (k) => k.key).map((i) => byKey[i]) };
}
