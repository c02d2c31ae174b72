/**
 * Trace exporters turn trace events into text (or bytes, for Parquet), a batch at a time, so a
 * run of any length is written with bounded memory: `header`, then `format(batch)` per batch,
 * then `footer()`.
 */
import { TraceEvent } from '../trace/traceEvents';

export type TraceFormat = 'jsonl' | 'csv' | 'chrome-trace' | 'parquet';
export const TRACE_FORMATS: readonly TraceFormat[] = ['jsonl', 'csv', 'chrome-trace', 'parquet'];

/** What a formatter hands the writer: text, or the bytes of a binary format. */
export type TraceChunk = string | Uint8Array;

export interface TraceFormatter<C extends TraceChunk = string> {
  header(): C;
  format(events: readonly TraceEvent[]): C;
  footer(): C;
  /** Told the clock of the first record before any event, for formats with a time origin. */
  startAt?(ms: number): void;
}

/** The format a file name implies: .csv → csv, .json / .trace → chrome-trace, .parquet → parquet, else jsonl. */
export function formatForPath(path: string): TraceFormat {
  // trace.jsonl.gz is JSON Lines, compressed (see TraceWriter.open).
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.parquet')) return 'parquet';
  if (lower.endsWith('.json') || lower.endsWith('.trace') || lower.endsWith('.perfetto-trace.json')) return 'chrome-trace';
  return 'jsonl';
}

export function isTraceFormat(text: string): text is TraceFormat {
  return (TRACE_FORMATS as readonly string[]).includes(text);
}
