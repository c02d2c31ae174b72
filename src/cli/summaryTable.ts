/** The human-readable replay summary the CLI prints without `--json`. */
import { formatDuration } from '../core/util/duration';
import { orderKeys } from '../core/trace/keyOrder';
import { noun } from '../core/util/plural';
import { KeySummary, ReplaySummary } from '../core/replay/replayEngine';
import { inputName } from './standardInput';
import { escapeUnsafe, terminalLabel } from '../core/trace/keyLabel';
import { TIME_MEASURE_LABELS, formatPercentiles, measuresOf } from '../core/replay/timePercentiles';

const MAX_ROWS = 40;

/** How a summary came about, for its title and last line. */
export interface SummaryNotes {
  cancelled?: boolean;
  stoppedForMemory?: boolean;
  /** --export's file, "-" for stdout. */
  exported?: string;
  /** When --only… or --grep… chose what was exported: the filter in words, and the events it let through. */
  exportNote?: { filter: string; events: number };
}

/** The summary as `replay` and `record` print it: title, counts per key, time percentiles, invalid records, the export. */
export function formatSummary(s: ReplaySummary, opts: SummaryNotes = {}): string {
  const { shown, hidden } = shownKeys(s);
  const lines = [...titleLines(s, opts), ...countTable(s, shown, hidden), ...percentileTable(s, shown), ...invalidLines(s), ...exportLines(opts)];
  return lines.join('\n') + '\n';
}

/** What was replayed, with which options, over what span of the capture's clock. */
function titleLines(s: ReplaySummary, opts: SummaryNotes): string[] {
  const lines: string[] = [];
  const partial = opts.stoppedForMemory ? '  (STOPPED, memory full: partial result)' : opts.cancelled ? '  (CANCELLED: partial result)' : '';
  lines.push(`SeqScope replay of ${s.files.map((f) => escapeUnsafe(inputName(f))).join(', ')}${partial}`);
  lines.push(`  ${escapeUnsafe(s.options)}`);
  if (s.firstTime !== null && s.lastTime !== null) {
    lines.push(`  clock ${iso(s.firstTime)} → ${iso(s.lastTime)} (${formatDuration(s.lastTime - s.firstTime)})`);
  }
  lines.push('');
  return lines;
}

/** The keys the tables show: all of them, or the MAX_ROWS with the most findings, in the order asked for (--sort-keys); --json has every key. */
function shownKeys(s: ReplaySummary): { shown: KeySummary[]; hidden: number } {
  if (s.byKey.length <= MAX_ROWS) return { shown: s.byKey, hidden: 0 };
  const top = new Set(orderKeys(s.byKey, 'findings', (k) => k.key).slice(0, MAX_ROWS));
  const shown = s.byKey.filter((_, i) => top.has(i));
  return { shown, hidden: s.byKey.length - shown.length };
}

/** A row a key and a total row of what the sequencer counted, with the columns the run calls for. */
function countTable(s: ReplaySummary, keys: readonly KeySummary[], hidden: number): string[] {
  const lines: string[] = [];
  const hasLatency = s.byKey.some((k) => k.latency);
  // Judged by publish order (or a summary that found some): the reordered column, after late.
  const judged = s.reordered > 0 || / seq publishTime /.test(` ${s.options} `);
  // Resets are rare: their column only when there are some.
  const hasResets = s.resets > 0;
  const header = [
    'key',
    'received',
    'delivered',
    'gaps',
    'lost',
    'duplicates',
    'redelivered',
    'cascades',
    'conflicts',
    'late',
    ...(judged ? ['reordered'] : []),
    ...(hasResets ? ['resets'] : []),
    'max hold',
  ];
  if (hasLatency) header.push('latency mean/max');
  const rows: string[][] = [header];
  const columns = { reordered: judged, resets: hasResets };
  for (const k of keys) rows.push(row(terminalLabel(k.key), k, columns, k.maxHoldMs, hasLatency ? latency(k) : undefined));
  rows.push(row(`total (${s.keys} ${noun(s.keys, 'key')})`, s, columns, s.maxHoldMs, undefined, hasLatency));
  lines.push(...table(rows));
  if (hidden) lines.push(`  … ${hidden} more keys, none with more findings than those shown (lost, then late, then duplicates; --json lists all)`);
  if (s.maxReorder) {
    const m = s.maxReorder;
    lines.push(
      `  reordered: ${s.reordered} ${noun(s.reordered, 'message')} arrived after a later-published message of the same key; farthest out of place ${formatDuration(m.byMs)}, ${m.byPosition} ${noun(m.byPosition, 'position')}`,
    );
  }
  lines.push('');
  return lines;
}

/** p50 / p90 / p99 / max of each time measure the records allowed, for the same keys; none when there is none. */
function percentileTable(s: ReplaySummary, keys: readonly KeySummary[]): string[] {
  const measures = measuresOf(s.percentiles);
  if (!measures.length) return [];
  // The same keys as above, a column a measure the records allowed.
  const ptable: string[][] = [['p50 / p90 / p99 / max', ...measures.map((m) => TIME_MEASURE_LABELS[m])]];
  for (const k of keys) ptable.push([terminalLabel(k.key), ...measures.map((m) => (k.percentiles[m] ? formatPercentiles(k.percentiles[m]) : '—'))]);
  ptable.push([`all ${s.keys} ${noun(s.keys, 'key')}`, ...measures.map((m) => formatPercentiles(s.percentiles[m]!))]);
  return [...table(ptable), ''];
}

/** How many records were invalid, and why, for a sample of them. */
function invalidLines(s: ReplaySummary): string[] {
  if (!s.invalid) return ['invalid records: 0'];
  const lines: string[] = [];
  lines.push(`invalid records: ${s.invalid} (skipped)`);
  // Numbers too wide for the width are one line however many there are (the fix is on stderr).
  const wide = s.tooWide;
  if (wide)
    lines.push(
      `  ${wide.count} with ${wide.source} too wide for ${wide.bits}-bit numbers (largest ${wide.largest}, first at ${wide.first.file ? escapeUnsafe(wide.first.file) + ':' : 'line '}${wide.first.line})`,
    );
  const listed = s.invalidSamples.slice(0, 10);
  for (const i of listed) lines.push(`  ${i.file ? escapeUnsafe(i.file) + ':' : 'line '}${i.line}: ${terminalLabel(i.reason, 200)}`);
  const more = s.invalid - (wide?.count ?? 0) - listed.length;
  if (more > 0) lines.push(`  … ${more} more`);
  return lines;
}

/** Where the ordered trace went, and what the filter let through. */
function exportLines(opts: SummaryNotes): string[] {
  const filtered = opts.exportNote ? ` (filter ${opts.exportNote.filter}: ${opts.exportNote.events} ${noun(opts.exportNote.events, 'event')})` : '';
  if (opts.exported && opts.exported !== '-') return [`ordered trace written to ${opts.exported}${filtered}`];
  if (opts.exported === '-' && filtered) return [`ordered trace written to stdout${filtered}`];
  return [];
}

function row(
  label: string,
  c: {
    received: number;
    delivered: number;
    gaps: number;
    lost: number;
    duplicates: number;
    redeliveries: number;
    cascades: number;
    conflicts: number;
    late: number;
    reordered: number;
    resets: number;
  },
  columns: { reordered: boolean; resets: boolean },
  maxHold: number,
  lat?: string,
  pad = false,
): string[] {
  const r = [label, c.received, c.delivered, c.gaps, c.lost, c.duplicates, c.redeliveries, c.cascades, c.conflicts, c.late].map(String);
  if (columns.reordered) r.push(String(c.reordered));
  if (columns.resets) r.push(String(c.resets));
  r.push(formatDuration(maxHold));
  if (lat !== undefined) r.push(lat);
  else if (pad) r.push('');
  return r;
}

function latency(k: KeySummary): string {
  return k.latency ? `${formatDuration(k.latency.meanMs)} / ${formatDuration(k.latency.maxMs)}` : '—';
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
  );
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
