/** The sequencing flags `replay` and `record` share, and the options they describe. */
import { InputError } from '../core/util/inputError';
import { readFileSync } from 'node:fs';
import { formatDuration } from '../core/util/duration';
import { parsePresets, resolveOptions, SequencingOptions, UserPresets } from '../core/sequencer/sequencingOptions';

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
  const bare = flags.gapTimeout?.trim();
  if (bare !== undefined && /^\d+(\.\d+)?$/.test(bare) && options.gapTimeoutMs > 0) {
    warn(
      `seqscope: --gap-timeout ${bare} has no unit, so it is ${formatDuration(options.gapTimeoutMs)}; write ${bare}s for seconds (or ${bare}ms to say so)\n`,
    );
  }
  return options;
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
