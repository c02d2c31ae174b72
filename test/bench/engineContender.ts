/**
 * One contender of the engine section — the engine, the CME sample's loop (skip list or sorted
 * array) or the ceiling loop — timed in a process of its own: `node engineContender.js <json>`
 * prints one JSON line (ContenderResult).
 *
 * Why a process each: timed in one process, the contenders shared V8's state. The skip-list
 * baseline then ran anywhere from 1.3 M to 14 M msg/s on the same stream depending on what had
 * run before it (its hot functions deoptimised on type feedback or maps the others had left),
 * so any ratio between them said more about the JIT than about the code. A fresh process per
 * contender gives each the same start: its own input, warm-up, then its best of `reps` runs.
 */
import { checkFound, Found, heldShare, runBaseline, runCeiling, runEngine } from './engineBench';
import { EngineInput, StreamKind, engineInput } from './streams';
import { bestOfEach } from './timing';

export type Contender = 'engine' | 'baseline' | 'tuned' | 'ceiling';

export interface ContenderArgs {
  readonly contender: Contender;
  readonly kind: StreamKind;
  readonly keys: number;
  readonly seqBits: 16 | 64;
  readonly total: number;
  readonly reps: number;
}

export interface ContenderResult {
  /** Best wall time and best CPU time of the timed runs, ms. */
  readonly ms: number;
  readonly cpuMs: number;
  readonly deliveries: number;
  /** Differences from what the generator injected (empty: correct); none for the ceiling, which is not a sequencer. */
  readonly problems: string[];
  /** What the run found (not for the ceiling): the JVM's loop must find the same as the baselines. */
  readonly found?: Found;
  /** Engine only: the stream's shape, for the report. */
  readonly shape?: { reorderedShare: number; duplicateShare: number; heldShare: number };
}

function runContender(a: ContenderArgs): ContenderResult {
  const input: EngineInput = engineInput(a.kind, a.keys, a.total, a.seqBits);
  const run: () => Found | number =
    a.contender === 'engine' ? () => runEngine(input) : a.contender === 'ceiling' ? () => runCeiling(input) : () => runBaseline(input, a.contender === 'tuned');
  const [best] = bestOfEach(a.reps, [run]);
  const t = input.truth;
  return {
    ms: best.ms,
    cpuMs: best.cpuMs,
    deliveries: input.count,
    problems: a.contender === 'ceiling' ? [] : checkFound(input, best.result as Found),
    found: a.contender === 'ceiling' ? undefined : (best.result as Found),
    shape:
      a.contender === 'engine'
        ? { reorderedShare: t.reordered / t.deliveries, duplicateShare: t.duplicates / t.deliveries, heldShare: heldShare(input) }
        : undefined,
  };
}

if (require.main === module) {
  const args = JSON.parse(process.argv[2] ?? '{}') as ContenderArgs;
  process.stdout.write(`${JSON.stringify(runContender(args))}\n`);
}
