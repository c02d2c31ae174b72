/** How a sequencer is configured: its timeout, capacity, number width and the rules it applies. */
import { SeqBits } from './serial';

export interface SequencerConfig {
  /** How long a gap (and the start of a key) waits, in clock milliseconds. */
  readonly gapTimeoutMs: number;
  /** Held messages per key above which the lowest gap is declared lost at once. */
  readonly capacity: number;
  readonly seqBits: SeqBits;
  /** False for `--seq none`: no numbers, so arrival order is kept and duplicates are found by messageId. */
  readonly sequenced: boolean;
  /**
   * Unsequenced keys judged by publish order (`--seq publishTime`): `offer`'s number is then the
   * record's publish time in ms (NaN when it has none), and a first copy that arrives after one
   * of its key published later is reported as reordered (see publishOrder.ts).
   */
  readonly publishOrder?: boolean;
  /**
   * How many recent deliveries per key remember their messageId, to tell a redelivery (same id)
   * from a second publish of a number. Older duplicates are still found, but their first id is
   * unknown (reported as not a redelivery).
   */
  readonly historySize?: number;
  /**
   * How many delivery hashes all keys keep together (default 2^22, 16 MiB): past it a key's
   * history stops growing and keeps the latest deliveries it has room for, at least 16.
   */
  readonly historyTotal?: number;
  /**
   * Unsequenced keys (`sequenced: false`): how many of the latest deliveries of all keys remember
   * their messageId, to find duplicates (default 2^20; see seenIds.ts).
   */
  readonly idsKept?: number;
  /** False turns reset detection off (`--no-resets`); default on (docs/sequencing-rules.md, "Reset"). */
  readonly resets?: boolean;
  /** A jump to exactly this number from farther than the capacity is a reset at once (`--reset-to`). */
  readonly resetTo?: number;
}
