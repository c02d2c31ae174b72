/** Parses the durations the CLI and settings accept: `500ms`, `10s`, `2m`, `1h`, or bare milliseconds. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) {
    throw new RangeError(`"${text}" is not a duration: write it like 500ms, 10s or 2m`);
  }
  return Number(m[1]) * UNITS[m[2] ?? 'ms'];
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms * 10) / 10}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  return `${Math.round(ms / 6000) / 10}m`;
}
