/**
 * Protocol Buffers payloads written from records, for publishing into a topic bound to a `.proto`
 * schema. A record is read in the proto3 JSON mapping (the decoder's form): fields by their
 * `.proto` name or its lowerCamelCase, 64-bit integers as numbers or decimal strings, enums by
 * name or number, bytes as base64, null for a field left out. protobufjs's own `fromObject`
 * coerces what does not fit (a word into an int32 becomes 0, an unknown enum name is dropped), so
 * every field is checked here first and one that does not fit names the field and its type.
 */
import protobuf from 'protobufjs';
import { type EncodedPayload, FieldError, fieldPath, type PayloadEncoder, setOwn, whatIs } from './payloadEncoder';
import { messageTypeOf, parseProto } from './protobufPayload';
import type { SchemaDefinition } from './schemaDefinition';
import type { SchemaEncoding } from './schemaRef';

const TO_JSON: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, json: true };

const INT_RANGES: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Compiles a `.proto` definition into an encoder; throws SchemaDefinitionError as the decoder does. */
export function protobufEncoder(def: SchemaDefinition): PayloadEncoder {
  const type = messageTypeOf(parseProto(def), def);
  return {
    source: def.source,
    encode: (value: unknown, encoding: SchemaEncoding): EncodedPayload => {
      let object: Record<string, unknown>;
      try {
        object = messageValue(type, value, '');
      } catch (e) {
        if (e instanceof FieldError) return { invalid: e.message };
        throw e;
      }
      const message = type.fromObject(object);
      if (encoding === 'BINARY') return { bytes: type.encode(message).finish() };
      return { bytes: new TextEncoder().encode(JSON.stringify(type.toObject(message, TO_JSON))) };
    },
  };
}

function jsonName(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The object `fromObject` takes for message `type`, every field checked; throws FieldError. */
function messageValue(type: protobuf.Type, v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FieldError(path, `expected message ${type.name} (a JSON object), got ${whatIs(v)}`);
  const byName = new Map<string, protobuf.Field>();
  for (const f of type.fieldsArray) {
    byName.set(f.name, f);
    byName.set(jsonName(f.name), f);
  }
  const out: Record<string, unknown> = {};
  const oneofs = new Map<protobuf.OneOf, string>();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const field = byName.get(k);
    const at = fieldPath(path, k);
    if (!field) throw new FieldError(at, `is not a field of message ${type.name}`);
    if (x === null) continue;
    if (field.partOf) {
      const other = oneofs.get(field.partOf);
      if (other !== undefined) throw new FieldError(at, `is in oneof ${field.partOf.name} with "${other}", which is set too`);
      oneofs.set(field.partOf, k);
    }
    field.resolve();
    setOwn(out, field.name, fieldValue(field, x, at));
  }
  return out;
}

function fieldValue(field: protobuf.Field, v: unknown, path: string): unknown {
  if (field instanceof protobuf.MapField) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FieldError(path, `expected a map (a JSON object), got ${whatIs(v)}`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (field.keyType !== 'string' && field.keyType !== 'bool') scalarValue(field.keyType, k, `${path}[${JSON.stringify(k)}]`);
      setOwn(out, k, singleValue(field, x, `${path}[${JSON.stringify(k)}]`));
    }
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(v)) throw new FieldError(path, `expected a list (repeated ${field.type}), got ${whatIs(v)}`);
    return v.map((x, i) => singleValue(field, x, `${path}[${i}]`));
  }
  return singleValue(field, v, path);
}

function singleValue(field: protobuf.Field, v: unknown, path: string): unknown {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return messageValue(t, v, path);
  if (t instanceof protobuf.Enum) {
    if (typeof v === 'string' && v in t.values) return v;
    if (typeof v === 'number' && Number.isInteger(v) && Object.values(t.values).includes(v)) return v;
    throw new FieldError(path, `expected one of enum ${t.name}'s values (${Object.keys(t.values).join(', ')}), got ${whatIs(v)}`);
  }
  return scalarValue(field.type, v, path);
}

function scalarValue(type: string, v: unknown, path: string): unknown {
  const range = INT_RANGES[type];
  if (range) {
    const n =
      typeof v === 'bigint'
        ? v
        : typeof v === 'number' && Number.isSafeInteger(v)
          ? BigInt(v)
          : typeof v === 'string' && /^-?\d{1,20}$/.test(v)
            ? BigInt(v)
            : undefined;
    if (n === undefined || n < range[0] || n > range[1]) throw new FieldError(path, `expected ${type}, got ${whatIs(v)}`);
    return type.endsWith('64') ? n.toString() : Number(n);
  }
  switch (type) {
    case 'double':
    case 'float':
      if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
      if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
      throw new FieldError(path, `expected ${type}, got ${whatIs(v)}`);
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw new FieldError(path, `expected bool, got ${whatIs(v)}`);
    case 'string':
      if (typeof v === 'string') return v;
      throw new FieldError(path, `expected string, got ${whatIs(v)}`);
    case 'bytes':
      if (typeof v === 'string' && BASE64.test(v)) return v;
      throw new FieldError(path, `expected bytes as base64 text, got ${whatIs(v)}`);
    default:
      throw new FieldError(path, `has type ${type}, which the schema does not define`);
  }
}
