/**
 * Sequence resets (docs/sequencing-rules.md, "Reset"): a key's numbers start again from a low
 * number — a publisher restarted its counter, CME began a weekly session at packet 1. What a
 * reset looks like, the distance past which a jump can be one, and what the sequencer reports.
 */
import { SeqBits } from './serial';

/**
 * How a reset was recognised: `next`, a following number continued from it; `resetTo`, a jump to
 * the number `--reset-to` names (at once); `quiet`, nothing contradicted it for the gap timeout;
 * `end`, nothing contradicted it before the end of input; `start`, found among what a key's
 * start window held.
 */
export type ResetHow = 'next' | 'resetTo' | 'quiet' | 'end' | 'start';

/** How a reset was recognised, in words (the tree's tooltip, the timeline's detail pane). */
export const RESET_HOW_WORDS: Record<ResetHow, string> = {
  next: 'the next number continued from it',
  resetTo: 'a jump to the --reset-to number',
  quiet: 'nothing contradicted it for the gap timeout',
  end: 'nothing contradicted it before the end of input',
  start: "found among what the key's start window held",
};

export interface ResetInfo {
  /** Last number of the old sequence (the highest delivered or held), raw. */
  readonly from: number;
  /** First number of the new sequence, raw. */
  readonly to: number;
  /** When the reset was decided. */
  readonly at: number;
  /** When the new sequence's first number arrived. */
  readonly arrivedAt: number;
  /** Messages of the old sequence the reset released (they were held behind a gap). */
  readonly released: number;
  /** Numbers of the old sequence declared lost because of it (gaps with reason `reset`). */
  readonly lost: number;
  readonly how: ResetHow;
}

/** A low number far from the current one, held aside until what follows says whether it starts a new sequence. */
export interface ResetCandidate<T> {
  /** Absolute position, unwrapped against the key's expected number when it arrived. */
  readonly abs: number;
  readonly messageId: string;
  readonly item: T;
  readonly at: number;
}

/** The delivery history a key keeps by default (sequencerState.ts): how far back a copy can be recognised. */
export const RESET_HISTORY = 65_536;

/**
 * How far (in numbers) a jump to a lower number must go to be a reset candidate: farther than the
 * held window (`capacity`) and the default delivery history (65 536) could mean. With 16- and
 * 32-bit numbers it is at most a quarter of the number space (serial arithmetic sees at most half
 * of it either way), and never less than the capacity. Not the configured history: the timeline's
 * step-through sequencer keeps a shorter one and must find the same resets.
 */
export function resetDistance(bits: SeqBits, capacity: number): number {
  return bits === 64 ? Math.max(capacity, RESET_HISTORY) : Math.max(capacity, Math.min(RESET_HISTORY, 2 ** (bits - 2)));
}
