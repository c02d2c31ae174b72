/**
 * The records SeqScope reads: Google Pub/Sub `ReceivedMessage` objects in the REST shape, plus
 * SeqScope's own `receivedAt` (when the subscriber got it). One record per delivery, duplicates
 * included, in arrival order.
 */
export interface PubsubMessage {
  /** Base64 payload. */
  data?: string;
  attributes?: Record<string, string>;
  messageId: string;
  publishTime?: string;
  orderingKey?: string;
}

export interface ReceivedMessage {
  ackId?: string;
  message: PubsubMessage;
  deliveryAttempt?: number;
  /** RFC 3339; SeqScope's addition. */
  receivedAt?: string;
}

/** One entry of a capture: a record, or the reason a line/element is not one. */
export interface CaptureEntry {
  /** Index of the capture file in the replay's file list. */
  readonly file: number;
  /** 1-based line where the record starts. */
  readonly line: number;
  /** Clock value (ms since epoch): receivedAt, else publishTime; NaN when invalid. */
  readonly time: number;
  readonly record?: ReceivedMessage;
  readonly invalid?: string;
}

/**
 * Turns one parsed JSON value into a record, or says why it is not one. Also accepts a bare
 * `PubsubMessage` (with an optional `receivedAt`), which is what exported traces and some
 * hand-made captures hold.
 */
export function toRecord(value: unknown): ReceivedMessage | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `expected a ReceivedMessage object, found ${describe(value)}`;
  }
  const v = value as Record<string, unknown>;
  let rm: ReceivedMessage;
  if (typeof v.message === 'object' && v.message !== null) {
    rm = v as unknown as ReceivedMessage;
  } else if ('messageId' in v) {
    rm = { message: v as unknown as PubsubMessage, receivedAt: v.receivedAt as string | undefined };
  } else {
    return 'not a ReceivedMessage: it has no "message" object';
  }
  const m = rm.message;
  if (typeof m.messageId !== 'string' || m.messageId === '') return 'message has no messageId';
  if (m.attributes !== undefined && (typeof m.attributes !== 'object' || m.attributes === null)) {
    return 'message.attributes is not an object';
  }
  if (m.orderingKey !== undefined && typeof m.orderingKey !== 'string') return 'message.orderingKey is not a string';
  return rm;
}

/** The record's clock value, or a reason it has none. */
export function recordTime(rm: ReceivedMessage): number | string {
  const text = rm.receivedAt ?? rm.message.publishTime;
  if (text === undefined) return 'has neither receivedAt nor message.publishTime';
  const t = typeof text === 'string' ? Date.parse(text) : NaN;
  if (t !== t) {
    return `${rm.receivedAt !== undefined ? 'receivedAt' : 'publishTime'} ${JSON.stringify(text)} is not an RFC 3339 time`;
  }
  return t;
}

/** Parses one line / array element into an entry; never throws. */
export function parseEntry(text: string, file: number, line: number): CaptureEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { file, line, time: NaN, invalid: `not valid JSON (${(e as Error).message})` };
  }
  const rm = toRecord(value);
  if (typeof rm === 'string') return { file, line, time: NaN, invalid: rm };
  const time = recordTime(rm);
  if (typeof time === 'string') return { file, line, time: NaN, invalid: time };
  return { file, line, time, record: rm };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
