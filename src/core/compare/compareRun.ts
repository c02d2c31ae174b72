/**
 * One comparison of two captures of a stream, end to end. Both sides' files are read as
 * `replay` reads them and merged into one arrival stream by the clock `replay` uses (ties to A,
 * whose files come first); that stream goes through the real replay engine — the merged,
 * arbitrated stream: the first copy of an identity wins whichever side it came from — while a
 * CompareMatcher notes which side each copy came from.
 */
import { CaptureEntry } from '../capture/captureRecord';
import { ScannedEntry } from '../capture/scannedEntry';
import { ReplayEngine, ReplaySummary } from '../replay/replayEngine';
import { HeapStop, ReplayRunOptions, runReplay } from '../replay/replayRun';
import { isSequenced, SequencingOptions } from '../sequencer/sequencingOptions';
import { SerialSpace } from '../sequencer/serial';
import { CompareMatcher, DeltaSpread } from './compareMatcher';
import { resetDistance } from '../sequencer/resets';
import type { RunRule } from './sideRuns';
import { CompareResult, SideRead } from './compareResult';
import { CompareRow } from './compareRow';
import { SideIndex } from './keyMatch';

export interface CompareSideInput {
  /** Capture files of this side; "-" reads standard input (one side at most). */
  readonly paths: readonly string[];
}

/** Where export rows go: gathered as they come, written after each batch. */
export interface CompareRowSink {
  add(row: CompareRow): void;
  flush(): Promise<void>;
}

export type CompareRunOptions = Pick<
  ReplayRunOptions,
  'stdin' | 'inputFormat' | 'options' | 'signal' | 'heapGuard' | 'heapReservePerKey' | 'onProgress' | 'scanPool' | 'listener' | 'beforePush' | 'beforeFinish'
> & {
  readonly a: CompareSideInput;
  readonly b: CompareSideInput;
  readonly rows?: CompareRowSink;
  /** Hooks for a caller that indexes the merged stream (the extension's comparison session): the merged stream's engine, and each copy after it was matched, with its side. */
  readonly onEngine?: (engine: ReplayEngine) => void;
  readonly afterPush?: (entry: CaptureEntry, valid: boolean, side: SideIndex) => void;
};

export interface CompareRunResult {
  readonly comparison: CompareResult;
  /** The merged stream's summary, as `replay` of both sides' files together would give it. */
  readonly merged: ReplaySummary;
  readonly sides: readonly [SideRead, SideRead];
  readonly spread: DeltaSpread | undefined;
  readonly cancelled: boolean;
  readonly heapStop?: HeapStop;
  readonly notes: readonly string[];
}

/**
 * Whether identities are numbers: where records have one, unless the number is the publish time
 * (then, as with `--seq none`, two copies of one message are told by their messageId).
 */
export function identifiesByNumber(o: SequencingOptions): boolean {
  return isSequenced(o) && (o.seq.kind as string) !== 'publishTime';
}

/** When a side's numbers start a new run: the sequencer's reset rule for these options (none with `--no-resets`). */
export function runRule(o: SequencingOptions): RunRule | undefined {
  return o.resets === false ? undefined : { far: resetDistance(o.seqBits, o.capacity), capacity: o.capacity, resetTo: o.resetTo };
}

export async function runCompare(o: CompareRunOptions): Promise<CompareRunResult> {
  const firstB = o.a.paths.length;
  const space = identifiesByNumber(o.options) ? new SerialSpace(o.options.seqBits) : undefined;
  const sink = o.rows;
  const matcher = new CompareMatcher(space, sink && ((r) => sink.add(r)), space && runRule(o.options));
  const sides: [SideRead, SideRead] = [
    { valid: 0, invalid: 0 },
    { valid: 0, invalid: 0 },
  ];
  let engine: ReplayEngine | undefined;
  const run = await runReplay({
    paths: [...o.a.paths, ...o.b.paths],
    stdin: o.stdin,
    inputFormat: o.inputFormat,
    options: o.options,
    signal: o.signal,
    heapGuard: o.heapGuard,
    onProgress: o.onProgress,
    scanPool: o.scanPool,
    sequencingOnly: true,
    heapReservePerKey: o.heapReservePerKey,
    listener: o.listener,
    beforePush: o.beforePush,
    beforeFinish: o.beforeFinish,
    onEngine: (e) => {
      engine = e;
      o.onEngine?.(e);
    },
    afterPush: (e: CaptureEntry, valid: boolean) => {
      const side = e.file < firstB ? 0 : 1;
      if (!valid) sides[side].invalid++;
      else {
        sides[side].valid++;
        const id = e instanceof ScannedEntry ? e.messageId : e.record!.message.messageId;
        matcher.observe(side, engine!.lastKey, engine!.lastSeq, id, e.time);
      }
      o.afterPush?.(e, valid, side);
    },
    afterBatch: sink && (() => sink.flush()),
  });
  const comparison = matcher.finish(run.summary.byKey);
  if (sink) await sink.flush();
  return { comparison, merged: run.summary, sides, spread: matcher.spread(), cancelled: run.cancelled, heapStop: run.heapStop, notes: run.notes };
}

/**
 * Why the comparison says nothing, or undefined: a side held no records, or none it could
 * sequence (the first invalid one named).
 * @param nameOf How a file is named to the reader. @param optionNames The options to check, as the reader gives them.
 */
export function sideProblem(
  r: CompareRunResult,
  labels: readonly [string, string],
  paths: readonly [readonly string[], readonly string[]],
  nameOf: (path: string) => string,
  optionNames: string,
): string | undefined {
  for (const i of [0, 1] as const) {
    const s = r.sides[i];
    const name = `side ${i === 0 ? 'A' : 'B'} (${labels[i]})`;
    if (s.valid + s.invalid === 0) return `${name} holds no records: nothing to compare`;
    if (s.valid === 0) {
      const files = new Set(paths[i]);
      const sample = r.merged.invalidSamples.find((x) => x.file === undefined || files.has(x.file));
      const first = sample ? ` (the first: ${sample.file ? nameOf(sample.file) + ':' : 'line '}${sample.line}: ${sample.reason})` : '';
      return `${name}: no record could be sequenced: ${s.invalid === 1 ? 'its one record is invalid' : `all ${s.invalid} records are invalid`}${first}; check the sequencing options (${optionNames}) or the file`;
    }
  }
  return undefined;
}
