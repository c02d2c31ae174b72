import type { SchemaEncoding } from './schemaRef';

/** A decoded payload as plain JSON: 64-bit integers beyond 2^53 as decimal strings, bytes as base64. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [field: string]: JsonValue };

/** A payload decoded by its schema, or why it does not match it (the field and byte offset when known). */
export type DecodedPayload = { readonly record: JsonValue } | { readonly invalid: string };

/** Decodes the payloads written with one schema definition. */
export interface PayloadDecoder {
  /** Where the definition came from (`projects/P/schemas/S@rev`, a file path). */
  readonly source: string;
  decode(payload: Uint8Array, encoding: SchemaEncoding): DecodedPayload;
}

/** A schema definition that cannot be compiled: not valid Avro / Protocol Buffers, or no message type. */
export class SchemaDefinitionError extends Error {
  override readonly name = 'SchemaDefinitionError';

  constructor(
    message: string,
    /** The definition's source, as in PayloadDecoder.source. */
    readonly source: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON-encoded payload's text, or why it is not UTF-8. */
export function payloadText(payload: Uint8Array): { text: string } | { invalid: string } {
  try {
    return { text: UTF8.decode(payload) };
  } catch {
    return { invalid: 'the payload is not UTF-8 text, so not JSON' };
  }
}

/** What a thrown decoding error says, without the stack. */
export function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
