/**
 * Avro payloads, binary or JSON-encoded, decoded by avsc. Pub/Sub's JSON encoding is Avro's own
 * JSON encoding (a union value wrapped in its branch's name, bytes as one character per byte), so
 * it is read by avsc's JSON reader; numbers are parsed losslessly first, so a `long` beyond 2^53
 * stays exact. Records come out as plain JSON (see JsonValue), unions unwrapped where avsc can.
 */
import { Type, types as avroTypes } from 'avsc';
import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { type DecodedPayload, type JsonValue, type PayloadDecoder, payloadText, reasonOf, SchemaDefinitionError } from './payloadDecoder';
import { setOwn } from './payloadEncoder';
import type { SchemaDefinition } from './schemaDefinition';
import type { SchemaEncoding } from './schemaRef';

/**
 * Node's Buffer, which avsc reads and writes. Declared here rather than taken from Node's types,
 * so that the modules importing the decoders still type-check where those types are absent (the
 * webview's check reaches this file through the sequencing options' types, never at run time).
 */
interface NodeBuffer extends Uint8Array {
  readBigInt64LE(offset: number): bigint;
  writeBigInt64LE(value: bigint, offset?: number): number;
  toString(encoding?: string): string;
}
interface NodeBufferClass {
  alloc(size: number): NodeBuffer;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBuffer;
  isBuffer(value: unknown): value is NodeBuffer;
}
const NodeBuffer = (globalThis as unknown as { Buffer: NodeBufferClass }).Buffer;

const TWO_53 = 2n ** 53n;

/** A 64-bit integer as a number when exact, else its decimal string. */
function exactLong(v: bigint): number | string {
  return v < TWO_53 && v > -TWO_53 ? Number(v) : v.toString();
}

function asBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return BigInt(v);
  return undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Avro `long` read exactly: a number up to 2^53, a decimal string beyond. */
export const ExactLong = avroTypes.LongType.__with({
  fromBuffer: (b: NodeBuffer) => exactLong(b.readBigInt64LE(0)),
  toBuffer: (v: number | string) => {
    const b = NodeBuffer.alloc(8);
    b.writeBigInt64LE(BigInt(v));
    return b;
  },
  fromJSON: (v: unknown) => {
    const n = asBigInt(v);
    if (n === undefined || n < INT64_MIN || n > INT64_MAX) throw new Error(`invalid "long": ${String(v)}`);
    return exactLong(n);
  },
  // A bigint beyond 2^53, which only a lossless JSON writer (avroEncoder's) writes exactly.
  toJSON: (v: number | string) => (typeof v === 'number' ? v : BigInt(v)),
  isValid: (v: unknown) => {
    const n = asBigInt(v);
    return n !== undefined && n >= INT64_MIN && n <= INT64_MAX;
  },
  compare: (a: number | string, b: number | string) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  },
});

/** A JSON number as the Avro JSON reader needs it: exact integers beyond 2^53 as bigint. */
export function losslessNumber(text: string): number | bigint {
  return isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

/** avsc's value (records, Buffers, maps) as plain JSON. */
export function plainAvro(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return exactLong(v);
  if (NodeBuffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(plainAvro);
  const out: Record<string, JsonValue> = {};
  // A map key "__proto__" is data, not the object's prototype.
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) setOwn(out, k, plainAvro(x));
  return out;
}

/** avsc's JSON reader on an already parsed value (its fromString with a lossless parse before it). */
export type JsonCopy = { _copy(value: unknown, opts: { coerce: 2 }): unknown };

/** Compiles an Avro schema definition; throws SchemaDefinitionError when it is not valid Avro. */
export function avroDecoder(def: SchemaDefinition): PayloadDecoder {
  const type = avroTypeOf(def);
  return {
    source: def.source,
    decode: (payload: Uint8Array, encoding: SchemaEncoding): DecodedPayload =>
      encoding === 'BINARY' ? decodeBinary(type, payload) : decodeJson(type, payload),
  };
}

/** The avsc type of a definition (longs exact, unions unwrapped where avsc can); throws SchemaDefinitionError. */
export function avroTypeOf(def: SchemaDefinition): Type {
  let schema: unknown;
  try {
    schema = JSON.parse(def.definition);
  } catch (e) {
    throw new SchemaDefinitionError(`the Avro schema is not JSON (${reasonOf(e)})`, def.source);
  }
  let type: Type;
  try {
    type = Type.forSchema(schema as never, { registry: { long: ExactLong } as never, wrapUnions: 'auto' });
  } catch (e) {
    throw new SchemaDefinitionError(`not a valid Avro schema: ${reasonOf(e)}`, def.source);
  }
  return type;
}

function decodeBinary(type: Type, payload: Uint8Array): DecodedPayload {
  const buf = NodeBuffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  let read: { value: unknown; offset: number };
  try {
    read = type.decode(buf as never, 0);
  } catch (e) {
    return { invalid: `not ${type.name ?? type.typeName} in Avro binary: ${reasonOf(e)}${whereBinary(type, buf)}` };
  }
  if (read.offset === -1) return { invalid: `the payload (${buf.length} bytes) ends inside the Avro record${whereBinary(type, buf)}` };
  if (read.offset < buf.length) return { invalid: `${buf.length - read.offset} bytes follow the Avro record, which ends at byte ${read.offset}` };
  return { record: plainAvro(read.value) };
}

/** For a record: the first field that does not read, and at which byte (decoding field by field). */
function whereBinary(type: Type, buf: NodeBuffer): string {
  const fields = (type as { fields?: { name: string; type: Type }[] }).fields;
  if (!fields) return '';
  let pos = 0;
  for (const f of fields) {
    let r: { offset: number };
    try {
      r = f.type.decode(buf as never, pos);
    } catch {
      return ` (field "${f.name}", at byte ${pos})`;
    }
    if (r.offset === -1) return ` (field "${f.name}", at byte ${pos})`;
    pos = r.offset;
  }
  return '';
}

function decodeJson(type: Type, payload: Uint8Array): DecodedPayload {
  const text = payloadText(payload);
  if ('invalid' in text) return text;
  let parsed: unknown;
  try {
    parsed = parseLossless(text.text, undefined, losslessNumber);
  } catch (e) {
    return { invalid: `the payload is not JSON (${reasonOf(e)})` };
  }
  try {
    return { record: plainAvro((type as unknown as JsonCopy)._copy(parsed, { coerce: 2 })) };
  } catch (e) {
    return { invalid: `not ${type.name ?? type.typeName} in Avro JSON: ${reasonOf(e)}` };
  }
}
