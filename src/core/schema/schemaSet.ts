/**
 * The schema definitions a session decodes payloads with, as plain data: they travel with the
 * sequencing options to the reading threads (a function cannot cross a thread), and each thread
 * compiles them once, on first use. A payload is read by its own schema when its attributes name
 * one (a definition recorded for that revision, else a local file named after the schema), else
 * by the session's default schema (`--schema`), else as it is.
 */
import type { DecodedPayload, JsonValue } from './payloadDecoder';
import { InputError } from '../util/inputError';
import { parseSchemaFileSpec, type SchemaDefinition, type SchemaFileSpec } from './schemaDefinition';
import { readSchemaRef, revisionKey, type SchemaEncoding, schemaShortName } from './schemaRef';
import { type DecoderLookup, SchemaRevisions } from './schemaRevisions';

export interface SchemaSet {
  /** For payloads that carry no schema of their own, and those whose schema was deleted (`--schema`). */
  readonly fallback?: SchemaDefinition;
  /** Local definitions by schema name (full or short) or topic. */
  readonly byName?: Readonly<Record<string, SchemaDefinition>>;
  /** Definitions known for a revision (recorded with the capture, or fetched before reading), by `name@revision`. */
  readonly recorded?: Readonly<Record<string, SchemaDefinition>>;
}

/** How a payload reads: decoded by a schema, not matching it (why), or with no schema to apply. */
export type PayloadReading =
  | { readonly kind: 'decoded'; readonly record: JsonValue; readonly source: string }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'plain' };

const PLAIN: PayloadReading = { kind: 'plain' };

/** Compiled once per set and thread; a set changes only by learnRecorded, which tells its compiled form too. */
const compiled = new WeakMap<SchemaSet, SchemaRevisions>();
const NO_SCHEMAS: SchemaSet = {};

function revisionsOf(set: SchemaSet): SchemaRevisions {
  let r = compiled.get(set);
  if (!r) {
    r = new SchemaRevisions({
      byName: set.byName && new Map(Object.entries(set.byName)),
      fallback: set.fallback,
      recorded: set.recorded && new Map(Object.entries(set.recorded)),
    });
    compiled.set(set, r);
  }
  return r;
}

/**
 * A run's set learns a definition its capture records (a schema line, see schemaLine.ts): every
 * holder of the set (the engine, the export, the detail pane) decodes that revision by it from now on.
 */
export function learnRecorded(set: SchemaSet, key: string, definition: SchemaDefinition): void {
  if (set.recorded?.[key] !== undefined) return;
  (set as { recorded?: Record<string, SchemaDefinition> }).recorded = { ...set.recorded, [key]: definition };
  compiled.get(set)?.learn(key, definition);
}

/** A new set: `set` with the definitions `recorded` added (for a range's lines after a schema line, or a thread's job). */
export function withRecorded(set: SchemaSet | undefined, recorded: Readonly<Record<string, SchemaDefinition>>): SchemaSet {
  return { ...set, recorded: { ...set?.recorded, ...recorded } };
}

/** Whether a payload needs its schema to be read: its attributes name one, the set has a default, or a file for its topic. */
export function needsSchema(set: SchemaSet | undefined, attributes: Readonly<Record<string, string>> | undefined, topic?: string): boolean {
  if (set?.fallback !== undefined || readSchemaRef(attributes).kind !== 'none') return true;
  return topic !== undefined && set?.byName !== undefined && (set.byName[topic] ?? set.byName[schemaShortName(topic)]) !== undefined;
}

/**
 * Reads a payload by the schema its attributes name, else the set's default. A message whose
 * schema has no definition here: a JSON payload reads as it is (its unions still wrapped); a
 * binary one is invalid, with the next step.
 */
export function readPayload(
  set: SchemaSet | undefined,
  attributes: Readonly<Record<string, string>> | undefined,
  topic: string | undefined,
  payload: Uint8Array,
): PayloadReading {
  const revisions = revisionsOf(set ?? NO_SCHEMAS);
  const ref = readSchemaRef(attributes);
  if (ref.kind === 'schema') {
    const lookup = revisions.cached(ref.ref);
    if (lookup && 'decoder' in lookup) return fromDecoded(lookup.decoder.decode(payload, ref.ref.encoding), lookup.decoder.source);
    return withoutDefinition(ref.ref.encoding, `schema ${revisionKey(ref.ref)} has no definition here`, schemaShortName(ref.ref.name));
  }
  if (ref.kind === 'deleted') {
    // The schema it names (when it still names one) by a local file, else the default.
    const named = ref.name === undefined ? undefined : revisions.cached({ name: ref.name, encoding: ref.encoding });
    const lookup = named && 'decoder' in named ? named : revisions.withoutRef(undefined);
    if (lookup && 'decoder' in lookup) return fromDecoded(lookup.decoder.decode(payload, ref.encoding), lookup.decoder.source);
    const what = ref.what === 'schema' ? 'its schema has been deleted' : `its revision of ${ref.name} has been deleted`;
    return withoutDefinition(ref.encoding, what, ref.name === undefined ? 'SCHEMA' : schemaShortName(ref.name));
  }
  const lookup = revisions.withoutRef(topic);
  if (!lookup) return PLAIN;
  if ('unavailable' in lookup) return { kind: 'invalid', reason: lookup.unavailable };
  return fromDecoded(lookup.decoder.decode(payload, guessEncoding(payload)), lookup.decoder.source, payload, lookup);
}

function withoutDefinition(encoding: SchemaEncoding, why: string, shortName: string): PayloadReading {
  if (encoding === 'JSON') return PLAIN;
  return {
    kind: 'invalid',
    reason: `the payload is binary and ${why}: give the schema as a file: --schema ${shortName}=FILE.avsc (or FILE.proto), or "${shortName}": "FILE.avsc" in the seqscope.schemas setting`,
  };
}

/**
 * A decoded payload as a reading. For a payload without attributes the encoding is guessed (JSON
 * text when it reads as a JSON object, else binary): when JSON does not match, binary is tried too.
 */
function fromDecoded(d: DecodedPayload, source: string, payload?: Uint8Array, lookup?: DecoderLookup): PayloadReading {
  if ('record' in d) return { kind: 'decoded', record: d.record, source };
  if (payload && lookup && 'decoder' in lookup && guessEncoding(payload) === 'JSON') {
    const binary = lookup.decoder.decode(payload, 'BINARY');
    if ('record' in binary) return { kind: 'decoded', record: binary.record, source };
  }
  return { kind: 'invalid', reason: `the payload does not match the schema from ${source}: ${d.invalid}` };
}

/** JSON when the payload's first byte (after white space) opens an object, else binary. */
function guessEncoding(payload: Uint8Array): SchemaEncoding {
  for (const b of payload) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b ? 'JSON' : 'BINARY';
  }
  return 'BINARY';
}

/** A `--schema` value: `FILE`, or `NAME=FILE` for the messages whose schema (or topic) is NAME. */
export interface SchemaFlag {
  readonly name?: string;
  readonly spec: SchemaFileSpec;
}

export function parseSchemaFlag(text: string): SchemaFlag {
  const eq = /^([A-Za-z][\w.~%+/-]*)=(.+)$/.exec(text);
  return eq ? { name: eq[1], spec: parseSchemaFileSpec(eq[2]) } : { spec: parseSchemaFileSpec(text) };
}

/** A file's name without its folder and extension: what a schema is called when the file is not named. */
function baseName(path: string): string {
  const file = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/**
 * The set `--schema` flags make, given each one's definition: a named one decodes the messages
 * of that schema or topic; the one without a name is the default and also decodes the schema
 * its file is named after. More than one default is an input error.
 */
export function schemaSetOf(flags: readonly { readonly flag: SchemaFlag; readonly definition: SchemaDefinition }[]): SchemaSet | undefined {
  if (flags.length === 0) return undefined;
  const byName: Record<string, SchemaDefinition> = {};
  let fallback: SchemaDefinition | undefined;
  for (const { flag, definition } of flags) {
    if (flag.name !== undefined) {
      byName[flag.name] = definition;
      continue;
    }
    if (fallback) {
      throw new InputError(
        `--schema ${flag.spec.path}: a second schema for payloads without one of their own (the first is ${fallback.source}): name the schema each is for, as --schema NAME=FILE`,
        { flag: '--schema', setting: 'seqscope.schemas' },
      );
    }
    fallback = definition;
    byName[baseName(flag.spec.path)] ??= definition;
  }
  return fallback ? { fallback, byName } : { byName };
}
