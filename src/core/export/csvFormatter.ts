import { stringify } from 'csv-stringify/sync';
import { TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';

/**
 * One row per event under one header (RFC 4180 quoting by csv-stringify). Columns that only
 * some event types have are left empty for the others; attributes are a JSON object.
 *
 * Text cells are neutralised against formula injection (OWASP, "CSV Injection"): a cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula by a
 * spreadsheet, so it gets a leading `'`. Numbers are written as numbers. The JSONL export keeps
 * every value exact.
 */
export const CSV_COLUMNS = [
  'type',
  'key',
  'seq',
  'from',
  'to',
  'count',
  'messageId',
  'redelivery',
  'firstMessageId',
  'cascade',
  'conflict',
  'conflictReason',
  'publishTime',
  'receivedAt',
  'orderingKey',
  'deliveryAttempt',
  'arrivedAt',
  'releasedAt',
  'heldMs',
  'openedAt',
  'declaredAt',
  'waitedMs',
  'lostAt',
  'at',
  'reason',
  'latencyMs',
  'file',
  'line',
  'attributes',
  'data',
  'behindMessageId',
  'behindPublishTime',
  'byMs',
  'byPosition',
  // Resets (and a late number below its key's start).
  'released',
  'lost',
  'how',
  'beforeStart',
] as const;

type Row = (string | number | boolean | undefined)[];

/** csv-stringify writes true as "1" and false as "" (the same as absent): spell them out. */
const OPTIONS = { cast: { boolean: (v: boolean) => String(v) } };

export class CsvFormatter implements TraceFormatter {
  header(): string {
    return stringify([CSV_COLUMNS as unknown as string[]], OPTIONS);
  }

  format(events: readonly TraceEvent[]): string {
    if (events.length === 0) return '';
    const rows: Row[] = new Array(events.length);
    for (let i = 0; i < events.length; i++) rows[i] = toRow(events[i]);
    return stringify(rows, OPTIONS);
  }

  footer(): string {
    return '';
  }
}

function toRow(ev: TraceEvent): Row {
  const e = ev as unknown as Record<string, unknown>;
  return CSV_COLUMNS.map((c) => {
    const v = e[c];
    if (v === undefined || v === null) return undefined;
    if (c === 'attributes') return neutralise(JSON.stringify(v));
    return typeof v === 'string' ? neutralise(v) : (v as number | boolean);
  });
}

/** Characters a spreadsheet starts a formula with (or skips before one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet will show, not evaluate: `'` before a formula's first character. */
export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? "'" + cell : cell;
}
