/**
 * A schema revision recorded into a capture: a JSON Lines line of its own, not a message,
 * written once before the first message that names the revision, so the capture stays readable
 * after the schema (or the revision) is deleted and offline:
 *
 *   {"seqscopeSchema":{"name":"projects/P/schemas/S","revisionId":"R","type":"AVRO","definition":"…"}}
 *
 * A line is a definition line when it starts with `{"seqscopeSchema":` (the recorder writes it so);
 * readers take its definition for the lines after it and count it neither as a record nor as
 * invalid. One that does not read as a definition is an invalid record with the reason.
 */
import type { SchemaDefinition } from './schemaDefinition';
import { revisionKey, type SchemaRef } from './schemaRef';

export const SCHEMA_LINE_FIELD = 'seqscopeSchema';
const PREFIX = `{"${SCHEMA_LINE_FIELD}":`;
const PREFIX_BYTES = Buffer.from(PREFIX);

/** A definition as a capture carries it: its revision key (`name@revision`) and the definition. */
export interface RecordedSchema {
  readonly key: string;
  readonly definition: SchemaDefinition;
}

/** The line that records `definition` as revision `ref` (ending with a newline). */
export function schemaLine(ref: Pick<SchemaRef, 'name' | 'revisionId'>, definition: SchemaDefinition): string {
  const body: Record<string, string> = { name: ref.name };
  if (ref.revisionId) body.revisionId = ref.revisionId;
  body.type = definition.type;
  body.definition = definition.definition;
  if (definition.messageType !== undefined) body.messageType = definition.messageType;
  return `${JSON.stringify({ [SCHEMA_LINE_FIELD]: body })}\n`;
}

/** Whether the line starting at `start` of `text` (after leading white space) is a definition line. */
export function isSchemaLine(text: string, start = 0): boolean {
  let i = start;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  return text.startsWith(PREFIX, i);
}

/** Whether the bytes from `start` (the first after leading white space) begin a definition line. */
export function isSchemaLineAt(buf: Buffer, start: number): boolean {
  if (buf.length - start < PREFIX_BYTES.length) return false;
  for (let i = 0; i < PREFIX_BYTES.length; i++) if (buf[start + i] !== PREFIX_BYTES[i]) return false;
  return true;
}

/** Where the next definition line of `buf` from `from` starts (at a line's start), or -1. Cheap: one indexOf per candidate. */
export function nextSchemaLine(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(PREFIX_BYTES, from); i >= 0; i = buf.indexOf(PREFIX_BYTES, i + 1)) {
    let j = i - 1;
    while (j >= 0 && (buf[j] === 0x20 || buf[j] === 0x09)) j--;
    if (j < 0 || buf[j] === 0x0a) return i;
  }
  return -1;
}

/** Reads a definition line: the definition, or why it is not one. Never throws. */
export function readSchemaLine(text: string): RecordedSchema | { readonly invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { invalid: `a recorded schema line that is not valid JSON (${(e as Error).message})` };
  }
  const body = (value as Record<string, unknown>)[SCHEMA_LINE_FIELD] as Record<string, unknown> | null;
  const bad = (what: string) => ({
    invalid: `a recorded schema line whose ${what}: expected {"${SCHEMA_LINE_FIELD}":{"name","revisionId","type","definition"}}`,
  });
  if (typeof body !== 'object' || body === null) return bad(`"${SCHEMA_LINE_FIELD}" is not an object`);
  const { name, revisionId, type, definition, messageType } = body;
  if (typeof name !== 'string' || !/^projects\/[^/]+\/schemas\/[^/@]+$/.test(name)) return bad('"name" is not projects/P/schemas/S');
  if (revisionId !== undefined && (typeof revisionId !== 'string' || revisionId === '')) return bad('"revisionId" is not a string');
  if (type !== 'AVRO' && type !== 'PROTOCOL_BUFFER') return bad(`"type" is ${JSON.stringify(type)}, not AVRO or PROTOCOL_BUFFER`);
  if (typeof definition !== 'string') return bad('"definition" is not a string');
  if (messageType !== undefined && typeof messageType !== 'string') return bad('"messageType" is not a string');
  const key = revisionKey({ name, revisionId: revisionId as string | undefined });
  const def: SchemaDefinition = messageType === undefined ? { type, definition, source: key } : { type, definition, messageType, source: key };
  return { key, definition: def };
}
