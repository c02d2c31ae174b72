/**
 * Protocol Buffers payloads, binary or JSON-encoded, decoded by protobufjs. A Pub/Sub schema
 * defines one top-level message type; a local `.proto` may define several, and then names the
 * one payloads hold (`FILE.proto:package.Type`). Records come out in the proto3 JSON mapping
 * (64-bit integers as strings, enums by name, bytes as base64), with the field names as the
 * `.proto` writes them; a JSON payload may use either those names or their lowerCamelCase form.
 */
import protobuf from 'protobufjs';
import { type DecodedPayload, type JsonValue, type PayloadDecoder, payloadText, reasonOf, SchemaDefinitionError } from './payloadDecoder';
import type { SchemaDefinition } from './schemaDefinition';
import type { SchemaEncoding } from './schemaRef';

const TO_JSON: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, defaults: true, arrays: true, objects: true, json: true };

/** Compiles a `.proto` definition; throws SchemaDefinitionError when it does not parse or names no message. */
export function protobufDecoder(def: SchemaDefinition): PayloadDecoder {
  const type = messageTypeOf(parseProto(def), def);
  return {
    source: def.source,
    decode: (payload: Uint8Array, encoding: SchemaEncoding): DecodedPayload =>
      encoding === 'BINARY' ? decodeBinary(type, payload) : decodeJson(type, payload),
  };
}

/** The definition parsed and resolved (field names as the `.proto` writes them); throws SchemaDefinitionError. */
export function parseProto(def: SchemaDefinition): protobuf.Root {
  try {
    const root = protobuf.parse(def.definition, { keepCase: true }).root;
    root.resolveAll();
    return root;
  } catch (e) {
    throw new SchemaDefinitionError(`not a valid Protocol Buffers definition: ${reasonOf(e)}`, def.source);
  }
}

/** Every message type the definition declares at its top level (inside its package). */
function topLevelMessages(ns: protobuf.NamespaceBase): protobuf.Type[] {
  const out: protobuf.Type[] = [];
  for (const o of ns.nestedArray) {
    if (o instanceof protobuf.Type) out.push(o);
    else if (o instanceof protobuf.Namespace && !(o instanceof protobuf.Service) && !(o instanceof protobuf.Enum)) out.push(...topLevelMessages(o));
  }
  return out;
}

/** The message type payloads hold: the one named, else the one top-level message; throws SchemaDefinitionError. */
export function messageTypeOf(root: protobuf.Root, def: SchemaDefinition): protobuf.Type {
  if (def.messageType) {
    const found = root.lookup(def.messageType);
    if (found instanceof protobuf.Type) return found;
    const names = topLevelMessages(root).map((t) => t.fullName.replace(/^\./, ''));
    throw new SchemaDefinitionError(`the definition has no message type "${def.messageType}" (it has ${names.join(', ') || 'none'})`, def.source);
  }
  const messages = topLevelMessages(root);
  if (messages.length === 1) return messages[0];
  if (messages.length === 0) throw new SchemaDefinitionError('the definition declares no message type', def.source);
  const names = messages.map((t) => t.fullName.replace(/^\./, ''));
  throw new SchemaDefinitionError(
    `the definition declares ${messages.length} message types (${names.join(', ')}): name the one payloads hold, as FILE.proto:${names[0]}`,
    def.source,
  );
}

function decodeBinary(type: protobuf.Type, payload: Uint8Array): DecodedPayload {
  try {
    // protobufjs's own reader for a Node Buffer cuts a string that runs past the end short without a word; its plain one says so.
    return { record: type.toObject(type.decode(new protobuf.Reader(payload)), TO_JSON) as JsonValue };
  } catch (e) {
    return { invalid: `not ${type.name} in Protocol Buffers binary: ${reasonOf(e)}` };
  }
}

function decodeJson(type: protobuf.Type, payload: Uint8Array): DecodedPayload {
  const text = payloadText(payload);
  if ('invalid' in text) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.text);
  } catch (e) {
    return { invalid: `the payload is not JSON (${reasonOf(e)})` };
  }
  const named = withFieldNames(type, parsed, '');
  if ('invalid' in named) return named;
  try {
    return { record: type.toObject(type.fromObject(named.value as Record<string, unknown>), TO_JSON) as JsonValue };
  } catch (e) {
    return { invalid: `not ${type.name} in Protocol Buffers JSON: ${reasonOf(e)}` };
  }
}

/** lowerCamelCase, as the proto3 JSON mapping names a field by default. */
function jsonName(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The JSON object with every key renamed to its field's `.proto` name, checked against the type:
 * a key that names no field is an invalid payload (protobufjs alone would drop it silently).
 */
function withFieldNames(type: protobuf.Type, value: unknown, path: string): { value: unknown } | { invalid: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { invalid: `${path ? `field "${path}"` : 'the payload'} is not a JSON object, as message ${type.name} is` };
  }
  const byJsonName = new Map<string, protobuf.Field>();
  for (const f of type.fieldsArray) {
    byJsonName.set(f.name, f);
    byJsonName.set(jsonName(f.name), f);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const field = byJsonName.get(k);
    const at = path ? `${path}.${k}` : k;
    if (!field) return { invalid: `field "${at}" is not in message ${type.name}` };
    field.resolve();
    const inner = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (inner && v !== null && !field.map) {
      if (field.repeated && Array.isArray(v)) {
        const items: unknown[] = [];
        for (const [i, item] of v.entries()) {
          const r = withFieldNames(inner, item, `${at}[${i}]`);
          if ('invalid' in r) return r;
          items.push(r.value);
        }
        out[field.name] = items;
        continue;
      }
      const r = withFieldNames(inner, v, at);
      if ('invalid' in r) return r;
      out[field.name] = r.value;
      continue;
    }
    out[field.name] = v;
  }
  return { value: out };
}
