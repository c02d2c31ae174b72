/**
 * Two captures of one stream, as two subscriptions (or the A and B feeds of a CME channel) would
 * record it, with what a comparison must find: each side misses numbers of its own, some numbers
 * both miss, one side's clock runs behind the other's, each side has duplicates of its own, one
 * side's lines swap places, and some keys reach one side only.
 *
 * Built on captureGenerator.ts's plan: both sides are that one arrival stream, thinned and
 * shifted. Every choice is a hash of (seed, key, position) or (seed, line), so a side's lines are
 * made one at a time (ten million lines need not be held) and the truth is known exactly.
 */
import { hash3, planStream, renderLine, StreamOptions, StreamPlan } from './captureGenerator';

export interface PairOptions {
  readonly stream: StreamOptions;
  /** Share of numbers A misses, and B (each decided per number on its own: some overlap). */
  readonly dropA?: number;
  readonly dropB?: number;
  /** B's clock minus A's, ms, for the same delivery: B lags when positive, leads when negative. */
  readonly lagMsB?: number;
  /** Up to this many ms more on B, per delivery (the path's jitter). */
  readonly jitterMsB?: number;
  /** Share of each side's lines delivered once more, right after (a redelivery of its own). */
  readonly extraCopiesA?: number;
  readonly extraCopiesB?: number;
  /** Share of B's lines that swap places with the next. */
  readonly swapB?: number;
  /** Keys that reach one side only. */
  readonly keysOnlyA?: readonly string[];
  readonly keysOnlyB?: readonly string[];
}

export interface PairKeyTruth {
  both: number;
  onlyA: number;
  onlyB: number;
  lostBoth: number;
  aReceived: number;
  bReceived: number;
  aDuplicates: number;
  bDuplicates: number;
}

export interface PairTruth {
  byKey: Map<string, PairKeyTruth>;
  totals: PairKeyTruth;
}

export interface Pair {
  readonly plan: StreamPlan;
  readonly options: PairOptions;
  readonly truth: PairTruth;
}

const SALT_A = 0x41;
const SALT_B = 0x42;
const SALT_COPY = 0x43;
const SALT_SWAP = 0x53;
const SALT_JITTER = 0x4a;

function chance(h: number): number {
  return (h >>> 0) / 4294967296;
}

/** Whether side (0 = A, 1 = B) has the number at `offset` of key index `k`. */
function has(pair: { plan: StreamPlan; options: PairOptions }, side: 0 | 1, k: number, offset: number): boolean {
  const { plan, options } = pair;
  const name = plan.keyNames[k];
  if ((side === 0 ? options.keysOnlyB : options.keysOnlyA)?.includes(name)) return false;
  const drop = side === 0 ? options.dropA : options.dropB;
  return !(drop && chance(hash3(plan.seed, k * 2_000_003 + offset, side === 0 ? SALT_A : SALT_B)) < drop);
}

function extraCopy(pair: { plan: StreamPlan; options: PairOptions }, side: 0 | 1, j: number): boolean {
  const share = side === 0 ? pair.options.extraCopiesA : pair.options.extraCopiesB;
  return !!share && chance(hash3(pair.plan.seed, j, SALT_COPY + side)) < share;
}

export function planPair(options: PairOptions): Pair {
  const plan = planStream(options.stream);
  const pair = { plan, options };
  const n = plan.keyNames.length;
  const per = options.stream.messagesPerKey;
  // Per key and side: which offsets the side has, and its lines.
  const seen = [0, 1].map(() => Array.from({ length: n }, () => new Uint8Array(per)));
  const received = [new Float64Array(n), new Float64Array(n)];
  for (let j = 0; j < plan.count; j++) {
    const k = plan.key[j];
    const off = plan.offset[j];
    for (const side of [0, 1] as const) {
      if (!has(pair, side, k, off)) continue;
      seen[side][k][off] = 1;
      received[side][k] += extraCopy(pair, side, j) ? 2 : 1;
    }
  }
  const byKey = new Map<string, PairKeyTruth>();
  const totals: PairKeyTruth = { both: 0, onlyA: 0, onlyB: 0, lostBoth: 0, aReceived: 0, bReceived: 0, aDuplicates: 0, bDuplicates: 0 };
  for (let k = 0; k < n; k++) {
    const t: PairKeyTruth = { both: 0, onlyA: 0, onlyB: 0, lostBoth: 0, aReceived: received[0][k], bReceived: received[1][k], aDuplicates: 0, bDuplicates: 0 };
    let lo = Infinity;
    let hi = -Infinity;
    for (let off = 0; off < per; off++) {
      const a = seen[0][k][off];
      const b = seen[1][k][off];
      if (a && b) t.both++;
      else if (a) t.onlyA++;
      else if (b) t.onlyB++;
      if (a || b) {
        lo = Math.min(lo, off);
        hi = Math.max(hi, off);
      }
    }
    if (hi >= lo) t.lostBoth = hi - lo + 1 - t.both - t.onlyA - t.onlyB;
    t.aDuplicates = t.aReceived - t.both - t.onlyA;
    t.bDuplicates = t.bReceived - t.both - t.onlyB;
    if (t.aReceived + t.bReceived === 0) continue;
    byKey.set(plan.keyNames[k], t);
    for (const f of Object.keys(totals) as (keyof PairKeyTruth)[]) totals[f] += t[f];
  }
  return { plan, options, truth: { byKey, totals } };
}

/** One side's capture lines, in its arrival order. */
export function* pairLines(pair: Pair, side: 0 | 1): Generator<string> {
  const { plan, options } = pair;
  const shifted: StreamPlan = side === 0 ? plan : { ...plan, receivedMs: shiftedTimes(pair) };
  let held: string | undefined;
  for (let j = 0; j < plan.count; j++) {
    if (!has(pair, side, plan.key[j], plan.offset[j])) continue;
    const line = renderLine(shifted, j);
    const lines = extraCopy(pair, side, j) ? [line, line] : [line];
    for (const l of lines) {
      if (held !== undefined) {
        yield l;
        yield held;
        held = undefined;
      } else if (side === 1 && options.swapB && chance(hash3(plan.seed, j, SALT_SWAP)) < options.swapB) held = l;
      else yield l;
    }
  }
  if (held !== undefined) yield held;
}

function shiftedTimes(pair: Pair): Float64Array {
  const { plan, options } = pair;
  const lag = options.lagMsB ?? 0;
  const jitter = options.jitterMsB ?? 0;
  const t = new Float64Array(plan.count);
  for (let j = 0; j < plan.count; j++) t[j] = plan.receivedMs[j] + lag + (jitter ? Math.floor(chance(hash3(plan.seed, j, SALT_JITTER)) * (jitter + 1)) : 0);
  return t;
}
