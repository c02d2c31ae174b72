/**
 * A payload as the host shows it, decoded by its schema (its `googclient_*` attributes, or the
 * session's default from `--schema` / `seqscope.schemas`): the detail pane gets the record as JSON
 * text and Copy Message adds it to the record it copies. Imported by the extension host only:
 * the webview and the standalone export's page never carry the schema decoders.
 */
import type { ReceivedMessage } from '../core/capture/captureRecord';
import { schemaReading } from '../core/capture/payloadJson';
import type { SchemaSet } from '../core/schema/schemaSet';
import type { EmbeddedDecoding } from '../shared/timelineModel';
import type { PayloadDecode } from './timelineService';

/** The detail pane's decoded record (or why there is none) for a session's schemas. */
export function detailDecoder(schemas: SchemaSet | undefined): PayloadDecode {
  return (rm) => {
    const r = schemaReading(rm.message.data, rm.message.attributes, rm.topic, schemas, rm.message.decodedBy);
    if (r === undefined) return undefined;
    return r.kind === 'decoded' ? { decoded: { text: JSON.stringify(r.record, null, 2), source: r.source } } : { decodeError: r.reason };
  };
}

/**
 * A record's line as Copy Message gives it: its own fields, then — as the JSONL export writes
 * them — `decoded` (the record its schema decodes) or `decodeError`; as it is without a schema.
 */
export function withDecoded(line: Record<string, unknown>, rm: ReceivedMessage, schemas: SchemaSet | undefined): Record<string, unknown> {
  const r = schemaReading(rm.message.data, rm.message.attributes, rm.topic, schemas, rm.message.decodedBy);
  if (r === undefined) return line;
  return r.kind === 'decoded' ? { ...line, decoded: r.record } : { ...line, decodeError: r.reason };
}

/** The standalone export's embedded records decoded, by arrival (only those a schema applies to); undefined when none. */
export function embeddedDecodings(
  records: Readonly<Record<number, ReceivedMessage>>,
  schemas: SchemaSet | undefined,
): Record<number, EmbeddedDecoding> | undefined {
  let out: Record<number, EmbeddedDecoding> | undefined;
  for (const [arrival, rm] of Object.entries(records)) {
    const m = rm.message;
    const r = schemaReading(m.data, m.attributes, rm.topic, schemas, m.decodedBy);
    if (r === undefined) continue;
    out ??= {};
    out[Number(arrival)] = r.kind === 'decoded' ? { record: r.record, source: r.source } : { error: r.reason };
  }
  return out;
}
