/**
 * Schema revisions fetched before a replay starts, when it is connected (`--project`,
 * `--emulator-host` or PUBSUB_EMULATOR_HOST): the reading threads decode synchronously, so the
 * revisions the captures name are found first (the attributes' text, without parsing records),
 * asked for once each, and handed to them as definitions. What cannot be fetched is said once,
 * with the next step; the replay goes on with what it has.
 */
import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { SchemaDefinition } from '../core/schema/schemaDefinition';
import { isSchemaLine, readSchemaLine } from '../core/schema/schemaLine';
import { readSchemaRef, revisionKey, type SchemaRef, schemaShortName } from '../core/schema/schemaRef';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { type ConnectionFlags, loadLayer, openConnection } from './pubsubConnection';

const NAME = /"googclient_schemaname"\s*:\s*"([^"\\]+)"/;
const ENCODING = /"googclient_schemaencoding"\s*:\s*"(JSON|BINARY)"/;
const REVISION = /"googclient_schemarevisionid"\s*:\s*"([^"\\]+)"/;

/** Adds --project and --emulator-host, which let a command read schemas from the Schema service, to a command. */
export function addSchemaServiceOptions(cmd: Command): Command {
  return cmd
    .option(
      '--project <id>',
      "fetch the schema revisions payloads name from the Schema service (of each schema's own project), with this project's credentials",
    )
    .option('--emulator-host <host:port>', 'fetch them from the Pub/Sub emulator there (default: PUBSUB_EMULATOR_HOST, when set)');
}

/** Whether the flags or the environment name a Pub/Sub service to ask. */
export function isConnected(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): boolean {
  return flags.project !== undefined || flags.emulatorHost !== undefined || !!env.PUBSUB_EMULATOR_HOST;
}

/** The schema revisions JSON Lines captures name and do not record (standard input and other formats are not read ahead). */
export async function schemaRefsIn(paths: readonly string[]): Promise<SchemaRef[]> {
  const found = new Map<string, SchemaRef>();
  const recorded = new Set<string>();
  for (const path of paths) {
    if (path === '-' || /\.(avro|parquet)$/i.test(path)) continue;
    const raw = createReadStream(path);
    const input = /\.gz$/i.test(path) ? raw.pipe(createGunzip()) : raw;
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        if (isSchemaLine(line)) {
          // Recorded with the capture: read from it, not fetched.
          const r = readSchemaLine(line);
          if ('key' in r) recorded.add(r.key);
          continue;
        }
        const name = NAME.exec(line);
        if (!name) continue;
        const encoding = ENCODING.exec(line)?.[1];
        const revision = REVISION.exec(line)?.[1];
        const attrs: Record<string, string> = { googclient_schemaname: name[1], googclient_schemaencoding: encoding ?? '' };
        if (revision !== undefined) attrs.googclient_schemarevisionid = revision;
        const r = readSchemaRef(attrs);
        if (r.kind === 'schema') found.set(revisionKey(r.ref), r.ref);
      }
    } catch {
      // A capture that cannot be read is reported by the replay itself.
    } finally {
      raw.destroy();
    }
  }
  return [...found.values()].filter((r) => !recorded.has(revisionKey(r)));
}

/** The options with the revisions the captures name fetched into their schemas (said on `warn` when one cannot be). */
export async function withFetchedSchemas(
  options: SequencingOptions,
  paths: readonly string[],
  flags: ConnectionFlags,
  warn: (line: string) => void,
): Promise<SequencingOptions> {
  if (!isConnected(flags)) return options;
  const known = options.schemas?.recorded ?? {};
  const refs = (await schemaRefsIn(paths)).filter((r) => !(revisionKey(r) in known));
  if (refs.length === 0) return options;
  const layer = await loadLayer();
  // A schema's name carries its project: the connection needs one, and that one will do.
  const conn = await openConnection(layer, { ...flags, project: flags.project ?? /^projects\/([^/]+)\//.exec(refs[0].name)?.[1] });
  const fetched: Record<string, SchemaDefinition> = {};
  try {
    const fetch = layer.schemaFetch(conn);
    for (const ref of refs) {
      const answer = await fetch(ref);
      if ('definition' in answer) {
        fetched[revisionKey(ref)] = answer.definition;
        continue;
      }
      const step = `give it as a file: --schema ${schemaShortName(ref.name)}=FILE.avsc (or FILE.proto)`;
      if ('missing' in answer) {
        warn(`seqscope: schema ${revisionKey(ref)} no longer exists (${answer.missing}): ${step}\n`);
        continue;
      }
      warn(`seqscope: the Schema service could not be reached (${answer.unreachable}): ${step}; payloads of other schemas too\n`);
      break;
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
  if (Object.keys(fetched).length === 0) return options;
  return { ...options, schemas: { ...options.schemas, recorded: { ...known, ...fetched } } };
}
