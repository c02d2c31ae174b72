/**
 * What an Avro archive's writer schema says the file holds:
 *   - Google's documented archive records: a Cloud Storage subscription's `PubsubMessage` (`data`
 *     only) or `PubsubMessageWithMetadata`, a BigQuery table export of the same columns — the
 *     fields `data` and, with write_metadata, `subscription_name, message_id, publish_time,
 *     attributes`, and no others;
 *   - records written with the topic's schema (a Cloud Storage subscription with
 *     `use_topic_schema`, whose output "will be serialized using the topic schema", write_metadata
 *     adding the metadata fields beside the schema's): any other record, read as messages whose
 *     decoded record is the record's own fields (see avroTopicRecords.ts);
 *   - anything else (not a record, or a metadata field of another type) is an input error.
 * Field names and base types are checked; the record's name is not (BigQuery names its own).
 */

/** What to do about a schema that is not a Pub/Sub archive's. */
export const SCHEMA_NEXT_STEP =
  "open the files a Cloud Storage or BigQuery subscription wrote (avro-tools getschema FILE prints a file's schema), or convert this one to JSON Lines of Pub/Sub messages";
/** What to do about a header that is cut off or damaged. */
export const HEADER_NEXT_STEP = 'check the file is complete (copy it again from the bucket)';

/** A file-level problem: the header or schema is not what a Pub/Sub archive has. */
export class AvroArchiveError extends Error {
  constructor(
    message: string,
    /** What to do, when the message does not say it already. */
    readonly nextStep?: string,
  ) {
    super(message);
  }
}

/** Which kind of archive the schema says the file is. */
export type AvroArchiveKind = 'with-metadata' | 'data-only' | 'topic-schema';

export type FieldReading =
  | { readonly kind: 'with-metadata' | 'data-only' }
  /** Records of the topic's schema; `metadata`: with write_metadata's fields (ids, times, attributes). */
  | { readonly kind: 'topic-schema'; readonly metadata: boolean };

/** The fields write_metadata adds, beside `data` or the topic schema's fields. */
export const METADATA_FIELDS: ReadonlySet<string> = new Set(['subscription_name', 'message_id', 'publish_time', 'attributes']);

const EXPECTED =
  'a Cloud Storage subscription writes {data: bytes} or, with write_metadata, {subscription_name: string, message_id: string, publish_time: long (timestamp-micros), attributes: map<string>, data: bytes} (with use_topic_schema, the topic schema’s fields instead of data); a BigQuery table export has the same columns';

/** Says how to read a file of the writer's schema `schema`, or throws why it cannot be read. */
export function archiveSchema(schema: unknown): FieldReading {
  const s = schema as { type?: unknown; fields?: { name: string; type: unknown }[] };
  if (typeof s !== 'object' || s === null || s.type !== 'record' || !Array.isArray(s.fields) || s.fields.length === 0) {
    throw new AvroArchiveError(`its Avro schema is ${describeSchema(schema)}, not a record of Pub/Sub messages`, SCHEMA_NEXT_STEP);
  }
  const fields = new Map(s.fields.map((f) => [f.name, f.type]));
  const wrong = (name: string, want: string) =>
    new AvroArchiveError(`its Avro schema's field "${name}" is ${JSON.stringify(fields.get(name))}, expected ${want} (${EXPECTED})`, SCHEMA_NEXT_STEP);
  const archive = fields.has('data') && [...fields.keys()].every((name) => name === 'data' || METADATA_FIELDS.has(name));
  if (archive) {
    const dataType = base(fields.get('data'));
    if (dataType !== 'bytes' && dataType !== 'string') throw wrong('data', 'bytes (or string)');
  }
  if (!fields.has('message_id')) return archive ? { kind: 'data-only' } : { kind: 'topic-schema', metadata: false };
  if (base(fields.get('message_id')) !== 'string') throw wrong('message_id', 'string');
  const pt = base(fields.get('publish_time'));
  if (pt !== 'long' && pt !== 'string') throw wrong('publish_time', 'long (timestamp-micros)');
  if (fields.has('attributes')) {
    const b = base(fields.get('attributes'));
    if (b !== 'string' && b !== 'map') throw wrong('attributes', 'map<string> (or a JSON string)');
  }
  return archive ? { kind: 'with-metadata' } : { kind: 'topic-schema', metadata: true };
}

/** The base type name of a field type, a nullable union's non-null branch included. */
function base(t: unknown): string | undefined {
  if (Array.isArray(t)) {
    const branches = t.filter((b) => b !== 'null');
    return branches.length === 1 ? base(branches[0]) : undefined;
  }
  if (typeof t === 'string') return t;
  if (typeof t === 'object' && t !== null) return base((t as { type?: unknown }).type);
  return undefined;
}

function describeSchema(s: unknown): string {
  const text = JSON.stringify(s) ?? String(s);
  return text.length > 80 ? text.slice(0, 79) + '…' : text;
}
