/**
 * Where a key's numbers that are not small integers live: its slots in the sequencer's
 * `keyNumbers`, a Float64Array with a cache line per key (see SequencerState.keyNumbers).
 */

/** Which of a key's numbers. */
export const enum KeySlot {
  /** Absolute position of the next number to deliver (valid once the key started). */
  Expected = 0,
  /** Position of history slot 0 (valid once the key has history). */
  HistoryBase = 1,
  /** Deadline the key has in the timer heap, or Infinity. */
  Queued = 2,
  /** End of the key's start window: its first arrival plus the gap timeout. */
  StartDeadline = 3,
  /** Unwrapping reference before the key starts: the previous arrival's position. */
  StartRef = 4,
  /** Longest time a message of the key was held for a missing number (not the start window), ms. */
  MaxHold = 5,
  /**
   * The raw (wire) value of Expected. An in-order arrival is recognised by its raw number alone,
   * and delivered with it: unwrapping and wrapping a 16- or 32-bit number each cost a division.
   */
  ExpectedRaw = 6,
  /** Position of the first number of the key's current sequence (its start, or its latest reset). */
  SequenceStart = 7,
}
/** ExpectedRaw while a reset candidate is pending: equal to no number (NaN, not -1: 64-bit numbers may be negative), so no arrival takes the in-order path. */
export const PENDING_RAW = Number.NaN;
/** Numbers per key (a power of two: the index is a shift; 64 bytes, one cache line). */
export const KEY_NUMBERS_SHIFT = 3;
