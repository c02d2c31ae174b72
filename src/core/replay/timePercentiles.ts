/**
 * The hold and latency percentiles a summary carries, and how they are named and written: what
 * the CLI, the tree and the timeline's detail pane share. No histogram here (see messageTimes.ts),
 * so the webview can show them without bundling one.
 */
import type { Percentiles } from '../util/durationStats';
import { formatDuration } from '../util/duration';

export type { Percentiles } from '../util/durationStats';

/** Percentiles (ms) of what a run measured; a measure the records lack is absent. */
export interface TimePercentiles {
  /**
   * Arrival → release: how long the sequencer held a message for a missing number (0 when
   * released as it arrived). What a key's start window releases is not counted, as in maxHoldMs.
   */
  hold?: Percentiles;
  /** Sender's time → publishTime (the publisher's clock against Pub/Sub's). */
  sendToPublish?: Percentiles;
  /** publishTime → receivedAt: Pub/Sub's delivery. */
  publishToReceive?: Percentiles;
  /** Sender's time → receivedAt. */
  sendToReceive?: Percentiles;
}

/** The measures, in the order they are shown. */
export const TIME_MEASURES = ['hold', 'sendToPublish', 'publishToReceive', 'sendToReceive'] as const satisfies readonly (keyof TimePercentiles)[];
export type TimeMeasure = (typeof TIME_MEASURES)[number];

/** Short names for tables, tooltips and the detail pane. */
export const TIME_MEASURE_LABELS: Record<TimeMeasure, string> = {
  hold: 'hold (arrival → release)',
  sendToPublish: 'sent → published',
  publishToReceive: 'published → received',
  sendToReceive: 'sent → received',
};

/** `p50 / p90 / p99 / max`, each as a duration. */
export function formatPercentiles(p: Percentiles, duration: (ms: number) => string = formatDuration): string {
  return `${duration(p.p50)} / ${duration(p.p90)} / ${duration(p.p99)} / ${duration(p.max)}`;
}

/** The measures a summary has, in order. */
export function measuresOf(t: TimePercentiles): TimeMeasure[] {
  return TIME_MEASURES.filter((m) => t[m] !== undefined);
}

/**
 * One line a measure — `hold (arrival → release): 0ms / 0ms / 8.4s / 10s` — under a heading
 * that says the order; empty when nothing was measured.
 */
export function percentileLines(t: TimePercentiles): string[] {
  const ms = measuresOf(t);
  if (ms.length === 0) return [];
  return ['p50 / p90 / p99 / max:', ...ms.map((m) => `${TIME_MEASURE_LABELS[m]}: ${formatPercentiles(t[m]!)}`)];
}
