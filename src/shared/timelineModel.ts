/**
 * What the timeline shows, as plain data: the shapes the session/timeline layer produces and the
 * webview draws (lanes, pages, marks, events, replay state, the standalone snapshot). Types and
 * constants only; both sides import them from here.
 */
import type { ReceivedMessage } from '../core/capture/captureRecord';
import type { ReplaySummary } from '../core/replay/replayEngine';
import type { SeqBits } from '../core/sequencer/serial';
import type { KeyOrder } from '../core/trace/keyOrder';
import type { ResetHow } from '../core/sequencer/resets';

/**
 * Event kinds. `onlyA` / `onlyB` / `lostBoth` are a comparison session's ranges on a merged lane:
 * numbers only side A had (B missed them), only side B had, and neither had.
 */
export const Kind = { message: 0, gap: 1, duplicate: 2, late: 3, invalid: 4, reordered: 5, reset: 6, onlyA: 7, onlyB: 8, lostBoth: 9 } as const;

export type KindCode = (typeof Kind)[keyof typeof Kind];

/** By kind code (see Kind). */
export const KIND_NAMES = ['message', 'gap', 'duplicate', 'late', 'invalid', 'reordered', 'reset', 'onlyA', 'onlyB', 'lostBoth'] as const;

/** A comparison's range kinds (see Kind). */
export const COMPARE_KINDS = ['onlyA', 'onlyB', 'lostBoth'] as const satisfies readonly KindName[];

export type CompareKind = (typeof COMPARE_KINDS)[number];

/** True for a comparison's range kinds (drawn, counted and decoded as ranges, like gaps). */
export function isCompareKind(kind: number): boolean {
  return kind === Kind.onlyA || kind === Kind.onlyB || kind === Kind.lostBoth;
}

export type KindName = (typeof KIND_NAMES)[number];

/** Event flags; a duplicate with `conflict` had the first copy's messageId but other content. */
export const Flag = { redelivery: 1, reasonCapacity: 2, reasonEnd: 4, conflict: 8, reasonReset: 16, beforeStart: 32 } as const;

/** How a reset was recognised, by its code in a reset event's flags (see ResetHow). */
export const RESET_HOWS = ['next', 'resetTo', 'quiet', 'end', 'start'] as const satisfies readonly ResetHow[];

/** Counts of what the sequencer emitted (in total or for one key), up to some replay position. */
export interface EmittedCounts {
  delivered: number;
  gaps: number;
  lost: number;
  duplicates: number;
  /** Duplicates whose content differs from the first copy's (counted in `duplicates` too). */
  conflicts: number;
  late: number;
  /** First copies that came after one of their key published later (`--seq publishTime`; counted in `delivered` too). */
  reordered: number;
  /** Times a key's numbers started again. */
  resets: number;
  invalid: number;
}

export interface KeyStateView {
  key: string;
  keyIndex: number;
  /** Next number the key expects; undefined during its start window. */
  expected?: number;
  /**
   * Held numbers as runs of consecutive ones, lowest first, each [first, last] (raw: a run can
   * span the wrap, 65534–1), at most `HELD_RUNS_SHOWN` runs; and how many numbers in all. A key
   * in its start window holds a run of dozens: listed one by one they filled the panel.
   */
  heldRuns: [number, number][];
  /** True when more runs are held than `heldRuns` lists. */
  heldMore?: boolean;
  heldCount: number;
  /** The open gap the key waits on, if any: missing range and how long it has waited. */
  gap?: { from: number; to: number; waitedMs: number; deadline: number };
  /** In its start window: when it ends. */
  startsAt?: number;
}

export interface CursorState {
  position: number;
  /** arrivalCount + 1: the end. */
  end: number;
  /** Engine clock at this position (NaN before the first arrival). */
  time: number;
  /** The arrival just processed (position − 1), if any. */
  current?: { arrival: number; key: string; seq?: number; messageId: string; line: number; file: number; valid: boolean };
  counts: EmittedCounts;
  /** Keys holding something, or the current arrival's key; most held first, at most `KEYS_SHOWN`. */
  keys: KeyStateView[];
  keysHolding: number;
}

export interface EventView {
  id: number;
  kind: KindName;
  /** Key name ('' for invalid records, which have none). */
  key: string;
  keyIndex: number;
  /** message / duplicate / late: the number (absent without one); gap, onlyA, onlyB, lostBoth: the range's first number. */
  seq?: number;
  /** Gap, onlyA, onlyB, lostBoth: the range's last number and how many. */
  seqTo?: number;
  count?: number;
  /** See EventStore.t0 / t1 (engine clock, ms since the epoch). */
  t0: number;
  t1: number;
  redelivery?: boolean;
  /** Duplicate: same messageId as the first copy, other content. */
  conflict?: boolean;
  cascade?: number;
  reason?: 'timeout' | 'capacity' | 'end' | 'reset';
  /** Late: its number is below the key's first (never expected, so never declared lost). */
  beforeStart?: boolean;
  /** Late: when its number was declared lost (engine clock, ms), when known. */
  lostAt?: number;
  /** Reset: the old sequence's last number (the new one's first is `seq`), how it was decided, and what it released and declared lost. */
  resetFrom?: number;
  how?: ResetHow;
  released?: number;
  lost?: number;
  /** Invalid: why the record could not be sequenced. */
  problem?: string;
  /** onlyA, onlyB, lostBoth: the compared sides as the lanes name them, e.g. ['A (a.jsonl)', 'B (b.jsonl)']. */
  sides?: [string, string];
  latencyMs?: number;
  /** Reordered: how far out of place (see ReorderedEvent), and the message it came behind. */
  byMs?: number;
  byPosition?: number;
  behindId?: string;
  /** The record's arrival index, file index, 1-based line and messageId (not for gaps). */
  arrival?: number;
  file?: number;
  line?: number;
  messageId?: string;
}

/** Parallel arrays, so a page serialises compactly. */
export interface MarkList {
  id: number[];
  kind: number[];
  t0: number[];
  t1: number[];
  seq: number[];
  /** Gap and a comparison's ranges: last number; others: flags (see Flag: bit 0 = redelivery, bit 3 = conflict). */
  aux: number[];
}

/** A key's counts: for the whole session, or up to a replay position. */
export interface LaneCounts {
  received: number;
  delivered: number;
  gaps: number;
  lost: number;
  duplicates: number;
  late: number;
  reordered: number;
  resets: number;
  /** A comparison's merged lane: numbers only A had, only B had, and neither had (absent elsewhere). */
  compared?: ComparedCounts;
}

/** Numbers of a comparison's ranges on a merged lane. */
export interface ComparedCounts {
  onlyA: number;
  onlyB: number;
  lostBoth: number;
}

/** A lane: its key and the key's counts over the whole session. */
export interface LaneInfo extends LaneCounts {
  /** Key index (the lane's identity in pages). */
  key: number;
  name: string;
  /** Carries far more traffic than the other keys, or built a large backlog. */
  hot: boolean;
}

export interface LanePage {
  key: number;
  /**
   * The key's counts up to the replay position, in a page for one (the lane's label follows the
   * replay rather than show totals beside marks that stop at the position).
   */
  countsAt?: LaneCounts;
  /** Messages one by one, when few enough. */
  marks?: MarkList;
  /** Otherwise: messages released per bucket. */
  density?: number[];
  findings: MarkList;
  /** Findings left out over the cap. */
  findingsOmitted: number;
}

export interface TimelinePage {
  t0: number;
  t1: number;
  buckets: number;
  lanes: LanePage[];
  invalid: MarkList;
}

export interface Overview {
  t0: number;
  t1: number;
  /** Arrivals per bin, and findings per bin. */
  arrivals: number[];
  gaps: number[];
  duplicates: number[];
  late: number[];
  reordered: number[];
}

export interface Base64 {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
}

export type EventColumn = 'kind' | 'key' | 'seq' | 'seqTo' | 'extra' | 't0' | 't1' | 'flags' | 'arrival' | 'cause';
export type ArrivalColumn = 'file' | 'line' | 'time' | 'key' | 'seq';

export interface SessionSnapshot {
  version: 1;
  paths: string[];
  summary: ReplaySummary;
  keyNames: string[];
  events: Record<EventColumn, string>;
  arrivals: Record<ArrivalColumn, string>;
  messageIds: string[];
  problems: [number, string][];
  /** Reordered events' behind messageIds, by event (absent from snapshots made before reordered events existed). */
  behind?: [number, string][];
  /** Resets' released counts, by event (absent when none released any). */
  released?: [number, number][];
  /** Records by arrival index (only those the export chose to embed). */
  records: Record<number, ReceivedMessage>;
  /**
   * The embedded records' payloads decoded by their schemas, by arrival index (only those a
   * schema applies to): the page carries no decoder, so the exporter decodes them.
   */
  decoded?: Record<number, EmbeddedDecoding>;
}

/** A payload decoded on the host for a page without decoders: the record and its schema's source, or why it does not match. */
export type EmbeddedDecoding = { readonly record: unknown; readonly source: string } | { readonly error: string };

/** What a session is called and how it was sequenced, for its views (the extension's, the worker's first view, a standalone page). */
export interface SessionMeta {
  id: string;
  title: string;
  /** How the session was sequenced, in words. */
  options: string;
  /** Width of its sequence numbers. */
  seqBits?: SeqBits;
  standalone?: boolean;
  /** The lanes' order to begin with (default: as the keys first appeared). */
  keyOrder?: KeyOrder;
  /** Payloads are MDP 3.0 packets (the cme preset, --seq/--time mdp3): the detail pane decodes them. */
  payload?: 'mdp3';
  /** A line under the title: a live session's recording and the subscriptions it reads. */
  source?: string;
  /** A live session's connection while it is not receiving: the timeline's header says so. */
  connection?: LiveConnection;
  /** A capture still loading: the share of its bytes read (see SessionInfo.loading). */
  loading?: number;
}

/** A live session that is not receiving: why, in a few words, and what comes next. */
export interface LiveConnection {
  state: 'connecting' | 'disconnected' | 'stopped';
  reason: string;
  next: string;
}
