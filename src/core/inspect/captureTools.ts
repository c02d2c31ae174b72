/**
 * The inspection tools on capture files named by the caller, as `seqscope mcp` serves them: a
 * name, a description a model chooses by, an input schema, and a run that answers in compact
 * text or throws an InputError that says what to fix.
 */
import { isAbsolute, resolve } from 'node:path';
import { captureVersion, repeatedInput, repeatedInputMessage } from '../capture/fileIdentity';
import { compareForAgent, comparisonText } from './compareInspection';
import { InputError } from '../util/inputError';
import { findMessages, InspectionCache } from './captureInspection';
import {
  Args,
  FINDINGS_PROPERTIES,
  findingsFilter,
  JsonSchema,
  MESSAGES_PROPERTIES,
  messageQuery,
  optionalString,
  SEQUENCING_PROPERTIES,
  sequencingOptions,
} from './inspectArgs';
import { findingsText, messagesText, summaryText } from './inspectText';

export interface InspectTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  run(args: Args, cache: InspectionCache, signal?: AbortSignal): Promise<string>;
}

const PATHS = {
  paths: {
    type: 'array',
    items: { type: 'string' },
    minItems: 1,
    description:
      "Capture files (JSON Lines of Pub/Sub ReceivedMessage records, Cloud Storage Avro, BigQuery rows; plain or .gz). Several are merged by their clock. Relative paths are read from the server's working folder.",
  },
} as const;

/** Compare's two sides, each one capture or several merged. */
export const COMPARE_SIDES = {
  a: {
    type: 'array',
    items: { type: 'string' },
    minItems: 1,
    description: 'Side A: capture files of one feed, subscription or archive (several are merged by their clock).',
  },
  b: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Side B: capture files of the other, of the same stream.' },
  forKey: { type: 'string', description: "Show this key in full: both sides' counts and the number ranges each side missed." },
} as const;

export const COMPARE_DESCRIPTION =
  "Compares two captures of one stream (two feeds, e.g. CME's A and B; two subscriptions; a recording and an archive) per key, as `seqscope compare` does: what both had, what only A or only B had, numbers neither had, which side was first and by how much (Δt), each side's misses in incidents, and the merged stream. forKey lists one key's missed number ranges.";

/** Missing captures named: an InputError. */
export function assertReadable(paths: readonly string[], where: string): void {
  const missing = paths.filter((p) => captureVersion([p]) === undefined);
  if (missing.length)
    throw new InputError(
      `${missing.map((p) => JSON.stringify(p)).join(', ')} cannot be read: give the path of an existing capture file (absolute, or relative to ${where})`,
    );
}

const SEQUENCING_NOTE = 'Sequencing as `seqscope replay` does: give `preset` (e.g. cme) or `key`/`seq`/`time` specs, `seqBits`, `gapTimeout`.';

function schema(properties: Record<string, unknown>, required: string[] = ['paths']): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The capture paths, absolute, each file once. */
export function capturePaths(args: Args, cwd: string, name = 'paths'): string[] {
  const paths = args[name];
  if (!Array.isArray(paths) || paths.length === 0 || paths.some((p) => typeof p !== 'string' || p === '')) {
    throw new InputError(`argument "${name}" must be a list of one or more capture file paths`);
  }
  const absolute = (paths as string[]).map((p) => (isAbsolute(p) ? p : resolve(cwd, p)));
  const twice = repeatedInput(absolute);
  if (twice) throw new InputError(`${name === 'paths' ? '' : `side ${name.toUpperCase()}: `}${repeatedInputMessage(twice, 'name each capture once')}`);
  return absolute;
}

function title(paths: readonly string[]): string {
  return paths.length === 1 ? paths[0] : `${paths.length} captures (${paths.join(', ')})`;
}

export function captureTools(cwd: string): InspectTool[] {
  return [
    {
      name: 'summarize_capture',
      title: 'Summarize a capture',
      description: `Sequences Pub/Sub capture files per key and summarises what it found: per key and in total, messages received and delivered, gaps and messages lost, duplicates by kind (redelivered, republished, conflicting; cascades), late messages, invalid records, and hold/latency percentiles. ${SEQUENCING_NOTE} Give forKey for one key.`,
      inputSchema: schema({ ...PATHS, ...SEQUENCING_PROPERTIES, forKey: { type: 'string', description: 'Summarise only this key (exact).' } }),
      async run(args, cache) {
        const paths = capturePaths(args, cwd);
        const ins = await cache.get(paths, sequencingOptions(args));
        return summaryText(ins, title(paths), optionalString(args, 'forKey'));
      },
    },
    {
      name: 'list_findings',
      title: 'List findings',
      description: `Lists what the sequencer found in capture files — gaps (lost numbers), duplicates, late messages, invalid records — in the order found, each with its key, numbers, messageId and times. Filters by kind, key, number range and time range; paged (offset, limit). ${SEQUENCING_NOTE}`,
      inputSchema: schema({ ...PATHS, ...SEQUENCING_PROPERTIES, ...FINDINGS_PROPERTIES }),
      async run(args, cache) {
        const paths = capturePaths(args, cwd);
        const filter = findingsFilter(args);
        return findingsText(await cache.get(paths, sequencingOptions(args)), filter);
      },
    },
    {
      name: 'find_messages',
      title: 'Find messages',
      description: `Finds messages in capture files by messageId, or by text or an RE2 regular expression in the decoded payload; lists each with key, number, messageId and times (payloads only with includePayload). ${SEQUENCING_NOTE}`,
      inputSchema: schema({ ...PATHS, ...SEQUENCING_PROPERTIES, ...MESSAGES_PROPERTIES }),
      async run(args, cache, signal) {
        const paths = capturePaths(args, cwd);
        const options = sequencingOptions(args);
        const q = messageQuery(args);
        // Reads the files once more; the cached inspection first says they are sequenceable.
        await cache.get(paths, options);
        return messagesText(await findMessages(paths, options, q.query, q.limit, signal), q.includePayload);
      },
    },
    {
      name: 'compare_captures',
      title: 'Compare two captures',
      description: `${COMPARE_DESCRIPTION} ${SEQUENCING_NOTE}`,
      inputSchema: schema({ ...COMPARE_SIDES, ...SEQUENCING_PROPERTIES }, ['a', 'b']),
      async run(args, _cache, signal) {
        const a = capturePaths(args, cwd, 'a');
        const b = capturePaths(args, cwd, 'b');
        assertReadable([...a, ...b], "the server's working folder");
        return comparisonText(await compareForAgent(a, b, sequencingOptions(args), signal), optionalString(args, 'forKey'));
      },
    },
  ];
}
