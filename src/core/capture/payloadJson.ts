/**
 * A message's payload (`data`, base64) as the record `json:<path>` options read: decoded by its
 * schema when it has one (its `googclient_*` attributes, or the session's `--schema`), else read
 * as JSON text.
 */
import { base64Bytes } from './mdp3';
import type { ReceivedMessage } from './receivedMessage';
import type { JsonValue } from '../schema/payloadDecoder';
import { needsSchema, type PayloadReading, readPayload, type SchemaSet } from '../schema/schemaSet';

export type PayloadJson = { readonly value: unknown } | { readonly error: string };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function parsePayloadJson(rm: ReceivedMessage, schemas: SchemaSet | undefined): PayloadJson {
  const m = rm.message;
  const data = m.data;
  if (typeof data !== 'string' || data === '') return { error: 'the message has no payload (data) to read JSON fields from' };
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { error: 'the payload (data) is not base64' };
  if (m.decodedBy === undefined && needsSchema(schemas, m.attributes, rm.topic)) {
    const r = readPayload(schemas, m.attributes, rm.topic, bytes);
    if (r.kind === 'decoded') return { value: r.record };
    if (r.kind === 'invalid') return { error: r.reason };
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { error: 'the payload is not UTF-8 text, so not JSON' };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: 'the payload is not JSON' };
  }
}

/**
 * The payload decoded by its schema, for what shows a payload (the export, `--grep`): undefined
 * when no schema applies to it (read it as it is), else the reading — the record or why it does
 * not match. A payload an export already decoded (`decodedBy`) is that record.
 */
export function schemaReading(
  data: string | undefined,
  attributes: Readonly<Record<string, string>> | undefined,
  topic: string | undefined,
  schemas: SchemaSet | undefined,
  decodedBy?: string,
): Exclude<PayloadReading, { kind: 'plain' }> | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  if (decodedBy !== undefined) return decodedColumns(data, decodedBy);
  if (!needsSchema(schemas, attributes, topic)) return undefined;
  const bytes = base64Bytes(data);
  if (bytes === undefined) return undefined;
  const r = readPayload(schemas, attributes, topic, bytes);
  return r.kind === 'plain' ? undefined : r;
}

/** A payload an export wrote decoded (JSON text), as a reading. */
function decodedColumns(data: string, source: string): Exclude<PayloadReading, { kind: 'plain' }> {
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { kind: 'invalid', reason: 'the payload (data) is not base64' };
  try {
    return { kind: 'decoded', record: JSON.parse(UTF8.decode(bytes)) as JsonValue, source };
  } catch {
    return { kind: 'invalid', reason: `the payload is not the JSON text of ${source}` };
  }
}
