/**
 * The records SeqScope reads: Google Pub/Sub `ReceivedMessage` objects in the REST shape, plus
 * SeqScope's own `receivedAt` (when the subscriber got it). One record per delivery, duplicates
 * included, in arrival order.
 */
import { isExportRow, rowToRecord } from './bigQueryRows';
import type { PubsubMessage, ReceivedMessage } from './receivedMessage';

export type { PubsubMessage, ReceivedMessage } from './receivedMessage';

/**
 * The key a record is sequenced under: its own key, qualified by its topic's id when it carries
 * one (`md-310/ES`, or `md-310` for the empty key). Pub/Sub orders per topic and ordering key, and
 * CME numbers each channel's topic on its own, so keys of different topics must never meet. A
 * topic id holds no `/`, so the two parts never blur.
 */
export function topicKey(topic: string | undefined, key: string): string {
  if (topic === undefined) return key;
  const id = topic.slice(topic.lastIndexOf('/') + 1);
  return key === '' ? id : `${id}/${key}`;
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
/** The reason toRecord gives a JSON object that is neither a ReceivedMessage nor a PubsubMessage: a bare payload, often. */
export const NOT_A_MESSAGE = 'not a ReceivedMessage: it has no "message" object';

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
  } else if (isExportRow(v)) {
    // A BigQuery subscription's row (exported as JSON): snake_case columns.
    return rowToRecord(v, 'base64-or-text');
  } else {
    return NOT_A_MESSAGE;
  }
  const m = rm.message;
  if (typeof m.messageId !== 'string' || m.messageId === '') return 'message has no messageId';
  if (m.attributes !== undefined && (typeof m.attributes !== 'object' || m.attributes === null || Array.isArray(m.attributes))) {
    return 'message.attributes is not an object';
  }
  if (m.orderingKey !== undefined && typeof m.orderingKey !== 'string') return 'message.orderingKey is not a string';
  if (m.data != null && typeof m.data !== 'string') return 'message.data is not a string (base64)';
  if (m.decodedBy !== undefined && typeof m.decodedBy !== 'string') return 'message.decodedBy is not a string';
  if (rm.topic !== undefined && typeof rm.topic !== 'string') return 'topic is not a string';
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

/**
 * The record's publishTime (ms since the epoch) for the latency measures, given its clock value
 * `time`: the clock itself when the record has no receivedAt; NaN when it has receivedAt but no
 * valid publishTime.
 */
export function publishedAt(rm: ReceivedMessage, time: number): number {
  if (rm.receivedAt === undefined) return time;
  const p = rm.message.publishTime;
  return typeof p === 'string' ? parseRfc3339(p) : NaN;
}

/** The record's receivedAt (ms), given its clock value: NaN when it has none. */
export function receivedAtMs(rm: ReceivedMessage, time: number): number {
  return rm.receivedAt === undefined ? NaN : time;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * ms since epoch of an RFC 3339 date-time (sub-millisecond digits kept as a fraction, so
 * merged captures order by the full precision Pub/Sub gives), or NaN. Stricter than
 * `Date.parse`, which also takes "1" (year 2001), impossible dates (Feb 30 → Mar 1) and times
 * without an offset (read in the machine's time zone, so a replay would depend on where it runs).
 */
export function parseRfc3339(text: string): number {
  const fast = parseUtcFast(text);
  if (fast === fast) return fast;
  const m = RFC3339.exec(text);
  if (!m) return NaN;
  const y = +m[1],
    mo = +m[2],
    d = +m[3],
    h = +m[4],
    mi = +m[5],
    s = +m[6];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return NaN;
  const frac = m[7] === undefined ? 0 : Number('0.' + m[7]) * 1000;
  let offset = 0;
  if (m[8] === undefined) {
    const oh = +m[10],
      om = +m[11];
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

/** Midnight (ms) of the last date seen: captures hold millions of times from a few days. */
let cachedDay = -1;
let cachedDayMs = 0;

/**
 * The common shape, `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (what Pub/Sub and SeqScope write), read by
 * character codes: the regular expression costs more than the rest of a record's handling.
 * NaN for anything else, which then takes the full path.
 */
function parseUtcFast(t: string): number {
  const n = t.length;
  if (
    n < 20 ||
    t.charCodeAt(n - 1) !== 90 /* Z */ ||
    t.charCodeAt(4) !== 45 ||
    t.charCodeAt(7) !== 45 ||
    t.charCodeAt(10) !== 84 ||
    t.charCodeAt(13) !== 58 ||
    t.charCodeAt(16) !== 58
  )
    return NaN;
  const y = digits(t, 0, 4),
    mo = digits(t, 5, 2),
    d = digits(t, 8, 2),
    h = digits(t, 11, 2),
    mi = digits(t, 14, 2),
    s = digits(t, 17, 2);
  if (!(y >= 100) || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || !(h <= 23) || !(mi <= 59) || !(s <= 59)) return NaN;
  let frac = 0;
  if (n > 20) {
    if (t.charCodeAt(19) !== 46 /* . */ || n === 21) return NaN;
    let scale = 100;
    for (let i = 20; i < n - 1; i++) {
      const c = t.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return NaN;
      frac += c * scale;
      scale /= 10;
    }
  }
  const day = (y * 100 + mo) * 100 + d;
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayMs = Date.UTC(y, mo - 1, d);
  }
  return cachedDayMs + h * 3_600_000 + mi * 60_000 + s * 1000 + frac;
}

/** The decimal number in t[at, at+len), or NaN. */
function digits(t: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
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
  return new RecordEntry(file, line, offset, length, time, rm);
}

/**
 * An entry that holds a valid record: the hot case, made by a class rather than an object
 * literal for the garbage collector's sake. V8 watches each literal's allocation site, and when
 * nearly all of a site's objects survive a young-generation collection — they do while every key
 * holds its first records for the gap timeout — it may start allocating that site's objects in
 * the old generation. The entries were then old objects pointing at young parsed records, which
 * every young collection had to keep and copy until the next full one: on a 1 M-line replay ~350
 * MB promoted and the run ~40 % slower, in the runs where V8 so decided. V8 keeps no allocation
 * site for `new` of a class (with `node --trace-pretenuring-statistics`: no site tenured since).
 */
export class RecordEntry implements CaptureEntry {
  constructor(
    readonly file: number,
    readonly line: number,
    readonly offset: number,
    readonly length: number,
    readonly time: number,
    readonly record: ReceivedMessage,
  ) {}
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
