/** The sequencing flags `replay`, `compare` and `record` share, and the options they describe. */
import { Command, Option } from 'commander';
import { InputError } from '../core/util/inputError';
import { readFileSync } from 'node:fs';
import { formatDuration } from '../core/util/duration';
import { collectSchema, schemasFromFlags } from './schemaFlags';
import { parsePresets, PRESETS, resolveOptions, SequencingOptions, UserPresets } from '../core/sequencer/sequencingOptions';

/** The flags as commander hands them over (strings). */
export interface SequencingFlags {
  preset?: string;
  /** JSON file of user presets (name → {key, seq, seqBits, time, gapTimeout, capacity}). */
  presetFile?: string;
  key?: string;
  seq?: string;
  time?: string;
  seqBits?: string;
  gapTimeout?: string;
  capacity?: string;
  resetTo?: string;
  /** False with --no-resets. */
  resets?: boolean;
  /** `--schema FILE` / `--schema NAME=FILE`, once per schema. */
  schema?: string[];
}

/** Adds the sequencing flags to a command. */
export function addSequencingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--preset <name>',
      `named option set; other flags override it (built in: ${Object.keys(PRESETS).join(', ')}; cme = --key attribute:Channel --seq attribute:MsgSeqNum --seq-bits 32, latency from SendingTime; cme-json = CME Smart Stream JSON, one sequence per topic: --key none --seq json:header.sequenceNumber --time json:header.sentTime)`,
    )
    .option(
      '--preset-file <file>',
      'JSON file of more presets: {"name": {"key": …, "seq": …, "seqBits": …, "time": …, "gapTimeout": …, "capacity": …, "schema": "FILE.avsc", "schemas": {"NAME": "FILE"}}}',
    )
    .option('--key <spec>', 'what orders together: orderingKey | attribute:<name> | json:<path> (a payload field) | none', undefined)
    .option(
      '--seq <spec>',
      'sequence number: attribute:<name> | mdp3 (the MsgSeqNum in the MDP 3.0 packet that is the payload; 32-bit; a record whose MsgSeqNum attribute disagrees is invalid) | json:<path> (a payload field, e.g. json:header.seq) | publishTime (no numbers: arrival order, a message that came after one of its key published later is reordered; the default with --key orderingKey) | none (keep arrival order, find duplicates by messageId)',
    )
    .option(
      '--time <spec>',
      "sender's time, for latency: attribute:<name> (ms since the epoch) | mdp3 (the MDP 3.0 packet's SendingTime, ns) | json:<path> (ISO 8601, zone-less read as UTC, or ms/ns since the epoch) | none",
    )
    .addOption(new Option('--seq-bits <bits>', 'sequence width; 16 and 32 wrap (RFC 1982 serial arithmetic)').choices(['16', '32', '64']))
    .option('--gap-timeout <duration>', 'how long a gap (and the start of a key) waits before missing numbers are declared lost: 500ms, 10s, 2m (default 10s)')
    .option('--capacity <n>', 'messages a key may hold; above it the lowest gap is declared lost at once (default 10000)')
    .option(
      '--reset-to <n>',
      'a jump back to exactly this number is a sequence reset at once (cme: 1); other far jumps down are resets when what follows continues from them',
    )
    .option('--no-resets', 'no reset detection: a jump back is late, duplicates or a gap')
    .option(
      '--schema <file>',
      'decode payloads by a local schema for json:<path> fields, --grep and the export: FILE.avsc (Avro) or FILE.proto[:package.Message] for payloads without a schema of their own (and the schema the file is named after); NAME=FILE for the messages whose googclient_schemaname (or topic) is NAME; once per schema',
      collectSchema,
    );
}

/**
 * The options the flags describe (an InputError names a bad one and its flag). A `--gap-timeout` without a
 * unit is milliseconds, as in the settings — which someone who means the CME sample's "10 s"
 * misses, and then every reordering is a gap: `warn` is told, the value is not refused.
 */
export function optionsFromFlags(flags: SequencingFlags, warn: (line: string) => void): SequencingOptions {
  const presets = flags.presetFile === undefined ? {} : readPresetFile(flags.presetFile);
  const options = resolveOptions(
    {
      preset: flags.preset,
      key: flags.key,
      seq: flags.seq,
      time: flags.time,
      seqBits: flags.seqBits,
      gapTimeout: flags.gapTimeout,
      capacity: flags.capacity,
      resetTo: flags.resetTo,
      resets: flags.resets === false ? 'off' : undefined,
    },
    presets,
  );
  const schemas = schemasFromFlags(flags.schema, options.presetSchemas);
  const withSchemas = schemas ? { ...options, schemas } : options;
  const bare = flags.gapTimeout?.trim();
  if (bare !== undefined && /^\d+(\.\d+)?$/.test(bare) && options.gapTimeoutMs > 0) {
    warn(
      `seqscope: --gap-timeout ${bare} has no unit, so it is ${formatDuration(options.gapTimeoutMs)}; write ${bare}s for seconds (or ${bare}ms to say so)\n`,
    );
  }
  return withSchemas;
}

/** A `--preset-file`: a bad one is an input error (RangeError) naming the file and the field. */
export function readPresetFile(path: string): UserPresets {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`--preset-file ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(`--preset-file ${path}: not JSON (${(e as Error).message})`);
  }
  return parsePresets(value, `--preset-file ${path}`, { flag: '--preset-file' });
}
