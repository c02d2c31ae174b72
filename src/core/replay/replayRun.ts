/**
 * One replay of capture files end to end: read (merged by clock), sequence, optionally export,
 * summarise. The CLI's `replay` and the extension's "Open Capture" both run this.
 */
import { CaptureEntry } from '../capture/captureRecord';
import { CaptureReader, InputFormat } from '../capture/captureReader';
import { HeapAtStop, HeapGuard } from './heapGuard';
import { mergeCaptures } from '../capture/mergeCaptures';
import { EntrySource, ParallelLineReader, ScanPool } from '../capture/parallelReader';
import { ReplayEngine, ReplaySummary, TraceListener } from './replayEngine';
import { SequencingOptions } from '../sequencer/sequencingOptions';
import { TraceWriter } from '../export/traceWriter';
import { TraceEvent } from '../trace/traceEvents';
import type { SchemaDefinition } from '../schema/schemaDefinition';
import type { RecordedSchema } from '../schema/schemaLine';
import { learnRecorded, type SchemaSet } from '../schema/schemaSet';

export interface ReplayRunOptions {
  /** Capture files; "-" reads `stdin`. */
  readonly paths: readonly string[];
  readonly stdin?: NodeJS.ReadableStream;
  /** How the captures' content is told (default: detected; `text` for Cloud Storage text archives). */
  readonly inputFormat?: InputFormat;
  readonly options: SequencingOptions;
  /**
   * Where the ordered trace goes, if anywhere. The run closes it; if the run fails it discards
   * it instead, so a file target keeps what it held before (see OutputFile).
   */
  readonly writer?: TraceWriter;
  /**
   * What a cancelled run does with the trace: keep what was written up to the cancel (the CLI's
   * Ctrl-C: the summary says the run was cut short), or discard it (the editor, whose user asked
   * for the whole trace and would find a cut-off file that looks complete).
   */
  readonly onCancel?: 'keep trace' | 'discard trace';
  /** Which events the writer gets (all when absent); the summary always counts everything. */
  readonly exportFilter?: (event: TraceEvent, entry?: CaptureEntry) => boolean;
  /** Also receives every trace event. */
  readonly listener?: TraceListener;
  readonly signal?: AbortSignal;
  /**
   * Stops reading, as `signal` does, when the heap is nearly full (see heapGuard.ts); the result
   * then says where (`heapStop`).
   */
  readonly heapGuard?: HeapGuard;
  /** What finishing costs per key once stopped, for the guard's reserve (default: what the CLI needs). */
  readonly heapReservePerKey?: number;
  /** Called after each batch with bytes read so far and the total size of all captures. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /**
   * Threads that parse JSON Lines captures while this one sequences (see parallelReader.ts); the
   * caller owns them. Without: each capture is read on this thread. Same result either way.
   */
  readonly scanPool?: ScanPool;
  /**
   * The listener and hooks read of each entry only what sequencing reads (key, number, clock,
   * messageId, place) and of each event nothing that comes from the record alone (publishTime,
   * receivedAt, attributes, data, deliveryAttempt, conflictReason): with a scan pool, entries then
   * do without their bytes and no record is parsed twice (the extension's session loader). An
   * export still gets whole events.
   */
  readonly sequencingOnly?: boolean;
  /** Hooks for callers that index arrivals (the extension's session loader). */
  readonly onEngine?: (engine: ReplayEngine) => void;
  readonly beforePush?: (entry: CaptureEntry) => void;
  readonly afterPush?: (entry: CaptureEntry, valid: boolean) => void;
  readonly beforeFinish?: () => void;
  /** Awaited after each batch (a caller that writes what the hooks gathered, at the pace of its output). */
  readonly afterBatch?: () => Promise<void>;
}

export interface ReplayRunResult {
  readonly summary: ReplaySummary;
  /** True when the signal (or the heap guard) stopped the run before the end of the input. */
  readonly cancelled: boolean;
  /** When the heap guard stopped the run: the heap then, and the last record read. */
  readonly heapStop?: HeapStop;
  /** What the run could not know about its inputs (archives without ids or times), one line each. */
  readonly notes: readonly string[];
  /** The schema definitions the captures record (schema lines), by revision key: learned into the options' set when it has one. */
  readonly recordedSchemas: Readonly<Record<string, SchemaDefinition>>;
}

export interface HeapStop {
  readonly heap: HeapAtStop;
  /** Capture and line of the last record read (undefined before the first). */
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly bytesRead: number;
  readonly totalBytes: number;
  /** Keys the sequencer knew. */
  readonly keys: number;
}

/**
 * What summarising costs per key once a run stops, for the heap guard's reserve: its KeySummary,
 * ~210 bytes measured with its percentiles (~145 without), and the CLI's or the session's work
 * on the list. More would stop runs that fit.
 */
const SUMMARY_BYTES_PER_KEY = 256;

export async function runReplay(o: ReplayRunOptions): Promise<ReplayRunResult> {
  try {
    return await replayInto(o);
  } catch (e) {
    await o.writer?.discard();
    throw e;
  }
}

async function replayInto(o: ReplayRunOptions): Promise<ReplayRunResult> {
  const readers = o.paths.map((p, i) => new CaptureReader(p, i, p === '-' ? o.stdin : undefined, o.inputFormat));
  try {
    for (const r of readers) await r.open();
  } catch (e) {
    await Promise.all(readers.map((r) => r.close()));
    throw e;
  }
  const total = readers.reduce((s, r) => s + r.size, 0);
  const writer = o.writer;
  const extra = o.listener;
  const keep = o.exportFilter;
  const toWriter: TraceListener | undefined = writer && (keep ? (ev, e) => keep(ev, e) && writer.add(ev) : (ev) => writer.add(ev));
  const listener: TraceListener | undefined = toWriter && extra ? (ev, e) => (toWriter(ev, e), extra(ev, e)) : (toWriter ?? extra);
  // The definitions the captures record (schema lines) are learned into the run's set as they are read.
  const options = o.options.schemas ? o.options : { ...o.options, schemas: {} };
  const recordedSchemas: Record<string, SchemaDefinition> = {};
  const onSchema = (r: RecordedSchema): void => {
    recordedSchemas[r.key] = r.definition;
    learnRecorded(options.schemas as SchemaSet, r.key, r.definition);
  };
  const engine = new ReplayEngine(options, listener, o.paths);
  const pool = o.scanPool;
  // Entries keep their bytes when someone will look at their records (an export, a listener or hooks that read them).
  const keepRecords = writer !== undefined || (!o.sequencingOnly && (extra !== undefined || o.beforePush !== undefined || o.afterPush !== undefined));
  const sources: EntrySource[] = readers.map((r) => (pool !== undefined && r.format === 'jsonl' ? new ParallelLineReader(r, pool, options, keepRecords) : r));
  o.onEngine?.(engine);
  // Avro archives hand on what this run sequences by, their records decoded only when kept (see avroFixedEntries.ts).
  for (const r of readers) if (r.format === 'avro') r.avroScan = { options: o.options, keep: keepRecords };
  const { beforePush, afterPush } = o;
  const guard = o.heapGuard;
  const signal = guard && o.signal ? AbortSignal.any([o.signal, guard.signal]) : (guard?.signal ?? o.signal);
  let first = true;
  let last: CaptureEntry | undefined;
  for await (const batch of mergeCaptures(sources, { signal, onSchema })) {
    if (first && writer) {
      const t = batch.find((e) => e.time === e.time)?.time;
      if (t !== undefined) {
        writer.startAt(t);
        first = false;
      }
    }
    if (beforePush || afterPush) {
      for (const e of batch) {
        beforePush?.(e);
        const valid = engine.push(e);
        afterPush?.(e, valid);
      }
    } else {
      engine.pushAll(batch);
    }
    if (writer) await writer.flush();
    if (o.afterBatch) await o.afterBatch();
    o.onProgress?.(
      readers.reduce((s, r) => s + r.bytesRead, 0),
      total,
    );
    if (batch.length) last = batch[batch.length - 1];
    guard?.check(engine.keyCount * (o.heapReservePerKey ?? SUMMARY_BYTES_PER_KEY));
  }
  const heap = guard?.stopped;
  const heapStop: HeapStop | undefined = heap && {
    heap,
    path: last && o.paths[last.file],
    line: last?.line,
    bytesRead: readers.reduce((s, r) => s + r.bytesRead, 0),
    totalBytes: total,
    keys: engine.keyCount,
  };
  const cancelled = (o.signal?.aborted ?? false) || heap !== undefined;
  o.beforeFinish?.();
  engine.finish();
  if (writer && cancelled && o.onCancel === 'discard trace') await writer.discard();
  else if (writer) await writer.close();
  return { summary: engine.summary(), cancelled, heapStop, notes: readers.flatMap((r) => r.notes), recordedSchemas };
}
