/** The sequencing flags `replay` and `record` share, and the options they describe. */
import { formatDuration } from '../core/util/duration';
import { resolveOptions, SequencingOptions } from '../core/sequencer/sequencingOptions';

/** The flags as commander hands them over (strings). */
export interface SequencingFlags {
  preset?: string;
  key?: string;
  seq?: string;
  time?: string;
  seqBits?: string;
  gapTimeout?: string;
  capacity?: string;
}

/**
 * The options the flags describe (an InputError names a bad one and its flag). A `--gap-timeout` without a
 * unit is milliseconds, as in the settings — which someone who means the CME sample's "10 s"
 * misses, and then every reordering is a gap: `warn` is told, the value is not refused.
 */
export function optionsFromFlags(flags: SequencingFlags, warn: (line: string) => void): SequencingOptions {
  const options = resolveOptions({
    preset: flags.preset,
    key: flags.key,
    seq: flags.seq,
    time: flags.time,
    seqBits: flags.seqBits,
    gapTimeout: flags.gapTimeout,
    capacity: flags.capacity,
  });
  const bare = flags.gapTimeout?.trim();
  if (bare !== undefined && /^\d+(\.\d+)?$/.test(bare) && options.gapTimeoutMs > 0) {
    warn(`seqscope: --gap-timeout ${bare} has no unit, so it is ${formatDuration(options.gapTimeoutMs)}; write ${bare}s for seconds (or ${bare}ms to say so)\n`);
  }
  return options;
}
