/**
 * Avro payloads written from records, for publishing into a topic bound to an Avro schema. A
 * record is read the way the decoder writes one (avroPayload's plain JSON): unions as their bare
 * value where avsc unwraps them (a `{ "branch": value }` wrapper is taken too), bytes and fixed as
 * base64, a `long` as a number or a decimal string. Every field is checked against the schema: a
 * required field missing, a field the schema does not have, or a value of the wrong type names the
 * field and what the schema expects. Written as Avro binary, or as Avro's JSON encoding (the one
 * Pub/Sub's JSON topics take: unions wrapped), with every `long` exact.
 */
import type { Type } from 'avsc';
import { stringify as stringifyLossless } from 'lossless-json';
import { avroTypeOf, type JsonCopy } from './avroPayload';
import { type EncodedPayload, FieldError, fieldPath, type PayloadEncoder, type RecordForm, setOwn, whatIs } from './payloadEncoder';
import type { SchemaDefinition } from './schemaDefinition';
import type { SchemaEncoding } from './schemaRef';

/** The parts of avsc's types this module reads (its typings leave them out). */
interface AvroField {
  readonly name: string;
  readonly type: AvroType;
  defaultValue(): unknown;
}
interface AvroType extends Type {
  readonly typeName: string;
  readonly fields?: readonly AvroField[];
  readonly types?: readonly AvroType[];
  readonly itemsType?: AvroType;
  readonly valuesType?: AvroType;
  readonly symbols?: readonly string[];
  readonly size?: number;
  _copy(value: unknown, opts: { coerce: 3 }): unknown;
}

interface NodeBufferLike extends Uint8Array {
  readonly length: number;
}
const NodeBuffer = (globalThis as unknown as { Buffer: { from(text: string, encoding: string): NodeBufferLike } }).Buffer;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Compiles an Avro definition into an encoder; throws SchemaDefinitionError when it is not valid Avro. */
export function avroEncoder(def: SchemaDefinition): PayloadEncoder {
  const type = avroTypeOf(def) as AvroType;
  return {
    source: def.source,
    encode: (value: unknown, encoding: SchemaEncoding, form: RecordForm): EncodedPayload => {
      // Avro's own JSON encoding (unions wrapped, bytes as text) first where the message says it is that.
      let avro = form === 'schema-json' ? avroJson(type, value) : undefined;
      if (avro === undefined) {
        try {
          avro = avroValue(type, value, '');
        } catch (e) {
          if (!(e instanceof FieldError)) throw e;
          // JSON text a publisher wrote may be in Avro's JSON encoding too.
          avro = form === 'json' ? avroJson(type, value) : undefined;
          if (avro === undefined) return { invalid: e.message };
        }
      }
      return { bytes: write(type, avro, encoding) };
    },
  };
}

function write(type: AvroType, value: unknown, encoding: SchemaEncoding): Uint8Array {
  if (encoding === 'BINARY') return type.toBuffer(value);
  return new TextEncoder().encode(stringifyLossless(type._copy(value, { coerce: 3 })) ?? '');
}

/** The value read as Avro's JSON encoding (avsc's JSON reader), or undefined when it is not that. */
function avroJson(type: AvroType, value: unknown): unknown {
  try {
    return (type as unknown as JsonCopy)._copy(value, { coerce: 2 });
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The avsc value of `v` for type `t`; throws FieldError naming the field that does not fit. */
function avroValue(t: AvroType, v: unknown, path: string): unknown {
  switch (t.typeName) {
    case 'record':
    case 'error':
      return recordValue(t, v, path);
    case 'union:wrapped':
    case 'union:unwrapped':
      return unionValue(t, v, path);
    case 'array':
      if (!Array.isArray(v)) throw new FieldError(path, `expected an array, got ${whatIs(v)}`);
      return v.map((x, i) => avroValue(t.itemsType!, x, `${path}[${i}]`));
    case 'map': {
      if (!isObject(v)) throw new FieldError(path, `expected a map (a JSON object), got ${whatIs(v)}`);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setOwn(out, k, avroValue(t.valuesType!, x, fieldPath(path, k)));
      return out;
    }
    case 'bytes':
      return bytesValue(v, path, 'bytes');
    case 'fixed': {
      const b = bytesValue(v, path, `fixed ${t.name}`);
      if (b.length !== t.size) throw new FieldError(path, `expected ${t.size} bytes (fixed ${t.name}), got ${b.length}`);
      return b;
    }
    case 'long':
    case 'abstract:long':
      if (typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v)) || typeof v === 'number') {
        if (t.isValid(typeof v === 'bigint' ? v.toString() : v)) return typeof v === 'bigint' ? v.toString() : v;
      }
      throw new FieldError(path, `expected long (a 64-bit integer), got ${whatIs(v)}`);
    case 'float':
    case 'double': {
      // The decoder writes a value that is not finite as its name (JSON has no such number).
      const n = typeof v === 'bigint' || v === 'NaN' || v === 'Infinity' || v === '-Infinity' ? Number(v) : v;
      if (typeof n !== 'number') throw new FieldError(path, `expected ${t.typeName}, got ${whatIs(v)}`);
      return n;
    }
    case 'enum':
      if (typeof v !== 'string' || !t.symbols!.includes(v))
        throw new FieldError(path, `expected one of enum ${t.name}'s symbols (${t.symbols!.join(', ')}), got ${whatIs(v)}`);
      return v;
    default:
      if (!t.isValid(v)) throw new FieldError(path, `expected ${t.typeName}, got ${whatIs(v)}`);
      return v;
  }
}

function recordValue(t: AvroType, v: unknown, path: string): Record<string, unknown> {
  if (!isObject(v)) throw new FieldError(path, `expected record ${t.name}, got ${whatIs(v)}`);
  const out: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const f of t.fields!) {
    known.add(f.name);
    const at = fieldPath(path, f.name);
    const x = v[f.name];
    if (x === undefined) {
      const d = f.defaultValue();
      if (d === undefined) throw new FieldError(at, `missing: record ${t.name} requires it (it has no default)`);
      setOwn(out, f.name, d);
      continue;
    }
    setOwn(out, f.name, avroValue(f.type, x, at));
  }
  for (const k of Object.keys(v)) if (!known.has(k)) throw new FieldError(fieldPath(path, k), `is not a field of record ${t.name}`);
  return out;
}

/**
 * A union's value: null for its null branch; a `{ "branch": value }` wrapper naming a branch;
 * else the first branch the bare value fits. avsc takes a wrapped union's value wrapped.
 */
function unionValue(t: AvroType, v: unknown, path: string): unknown {
  const branches = t.types!;
  const wrapped = t.typeName === 'union:wrapped';
  const names = branches.map((b) => b.branchName ?? b.typeName);
  if (v === null) {
    if (names.includes('null')) return null;
    throw new FieldError(path, `null is not one of the union's branches (${names.join(', ')})`);
  }
  const as = (b: AvroType, x: unknown) => {
    const value = avroValue(b, x, path);
    return wrapped ? { [b.branchName ?? b.typeName]: value } : value;
  };
  if (isObject(v)) {
    const keys = Object.keys(v);
    const named = keys.length === 1 ? branches.find((b) => b.branchName === keys[0] || shortName(b.branchName) === keys[0]) : undefined;
    if (named) {
      try {
        return as(named, v[keys[0]]);
      } catch (e) {
        if (!(e instanceof FieldError) || wrapped) throw e;
      }
    }
  }
  let first: FieldError | undefined;
  for (const b of branches) {
    if (b.typeName === 'null') continue;
    try {
      return as(b, v);
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      first ??= e;
    }
  }
  throw new FieldError(path, `fits none of the union's branches (${names.join(', ')})${first ? `: as ${firstBranch(branches)}, ${first.reason}` : ''}`);
}

function firstBranch(branches: readonly AvroType[]): string {
  const b = branches.find((x) => x.typeName !== 'null')!;
  return b.branchName ?? b.typeName;
}

function shortName(name: string | undefined): string | undefined {
  return name?.slice(name.lastIndexOf('.') + 1);
}

function bytesValue(v: unknown, path: string, what: string): NodeBufferLike {
  if (typeof v === 'string' && v.length % 4 === 0 && BASE64.test(v)) return NodeBuffer.from(v, 'base64');
  if (typeof v === 'string' && BASE64URL.test(v)) return NodeBuffer.from(v, 'base64url');
  throw new FieldError(path, `expected ${what} as base64 text, got ${whatIs(v)}`);
}
