import { avroDecoder } from './avroPayload';
import type { PayloadDecoder } from './payloadDecoder';
import { protobufDecoder } from './protobufPayload';
import type { SchemaDefinition } from './schemaDefinition';

/** The decoder for a schema definition; throws SchemaDefinitionError when it does not compile. */
export function compileSchema(def: SchemaDefinition): PayloadDecoder {
  return def.type === 'AVRO' ? avroDecoder(def) : protobufDecoder(def);
}
