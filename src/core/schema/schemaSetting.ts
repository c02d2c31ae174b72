/**
 * The extension's `seqscope.schemas`: local schema files by schema name (full or short) or topic,
 * and under `"*"` the one for payloads that carry no schema of their own — what `--schema
 * NAME=FILE` and `--schema FILE` give the CLI. The files are read through the caller's reader
 * (the extension reads them asynchronously, once per capture opened) and compiled here, so a bad
 * entry is one input error naming the setting and the entry, not an invalid record per message.
 */
import { InputError, type InputFix, isInputError } from '../util/inputError';
import type { SchemaEntries } from './presetSchemas';
import { compileSchema } from './compileSchema';
import { SchemaDefinitionError } from './payloadDecoder';
import { localDefinition, parseSchemaFileSpec, type SchemaFileSpec } from './schemaDefinition';
import { type SchemaFlag, type SchemaSet, schemaSetOf } from './schemaSet';

export const SCHEMAS_SETTING = 'seqscope.schemas';
/** The entry for payloads without a schema of their own. */
export const DEFAULT_SCHEMA_ENTRY = '*';

const FIX = { setting: SCHEMAS_SETTING };
const PRESET_FIX = { setting: 'seqscope.presets' };
const FILE_WORDS = 'FILE.avsc (Avro), FILE.proto or FILE.proto:package.Message (Protocol Buffers)';

/** How the setting's files are found and read. */
export interface SchemaFiles {
  /** The path to read for a file as written in the setting (a relative one: against the workspace). */
  resolve(path: string): string;
  read(path: string): Promise<string>;
}

/**
 * The schemas `seqscope.schemas` names, and the chosen preset's (`preset`: its entries, which the
 * setting's replace name by name), read and compiled; undefined when they name none.
 */
export async function schemaSetFromSetting(value: unknown, files: SchemaFiles, preset?: SchemaEntries): Promise<SchemaSet | undefined> {
  const own = value === undefined || value === null ? {} : checkedSetting(value);
  const fromPreset = Object.entries(preset ?? {}).filter(([name]) => !Object.hasOwn(own, name));
  const entries = await Promise.all([
    ...fromPreset.map(([name, file]) => readEntry(name, file, files, `seqscope.presets: schema "${name}"`, PRESET_FIX)),
    ...Object.entries(own).map(([name, file]) => readEntry(name, file, files, `${SCHEMAS_SETTING}["${name}"]`, FIX)),
  ]);
  return entries.length === 0 ? undefined : schemaSetOf(entries);
}

function checkedSetting(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(
      `${SCHEMAS_SETTING} must map a schema name or topic to a file, "${DEFAULT_SCHEMA_ENTRY}" for payloads without a schema of their own: { "trades": "schemas/trades.avsc" }`,
      FIX,
    );
  }
  return value as Record<string, unknown>;
}

async function readEntry(name: string, file: unknown, files: SchemaFiles, where: string, fix: InputFix) {
  if (name.trim() === '')
    throw new InputError(`${where}: name the schema or topic, or write "${DEFAULT_SCHEMA_ENTRY}" for payloads without a schema of their own`, fix);
  if (typeof file !== 'string' || file.trim() === '') throw new InputError(`${where} must be a schema file: ${FILE_WORDS}`, fix);
  let spec: SchemaFileSpec;
  try {
    spec = parseSchemaFileSpec(file.trim());
  } catch (e) {
    if (isInputError(e)) throw new InputError(`${where}: ${e.message}`, fix);
    throw e;
  }
  let text: string;
  try {
    text = await files.read(files.resolve(spec.path));
  } catch (e) {
    throw new InputError(`${where}: ${spec.path} cannot be read (${(e as { code?: string }).code ?? (e as Error).message})`, fix);
  }
  const definition = localDefinition(spec, text);
  try {
    compileSchema(definition);
  } catch (e) {
    if (e instanceof SchemaDefinitionError) throw new InputError(`${where}: ${spec.path} is not a valid schema: ${e.message}`, fix);
    throw e;
  }
  const flag: SchemaFlag = name === DEFAULT_SCHEMA_ENTRY ? { spec } : { name, spec };
  return { flag, definition };
}
