/**
 * Schema files a preset names (`"schema": "trades.avsc"`, or `"schemas": {"trades": "trades.avsc",
 * "*": "quote.proto"}`), in the `seqscope.schemas` shape: a schema name or topic → file, `"*"` for
 * payloads without a schema of their own. Checked here, read by the CLI (from its working
 * directory) and the extension (from the workspace folder), where `--schema` and
 * `seqscope.schemas` override them entry by entry.
 */
import { InputError, isInputError } from '../util/inputError';
import { parseSchemaFileSpec } from './schemaDefinition';

export type SchemaEntries = Readonly<Record<string, string>>;

/** The entry `"schema"` stands for. */
export const DEFAULT_ENTRY = '*';

/** The entries of a preset's `schema` and `schemas` fields; undefined without either. An InputError says what is wrong (the caller names the preset). */
export function presetSchemaEntries(schema: unknown, schemas: unknown): SchemaEntries | undefined {
  if (schema === undefined && schemas === undefined) return undefined;
  const out: Record<string, string> = {};
  if (schemas !== undefined) {
    if (schemas === null || typeof schemas !== 'object' || Array.isArray(schemas))
      throw new InputError('"schemas" must map a schema name or topic to a file ("*" for payloads without a schema): { "trades": "trades.avsc" }');
    for (const [name, file] of Object.entries(schemas as Record<string, unknown>)) {
      if (name.trim() === '') throw new InputError('"schemas": name the schema or topic, or write "*" for payloads without a schema of their own');
      out[name] = checkedFile(file, `"schemas"["${name}"]`);
    }
  }
  if (schema !== undefined) {
    if (out[DEFAULT_ENTRY] !== undefined) throw new InputError('"schema" and "schemas"["*"] both name the schema for payloads without one: keep one');
    out[DEFAULT_ENTRY] = checkedFile(schema, '"schema"');
  }
  return out;
}

function checkedFile(file: unknown, field: string): string {
  if (typeof file !== 'string' || file.trim() === '')
    throw new InputError(`${field} must be a schema file: FILE.avsc, FILE.proto or FILE.proto:package.Message`);
  try {
    parseSchemaFileSpec(file.trim());
  } catch (e) {
    if (isInputError(e)) throw new InputError(`${field}: ${e.message}`);
    throw e;
  }
  return file.trim();
}
