/** Parses the durations the CLI and settings accept: `500ms`, `10s`, `2m`, `1h`, or bare milliseconds. */
import { InputError } from './inputError';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) {
    throw new InputError(`"${text}" is not a duration: write it like 500ms, 10s or 2m`);
  }
  // Rounded to the µs: 1.1 * 1000 is 1100.0000000000002 in floating point.
  const ms = Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms'] * 1000) / 1000;
  if (!Number.isFinite(ms)) throw new InputError(`"${text}" is not a duration: it is too large`);
  return ms;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  // The unit is chosen after rounding, so 999.96ms shows as 1s rather than 1000ms.
  const abs = Math.abs(ms);
  if (abs < 999.95) return `${Math.round(ms * 10) / 10}ms`;
  if (abs < 59_950) return `${Math.round(ms / 100) / 10}s`;
  return `${Math.round(ms / 6000) / 10}m`;
}

/**
 * A duration exactly, as the flags and settings take it: the largest unit that loses nothing
 * (`10s`, `2m`, `1500ms`, `1h`). For option descriptions, where `formatDuration`'s rounding could
 * misstate what was set.
 */
export function formatDurationExact(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms !== 0 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms !== 0 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms !== 0 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * A point in time as users type it for "replay from": `5m`, `30s`, `1h` ago (from `now`), or an
 * absolute date-time (RFC 3339); undefined when it is neither.
 */
export function parseWhen(text: string, now: number): Date | undefined {
  const rel = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h)\s*$/.exec(text);
  if (rel) return new Date(now - Number(rel[1]) * UNITS[rel[2]]);
  if (!/^\s*\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : new Date(t);
}
