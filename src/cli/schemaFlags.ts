/**
 * `--schema FILE` / `--schema NAME=FILE`: local schema files read and compiled before a replay
 * starts, so a wrong file is one input error naming it, not an invalid record per message.
 */
import { readFileSync } from 'node:fs';
import { compileSchema } from '../core/schema/compileSchema';
import { SchemaDefinitionError } from '../core/schema/payloadDecoder';
import { localDefinition } from '../core/schema/schemaDefinition';
import { parseSchemaFlag, type SchemaSet, schemaSetOf } from '../core/schema/schemaSet';
import { InputError } from '../core/util/inputError';

const FIX = { flag: '--schema', setting: 'seqscope.schemas' };

/** commander's collector: `--schema` may be given once per schema. */
export function collectSchema(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The schemas the flags name, read and compiled; undefined without any. */
export function schemasFromFlags(values: readonly string[] | undefined): SchemaSet | undefined {
  if (!values?.length) return undefined;
  return schemaSetOf(
    values.map((value) => {
      const flag = parseSchemaFlag(value);
      let text: string;
      try {
        text = readFileSync(flag.spec.path, 'utf8');
      } catch (e) {
        throw new InputError(`--schema ${flag.spec.path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, FIX);
      }
      const definition = localDefinition(flag.spec, text);
      try {
        compileSchema(definition);
      } catch (e) {
        if (e instanceof SchemaDefinitionError) throw new InputError(`--schema ${flag.spec.path}: ${e.message}`, FIX);
        throw e;
      }
      return { flag, definition };
    }),
  );
}
