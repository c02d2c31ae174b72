/**
 * A comparison session in words, for the Sessions tree and the message said when it opens:
 * which side is which, what each missed, and what the clocks suggest (clockOffset.ts).
 * Browser-safe.
 */
import { clockNote, readClocks } from '../core/compare/clockOffset';
import { noun } from '../core/util/plural';
import type { ComparisonFacts } from './compareLanes';

/** "A: feed-a.jsonl (3 000 records) ⇄ B: feed-b.jsonl (2 950 records)". */
export function sidesLine(f: ComparisonFacts): string {
  const side = (i: 0 | 1) => `${i === 0 ? 'A' : 'B'}: ${f.labels[i]} (${f.sides[i].valid.toLocaleString('en-US')} ${noun(f.sides[i].valid, 'record')})`;
  return `${side(0)} ⇄ ${side(1)}`;
}

/** The totals in one line: what both had, what each missed, what both lost. */
export function totalsLine(f: ComparisonFacts): string {
  const t = f.comparison.totals;
  const [la, lb] = f.labels;
  return `both ${t.both}, only A ${t.onlyA}, only B ${t.onlyB}, lost in both ${t.lostBoth}; A (${la}) missed ${t.a.missed} in ${t.a.incidents} ${noun(t.a.incidents, 'run')}, B (${lb}) missed ${t.b.missed} in ${t.b.incidents} ${noun(t.b.incidents, 'run')}`;
}

/** What to say beside the totals: no key in common, and the median Δt with what it suggests. */
export function comparisonNotes(f: ComparisonFacts): string[] {
  const notes: string[] = [];
  const keys = f.comparison.byKey.length;
  if (f.comparison.sharedKeys === 0)
    notes.push(`no shared key: A and B have no key in common (${keys} ${noun(keys, 'key')} in all) — are they of one stream, sequenced with the same key?`);
  const clock = clockNote(readClocks(f.spread), [f.labels[0], f.labels[1]]);
  if (clock) notes.push(clock.replace(' (docs/cli.md: compare)', ''));
  return notes;
}
