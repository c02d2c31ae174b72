/**
 * Deterministic generator of CME-style Pub/Sub captures, for the sample, tests and benchmarks.
 *
 * Output is SeqScope's capture format: one Pub/Sub `ReceivedMessage` per line, in arrival order,
 * with SeqScope's `receivedAt`. Each key is a CME channel: attributes `Channel`, `MsgSeqNum`
 * (wraps at the configured width, 65535 → 0 for CME's uInt16) and `SendingTime` (ms since
 * epoch), and a small base64 JSON payload.
 *
 * What goes wrong in the stream is injected on purpose and returned as ground truth, so callers
 * can assert what a sequencer must report:
 *   - loss: explicit ranges of numbers that are never emitted;
 *   - reordering: a message swaps places with a later message of the same key a few arrivals
 *     away (a few ms apart, far inside any sane gap timeout, so it is never a gap);
 *   - redelivery: a second delivery of the same Pub/Sub message (same messageId, attempt 2);
 *   - republish: the same MsgSeqNum published again under a new messageId.
 *
 * Pure: no I/O and no global randomness. The same options always give the same bytes: the
 * sequential choices come from a seeded PRNG, and everything that copies of a message must
 * share (payload, prices) is a hash of (seed, key, position) so it can be recomputed per line.
 *
 * Two layers: `planStream` builds the arrival order as typed arrays (cheap enough for millions of
 * messages, and what the engine benchmarks feed the sequencer directly), and `renderLine` /
 * `captureLines` turn a plan into JSONL text.
 */

export type SeqBits = 16 | 32 | 64;

export interface LossRange {
  /** Key (channel) name. */
  readonly key: string;
  /**
   * First and last lost raw numbers, inclusive, in serial order (may span the wrap). When a key
   * runs through its number space more than once, the first occurrence after its start counts.
   */
  readonly from: number;
  readonly to: number;
}

export interface StreamOptions {
  readonly seed: number;
  /** Key names (CME channels), or a count: channels "310", "311", … */
  readonly keys: number | readonly string[];
  /** Sequence numbers spanned per key, lost ones included. */
  readonly messagesPerKey: number;
  /** First raw number of each key: one for all, per key, or a function of the key index. Default 1. */
  readonly startSeq?: number | readonly number[] | ((keyIndex: number) => number);
  /** Width of MsgSeqNum. Default 16 (CME). */
  readonly seqBits?: SeqBits;
  /** Target fraction of messages that arrive out of their key's order (each swap moves two). */
  readonly reorderFraction?: number;
  /** How many arrivals ahead a swap partner may be. Default 4. */
  readonly reorderWindow?: number;
  /** How much later a swap partner may have been sent, ms. Default 5: reordering is local. */
  readonly reorderMaxMs?: number;
  /** Fraction of messages delivered a second time with the same messageId. */
  readonly redeliveryFraction?: number;
  /** Fraction of messages published a second time with a new messageId. */
  readonly republishFraction?: number;
  /** Exact numbers of redeliveries / republishes, instead of the fractions (for small samples). */
  readonly redeliveries?: number;
  readonly republishes?: number;
  /** A duplicate arrives 1..this many arrivals after its original. Default 16. */
  readonly duplicateDelay?: number;
  readonly losses?: readonly LossRange[];
  /** Consecutive messages a key sends per turn (CME packs several per packet). Default 1..4. */
  readonly burst?: { readonly min: number; readonly max: number };
  /** Mean time between bursts and between messages of a burst, ms. Defaults 40 and 0.5. */
  readonly burstGapMs?: number;
  readonly intraBurstMs?: number;
  /** SendingTime of the first message, ms since epoch. Default 2026-11-30T09:30:00Z. */
  readonly startTimeMs?: number;
  /** Arrival of line j is never earlier than this (receivedAt resolution is 1 ms). */
  readonly minLatencyMs?: number;
}

/** Kind of one delivery in the plan (the duplicate kinds double as bit flags). */
export const ORIGINAL = 0;
export const REDELIVERY = 1;
export const REPUBLISH = 2;

export interface KeyTruth {
  readonly key: string;
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** Sequence numbers spanned (lost ones included). */
  readonly numbers: number;
  /** Distinct numbers emitted. */
  emitted: number;
  readonly lost: { from: number; to: number; count: number }[];
  redeliveries: number;
  republishes: number;
  /** Messages that arrived out of their key's order because of an injected swap. */
  reordered: number;
}

/** What was injected: what a correct sequencer must report. */
export interface GroundTruth {
  /** Lines (deliveries), duplicates included. */
  deliveries: number;
  /** Distinct (key, number) pairs emitted: what a sequencer delivers. */
  distinct: number;
  gaps: number;
  lost: number;
  duplicates: number;
  redeliveries: number;
  republishes: number;
  reordered: number;
  /** No number arrives after its gap could time out, so nothing is late. */
  late: number;
  firstReceivedMs: number;
  lastReceivedMs: number;
  readonly keys: KeyTruth[];
}

/** The arrival stream as parallel arrays, index = arrival order. */
export interface StreamPlan {
  readonly keyNames: readonly string[];
  readonly count: number;
  /** Key index. */
  readonly key: Int32Array;
  /** Position within the key: 0 for the key's first number. */
  readonly offset: Int32Array;
  /** Raw MsgSeqNum as sent (wrapped). */
  readonly seq: Float64Array;
  /** Publish counter: messageId = MESSAGE_ID_BASE + publishId. Shared by a redelivery. */
  readonly publishId: Float64Array;
  readonly kind: Uint8Array;
  readonly sendingMs: Float64Array;
  readonly publishUs: Float64Array;
  readonly receivedMs: Float64Array;
  readonly truth: GroundTruth;
  readonly seed: number;
}

/**
 * Pub/Sub message ids are large decimal numbers; start at a realistic-looking one, far enough
 * below 2^53 that base + counter stays exact.
 */
export const MESSAGE_ID_BASE = 2_070_443_600_000_000;

const DEFAULT_START_MS = Date.UTC(2026, 10, 30, 9, 30, 0);

// ---------------------------------------------------------------------------------------------
// Randomness

/** mulberry32: a tiny, fast, well-mixed 32-bit PRNG; the whole output depends only on the seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stateless 32-bit hash of three integers (murmur3 finaliser), for per-message values. */
export function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function randInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

// ---------------------------------------------------------------------------------------------
// Planning

interface Resolved {
  readonly keyNames: string[];
  readonly starts: number[];
  readonly modulus: number;
  /** Per key: sorted, validated lost offset ranges [from, to]. */
  readonly lostOffsets: [number, number][][];
}

function resolve(o: StreamOptions): Resolved {
  const keyNames = typeof o.keys === 'number' ? Array.from({ length: o.keys }, (_, i) => String(310 + i)) : [...o.keys];
  if (new Set(keyNames).size !== keyNames.length) throw new RangeError('key names must be distinct');
  const bits = o.seqBits ?? 16;
  const modulus = bits === 64 ? Infinity : 2 ** bits;
  const n = o.messagesPerKey;
  if (!Number.isInteger(n) || n < 1) throw new RangeError('messagesPerKey must be a whole number ≥ 1');
  const s = o.startSeq ?? 1;
  const starts = keyNames.map((_, i) => (typeof s === 'number' ? s : typeof s === 'function' ? s(i) : s[i]));
  for (const st of starts) {
    if (!Number.isInteger(st) || st < 0 || st >= modulus) throw new RangeError(`startSeq ${st} is not a valid ${bits}-bit number`);
  }
  const lostOffsets: [number, number][][] = keyNames.map(() => []);
  for (const l of o.losses ?? []) {
    const k = keyNames.indexOf(l.key);
    if (k < 0) throw new RangeError(`loss names unknown key "${l.key}"`);
    const from = serialOffset(l.from, starts[k], modulus);
    const to = serialOffset(l.to, starts[k], modulus);
    // A loss at either end is invisible to any sequencer: nothing is held above or below it.
    if (from < 1 || to < from || to > n - 2) {
      throw new RangeError(`loss ${l.key} ${l.from}..${l.to} must lie strictly inside the key's numbers`);
    }
    lostOffsets[k].push([from, to]);
  }
  for (const ranges of lostOffsets) {
    ranges.sort((a, b) => a[0] - b[0]);
    // Adjacent ranges would be one gap, not two: keep the truth unambiguous.
    for (let i = 1; i < ranges.length; i++) {
      if (ranges[i][0] <= ranges[i - 1][1] + 1) throw new RangeError('loss ranges of a key must be separated by at least one emitted number');
    }
  }
  return { keyNames, starts, modulus, lostOffsets };
}

/** Position of raw number `raw` counted from `start`, forward through the wrap. */
function serialOffset(raw: number, start: number, modulus: number): number {
  if (modulus === Infinity) return raw - start;
  return (((raw - start) % modulus) + modulus) % modulus;
}

function wrapSeq(start: number, offset: number, modulus: number): number {
  return modulus === Infinity ? start + offset : (start + offset) % modulus;
}

/** Growable set of parallel typed arrays, for building the arrival stream. */
class Columns {
  key: Int32Array;
  offset: Int32Array;
  publishId: Float64Array;
  kind: Uint8Array;
  sendingUs: Float64Array;
  publishUs: Float64Array;
  /** Earliest plausible arrival (publish + network latency); receivedAt is at least this. */
  naturalMs: Float64Array;
  length = 0;

  constructor(capacity: number) {
    this.key = new Int32Array(capacity);
    this.offset = new Int32Array(capacity);
    this.publishId = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.sendingUs = new Float64Array(capacity);
    this.publishUs = new Float64Array(capacity);
    this.naturalMs = new Float64Array(capacity);
  }

  /** Appends row i of `from`. */
  copy(from: Columns, i: number): number {
    if (this.length === this.key.length) this.grow();
    const j = this.length++;
    this.key[j] = from.key[i];
    this.offset[j] = from.offset[i];
    this.publishId[j] = from.publishId[i];
    this.kind[j] = from.kind[i];
    this.sendingUs[j] = from.sendingUs[i];
    this.publishUs[j] = from.publishUs[i];
    this.naturalMs[j] = from.naturalMs[i];
    return j;
  }

  add(key: number, offset: number, publishId: number, sendingUs: number, publishUs: number, naturalMs: number): void {
    if (this.length === this.key.length) this.grow();
    const j = this.length++;
    this.key[j] = key;
    this.offset[j] = offset;
    this.publishId[j] = publishId;
    this.kind[j] = ORIGINAL;
    this.sendingUs[j] = sendingUs;
    this.publishUs[j] = publishUs;
    this.naturalMs[j] = naturalMs;
  }

  private grow(): void {
    const n = this.key.length * 2 + 16;
    const g = <A extends Int32Array | Float64Array | Uint8Array>(a: A, b: A): A => (b.set(a), b);
    this.key = g(this.key, new Int32Array(n));
    this.offset = g(this.offset, new Int32Array(n));
    this.publishId = g(this.publishId, new Float64Array(n));
    this.kind = g(this.kind, new Uint8Array(n));
    this.sendingUs = g(this.sendingUs, new Float64Array(n));
    this.publishUs = g(this.publishUs, new Float64Array(n));
    this.naturalMs = g(this.naturalMs, new Float64Array(n));
  }

  swap(a: number, b: number): void {
    for (const col of [this.key, this.offset, this.publishId, this.kind, this.sendingUs, this.publishUs, this.naturalMs]) {
      const t = col[a];
      col[a] = col[b];
      col[b] = t;
    }
  }
}

/** Builds the arrival stream and its ground truth. */
export function planStream(o: StreamOptions): StreamPlan {
  const r = resolve(o);
  const rand = mulberry32(o.seed);
  const K = r.keyNames.length;
  const n = o.messagesPerKey;
  const lostPerKey = r.lostOffsets.map((ranges) => ranges.reduce((s, [a, b]) => s + b - a + 1, 0));
  const originals = K * n - lostPerKey.reduce((s, c) => s + c, 0);

  const primary = publishOriginals(o, r, rand, originals);
  const reordered = injectReordering(o, primary, rand, K);
  const out = injectDuplicates(o, primary, rand);
  const receivedMs = arrivalTimes(out);

  const keys: KeyTruth[] = r.keyNames.map((key, k) => ({
    key,
    firstSeq: r.starts[k],
    lastSeq: wrapSeq(r.starts[k], n - 1, r.modulus),
    numbers: n,
    emitted: n - lostPerKey[k],
    lost: r.lostOffsets[k].map(([a, b]) => ({ from: wrapSeq(r.starts[k], a, r.modulus), to: wrapSeq(r.starts[k], b, r.modulus), count: b - a + 1 })),
    redeliveries: 0,
    republishes: 0,
    reordered: reordered[k],
  }));
  for (let j = 0; j < out.length; j++) {
    if (out.kind[j] === REDELIVERY) keys[out.key[j]].redeliveries++;
    else if (out.kind[j] === REPUBLISH) keys[out.key[j]].republishes++;
  }
  const sum = (f: (k: KeyTruth) => number) => keys.reduce((s, k) => s + f(k), 0);
  const truth: GroundTruth = {
    deliveries: out.length,
    distinct: originals,
    gaps: sum((k) => k.lost.length),
    lost: sum((k) => k.lost.reduce((s, l) => s + l.count, 0)),
    duplicates: sum((k) => k.redeliveries + k.republishes),
    redeliveries: sum((k) => k.redeliveries),
    republishes: sum((k) => k.republishes),
    reordered: sum((k) => k.reordered),
    late: 0,
    firstReceivedMs: out.length ? receivedMs[0] : NaN,
    lastReceivedMs: out.length ? receivedMs[out.length - 1] : NaN,
    keys,
  };

  const seq = new Float64Array(out.length);
  const sendingMs = new Float64Array(out.length);
  for (let j = 0; j < out.length; j++) {
    seq[j] = wrapSeq(r.starts[out.key[j]], out.offset[j], r.modulus);
    sendingMs[j] = Math.floor(out.sendingUs[j] / 1000);
  }
  return {
    keyNames: r.keyNames,
    count: out.length,
    key: out.key.subarray(0, out.length),
    offset: out.offset.subarray(0, out.length),
    seq,
    publishId: out.publishId.subarray(0, out.length),
    kind: out.kind.subarray(0, out.length),
    sendingMs,
    publishUs: out.publishUs.subarray(0, out.length),
    receivedMs,
    truth,
    seed: o.seed,
  };
}

/**
 * The original publishes in send order: keys take turns in a shuffled round, each sending a
 * burst of consecutive numbers, so a key's neighbours in arrival are often its own next numbers
 * (which is what makes local reordering possible at all with many keys).
 */
function publishOriginals(o: StreamOptions, r: Resolved, rand: () => number, count: number): Columns {
  const K = r.keyNames.length;
  const n = o.messagesPerKey;
  const burstMin = o.burst?.min ?? 1;
  const burstMax = o.burst?.max ?? 4;
  const gapUs = (o.burstGapMs ?? 40) * 1000;
  const intraUs = (o.intraBurstMs ?? 0.5) * 1000;
  const cols = new Columns(count);
  const next = new Int32Array(K); // next offset per key
  const lostIdx = new Int32Array(K); // next loss range per key
  let active = Array.from({ length: K }, (_, k) => k);
  let tUs = (o.startTimeMs ?? DEFAULT_START_MS) * 1000;
  let publishId = 0;
  while (active.length) {
    shuffle(active, rand);
    for (const k of active) {
      tUs += gapUs * (0.5 + rand());
      const b = randInt(rand, burstMin, burstMax);
      for (let m = 0; m < b && next[k] < n; m++) {
        const off = next[k]++;
        const ranges = r.lostOffsets[k];
        while (lostIdx[k] < ranges.length && ranges[lostIdx[k]][1] < off) lostIdx[k]++;
        if (lostIdx[k] < ranges.length && ranges[lostIdx[k]][0] <= off) continue; // never emitted
        if (m > 0) tUs += intraUs * (0.5 + rand());
        // Publish 0.15–1 ms after sending, arrive 2–8 ms after publishing (before monotonic fix-up).
        const pubUs = Math.round(tUs + 150 + rand() * 850);
        const natural = Math.floor(pubUs / 1000) + (o.minLatencyMs ?? 2) + Math.floor(rand() * 7);
        cols.add(k, off, publishId++, tUs, pubUs, natural);
      }
    }
    active = active.filter((k) => next[k] < n);
  }
  return cols;
}

function shuffle(a: number[], rand: () => number): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/**
 * Swaps messages with a later message of the same key at most `reorderWindow` arrivals and
 * `reorderMaxMs` ahead. Each message moves at most once. Returns the number of displaced messages per key.
 */
function injectReordering(o: StreamOptions, c: Columns, rand: () => number, keyCount: number): number[] {
  const f = o.reorderFraction ?? 0;
  const counts = new Array<number>(keyCount).fill(0);
  if (!(f > 0)) return counts;
  const window = o.reorderWindow ?? 4;
  const maxUs = (o.reorderMaxMs ?? 5) * 1000;
  // A message can start a swap only if it was not already moved; solving f = 2q(1 − f) for the
  // per-message probability q gives about f of messages moved (less where no partner is near).
  const q = Math.min(1, f / (2 * (1 - Math.min(f, 0.9))));
  const moved = new Uint8Array(c.length);
  const candidates: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (moved[i] || rand() >= q) continue;
    candidates.length = 0;
    for (let j = i + 1; j <= i + window && j < c.length; j++) {
      if (c.sendingUs[j] - c.sendingUs[i] > maxUs) break;
      if (!moved[j] && c.key[j] === c.key[i]) candidates.push(j);
    }
    if (!candidates.length) continue;
    const j = candidates[Math.floor(rand() * candidates.length)];
    c.swap(i, j);
    moved[i] = moved[j] = 1;
    counts[c.key[i]] += 2;
  }
  return counts;
}

/**
 * Inserts redeliveries and republishes a few arrivals after their original. Republishes get a
 * new publish id and a later publishTime; redeliveries repeat the original's message verbatim.
 */
function injectDuplicates(o: StreamOptions, c: Columns, rand: () => number): Columns {
  const picks = pickDuplicates(o, c.length, rand);
  const delay = Math.max(1, o.duplicateDelay ?? 16);
  const out = new Columns(c.length + 64);
  // Copies waiting for their arrival slot, by target slot modulo (delay + 1).
  const pending: { from: number; kind: number; at: number }[][] = Array.from({ length: delay + 1 }, () => []);
  let nextPublishId = c.length;
  const emitCopy = (p: { from: number; kind: number }) => {
    const j = out.copy(c, p.from);
    out.kind[j] = p.kind;
    if (p.kind === REPUBLISH) {
      out.publishId[j] = nextPublishId++;
      // Re-published when the copy goes out: keep publishTime after SendingTime and before arrival.
      const recentUs = (j > 0 ? out.naturalMs[j - 1] : 0) * 1000 - 2000 + Math.floor(rand() * 1000);
      out.publishUs[j] = Math.max(out.publishUs[j] + 1, recentUs);
      out.naturalMs[j] = Math.max(out.naturalMs[j], Math.floor(out.publishUs[j] / 1000) + 2);
    }
  };
  for (let i = 0; i < c.length; i++) {
    const bucket = pending[i % (delay + 1)];
    for (const p of bucket) emitCopy(p);
    bucket.length = 0;
    out.copy(c, i);
    if (picks[i] !== 0) {
      for (const kind of [REDELIVERY, REPUBLISH]) {
        if (!(picks[i] & kind)) continue;
        const at = i + randInt(rand, 1, delay);
        pending[at % (delay + 1)].push({ from: i, kind, at });
      }
    }
  }
  // Copies due after the last original arrive at the end, in their slot order.
  const rest = pending.flat().sort((a, b) => a.at - b.at || a.from - b.from);
  for (const p of rest) emitCopy(p);
  return out;
}

/**
 * Which originals get a copy: bit REDELIVERY and/or bit REPUBLISH. Exact counts pick that many
 * distinct originals; fractions draw per original.
 */
function pickDuplicates(o: StreamOptions, n: number, rand: () => number): Uint8Array {
  const picks = new Uint8Array(n);
  for (const [kind, count, fraction] of [
    [REDELIVERY, o.redeliveries, o.redeliveryFraction ?? 0],
    [REPUBLISH, o.republishes, o.republishFraction ?? 0],
  ] as const) {
    if (count !== undefined) {
      if (!(Number.isInteger(count) && count >= 0 && count <= n)) throw new RangeError(`duplicate count ${count} is not between 0 and ${n}`);
      for (let done = 0; done < count; ) {
        const i = Math.floor(rand() * n);
        if (picks[i] & kind) continue;
        picks[i] |= kind;
        done++;
      }
    } else if (fraction > 0) {
      for (let i = 0; i < n; i++) if (rand() < fraction) picks[i] |= kind;
    }
  }
  return picks;
}

/** receivedAt in ms: never before the message could arrive, never before the previous line. */
function arrivalTimes(c: Columns): Float64Array {
  const t = new Float64Array(c.length);
  let prev = -Infinity;
  for (let j = 0; j < c.length; j++) {
    prev = Math.max(prev, c.naturalMs[j]);
    t[j] = prev;
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Rendering

export function messageId(plan: StreamPlan, j: number): string {
  return String(MESSAGE_ID_BASE + plan.publishId[j]);
}

/** RFC 3339 with microseconds, as Pub/Sub writes publishTime. */
export function formatMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const iso = new Date(ms).toISOString(); // …ss.mmmZ
  return `${iso.slice(0, -1)}${String(Math.round(us - ms * 1000)).padStart(3, '0')}Z`;
}

/**
 * The payload: what the CME message would carry, as JSON. A pure function of (seed, key,
 * position), so every copy of a message carries the same bytes.
 */
export function payload(plan: StreamPlan, j: number): Record<string, unknown> {
  const k = plan.key[j];
  const off = plan.offset[j];
  const h = hash3(plan.seed, k, off);
  const basePx = 4000 + (hash3(plan.seed, k, -1) % 2000);
  const entries: { px: number; qty: number }[] = [];
  const n = 1 + (h % 3);
  for (let e = 0; e < n; e++) {
    const he = hash3(h, e, off);
    // CME equity index futures tick in quarters.
    entries.push({ px: basePx + ((he % 81) - 40) * 0.25, qty: 1 + ((he >>> 8) % 50) });
  }
  return { MsgSeqNum: plan.seq[j], Channel: plan.keyNames[k], SendingTime: plan.sendingMs[j], entries };
}

/** Line j of the capture (no trailing newline). */
export function renderLine(plan: StreamPlan, j: number): string {
  const channel = plan.keyNames[plan.key[j]];
  const data = Buffer.from(JSON.stringify(payload(plan, j))).toString('base64');
  const ack = hash3(plan.seed, j, 0x61636b).toString(16).padStart(8, '0') + hash3(plan.seed, j, 0x4b4341).toString(16).padStart(8, '0');
  const record = {
    ackId: `projects/cme-sample/subscriptions/md-${channel}:${j + 1}-${ack}`,
    message: {
      data,
      attributes: { Channel: channel, MsgSeqNum: String(plan.seq[j]), SendingTime: String(plan.sendingMs[j]) },
      messageId: messageId(plan, j),
      publishTime: formatMicros(plan.publishUs[j]),
      orderingKey: channel,
    },
    deliveryAttempt: plan.kind[j] === REDELIVERY ? 2 : 1,
    receivedAt: new Date(plan.receivedMs[j]).toISOString(),
  };
  return JSON.stringify(record);
}

/** The capture's lines in arrival order, lazily (a million lines need not be held at once). */
export function* captureLines(plan: StreamPlan): Generator<string> {
  for (let j = 0; j < plan.count; j++) yield renderLine(plan, j);
}

/** The whole capture as lines, with its ground truth. */
export function generateCapture(o: StreamOptions): { lines: string[]; truth: GroundTruth; plan: StreamPlan } {
  const plan = planStream(o);
  return { lines: [...captureLines(plan)], truth: plan.truth, plan };
}
