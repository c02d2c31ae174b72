/**
 * Payloads written with a schema: what publishing into a topic bound to one needs. A record (as
 * the decoders give one, or as JSON text holds one) is checked field by field against the schema
 * and written in the topic's encoding; one that does not fit says which field and why.
 */
import type { SchemaEncoding } from './schemaRef';

/**
 * Where a value to encode comes from: a record a decoder gave; JSON text as its publisher wrote
 * it; or JSON text a schema topic's JSON encoding wrote (its attributes say so), whose schema is
 * out of reach.
 */
export type RecordForm = 'record' | 'json' | 'schema-json';

/** The payload's bytes in the encoding asked for, or why the value does not fit the schema. */
export type EncodedPayload = { readonly bytes: Uint8Array } | { readonly invalid: string };

export interface PayloadEncoder {
  /** Where the definition came from (`projects/P/schemas/S@rev`). */
  readonly source: string;
  encode(value: unknown, encoding: SchemaEncoding, form: RecordForm): EncodedPayload;
}

/** A value that does not fit the schema, at a field path (`quote.legs[2].price`, empty for the record itself). */
export class FieldError extends Error {
  override readonly name = 'FieldError';

  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `field "${path}": ${reason}` : reason);
  }
}

export function fieldPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** A value as an error message shows it: short, with its JSON type. */
export function whatIs(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'bigint') return `the number ${v}`;
  const text = JSON.stringify(v);
  const shown = text.length > 40 ? `${text.slice(0, 37)}…` : text;
  return `${typeof v === 'string' ? 'the string' : typeof v === 'number' ? 'the number' : 'the value'} ${shown}`;
}

/** Sets an own property, also one named `__proto__` (which plain assignment would take as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
