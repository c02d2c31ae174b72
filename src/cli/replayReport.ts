/**
 * What a finished replay prints — its summary as a table or JSON, its notes — and the exit code
 * its result and `--fail-on` give.
 */
import { ReplaySummary, tooWideMessage } from '../core/replay/replayEngine';
import { barePayloads } from '../core/replay/barePayloads';
import { HeapStop, ReplayRunResult } from '../core/replay/replayRun';
import { KeyOrder, orderKeys } from '../core/trace/keyOrder';
import { mebibytes } from '../core/util/byteSize';
import { noun } from '../core/util/plural';
import { Io } from './cliIo';
import { EXIT } from './exitCodes';
import { Finding, findingCount, findingInWords } from './replayFindings';
import { inputName } from './standardInput';
import { formatSummary, SummaryNotes } from './summaryTable';

/** What the report needs to know of the replay's flags and export. */
export interface ReplayReport {
  readonly paths: readonly string[];
  /** --json */
  readonly json?: boolean;
  /** --export's file, "-" for stdout. */
  readonly export?: string;
  readonly sortKeys?: KeyOrder;
  readonly failOn: readonly Finding[];
  readonly exportNote: SummaryNotes['exportNote'];
  /** Records --grep passed over because their payload is binary (MDP 3.0 packets): said once. */
  readonly binaryPayloads: number;
}

/** Prints the replay's summary and notes; returns its exit code. */
export function reportReplay(result: ReplayRunResult, report: ReplayReport, io: Io): number {
  const summary = sortedByKey(result.summary, report.sortKeys ?? 'arrival');
  writeSummary(result, summary, report, io);
  return exitCode(result, summary, report, io);
}

/** The run's notes, then its summary: on stdout, or on stderr when the trace is exported to stdout. */
function writeSummary(result: ReplayRunResult, summary: ReplaySummary, report: ReplayReport, io: Io): void {
  const { cancelled, heapStop } = result;
  const { exportNote, binaryPayloads } = report;
  for (const note of result.notes) io.stderr.write(`seqscope: note: ${note}\n`);
  const summaryOut = report.export === '-' ? io.stderr : io.stdout;
  if (binaryPayloads > 0)
    io.stderr.write(
      `seqscope: note: --grep passed over ${binaryPayloads} ${noun(binaryPayloads, 'record')} whose payload is binary, not UTF-8 text (MDP 3.0 packets, say): --message-id or --where finds them\n`,
    );
  if (report.json) {
    const stopped = heapStop ? { stopped: 'memory', heapMiB: mebibytes(heapStop.heap.used), heapLimitMiB: mebibytes(heapStop.heap.limit) } : {};
    writeJsonSummary(summaryOut, { ...summary, ...(cancelled ? { cancelled } : {}), ...stopped, ...(exportNote ? { exported: exportNote } : {}) });
  } else summaryOut.write(formatSummary(summary, { cancelled, stoppedForMemory: heapStop !== undefined, exported: report.export, exportNote }));
}

/** The exit code, with the one line on stderr that explains a failure, or a note. */
function exitCode({ cancelled, heapStop }: ReplayRunResult, summary: ReplaySummary, report: ReplayReport, io: Io): number {
  const { paths } = report;
  if (heapStop) {
    io.stderr.write(`seqscope: ${heapStopMessage(heapStop, report.export !== undefined)}\n`);
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
  const hit = report.failOn.filter((f) => findingCount(summary, f) > 0);
  if (hit.length) {
    io.stderr.write(`seqscope: --fail-on: ${hit.map((f) => findingInWords(summary, f)).join(', ')}\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
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

/** The summary with its keys in the order `--sort-keys` asks for (the engine lists them as they appeared). */
function sortedByKey(summary: ReplaySummary, order: KeyOrder): ReplaySummary {
  if (order === 'arrival') return summary;
  const byKey = summary.byKey;
  return { ...summary, byKey: orderKeys(byKey, order, (k) => k.key).map((i) => byKey[i]) };
}
