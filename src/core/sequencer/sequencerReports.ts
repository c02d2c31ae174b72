/**
 * What a sequencer reports to its sink: the messages it delivers, the gaps it declares, the
 * duplicates, late arrivals, reordered messages and resets it finds.
 */
import type { KeyState } from './keyState';
import { Displacement } from './publishOrder';
import { ResetInfo } from './resets';

/** `reset`: declared when the key's sequence was reset (see ResetInfo). */
export type GapReason = 'timeout' | 'capacity' | 'end' | 'reset';

export interface GapInfo {
  /** First and last missing numbers (raw, inclusive, in serial order: may span the wrap). */
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Arrival of the earliest message held above the gap: when the wait started. */
  readonly openedAt: number;
  readonly declaredAt: number;
  readonly reason: GapReason;
}

export interface DuplicateInfo<T> {
  readonly seq: number | undefined;
  readonly messageId: string;
  /** True when the first copy carried the same messageId (a Pub/Sub redelivery). */
  readonly redelivery: boolean;
  /** messageId of the copy that was delivered or held, when still remembered. */
  readonly firstMessageId: string | undefined;
  /** Whether the first copy was already delivered (else it is still held). */
  readonly firstDelivered: boolean;
  /** Cascade number (1-based, over the whole run) when this is a redelivery. */
  readonly cascade: number | undefined;
  /**
   * Same messageId as the first copy but different content (data, attributes or ordering key):
   * not a redelivery (Pub/Sub never changes a message it re-sends). See docs/sequencing-rules.md.
   */
  readonly conflict: boolean;
  /** The first copy, when a conflict's first copy is still at hand (held), to say what differs. */
  readonly firstItem: T | undefined;
  readonly at: number;
  readonly item: T;
}

export interface LateInfo<T> {
  readonly seq: number;
  readonly messageId: string;
  /** When the number was declared lost (before the key's start: when the key started). */
  readonly lostAt: number;
  /** True when the number is below the first one the key's sequence started with. */
  readonly beforeStart: boolean;
  readonly at: number;
  readonly item: T;
}

export interface ReorderInfo<T> extends Displacement<T> {
  readonly messageId: string;
  /** Its own publish time, ms. */
  readonly publishedMs: number;
  readonly at: number;
  readonly item: T;
}

export interface SequencerSink<T> {
  message(key: KeyState<T>, seq: number | undefined, item: T, arrivedAt: number, releasedAt: number): void;
  gap(key: KeyState<T>, gap: GapInfo): void;
  duplicate(key: KeyState<T>, dup: DuplicateInfo<T>): void;
  late(key: KeyState<T>, late: LateInfo<T>): void;
  /** A first copy judged by publish order came after one of its key published later (heard right after its message). */
  reordered(key: KeyState<T>, info: ReorderInfo<T>): void;
  /** Optional: a sink that leaves it out still hears the gaps and messages a reset releases. */
  reset?(key: KeyState<T>, reset: ResetInfo): void;
}
