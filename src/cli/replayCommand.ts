/**
 * `seqscope replay`: capture files through the sequencer, a summary of what it found, and the
 * ordered trace exported on request.
 */
import { Command, Option } from 'commander';
import { CaptureEntry } from '../core/capture/captureRecord';
import { INPUT_FORMATS, InputFormat } from '../core/capture/captureReader';
import { expandCapturePaths } from '../core/capture/capturePaths';
import { inputOverwrittenBy, repeatedInput, repeatedInputMessage } from '../core/capture/fileIdentity';
import { formatForPath, isTraceFormat, TRACE_FORMATS, TraceFormat } from '../core/export';
import { TraceWriter } from '../core/export/traceWriter';
import { HeapGuard } from '../core/replay/heapGuard';
import { ReplayRunOptions, ReplayRunResult, runReplay } from '../core/replay/replayRun';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { KEY_ORDER_DETAILS, KEY_ORDERS, KeyOrder } from '../core/trace/keyOrder';
import { decodedTextOf } from '../core/trace/decodedText';
import { describeQuery, MessageQuery, traceEventQueryMatcher } from '../core/trace/messageMatch';
import { TraceEvent } from '../core/trace/traceEvents';
import { describeFilter, traceEventMatcher, TraceFilterSpec } from '../core/trace/traceFilter';
import { Io, RunAction } from './cliIo';
import { addExportFilterOptions, ExportFilterFlags, exportFilterFromFlags, messageQueryFromFlags, parseNameList } from './exportFilterFlags';
import { progressLineFor } from './progressLine';
import type { ConnectionFlags } from './pubsubConnection';
import { addSchemaServiceOptions, withFetchedSchemas } from './schemaPrefetch';
import { withRecorded } from '../core/schema/schemaSet';
import { Finding, FINDINGS } from './replayFindings';
import { reportReplay } from './replayReport';
import { parseThreads } from './numberFlags';
import { scanPoolFor } from './scanPools';
import { addSequencingOptions, optionsFromFlags, SequencingFlags } from './sequencingFlags';
import { inputName, standardInputProblem } from './standardInput';
import { UsageError } from './usageError';
import { defaultThreads } from '../timeline/node/scanPool';

interface ReplayFlags extends SequencingFlags, ExportFilterFlags, ConnectionFlags {
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

/** What `seqscope replay --help` says after the options. */
const REPLAY_HELP = `
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
  seqscope replay feed.jsonl --export - --grep '"sym":"ES[HZ]6"'
  seqscope replay trades.jsonl --key json:channel --seq json:seq --schema trades=trades.avsc   (Avro payloads)`;

/** Adds `replay`, its flags and its help to the program. */
export function registerReplayCommand(program: Command, io: Io, run: RunAction): void {
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
  addExportFilterOptions(addSchemaServiceOptions(replayCommand))
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
    .addHelpText('after', REPLAY_HELP)
    .action((paths: string[], flags: ReplayFlags) => run(replay(paths, flags, io)));
}

/** What the flags ask of a replay, checked before anything is read. */
interface ReplayPlan {
  readonly paths: string[];
  readonly options: SequencingOptions;
  readonly failOn: Finding[];
  /** --only, --only-key, --numbers, --where: which events the export keeps. */
  readonly filter: TraceFilterSpec | undefined;
  /** --grep, --message-id: which messages' events the export keeps. */
  readonly query: MessageQuery | undefined;
  readonly threads: number;
  readonly format: TraceFormat | undefined;
}

/** What the export let through, and the records --grep passed over because their payload is binary. */
interface ExportTally {
  events: number;
  binaryPayloads: number;
}

async function replay(named: string[], flags: ReplayFlags, io: Io): Promise<number> {
  const plan = await planReplay(named, flags, io);
  const tally: ExportTally = { events: 0, binaryPayloads: 0 };
  const exportFilter = exportMatcher(plan, tally);
  const writer =
    flags.export === undefined
      ? undefined
      : await TraceWriter.open(flags.export === '-' ? io.stdout : flags.export, plan.format ?? formatForPath(flags.export), flags.sortKeys, {
          mdp3: plan.options.payload === 'mdp3',
          schemas: plan.options.schemas,
        });
  const result = await runUntilInterrupted(plan, flags, writer, exportFilter, io);
  const { filter, query } = plan;
  const filterWords = [filter && describeFilter(filter), query && describeQuery(query)].filter(Boolean).join(' · ');
  return reportReplay(
    result,
    {
      paths: plan.paths,
      json: flags.json,
      export: flags.export,
      sortKeys: flags.sortKeys,
      failOn: plan.failOn,
      exportNote: (filter || query) && { filter: filterWords, events: tally.events },
      binaryPayloads: tally.binaryPayloads,
    },
    io,
  );
}

/** The paths and options the flags name; a usage error for flags that do not go together. */
async function planReplay(named: string[], flags: ReplayFlags, io: Io): Promise<ReplayPlan> {
  const paths = await expandCapturePaths(named);
  const warn = (line: string) => io.stderr.write(line);
  // Connected, the schema revisions the captures name are fetched first (the threads decode without waiting).
  const fetched = await withFetchedSchemas(optionsFromFlags(flags, warn), paths, flags, warn);
  // A set of its own, which learns the schemas the captures record, for the export and --grep too.
  const options = { ...fetched, schemas: withRecorded(fetched.schemas, {}) };
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
  return { paths, options, failOn, filter, query, threads, format };
}

/** The export's filter: the events --only… and --grep… keep, counted in `tally`; undefined when neither was given. */
function exportMatcher(plan: ReplayPlan, tally: ExportTally): ReplayRunOptions['exportFilter'] {
  const { filter, query } = plan;
  const matches = filter && traceEventMatcher(filter);
  const queryMatches = query && traceEventQueryMatcher(query, { flag: '--grep' }, () => tally.binaryPayloads++, decodedTextOf(plan.options.schemas));
  if (!matches && !queryMatches) return undefined;
  return (ev: TraceEvent, e?: CaptureEntry): boolean => {
    if (matches && !matches(ev, e)) return false;
    if (queryMatches && !queryMatches(ev, e)) return false;
    tally.events++;
    return true;
  };
}

/** Runs the replay; Ctrl-C stops reading, and what was read is still sequenced, exported and summarised. */
async function runUntilInterrupted(
  plan: ReplayPlan,
  flags: ReplayFlags,
  writer: TraceWriter | undefined,
  exportFilter: ReplayRunOptions['exportFilter'],
  io: Io,
): Promise<ReplayRunResult> {
  const { paths, options } = plan;
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  // A terminal watching a gigabyte capture should see it move; logs and pipes get nothing.
  const progress = progressLineFor(io.stderr, paths.map(inputName).join(', '), flags.progress);
  const scanPool = scanPoolFor(plan.threads, flags.export !== undefined);
  try {
    return await runReplay({
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
      exportFilter,
      onProgress: progress && ((read, total) => progress.update(read, total)),
    });
  } finally {
    process.off('SIGINT', onSigint);
    progress?.clear();
    await scanPool?.close();
  }
}
