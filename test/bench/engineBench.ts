/**
 * Engine throughput: the `Sequencer` from src/core fed straight from pre-built arrays, with a
 * sink that only counts — the cost of sequencing itself, without parsing or output.
 */
import { hashId, Sequencer, SequencerConfig, SequencerSink } from '../../src/core/sequencer/sequencer';
import { CmeBaseline } from './cmeBaseline';
import { EngineInput } from './streams';

/** What a run found, to check the figures were earned by correct work. */
export interface Found {
  delivered: number;
  duplicates: number;
  gaps: number;
  lost: number;
  late: number;
}

export function engineConfig(seqBits: 16 | 64): SequencerConfig {
  return { gapTimeoutMs: 10_000, capacity: 10_000, seqBits, sequenced: true };
}

/**
 * A sink that only counts. A class, not an object of closures made per pass: every pass then
 * calls the same methods, as the CLI's one sink per process does, and the JIT's call-site
 * feedback from the warm-up pass still holds for the timed ones.
 */
class CountingSink implements SequencerSink<number> {
  readonly found: Found = { delivered: 0, duplicates: 0, gaps: 0, lost: 0, late: 0 };
  message(): void {
    this.found.delivered++;
  }
  gap(_k: unknown, g: { count: number }): void {
    this.found.gaps++;
    this.found.lost += g.count;
  }
  duplicate(): void {
    this.found.duplicates++;
  }
  late(): void {
    this.found.late++;
  }
  reordered(): void {}
}

/** One full pass: a fresh sequencer, every delivery offered at its arrival time, then finish. */
export function runEngine(input: EngineInput): Found {
  const sink = new CountingSink();
  const s = new Sequencer<number>(engineConfig(input.seqBits), sink);
  const { keyOf, seq, id, time, count } = input;
  for (let i = 0; i < count; i++) {
    s.advance(time[i]);
    s.offer(keyOf[i], seq[i], id[i], i);
  }
  s.finish();
  return sink.found;
}

/**
 * Share of deliveries the engine held back before releasing them (start window, reordering,
 * duplicates' originals): explains the figures, so measured in a separate, untimed pass.
 */
export function heldShare(input: EngineInput): number {
  let held = 0;
  let all = 0;
  const sink: SequencerSink<number> = {
    message: (_k, _seq, _item, arrivedAt, releasedAt) => {
      all++;
      if (releasedAt > arrivedAt) held++;
    },
    gap: () => {},
    duplicate: () => {},
    late: () => {},
    reordered: () => {},
  };
  const s = new Sequencer<number>(engineConfig(input.seqBits), sink);
  for (let i = 0; i < input.count; i++) {
    s.advance(input.time[i]);
    s.offer(input.keyOf[i], input.seq[i], input.id[i], i);
  }
  s.finish();
  return all ? held / all : 0;
}

/** Differences between what a run found and the injected truth; empty when they agree. */
export function checkFound(input: EngineInput, f: Found): string[] {
  const t = input.truth;
  const want: Found = { delivered: t.distinct, duplicates: t.duplicates, gaps: t.gaps, lost: t.lost, late: t.late };
  return (Object.keys(want) as (keyof Found)[]).filter((k) => want[k] !== f[k]).map((k) => `${k} ${f[k]} ≠ ${want[k]}`);
}

/**
 * The same pass through the CME sample's consumer loop (see cmeBaseline.ts): with the sample's
 * skip list, or (`tuned`) with a sorted array, faster in JavaScript.
 */
export function runBaseline(input: EngineInput, tuned = false): Found {
  let delivered = 0;
  const b = new CmeBaseline<number>(
    10_000,
    () => {
      delivered++;
    },
    tuned,
  );
  const { keyOf, seq, time, count } = input;
  for (let i = 0; i < count; i++) b.offer(keyOf[i], seq[i], i, time[i]);
  b.finish();
  return { delivered, duplicates: b.counts.duplicates, gaps: b.counts.gaps, lost: b.counts.lost, late: 0 };
}

/** A key's state in the ceiling loop: the one number it compares. */
class CeilingKey {
  next = -1;
  other = 0;
}

/**
 * The least work any sequencer that obeys the sequencing rules (docs/sequencing-rules.md) does per
 * message, as a loop: find the key (the map, and the same previous-key shortcut the engine takes),
 * hash the messageId (needed to tell a redelivery from a second publish), compare the number with
 * the next one expected, hand it on. It holds nothing, keeps no history, no timer, no findings — so
 * it is not a sequencer (it reorders nothing, its count is not checked): it is a ceiling. When even
 * this loop is not 3× the CME sample's loop, no engine doing the work can be.
 */
export function runCeiling(input: EngineInput): number {
  const keys = new Map<string, CeilingKey>();
  let last: CeilingKey | undefined;
  let lastName = '';
  let handed = 0;
  let hashes = 0;
  const hand = (_item: number): void => {
    handed++;
  };
  const { keyOf, seq, id, count } = input;
  for (let i = 0; i < count; i++) {
    const name = keyOf[i];
    let k = last;
    if (k === undefined || lastName !== name) {
      k = keys.get(name);
      if (k === undefined) keys.set(name, (k = new CeilingKey()));
      last = k;
      lastName = name;
    }
    hashes ^= hashId(id[i]);
    const s = seq[i];
    if (k.next === -1 || s === k.next) {
      k.next = s + 1;
      hand(i);
    } else k.other++;
  }
  // Returned so the hashing cannot be optimised away.
  return handed + (hashes & 1);
}
