/**
 * The Parquet trace's columns: every field of every trace event, one typed, nullable column each
 * (docs/capture-formats.md, "Parquet"). `COLUMNS` is keyed by the union of the events' field
 * names, so a field added to any event type (or a new event type with fields of its own) does
 * not compile until it has a column here.
 */
import type { SchemaElement } from 'hyparquet-writer';
import { parseTimestampMs } from '../util/timestamp';
import type { TraceEvent, TraceEventType } from '../trace/traceEvents';

/** Every field name any trace event has. */
export type TraceField = TraceEvent extends infer E ? (E extends TraceEvent ? keyof E : never) : never;

/**
 * How a field is stored: text, a whole number (INT64), a number with a fraction (DOUBLE), a
 * flag, a time (TIMESTAMP in µs, UTC) from the engine clock's ms or from a record's time
 * string, the attributes (MAP<string, string>), or the base64 payload as its bytes.
 */
export type ColumnKind = 'string' | 'int64' | 'double' | 'boolean' | 'clockTime' | 'recordTime' | 'attributes' | 'bytes';

export const COLUMNS = {
  type: 'string',
  key: 'string',
  seq: 'int64',
  from: 'int64',
  to: 'int64',
  count: 'int64',
  messageId: 'string',
  redelivery: 'boolean',
  firstMessageId: 'string',
  cascade: 'int64',
  conflict: 'boolean',
  conflictReason: 'string',
  publishTime: 'recordTime',
  receivedAt: 'recordTime',
  orderingKey: 'string',
  deliveryAttempt: 'int64',
  arrivedAt: 'clockTime',
  releasedAt: 'clockTime',
  heldMs: 'double',
  openedAt: 'clockTime',
  declaredAt: 'clockTime',
  waitedMs: 'double',
  lostAt: 'clockTime',
  at: 'clockTime',
  reason: 'string',
  latencyMs: 'double',
  file: 'string',
  line: 'int64',
  attributes: 'attributes',
  data: 'bytes',
  behindMessageId: 'string',
  behindPublishTime: 'recordTime',
  byMs: 'double',
  byPosition: 'int64',
  released: 'int64',
  lost: 'int64',
  how: 'string',
  beforeStart: 'boolean',
  decodedBy: 'string',
} as const satisfies Record<TraceField, ColumnKind>;

export type ColumnName = keyof typeof COLUMNS;
export const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];

/**
 * The fields each event type may have, so a row fills only its own columns. Keyed by every
 * event type and, within each, by every field of that type: both are checked by the compiler.
 */
const FIELDS_OF: { [T in TraceEventType]: Record<keyof Extract<TraceEvent, { type: T }>, true> } = {
  message: {
    type: true,
    key: true,
    seq: true,
    messageId: true,
    publishTime: true,
    receivedAt: true,
    orderingKey: true,
    attributes: true,
    data: true,
    deliveryAttempt: true,
    arrivedAt: true,
    releasedAt: true,
    heldMs: true,
    latencyMs: true,
    file: true,
    line: true,
    decodedBy: true,
  },
  gap: { type: true, key: true, from: true, to: true, count: true, openedAt: true, declaredAt: true, waitedMs: true, reason: true },
  duplicate: {
    type: true,
    key: true,
    seq: true,
    messageId: true,
    redelivery: true,
    firstMessageId: true,
    cascade: true,
    conflict: true,
    conflictReason: true,
    deliveryAttempt: true,
    publishTime: true,
    receivedAt: true,
    at: true,
    file: true,
    line: true,
  },
  late: {
    type: true,
    key: true,
    seq: true,
    messageId: true,
    lostAt: true,
    beforeStart: true,
    publishTime: true,
    receivedAt: true,
    at: true,
    file: true,
    line: true,
  },
  reordered: {
    type: true,
    key: true,
    messageId: true,
    publishTime: true,
    behindPublishTime: true,
    behindMessageId: true,
    byMs: true,
    byPosition: true,
    receivedAt: true,
    at: true,
    file: true,
    line: true,
  },
  reset: { type: true, key: true, from: true, to: true, at: true, arrivedAt: true, released: true, lost: true, how: true },
  invalid: { type: true, line: true, file: true, reason: true, at: true },
};

/** Per event type: the indices (in COLUMN_NAMES) of its columns. */
export const COLUMNS_OF = Object.fromEntries(
  Object.entries(FIELDS_OF).map(([type, fields]) => [type, Object.keys(fields).map((f) => COLUMN_NAMES.indexOf(f as ColumnName))]),
) as unknown as Record<TraceEventType, readonly number[]>;

const TIMESTAMP_US = { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } as const;

/** The file's schema: a flat root of optional columns (`type` is always present but kept optional for uniformity). */
export function parquetSchema(): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: COLUMN_NAMES.length }];
  for (const name of COLUMN_NAMES) schema.push(...columnSchema(name, COLUMNS[name]));
  return schema;
}

function columnSchema(name: string, kind: ColumnKind): SchemaElement[] {
  const optional = 'OPTIONAL' as const;
  switch (kind) {
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: optional }];
    case 'int64':
      return [{ name, type: 'INT64', repetition_type: optional }];
    case 'double':
      return [{ name, type: 'DOUBLE', repetition_type: optional }];
    case 'boolean':
      return [{ name, type: 'BOOLEAN', repetition_type: optional }];
    case 'clockTime':
    case 'recordTime':
      return [{ name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: TIMESTAMP_US, repetition_type: optional }];
    case 'bytes':
      return [{ name, type: 'BYTE_ARRAY', repetition_type: optional }];
    case 'attributes':
      // The MAP layout of the Parquet spec (LogicalTypes.md, "Maps").
      return [
        { name, converted_type: 'MAP', logical_type: { type: 'MAP' }, repetition_type: optional, num_children: 1 },
        { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
        { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'REQUIRED' },
        { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: optional },
      ];
  }
}

/** A column's cell for one event's value; null when the event has no such field (or a time that is not one). */
export function cell(kind: ColumnKind, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'string':
    case 'double':
    case 'boolean':
      return value;
    case 'int64':
      return BigInt(value as number);
    case 'clockTime':
      return BigInt(Math.round((value as number) * 1000));
    case 'recordTime':
      return recordTimeMicros(value as string);
    case 'attributes':
      return value;
    case 'bytes':
      return Buffer.from(value as string, 'base64');
  }
}

const FRACTION = /[.,](\d+)/;
const NS_DIGITS = /^\d{16,}$/;
/** The shape nearly every record's time has (Pub/Sub's own): UTC, to the second, an optional fraction after a point. */
const UTC_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?Z$/;

/** The last second read in that shape, and its µs: a trace's times come in runs of the same second. */
let lastSecond = '';
let lastSecondMicros = 0;

/**
 * A record's time string in µs since the epoch, exactly (the fraction's digits are not passed
 * through a double); null when it is not a time.
 */
export function recordTimeMicros(text: string): bigint | null {
  const utc = UTC_SECOND.exec(text);
  if (utc) {
    const second = text.slice(0, 19);
    if (second !== lastSecond) {
      const ms = parseTimestampMs(`${second}Z`);
      if (typeof ms !== 'number') return null;
      lastSecond = second;
      lastSecondMicros = ms * 1000;
    }
    return BigInt(lastSecondMicros + (utc[1] === undefined ? 0 : fractionMicros(utc[1])));
  }
  const t = text.trim();
  if (NS_DIGITS.test(t)) return BigInt(t) / 1000n;
  const frac = FRACTION.exec(t);
  const whole = parseTimestampMs(frac ? t.slice(0, frac.index) + t.slice(frac.index + frac[0].length) : t);
  if (typeof whole !== 'number') return null;
  if (!frac) return BigInt(Math.round(whole * 1000));
  return BigInt(Math.round(whole)) * 1000n + BigInt(fractionMicros(frac[1]));
}

/** A fraction of a second's digits as whole µs, cut (not rounded) past the sixth. */
function fractionMicros(digits: string): number {
  return Number((digits + '000000').slice(0, 6));
}
