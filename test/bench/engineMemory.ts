/**
 * The engine's memory on a stream far longer than the benchmark captures: in-order numbers over
 * many keys, generated as they are fed (no input arrays, no file: the stream would be tens of
 * gigabytes as a capture), with the sizes read after forced collections at checkpoints.
 * `node --expose-gc engineMemory.js <json>` prints one JSON line (EngineMemoryResult).
 *
 * What it shows: whether what the engine keeps grows with the stream once every key is known.
 * A key's delivery history (hashes of recent messageIds, in typed-array pages outside the JS
 * heap) is what used to: 4 bytes a delivery, up to 65 536 a key — 313 MiB at 40 M deliveries
 * over 10 000 keys and still growing, toward 2.5 GiB. Since it is bounded over all keys
 * (SequencerConfig.historyTotal) it stays flat.
 */
import { Sequencer, SequencerSink } from '../../src/core/sequencer/sequencer';
import { engineConfig } from './engineBench';

export interface EngineMemoryArgs {
  readonly keys: number;
  readonly total: number;
  /** Deliveries after which to measure. */
  readonly checkpoints: readonly number[];
}

export interface EngineMemoryPoint {
  readonly deliveries: number;
  /** Typed-array memory (the history pages, the per-key numbers), after a full collection. */
  readonly arrayBuffers: number;
  readonly heapUsed: number;
}

export interface EngineMemoryResult {
  readonly points: EngineMemoryPoint[];
  readonly ms: number;
  /** Differences from what was fed (empty: correct). */
  readonly problems: string[];
}

/** Consecutive numbers of a key per burst, as in the throughput streams. */
const BURST = 8;

function measure(a: EngineMemoryArgs): EngineMemoryResult {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  let delivered = 0;
  let outOfOrder = 0;
  const lastSeq = new Float64Array(a.keys).fill(-1);
  const names = Array.from({ length: a.keys }, (_, i) => `channel-${i}`);
  const sink: SequencerSink<number> = {
    message: (k, seq) => {
      delivered++;
      const i = k.order;
      if (seq !== lastSeq[i] + 1 && lastSeq[i] !== -1) outOfOrder++;
      lastSeq[i] = seq as number;
    },
    gap: () => {},
    duplicate: () => {},
    late: () => {},
    reordered: () => {},
  };
  // No start window: every delivery is released at once, so what remains is what the engine
  // keeps per key and per delivery, not what it holds.
  const s = new Sequencer<number>({ ...engineConfig(64), gapTimeoutMs: 0 }, sink);
  const next = new Float64Array(a.keys);
  const points: EngineMemoryPoint[] = [];
  const checkpoints = [...a.checkpoints].sort((x, y) => x - y);
  const started = performance.now();
  for (let i = 0; i < a.total; ) {
    const k = Math.floor(i / BURST) % a.keys;
    s.advance(i);
    s.offer(names[k], next[k]++, `${names[k]}:${next[k]}`, i);
    i++;
    if (i === checkpoints[points.length]) {
      gc();
      const m = process.memoryUsage();
      points.push({ deliveries: i, arrayBuffers: m.arrayBuffers, heapUsed: m.heapUsed });
    }
  }
  s.finish();
  const ms = performance.now() - started;
  const problems: string[] = [];
  if (delivered !== a.total) problems.push(`delivered ${delivered} ≠ ${a.total}`);
  if (outOfOrder) problems.push(`${outOfOrder} out of order`);
  return { points, ms, problems };
}

if (require.main === module) {
  const args = JSON.parse(process.argv[2] ?? '{}') as EngineMemoryArgs;
  process.stdout.write(`${JSON.stringify(measure(args))}\n`);
}
