import { InputError } from '../util/inputError';

/** A schema's definition, as the Schema service returns it or as a local file holds it. */
export interface SchemaDefinition {
  readonly type: 'AVRO' | 'PROTOCOL_BUFFER';
  /** The Avro schema (JSON text) or the `.proto` source. */
  readonly definition: string;
  /** Protocol Buffers: the message type payloads hold; by default the one top-level message. */
  readonly messageType?: string;
  /** Where it came from, for messages: `projects/P/schemas/S@rev` or a file path. */
  readonly source: string;
}

/** A local schema file as written after `--schema`: `FILE.avsc`, `FILE.proto` or `FILE.proto:pkg.Type`. */
export interface SchemaFileSpec {
  readonly path: string;
  readonly type: SchemaDefinition['type'];
  readonly messageType?: string;
}

const FLAG = { flag: '--schema', setting: 'seqscope.schemas' };

/** Reads a `--schema` value; the extension says which kind of schema it is. */
export function parseSchemaFileSpec(spec: string): SchemaFileSpec {
  const proto = /^(.*\.proto)(?::([A-Za-z_][\w.]*))?$/i.exec(spec);
  if (proto) return proto[2] ? { path: proto[1], type: 'PROTOCOL_BUFFER', messageType: proto[2] } : { path: proto[1], type: 'PROTOCOL_BUFFER' };
  if (/\.(avsc|json)$/i.test(spec)) return { path: spec, type: 'AVRO' };
  throw new InputError(
    `"${spec}" is not a schema file: give an Avro schema (FILE.avsc) or a Protocol Buffers file (FILE.proto, or FILE.proto:package.Message to pick its message type)`,
    FLAG,
  );
}

/** A definition read from a local file (`text` is the file's contents). */
export function localDefinition(spec: SchemaFileSpec, text: string): SchemaDefinition {
  return spec.messageType
    ? { type: spec.type, definition: text, messageType: spec.messageType, source: spec.path }
    : { type: spec.type, definition: text, source: spec.path };
}
