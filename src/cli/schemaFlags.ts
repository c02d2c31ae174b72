/**
 * `--schema FILE` / `--schema NAME=FILE`: local schema files read and compiled before a replay
 * starts, so a wrong file is one input error naming it, not an invalid record per message.
 */
import { readFileSync } from 'node:fs';
import { compileSchema } from '../core/schema/compileSchema';
import { SchemaDefinitionError } from '../core/schema/payloadDecoder';
import { localDefinition, parseSchemaFileSpec, type SchemaDefinition } from '../core/schema/schemaDefinition';
import { DEFAULT_ENTRY, type SchemaEntries } from '../core/schema/presetSchemas';
import { parseSchemaFlag, type SchemaFlag, type SchemaSet, schemaSetOf } from '../core/schema/schemaSet';
import { InputError, type InputFix } from '../core/util/inputError';

const FIX = { flag: '--schema', setting: 'seqscope.schemas' };
const PRESET_FIX = { flag: '--preset-file', setting: 'seqscope.presets' };

/** commander's collector: `--schema` may be given once per schema. */
export function collectSchema(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The schemas the flags name and the preset's (`presetSchemas`, relative to the working
 * directory), read and compiled; a flag replaces the preset's entry of the same name (or the
 * default). Undefined without any.
 */
export function schemasFromFlags(values: readonly string[] | undefined, preset?: SchemaEntries): SchemaSet | undefined {
  const flags = (values ?? []).map(parseSchemaFlag);
  const given = new Set(flags.map((f) => f.name ?? DEFAULT_ENTRY));
  const fromPreset = Object.entries(preset ?? {})
    .filter(([name]) => !given.has(name))
    .map(([name, file]): SchemaFlag => (name === DEFAULT_ENTRY ? { spec: parseSchemaFileSpec(file) } : { name, spec: parseSchemaFileSpec(file) }));
  const all = [
    ...fromPreset.map((flag) => ({ flag, where: `the preset's schema ${flag.spec.path}`, fix: PRESET_FIX })),
    ...flags.map((flag) => ({ flag, where: `--schema ${flag.spec.path}`, fix: FIX })),
  ];
  if (all.length === 0) return undefined;
  return schemaSetOf(all.map(({ flag, where, fix }) => ({ flag, definition: readDefinition(flag, where, fix) })));
}

function readDefinition(flag: SchemaFlag, where: string, fix: InputFix): SchemaDefinition {
  let text: string;
  try {
    text = readFileSync(flag.spec.path, 'utf8');
  } catch (e) {
    throw new InputError(`${where}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, fix);
  }
  const definition = localDefinition(flag.spec, text);
  try {
    compileSchema(definition);
  } catch (e) {
    if (e instanceof SchemaDefinitionError) throw new InputError(`${where}: ${e.message}`, fix);
    throw e;
  }
  return definition;
}
