/**
 * Two captures of one stream compared for an agent (`seqscope mcp`, the extension's language
 * model tools), as `seqscope compare` compares them: per key, what both sides had, what only one
 * had, what neither had, which side was first; each side's misses as number ranges. Compact
 * text: the totals, the keys with the most differences, and one key in full when asked.
 */
import { basename } from 'node:path';
import { clockNote, readClocks } from '../compare/clockOffset';
import { CompareCounts, KeyComparison, missedPercent, MissedRange } from '../compare/compareResult';
import { CompareRunResult, runCompare, sideProblem } from '../compare/compareRun';
import { CaptureError } from '../capture/captureReader';
import { repeatedInput, repeatedInputMessage } from '../capture/fileIdentity';
import { SequencingOptions } from '../sequencer/sequencingOptions';
import { formatDuration } from '../util/duration';
import { InputError } from '../util/inputError';
import { quoteText } from './inspectText';

/** Keys listed before "… N more". */
const KEYS_LISTED = 20;
/** Missed ranges listed per side of a key. */
const RANGES_LISTED = 10;

export interface Comparison {
  readonly labels: readonly [string, string];
  readonly paths: readonly [readonly string[], readonly string[]];
  readonly result: CompareRunResult;
}

/** A side's default label: its file's name, or the first's and a count. */
export function sideLabel(paths: readonly string[]): string {
  return paths.length === 1 ? basename(paths[0]) : `${basename(paths[0])} +${paths.length - 1}`;
}

/** Compares side A's captures with side B's; an InputError when a side holds nothing to compare. */
export async function compareForAgent(a: readonly string[], b: readonly string[], options: SequencingOptions, signal?: AbortSignal): Promise<Comparison> {
  // One file on both sides is allowed (everything in both, Δt 0); twice on one side is not.
  for (const [paths, side] of [
    [a, 'A'],
    [b, 'B'],
  ] as const) {
    const repeated = repeatedInput(paths);
    if (repeated) throw new InputError(`side ${side}: ${repeatedInputMessage(repeated, 'name each capture once')}`);
  }
  const labels = [sideLabel(a), sideLabel(b)] as const;
  let result: CompareRunResult;
  try {
    result = await runCompare({ a: { paths: a }, b: { paths: b }, options, signal });
  } catch (e) {
    // Which side the file is on.
    throw e instanceof CaptureError ? new CaptureError(`side ${a.includes(e.path) ? 'A' : 'B'}: ${e.message}`, e.path, e.line) : e;
  }
  if (result.cancelled) throw new InputError('the comparison was cancelled');
  const problem = sideProblem(result, labels, [a, b], (p) => p, 'preset, key, seq');
  if (problem) throw new InputError(problem);
  return { labels, paths: [a, b], result };
}

function delta(c: CompareCounts): string {
  const d = c.deltaMs;
  return d ? `; Δt B−A p50/p90/p99/max ${formatDuration(d.p50)} / ${formatDuration(d.p90)} / ${formatDuration(d.p99)} / ${formatDuration(d.max)}` : '';
}

function arbitration(c: CompareCounts): string {
  return `both ${c.both}, only A ${c.onlyA}, only B ${c.onlyB}, lost in both ${c.lostBoth}; first A ${c.firstA}, first B ${c.firstB}${delta(c)}`;
}

function side(c: CompareCounts, s: 'a' | 'b'): string {
  const f = c[s];
  return `received ${f.received}, duplicates ${f.duplicates}, missed ${f.missed} in ${f.incidents} incidents (${missedPercent(c, s).toFixed(2)} %)`;
}

function ranges(rs: readonly MissedRange[]): string {
  const shown = rs
    .slice(0, RANGES_LISTED)
    .map((r) => (r.from === undefined ? `${r.count} messages` : r.from === r.to ? `#${r.from}` : `#${r.from}–${r.to} (${r.count})`));
  return shown.join(', ') + (rs.length > RANGES_LISTED ? `, … ${rs.length - RANGES_LISTED} more` : '');
}

/** The comparison as text: totals and the keys with the most differences, or one key in full. */
export function comparisonText(c: Comparison, forKey?: string): string {
  const r = c.result;
  const cmp = r.comparison;
  const [la, lb] = c.labels;
  const lines = [`A ${quoteText(la)} (${r.sides[0].valid} records) ⇄ B ${quoteText(lb)} (${r.sides[1].valid} records): ${r.merged.options}`];
  if (forKey !== undefined) {
    const i = cmp.byKey.findIndex((k) => k.key === forKey);
    if (i < 0)
      throw new InputError(
        `key ${quoteText(forKey)} is in neither capture: they have ${cmp.byKey.length} keys, e.g. ${cmp.byKey
          .slice(0, 5)
          .map((k) => quoteText(k.key, 40))
          .join(', ')}`,
      );
    const k = cmp.byKey[i];
    const rg = cmp.ranges[i];
    lines.push(
      `key ${quoteText(k.key)}: ${arbitration(k)}`,
      `  A: ${side(k, 'a')}`,
      `  B: ${side(k, 'b')}`,
      `  merged: delivered ${k.merged.delivered}, gaps ${k.merged.gaps}, lost ${k.merged.lost}, late ${k.merged.late}`,
    );
    if (rg.aMissed.length) lines.push(`  A missed: ${ranges(rg.aMissed)}`);
    if (rg.bMissed.length) lines.push(`  B missed: ${ranges(rg.bMissed)}`);
    if (rg.lostBoth.length) lines.push(`  lost in both: ${ranges(rg.lostBoth)}`);
    return lines.join('\n');
  }
  const t = cmp.totals;
  lines.push(
    `total, ${cmp.byKey.length} keys (${cmp.sharedKeys} in both): ${arbitration(t)}`,
    `  A: ${side(t, 'a')}`,
    `  B: ${side(t, 'b')}`,
    `  merged: delivered ${t.merged.delivered}, gaps ${t.merged.gaps}, lost ${t.merged.lost}, late ${t.merged.late}; ${t.b.missed} of B's misses filled by A, ${t.a.missed} of A's by B`,
  );
  const weight = (k: KeyComparison) => k.onlyA + k.onlyB + k.lostBoth;
  const order = cmp.byKey.map((_, i) => i).sort((x, y) => weight(cmp.byKey[y]) - weight(cmp.byKey[x]) || x - y);
  const listed = order.slice(0, KEYS_LISTED);
  lines.push(
    listed.length < order.length
      ? `keys with the most differences (${listed.length} of ${order.length}; forKey gives one in full):`
      : 'keys (forKey gives one in full):',
  );
  for (const i of listed) {
    const k = cmp.byKey[i];
    lines.push(
      `  ${quoteText(k.key)}: both ${k.both}, only A ${k.onlyA}, only B ${k.onlyB}, lost in both ${k.lostBoth}; A missed ${k.a.missed} (${k.a.incidents} incidents), B missed ${k.b.missed} (${k.b.incidents} incidents)`,
    );
  }
  if (cmp.sharedKeys === 0) lines.push(`note: A and B have no key in common — are they of one stream, sequenced with the same key?`);
  const clock = clockNote(readClocks(r.spread), [la, lb]);
  if (clock) lines.push(`note: ${clock}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}
