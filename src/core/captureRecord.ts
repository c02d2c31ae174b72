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
  /** Byte offset and length of the record in its file (-1 / 0 when not read from a file). */
  readonly offset?: number;
  readonly length?: number;
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
  if (m.attributes !== undefined && (typeof m.attributes !== 'object' || m.attributes === null || Array.isArray(m.attributes))) {
    return 'message.attributes is not an object';
  }
  if (m.orderingKey !== undefined && typeof m.orderingKey !== 'string') return 'message.orderingKey is not a string';
  return rm;
}

/** The record's clock value, or a reason it has none. */
export function recordTime(rm: ReceivedMessage): number | string {
  const text = rm.receivedAt ?? rm.message.publishTime;
  if (text === undefined) return 'has neither receivedAt nor message.publishTime';
  const t = typeof text === 'string' ? parseRfc3339(text) : NaN;
  if (t !== t) {
    return `${rm.receivedAt !== undefined ? 'receivedAt' : 'publishTime'} ${JSON.stringify(text)} is not an RFC 3339 time`;
  }
  return t;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * ms since epoch of an RFC 3339 date-time (sub-millisecond digits kept as a fraction, so
 * merged captures order by the full precision Pub/Sub gives), or NaN. Stricter than
 * `Date.parse`, which also takes "1" (year 2001), impossible dates (Feb 30 → Mar 1) and times
 * without an offset (read in the machine's time zone, so a replay would depend on where it runs).
 */
export function parseRfc3339(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return NaN;
  const y = +m[1], mo = +m[2], d = +m[3], h = +m[4], mi = +m[5], s = +m[6];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return NaN;
  const frac = m[7] === undefined ? 0 : Number('0.' + m[7]) * 1000;
  let offset = 0;
  if (m[8] === undefined) {
    const oh = +m[10], om = +m[11];
    if (oh > 23 || om > 59) return NaN;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  let t = Date.UTC(y, mo - 1, d, h, mi, s);
  if (y < 100) {
    // Date.UTC reads years 0–99 as 1900–1999.
    const dt = new Date(t);
    dt.setUTCFullYear(y);
    t = dt.getTime();
  }
  return t + frac - offset;
}

function daysIn(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

/** Parses one line / array element into an entry; never throws. */
export function parseEntry(text: string, file: number, line: number, offset = -1, length = 0): CaptureEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { file, line, offset, length, time: NaN, invalid: `not valid JSON (${(e as Error).message})` };
  }
  const rm = toRecord(value);
  if (typeof rm === 'string') return { file, line, offset, length, time: NaN, invalid: rm };
  const time = recordTime(rm);
  if (typeof time === 'string') return { file, line, offset, length, time: NaN, invalid: time };
  return { file, line, offset, length, time, record: rm };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
