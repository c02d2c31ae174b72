/**
 * Schema revisions from the Schema service of the project a schema belongs to (which may not be
 * the connection's: CME publishes from its own project). The definition is read and kept in the
 * session; it is never sent anywhere.
 */
import type { SchemaDefinition } from '../core/schema/schemaDefinition';
import { revisionKey, type SchemaRef } from '../core/schema/schemaRef';
import type { FetchedSchema, SchemaFetch } from '../core/schema/schemaRevisions';
import type { PubsubConnection } from './connection';
import { explainError, GRPC } from './pubsubErrors';

interface RawSchema {
  name?: string | null;
  type?: string | number | null;
  definition?: string | null;
  revisionId?: string | null;
}

/** The Schema resource as a definition, or undefined for a type SeqScope does not decode. */
export function definitionOf(raw: RawSchema, source: string): SchemaDefinition | undefined {
  const type = raw.type === 'AVRO' || raw.type === 2 ? 'AVRO' : raw.type === 'PROTOCOL_BUFFER' || raw.type === 1 ? 'PROTOCOL_BUFFER' : undefined;
  if (!type || typeof raw.definition !== 'string') return undefined;
  return { type, definition: raw.definition, source };
}

/** Fetches each revision asked for with one `GetSchema` (FULL view) on `name@revision`. */
export function schemaFetch(conn: PubsubConnection): SchemaFetch {
  return async (ref: SchemaRef): Promise<FetchedSchema> => {
    const source = revisionKey(ref);
    try {
      const client = await conn.client.getSchemaClient();
      const [raw] = await client.getSchema({ name: source, view: 'FULL' }, conn.adminCall);
      const def = definitionOf(raw as RawSchema, source);
      return def ? { definition: def } : { unreachable: `its type ${String(raw.type)} is not one SeqScope decodes (Avro, Protocol Buffers)` };
    } catch (e) {
      const err = explainError(e, { action: `read schema ${source}`, resource: `schema ${source}`, emulatorHost: conn.emulatorHost });
      return err.grpcCode === GRPC.NOT_FOUND ? { missing: 'the Schema service has no such revision' } : { unreachable: err.oneLine };
    }
  };
}
