/**
 * Whether Δt (B's first arrival − A's) looks like two machines' clocks disagreeing rather than
 * one feed leading the other. A lead comes from the path (distance, queues, load) and varies
 * with it from message to message; an offset between clocks shifts every message alike. So:
 * many shared messages, a median far from zero, and the middle 80 % of Δt packed tightly around
 * it. The rule is in docs/cli.md (compare: clocks).
 */
import { escapeUnsafe } from '../trace/keyLabel';
import { formatDuration } from '../util/duration';
import { DeltaSpread } from './compareMatcher';

/** Shared messages needed before Δt's shape says anything. */
export const OFFSET_MIN_SHARED = 100;
/** A median nearer zero than this (ms) is no offset worth naming. */
export const OFFSET_MIN_MEDIAN_MS = 10;
/** p90 − p10 at most this share of |median|. */
export const OFFSET_MAX_SPREAD = 0.2;

export interface ClockReading {
  medianMs: number;
  /** True when the shape suggests a clock offset between the machines rather than a feed lead. */
  offset: boolean;
}

export function readClocks(s: DeltaSpread | undefined): ClockReading | undefined {
  if (s === undefined) return undefined;
  const m = Math.abs(s.p50);
  const offset = s.count >= OFFSET_MIN_SHARED && m >= OFFSET_MIN_MEDIAN_MS && s.p90 - s.p10 <= m * OFFSET_MAX_SPREAD;
  return { medianMs: s.p50, offset };
}

/** What to say of the clocks: the median Δt, and whether it looks like a clock offset (docs/cli.md). */
export function clockNote(c: ClockReading | undefined, labels: [string, string]): string | undefined {
  if (c === undefined || c.medianMs === 0) return undefined;
  const [a, b] = labels.map((l) => escapeUnsafe(l));
  const m = formatDuration(Math.abs(c.medianMs));
  const [late, early] = c.medianMs > 0 ? [b, a] : [a, b];
  if (c.offset)
    return `clocks: median Δt ${formatDuration(c.medianMs)}, nearly the same for every message: this suggests the two machines' clocks differ by about ${m}, rather than ${late} lagging ${early} (docs/cli.md: compare)`;
  return `clocks: median Δt ${formatDuration(c.medianMs)}: ${late} lagged ${early} by a median ${m}`;
}
