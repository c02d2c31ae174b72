/**
 * Records an Avro archive holds in the topic's schema (a Cloud Storage subscription with
 * `use_topic_schema`) as messages: the payload is the record's own fields — every field but
 * write_metadata's — as JSON text, marked `decodedBy` (the record the schema decoded: read as it
 * is, never by a schema again); write_metadata's fields give the id, publish time and attributes
 * as for Google's PubsubMessageWithMetadata. Longs beyond 2^53 are read exactly (decimal strings),
 * unions unwrapped where avsc can, bytes as base64 (see schema/avroPayload.ts).
 */
import { Type } from 'avsc';
import { rowToRecord } from './bigQueryRows';
import type { PubsubMessage, ReceivedMessage } from './receivedMessage';
import { METADATA_FIELDS } from './avroArchiveSchema';
import { ExactLong, plainAvro } from '../schema/avroPayload';
import type { JsonValue } from '../schema/payloadDecoder';

/** What a topic-schema record's payload says decoded it (the detail pane and the export name it). */
export const TOPIC_SCHEMA_RECORDS = "the Avro file's schema (use_topic_schema)";

/** The avsc type a topic-schema file's records are read with: longs exact, unions unwrapped where they can be. */
export function topicSchemaType(schema: unknown): Type {
  return Type.forSchema(schema as never, { registry: { long: ExactLong } as never, wrapUnions: 'auto' });
}

/**
 * The message of one decoded record, or why it is not one. `metadata`: the file has
 * write_metadata's fields; without them the message is `unnamedId`, with no time.
 */
export function topicSchemaRecord(v: Record<string, unknown>, metadata: boolean, unnamedId: string): ReceivedMessage | string {
  const fields: Record<string, JsonValue> = {};
  const meta: Record<string, unknown> = {};
  for (const name of Object.keys(v)) {
    if (metadata && METADATA_FIELDS.has(name)) meta[name] = v[name];
    else fields[name] = plainAvro(v[name]);
  }
  let rm: ReceivedMessage;
  if (metadata) {
    const r = rowToRecord(meta, 'text');
    if (typeof r === 'string') return r;
    rm = r;
  } else rm = { message: { messageId: unnamedId } };
  const m = rm.message as PubsubMessage & { decodedBy?: string };
  m.data = Buffer.from(JSON.stringify(fields), 'utf8').toString('base64');
  m.decodedBy = TOPIC_SCHEMA_RECORDS;
  return rm;
}
