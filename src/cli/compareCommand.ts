/**
 * `seqscope compare A B`: two captures of one stream side by side — what each had that the
 * other did not, what both lost, which was first, and the merged (arbitrated) stream.
 */
import { Command, Option } from 'commander';
import { basename } from 'node:path';
import { CaptureError, INPUT_FORMATS, InputFormat } from '../core/capture/captureReader';
import { expandCapturePaths } from '../core/capture/capturePaths';
import { inputOverwrittenBy, repeatedInput, repeatedInputMessage } from '../core/capture/fileIdentity';
import { clockNote, readClocks } from '../core/compare/clockOffset';
import { CompareExport } from '../core/compare/compareExport';
import { CompareRunResult, runCompare, sideProblem } from '../core/compare/compareRun';
import { HeapGuard } from '../core/replay/heapGuard';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { mebibytes } from '../core/util/byteSize';
import { noun } from '../core/util/plural';
import { defaultThreads } from '../timeline/node/scanPool';
import { Io, RunAction } from './cliIo';
import { formatComparison } from './compareTable';
import { EXIT } from './exitCodes';
import { parseNameList } from './exportFilterFlags';
import { progressLineFor } from './progressLine';
import { parseThreads } from './numberFlags';
import type { ConnectionFlags } from './pubsubConnection';
import { addSchemaServiceOptions, withFetchedSchemas } from './schemaPrefetch';
import { scanPoolFor } from './scanPools';
import { addSequencingOptions, optionsFromFlags, SequencingFlags } from './sequencingFlags';
import { inputName, standardInputProblem } from './standardInput';
import { UsageError } from './usageError';

export const COMPARE_FINDINGS = ['only-a', 'only-b', 'lost-both'] as const;
type CompareFinding = (typeof COMPARE_FINDINGS)[number];

interface CompareFlags extends SequencingFlags, ConnectionFlags {
  labelA?: string;
  labelB?: string;
  json?: boolean;
  export?: string;
  failOn?: string;
  inputFormat?: InputFormat;
  threads?: string;
  progress?: boolean;
}

/** Adds `compare`, its flags and its help to the program. */
export function registerCompareCommand(program: Command, io: Io, run: RunAction): void {
  addSchemaServiceOptions(
    addSequencingOptions(
      program
        .command('compare')
        .description(
          'Compare two captures of one stream (two subscriptions, A and B feeds, a recording and its archive): per key what both had, what only one had, what both lost, which was first, and the merged stream.',
        )
        .argument('<a>', 'side A: a capture file, a folder or a quoted pattern of archive files, or "-" (standard input)')
        .argument('<b>', 'side B: the same kinds; "-" on one side only'),
    ),
  )
    .addOption(
      new Option('--input-format <format>', 'auto: tell the format from the content; text: Cloud Storage text archives')
        .choices([...INPUT_FORMATS])
        .default('auto'),
    )
    .option('--label-a <name>', 'what to call side A (default: its file name)')
    .option('--label-b <name>', 'what to call side B (default: its file name)')
    .option('--json', 'print the comparison as one JSON object on stdout')
    .option(
      '--export <file>',
      'one row per key and number: key, seq, inA, inB, arrivedA, arrivedB, deltaMs, messageIdA, messageIdB; runs both lost as one row (to, count). CSV when FILE ends in .csv, else JSON Lines; "-" for stdout',
    )
    .option('--fail-on <findings>', `exit 3 when any of these occurred: comma-separated ${COMPARE_FINDINGS.join(',')}`)
    .option('--threads <n>', 'threads that read JSON Lines captures (default: the available cores)')
    .option('--no-progress', 'no progress line on stderr (shown only when stderr is a terminal)')
    .addHelpText(
      'after',
      `
An identity is a key's number (its messageId with --seq none). Copies after the first of an
identity on one side are that side's duplicates. Both sides are merged by their clock (receivedAt,
else publishTime; ties to A); the merged stream is sequenced as replay would, the first copy of an
identity winning from either side. Details, the --json shape and the clock-offset rule: docs/cli.md.

Exit codes: 0 ok · 2 usage or input error, a side empty or with no valid record (named) · 3 a
--fail-on finding occurred · 130 interrupted.

Examples:
  seqscope compare sub-a.jsonl sub-b.jsonl --preset cme
  seqscope compare recording.jsonl 'archive/*.avro' --seq attribute:n --label-b archive
  seqscope compare feed-a.jsonl feed-b.jsonl --preset cme --export diff.csv --fail-on lost-both`,
    )
    .action((a: string, b: string, flags: CompareFlags) => run(compare(a, b, flags, io)));
}

/** What the flags ask of a comparison, checked before anything is read. */
interface ComparePlan {
  /** The sides as named on the command line. */
  readonly a: string;
  readonly b: string;
  readonly labels: [string, string];
  readonly pathsA: string[];
  readonly pathsB: string[];
  readonly options: SequencingOptions;
  readonly failOn: CompareFinding[];
  readonly threads: number;
}

async function compare(a: string, b: string, flags: CompareFlags, io: Io): Promise<number> {
  const plan = await planCompare(a, b, flags, io);
  const rows = flags.export === undefined ? undefined : await CompareExport.open(flags.export, io.stdout);
  const result = await runUntilInterrupted(plan, flags, rows, io);
  for (const note of result.notes) io.stderr.write(`seqscope: note: ${note}\n`);
  const failure = whyNotCompared(result, plan);
  if (failure !== undefined) {
    await rows?.discard();
    io.stderr.write(`seqscope: ${failure}\n`);
    return EXIT.usage;
  }
  await rows?.close();
  writeComparison(result, plan, flags, rows, io);
  if (result.cancelled) return EXIT.interrupted;
  const totals = result.comparison.totals;
  const hit = plan.failOn.filter((f) => findingCount(totals, f) > 0);
  if (hit.length) {
    io.stderr.write(`seqscope: --fail-on: ${hit.map((f) => `${findingCount(totals, f)} ${f}`).join(', ')}\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
}

/** The sides' files and the options the flags name; a usage error for what cannot be compared as given. */
async function planCompare(a: string, b: string, flags: CompareFlags, io: Io): Promise<ComparePlan> {
  const warn = (line: string) => io.stderr.write(line);
  const given = optionsFromFlags(flags, warn);
  const failOn = flags.failOn === undefined ? [] : parseNameList(flags.failOn, COMPARE_FINDINGS, '--fail-on', 'a finding');
  const labels: [string, string] = [flags.labelA ?? defaultLabel(a), flags.labelB ?? defaultLabel(b)];
  const [pathsA, pathsB] = [await sidePaths(a, 'A', labels[0]), await sidePaths(b, 'B', labels[1])];
  const stdinProblem = standardInputProblem([...pathsA, ...pathsB], io.stdin, 'seqscope compare - b.jsonl');
  if (stdinProblem) throw new UsageError(stdinProblem);
  for (const [paths, side] of [
    [pathsA, 'A'],
    [pathsB, 'B'],
  ] as const) {
    const repeated = repeatedInput(paths.filter((p) => p !== '-'));
    if (repeated !== undefined) throw new UsageError(`side ${side}: ${repeatedInputMessage(repeated, 'name each capture once')}`);
  }
  if (flags.export === '-' && flags.json) throw new UsageError('--export - and --json both want stdout: export to a file instead', '--export');
  const inputs = [...pathsA, ...pathsB].filter((p) => p !== '-');
  const overwritten = flags.export !== undefined && flags.export !== '-' ? inputOverwrittenBy(flags.export, inputs) : undefined;
  if (overwritten !== undefined) throw new UsageError(`--export ${flags.export} would overwrite a capture being read: export to another file`, '--export');
  const threads = flags.threads === undefined ? defaultThreads() : parseThreads(flags.threads);
  // Connected, the schema revisions both sides name are fetched first.
  const options = await withFetchedSchemas(given, inputs, flags, warn);
  return { a, b, labels, pathsA, pathsB, options, failOn, threads };
}

/** Runs the comparison; Ctrl-C stops reading, and what was read is still compared. A side that cannot be read is named. */
async function runUntilInterrupted(plan: ComparePlan, flags: CompareFlags, rows: CompareExport | undefined, io: Io): Promise<CompareRunResult> {
  const { pathsA, pathsB } = plan;
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const progress = progressLineFor(io.stderr, `${inputName(plan.a)} ⇄ ${inputName(plan.b)}`, flags.progress);
  const scanPool = scanPoolFor(plan.threads, flags.export !== undefined);
  try {
    return await runCompare({
      a: { paths: pathsA },
      b: { paths: pathsB },
      options: plan.options,
      stdin: io.stdin,
      inputFormat: flags.inputFormat,
      signal: abort.signal,
      heapGuard: new HeapGuard(),
      scanPool,
      rows,
      onProgress: progress && ((read, total) => progress.update(read, total)),
    });
  } catch (e) {
    await rows?.discard();
    throw e instanceof CaptureError ? new CaptureError(`side ${pathsA.includes(e.path) ? 'A' : 'B'}: ${e.message}`, e.path, e.line) : e;
  } finally {
    process.off('SIGINT', onSigint);
    progress?.clear();
    await scanPool?.close();
  }
}

/** Why the result is no comparison (a side empty or not sequenced, the memory full), or undefined. */
function whyNotCompared(result: CompareRunResult, { labels, pathsA, pathsB }: ComparePlan): string | undefined {
  const problem = sideProblem(result, labels, [pathsA, pathsB], inputName, '--preset, --key, --seq');
  if (problem !== undefined) return problem;
  if (result.heapStop) {
    const h = result.heapStop.heap;
    return `stopped reading: the comparison's keys and unmatched messages fill the memory Node allows (${mebibytes(h.used)} of ${mebibytes(h.limit)} MiB): give Node more (NODE_OPTIONS=--max-old-space-size=…) or compare by a coarser key`;
  }
  return undefined;
}

/** The comparison as a table or JSON: on stdout, or on stderr when the rows are exported to stdout. Notes go to stderr. */
function writeComparison(
  result: CompareRunResult,
  { labels, pathsA, pathsB }: ComparePlan,
  flags: CompareFlags,
  rows: CompareExport | undefined,
  io: Io,
): void {
  const c = result.comparison;
  const notes: string[] = [];
  if (c.sharedKeys === 0)
    notes.push(`no shared key: A and B have no key in common (${noun(c.byKey.length, 'key')} in all) — are they of one stream, sequenced with the same --key?`);
  const clock = clockNote(readClocks(result.spread), labels);
  if (clock) notes.push(clock);
  const out = flags.export === '-' ? io.stderr : io.stdout;
  if (flags.json) {
    out.write(
      JSON.stringify({
        a: { label: labels[0], files: pathsA },
        b: { label: labels[1], files: pathsB },
        options: result.merged.options,
        byKey: c.byKey,
        totals: c.totals,
      }) + '\n',
    );
    for (const n of notes) io.stderr.write(`seqscope: note: ${n}\n`);
  } else {
    out.write(
      formatComparison({
        labels,
        options: result.merged.options,
        byKey: c.byKey,
        totals: c.totals,
        notes,
        cancelled: result.cancelled,
        exported: rows && flags.export !== undefined ? { target: flags.export, rows: rows.rows } : undefined,
      }),
    );
  }
}

/** A side's name when --label-a or --label-b does not give one: its file or folder name. */
function defaultLabel(arg: string): string {
  return arg === '-' ? 'standard input' : basename(arg.replace(/[/\\]+$/, '')) || arg;
}

/** A side's files; what cannot be found is an input error naming the side. */
async function sidePaths(arg: string, side: 'A' | 'B', label: string): Promise<string[]> {
  try {
    return await expandCapturePaths([arg]);
  } catch (e) {
    if (e instanceof CaptureError) throw new CaptureError(`side ${side} (${label}): ${e.message}`, e.path, e.line);
    throw e;
  }
}

/** How many times `f` occurred. */
function findingCount(t: CompareRunResult['comparison']['totals'], f: CompareFinding): number {
  switch (f) {
    case 'only-a':
      return t.onlyA;
    case 'only-b':
      return t.onlyB;
    case 'lost-both':
      return t.lostBoth;
  }
}
