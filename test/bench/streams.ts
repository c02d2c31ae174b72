/**
 * Inputs for the engine and baseline benchmarks: generated streams flattened into plain arrays
 * (key string, raw number, messageId, arrival time per delivery), built before any timing starts
 * so the timed loops do nothing but feed the sequencer.
 */
import { GroundTruth, StreamOptions, messageId, planStream } from '../../scripts/lib/captureGenerator';

export type StreamKind = 'in order' | 'reordered';

export interface EngineInput {
  readonly kind: StreamKind;
  readonly keys: number;
  readonly seqBits: 16 | 64;
  readonly count: number;
  /** Per delivery: the key's name (one shared string per key, as a parser's intern table would give). */
  readonly keyOf: string[];
  readonly seq: Float64Array;
  readonly id: string[];
  /** Arrival clock, ms. */
  readonly time: Float64Array;
  readonly truth: GroundTruth;
}

/** Shape of the benchmark streams: about `total` numbers spread over `keys` keys. */
export function streamOptions(kind: StreamKind, keys: number, total: number, seqBits: 16 | 64, seed: number): StreamOptions {
  const reordered = kind === 'reordered';
  return {
    seed,
    keys,
    messagesPerKey: Math.max(1, Math.round(total / keys)),
    // Scatter the keys over the number space so 16-bit keys wrap at different points.
    startSeq: (k) => (seqBits === 16 ? (k * 7919) % 65536 : 1_000_000 + k * 1000),
    seqBits,
    reorderFraction: reordered ? 0.2 : 0,
    reorderWindow: 8,
    reorderMaxMs: 5,
    // 5 % duplicates of the originals, half redeliveries and half republishes.
    redeliveryFraction: reordered ? 0.025 : 0,
    republishFraction: reordered ? 0.025 : 0,
    duplicateDelay: 16,
    // Bursts of a key's consecutive numbers, about 1 ms per message overall: a key's start window
    // (10 s) holds only its first messages, and reordering stays ms-local whatever the key count.
    burst: { min: 4, max: 12 },
    burstGapMs: 2,
    intraBurstMs: 0.5,
  };
}

export function engineInput(kind: StreamKind, keys: number, total: number, seqBits: 16 | 64, seed = 42): EngineInput {
  const plan = planStream(streamOptions(kind, keys, total, seqBits, seed));
  const n = plan.count;
  const keyOf = new Array<string>(n);
  const id = new Array<string>(n);
  for (let j = 0; j < n; j++) {
    keyOf[j] = plan.keyNames[plan.key[j]];
    id[j] = messageId(plan, j);
  }
  return { kind, keys, seqBits, count: n, keyOf, seq: plan.seq, id, time: plan.receivedMs, truth: plan.truth };
}
