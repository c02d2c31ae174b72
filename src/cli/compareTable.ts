/** The human-readable comparison the CLI prints without `--json`, and the notes both forms share. */
import { CompareCounts, KeyComparison, missedPercent } from '../core/compare/compareResult';
import { formatDuration } from '../core/util/duration';
import { noun } from '../core/util/plural';
import { escapeUnsafe, terminalLabel } from '../core/trace/keyLabel';

const MAX_ROWS = 40;

export interface CompareView {
  labels: [string, string];
  options: string;
  byKey: readonly KeyComparison[];
  totals: CompareCounts;
  notes: readonly string[];
  cancelled: boolean;
  exported?: { target: string; rows: number };
}

export function formatComparison(v: CompareView): string {
  const [la, lb] = v.labels.map((l) => escapeUnsafe(l));
  const lines: string[] = [
    `SeqScope compare${v.cancelled ? '  (CANCELLED: partial result)' : ''}`,
    `  A  ${la}`,
    `  B  ${lb}`,
    `  ${escapeUnsafe(v.options)}`,
    '',
  ];
  let keys = v.byKey;
  let hidden = 0;
  if (keys.length > MAX_ROWS) {
    // The keys with the most differences; --json has every key.
    const weight = (k: KeyComparison) => k.onlyA + k.onlyB + k.lostBoth;
    const shown = new Set([...keys].sort((x, y) => weight(y) - weight(x)).slice(0, MAX_ROWS));
    keys = keys.filter((k) => shown.has(k));
    hidden = v.byKey.length - keys.length;
  }
  const total = `total (${v.byKey.length} ${noun(v.byKey.length, 'key')})`;
  const arb: string[][] = [['key', 'both', 'only A', 'only B', 'lost both', 'first A', 'first B', 'Δt B−A p50 / p90 / p99 / max']];
  for (const k of keys) arb.push(arbitrationRow(terminalLabel(k.key), k));
  arb.push(arbitrationRow(total, v.totals));
  lines.push(...table(arb));
  if (hidden) lines.push(`  … ${hidden} more keys, none with more differences than those shown (--json lists all)`);
  lines.push('');
  const feeds: string[][] = [
    [
      'key',
      'A received',
      'dup',
      'missed',
      'incidents',
      '% missed',
      'B received',
      'dup',
      'missed',
      'incidents',
      '% missed',
      'merged delivered',
      'gaps',
      'lost',
      'late',
    ],
  ];
  for (const k of keys) feeds.push(feedRow(terminalLabel(k.key), k));
  feeds.push(feedRow(total, v.totals));
  lines.push(...table(feeds), '');
  const t = v.totals;
  lines.push(`merged: ${t.b.missed} of B's missed ${noun(t.b.missed, 'message')} filled by A, ${t.a.missed} of A's by B; ${t.lostBoth} lost in both`);
  for (const n of v.notes) lines.push(n);
  if (v.exported && v.exported.target !== '-') lines.push(`${v.exported.rows} ${noun(v.exported.rows, 'row')} written to ${escapeUnsafe(v.exported.target)}`);
  return lines.join('\n') + '\n';
}

function arbitrationRow(label: string, c: CompareCounts): string[] {
  const d = c.deltaMs;
  return [
    label,
    ...[c.both, c.onlyA, c.onlyB, c.lostBoth, c.firstA, c.firstB].map(String),
    d ? `${formatDuration(d.p50)} / ${formatDuration(d.p90)} / ${formatDuration(d.p99)} / ${formatDuration(d.max)}` : '—',
  ];
}

function feedRow(label: string, c: CompareCounts): string[] {
  const side = (s: 'a' | 'b') => [c[s].received, c[s].duplicates, c[s].missed, c[s].incidents].map(String).concat(`${missedPercent(c, s).toFixed(2)} %`);
  return [label, ...side('a'), ...side('b'), ...[c.merged.delivered, c.merged.gaps, c.merged.lost, c.merged.late].map(String)];
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((v, c) => (c === 0 ? v.padEnd(widths[c] + v.length - [...v].length) : v.padStart(widths[c] + v.length - [...v].length)))
        .join('  ')
        .trimEnd(),
  );
}
