/**
 * Run by elementsKinds.test.ts in a node started with --allow-natives-syntax: feeds sequencers a
 * reordered, duplicated stream and prints, as JSON, every number array of theirs that V8 no
 * longer stores unboxed (see src/core/util/arrayKinds.ts for why that matters), every field it
 * probes that is not there (or not an array), and how many arrays it checked.
 */
import { Sequencer, SequencerSink } from '../../src/core/sequencer/sequencer';

// Natives syntax is not TypeScript: compiled at run time, where the flag allows it.
const hasDoubleElements = new Function('a', 'return %HasDoubleElements(a)') as (a: unknown) => boolean;

const sink: SequencerSink<number> = { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} };
const boxed: string[] = [];
/** Fields the probe reaches for that are not arrays: the probe no longer matches the engine. */
const missing: string[] = [];
/** Arrays checked: none would mean nothing was probed. */
let checked = 0;

/** Positions 0…n−1 of `keys` keys, every fifth pair swapped, every seventh repeated, fractional times. */
function feed(s: Sequencer<number>, keys: number, n: number): void {
  let t = 0.25;
  for (let i = 0; i < n; i++) {
    const seq = i % 5 === 0 ? i + 1 : i % 5 === 1 ? i - 1 : i;
    for (let k = 0; k < keys; k++) {
      s.advance((t += 0.5));
      s.offer(`k${k}`, seq, `id-${k}-${seq}`, i);
      if (i % 7 === 3) s.offer(`k${k}`, seq, `id-${k}-${seq}`, i);
    }
  }
}

/**
 * Records each array that is not stored as doubles. A field that is not an array — renamed,
 * moved, or made a typed array — is a failure too, not a pass: the probe would otherwise stop
 * probing without a word.
 */
function check(where: string, arrays: Record<string, unknown>): void {
  for (const [name, a] of Object.entries(arrays)) {
    if (!Array.isArray(a)) missing.push(`${where}.${name} (${a === undefined ? 'missing' : typeof a})`);
    else {
      checked++;
      if (!hasDoubleElements(a)) boxed.push(`${where}.${name}`);
    }
  }
}

// Two sequencers, one after the other: the second meets code optimised on the first.
for (const round of [1, 2]) {
  // A short gap timeout so that keys start (and hold behind reordering) within the stream.
  const s = new Sequencer<number>({ gapTimeoutMs: 20, capacity: 10_000, seqBits: 64, sequenced: true }, sink);
  feed(s, 3, 4000);
  // Reach into private fields: the property under test is how V8 stores them.
  const inner = s as unknown as { spareHeld: object[]; keyStates: { held: object }[]; timers: Record<string, unknown> };
  const queues = [...inner.spareHeld, ...inner.keyStates.map((k) => k.held)] as unknown as Record<string, unknown>[];
  queues.forEach((q, i) => check(`round ${round} queue ${i}`, { abs: q.abs, arrivedAt: q.arrivedAt }));
  check(`round ${round} timers`, { runDeadlines: inner.timers.runDeadlines, heapDeadlines: inner.timers.heapDeadlines });
  s.finish();
}
process.stdout.write(JSON.stringify({ boxed, missing, checked }));
