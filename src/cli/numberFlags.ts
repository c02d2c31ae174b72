/** Whole-number flags: a count of at least 1, and `--threads`. */
import { UsageError } from './usageError';

/** `text` as a whole number ≥ 1 for `flag`; undefined when the flag was not given. */
export function positiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${flag} must be a whole number ≥ 1, not "${text}"`, flag);
  return Number(text);
}

/** `--threads`: a whole number of threads, 1 to 256. */
export function parseThreads(text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= 256)) throw new UsageError(`--threads must be a whole number from 1 to 256, not ${JSON.stringify(text)}`, '--threads');
  return n;
}
