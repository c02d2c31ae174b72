/**
 * The ordered trace: what the sequencer released and found, one event each, in release order. This
 * is the JSONL export format (docs/capture-formats.md, "Output: the ordered trace"); the CSV and
 * Chrome-trace exporters and the extension's views read the same objects. Times are the engine
 * clock in ms since the epoch; `publishTime` / `receivedAt` are the record's own strings.
 */
import { GapReason } from '../sequencer/sequencer';
import { ResetHow } from '../sequencer/resets';

export interface MessageEvent {
  type: 'message';
  key: string;
  /** Absent with `--seq none`. */
  seq?: number;
  messageId: string;
  publishTime?: string;
  receivedAt?: string;
  orderingKey?: string;
  attributes?: Record<string, string>;
  /** Base64 payload. */
  data?: string;
  deliveryAttempt?: number;
  /** Clock at arrival and at release; heldMs = releasedAt − arrivedAt. */
  arrivedAt: number;
  releasedAt: number;
  heldMs: number;
  /** Receive clock − SendingTime, when the sending-time attribute is present. */
  latencyMs?: number;
  file?: string;
  line: number;
  /** The payload is a record an export already decoded (PubsubMessage.decodedBy). */
  decodedBy?: string;
}

export interface GapEvent {
  type: 'gap';
  key: string;
  /** Missing numbers, inclusive, in serial order (may span the wrap). */
  from: number;
  to: number;
  count: number;
  openedAt: number;
  declaredAt: number;
  waitedMs: number;
  reason: GapReason;
}

export interface DuplicateEvent {
  type: 'duplicate';
  key: string;
  seq?: number;
  messageId: string;
  /** Same messageId as the first copy: a Pub/Sub redelivery; false: a second publish. */
  redelivery: boolean;
  firstMessageId?: string;
  cascade?: number;
  /**
   * Present (true) when the copy has the first copy's messageId but different data, attributes
   * or ordering key: a conflict, not a redelivery (`redelivery` is then false).
   */
  conflict?: true;
  /** What differs, when `conflict`: e.g. "data differs from the first copy". */
  conflictReason?: string;
  deliveryAttempt?: number;
  publishTime?: string;
  receivedAt?: string;
  at: number;
  file?: string;
  line: number;
}

export interface LateEvent {
  type: 'late';
  key: string;
  seq: number;
  messageId: string;
  /** When the number was declared lost; with `beforeStart`, when the key's sequence started without it. */
  lostAt: number;
  /** Present (true) when the number is below the first of the key's sequence: never expected, so never declared lost. */
  beforeStart?: true;
  publishTime?: string;
  receivedAt?: string;
  at: number;
  file?: string;
  line: number;
}

/**
 * A first copy that arrived after one of its key with a strictly later publishTime
 * (`--seq publishTime`). Heard right after its message event, which it marks.
 */
export interface ReorderedEvent {
  type: 'reordered';
  key: string;
  messageId: string;
  publishTime?: string;
  /** The key's latest publish time before it, and the message that had it. */
  behindPublishTime?: string;
  behindMessageId: string;
  /** How far out of place: behind's publish time − its own (ms), and first copies of the key since the first one published later. */
  byMs: number;
  byPosition: number;
  receivedAt?: string;
  at: number;
  file?: string;
  line: number;
}

export interface InvalidEvent {
  type: 'invalid';
  line: number;
  file?: string;
  reason: string;
  /** Engine clock when it was read; absent before the first valid record. */
  at?: number;
}

/** A key's numbers started again (docs/sequencing-rules.md, "Reset"). */
export interface ResetEvent {
  type: 'reset';
  key: string;
  /** Last number of the old sequence (highest delivered or held) and first of the new one. */
  from: number;
  to: number;
  /** When it was decided, and when the new sequence's first number arrived. */
  at: number;
  arrivedAt: number;
  /** Held messages of the old sequence it released, and numbers it declared lost (gaps with reason `reset`, just before it). */
  released: number;
  lost: number;
  how: ResetHow;
}

export type TraceEvent = MessageEvent | GapEvent | DuplicateEvent | LateEvent | ReorderedEvent | InvalidEvent | ResetEvent;
export type TraceEventType = TraceEvent['type'];
export const TRACE_EVENT_TYPES: readonly TraceEventType[] = ['message', 'gap', 'duplicate', 'late', 'reordered', 'invalid', 'reset'];
