/**
 * One row of a comparison's export: an identity (a key's number, or a messageId with
 * `--seq none`) and where it was, or a run of numbers neither side had.
 */
export interface CompareRow {
  key: string;
  /** The raw number; for a lost run its first number; null with `--seq none`. */
  seq: number | null;
  /** A run of numbers neither side had: its last number and length (absent on other rows). */
  to?: number;
  count?: number;
  inA: boolean;
  inB: boolean;
  /** First arrival on each side (ms since the epoch, the clock `replay` uses), null where absent. */
  arrivedA: number | null;
  arrivedB: number | null;
  /** arrivedB − arrivedA, when both had it. */
  deltaMs: number | null;
  messageIdA: string | null;
  messageIdB: string | null;
}

export const COMPARE_ROW_COLUMNS = [
  'key',
  'seq',
  'to',
  'count',
  'inA',
  'inB',
  'arrivedA',
  'arrivedB',
  'deltaMs',
  'messageIdA',
  'messageIdB',
] as const satisfies readonly (keyof CompareRow)[];
