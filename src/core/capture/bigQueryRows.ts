/**
 * Rows of a Pub/Sub export — a BigQuery subscription's table (exported as JSON Lines or Avro)
 * and a Cloud Storage subscription's Avro records with `write_metadata` — as records.
 *
 * Both write the columns/fields `subscription_name, message_id, publish_time, attributes, data`
 * (snake_case); every other message property, the ordering key among them, goes into
 * `attributes` (Google's docs: BigQueryConfig.write_metadata, CloudStorageConfig.AvroConfig.
 * write_metadata). Here the ordering key is read from the attributes as `orderingKey` (and left
 * among them, as the archive holds it).
 *
 *   - `publish_time`: a number of microseconds since the epoch (Avro timestamp-micros), or text:
 *     BigQuery's JSON export writes `2026-12-01 09:30:00.123456 UTC` (fraction shortened or
 *     absent); RFC 3339 is accepted too.
 *   - `attributes`: a map (Cloud Storage Avro), a JSON object (BigQuery JSON column) or a string
 *     of JSON (BigQuery STRING column); absent or null is no attributes.
 *   - `data`: bytes (Avro BYTES), a string (BigQuery JSON export writes BYTES as base64; a
 *     STRING column as its text — see `dataText`), or a JSON value (BigQuery JSON column).
 *
 * With `use_topic_schema` the table has no `data` column: the topic schema's fields are its
 * columns (BigQueryConfig.use_topic_schema). Such a row — metadata columns, no `data`, other
 * columns — is a message whose payload is those columns as JSON text, marked `decodedBy`: it is
 * the record the schema decoded (BigQuery's JSON export writes INT64 and NUMERIC as strings, so
 * they stay exact). Told by the content, never by the file's name.
 */
import type { PubsubMessage, ReceivedMessage } from './receivedMessage';

/** Attribute names that hold the ordering key in an export (Google's docs name the property `ordering_key`). */
const ORDERING_KEY_ATTRIBUTES = ['ordering_key', 'orderingKey'] as const;

/** The columns write_metadata adds beside the payload or the schema's fields. */
const METADATA_COLUMNS = new Set(['subscription_name', 'message_id', 'publish_time', 'attributes']);

/** What a row read with use_topic_schema says decoded its payload (the detail pane shows it as the source). */
export const TOPIC_SCHEMA_COLUMNS = "the BigQuery table's columns (use_topic_schema)";

/** How a string `data` value is read: base64 when it is canonical base64 (BigQuery BYTES), else text; or always text (Avro `string`). */
export type DataText = 'base64-or-text' | 'text';

/** Whether a parsed JSON object is an export row rather than a ReceivedMessage. */
export function isExportRow(v: Record<string, unknown>): boolean {
  return 'message_id' in v && !('message' in v) && !('messageId' in v);
}

/** The record of an export row, or why it is not one. */
export function rowToRecord(row: Record<string, unknown>, dataText: DataText): ReceivedMessage | string {
  const id = row.message_id;
  if (typeof id !== 'string' || id === '')
    return id === undefined || id === null || id === '' ? 'row has no message_id' : `message_id is ${describe(id)}, not a string`;
  const publishTime = exportTime(row.publish_time);
  if (publishTime === undefined)
    return `publish_time ${JSON.stringify(row.publish_time) ?? 'is missing'}${row.publish_time === undefined ? '' : ' is not a time (expected "2026-12-01 09:30:00.123456 UTC", RFC 3339, or microseconds since the epoch)'}`;
  const attributes = exportAttributes(row.attributes);
  if (typeof attributes === 'string') return attributes;
  const message: PubsubMessage = { messageId: id, publishTime };
  if (attributes !== undefined) {
    // The key stays among the attributes too: that is what the archive holds.
    const key = attributes[ORDERING_KEY_ATTRIBUTES[0]] ?? attributes[ORDERING_KEY_ATTRIBUTES[1]];
    if (key !== undefined && key !== '') message.orderingKey = key;
    message.attributes = attributes;
  }
  if ('data' in row) {
    const data = exportData(row.data, dataText);
    if (data !== undefined) message.data = data;
    return { message };
  }
  const columns = schemaColumns(row);
  if (columns !== undefined) {
    message.data = textToBase64(JSON.stringify(columns));
    message.decodedBy = TOPIC_SCHEMA_COLUMNS;
  }
  return { message };
}

/** The columns of a row that are not write_metadata's: the topic schema's fields; undefined when there are none. */
function schemaColumns(row: Record<string, unknown>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const name in row) {
    if (METADATA_COLUMNS.has(name)) continue;
    out ??= {};
    out[name] = row[name];
  }
  return out;
}

/** RFC 3339 (UTC, `Z`) of an export's publish_time, or undefined when it is not a time. */
export function exportTime(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? microsToRfc3339(v) : undefined;
  if (typeof v !== 'string') return undefined;
  // BigQuery: "2026-12-01 09:30:00.123456 UTC", the fraction shortened or absent.
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(?: ?UTC|Z|z|([+-]\d{2}:\d{2}))$/.exec(v);
  if (!m) return undefined;
  return `${m[1]}T${m[2]}${m[3] ?? 'Z'}`;
}

/** The second last formatted, `YYYY-MM-DDTHH:MM:SS`: an archive holds millions of times from a few hours. */
let cachedSecond = NaN;
let cachedPrefix = '';

/** `1796117400123456` → `2026-12-01T09:30:00.123456Z` (microseconds kept, always six digits). */
export function microsToRfc3339(micros: number): string | undefined {
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    const d = new Date(second * 1000);
    if (d.getTime() !== d.getTime()) return undefined;
    cachedSecond = second;
    cachedPrefix = d.toISOString().slice(0, 19);
  }
  const us = Math.round(micros - second * 1_000_000);
  return `${cachedPrefix}.${us < 100_000 ? String(us).padStart(6, '0') : us}Z`;
}

function exportAttributes(v: unknown): Record<string, string> | undefined | string {
  if (v === undefined || v === null || v === '') return undefined;
  let obj = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch (e) {
      return `attributes is not valid JSON (${(e as Error).message})`;
    }
    if (obj === null) return undefined;
  }
  if (typeof obj !== 'object' || Array.isArray(obj) || obj === null) return `attributes is ${describe(obj)}, not a JSON object of name → value`;
  // An Avro map<string> is already name → string: used as it is.
  if (obj === v) {
    let strings = true;
    for (const k in obj as Record<string, unknown>) if (typeof (obj as Record<string, unknown>)[k] !== 'string') strings = false;
    if (strings) return obj as Record<string, string>;
  }
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(obj as Record<string, unknown>)) {
    // A JSON column may hold numbers or booleans where Pub/Sub had strings.
    out[k] = typeof val === 'string' ? val : JSON.stringify(val);
  }
  return out;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Base64 of the payload, as in a ReceivedMessage. Bytes (Avro BYTES) are encoded by the Avro
 * reader, which passes them as `undefined` here: this module is also type-checked for the
 * browser (the webview imports captureRecord's types), where there is no Buffer.
 */
function exportData(v: unknown, dataText: DataText): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    if (dataText === 'base64-or-text' && BASE64.test(v)) return v;
    return textToBase64(v);
  }
  // A JSON column: its value, as JSON text.
  return textToBase64(JSON.stringify(v));
}

/** Base64 of the UTF-8 bytes of `s`. */
function textToBase64(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
