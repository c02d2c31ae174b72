/**
 * A payload as a text search reads it: the record its schema decodes, as JSON text, when it has
 * a schema (its `googclient_*` attributes, or the session's default); else its own text. Apart
 * from messageMatch.ts, which the webview bundles without the schema decoders.
 */
import type { ReceivedMessage } from '../capture/captureRecord';
import { schemaReading } from '../capture/payloadJson';
import type { SchemaSet } from '../schema/schemaSet';
import { type PayloadText, payloadText } from './messageMatch';

export function decodedTextOf(schemas: SchemaSet | undefined): (rm: ReceivedMessage) => PayloadText {
  return (rm) => {
    const m = rm.message;
    const r = schemaReading(m.data, m.attributes, rm.topic, schemas, m.decodedBy);
    return r?.kind === 'decoded' ? { text: JSON.stringify(r.record) } : payloadText(m.data);
  };
}
