/**
 * A filter over trace events — by key, kind, number range and attribute value — as users set it
 * in the extension. Exports apply it while re-running a replay, so they need no session in
 * memory; the timeline applies the same fields through its compiled EventFilter.
 */
import type { CaptureEntry } from '../capture/captureRecord';
import type { SeqBits } from '../sequencer/serial';
import type { TraceEvent, TraceEventType } from './traceEvents';

export interface TraceFilterSpec {
  /** Key names to keep (all when absent or empty). */
  keys?: string[];
  kinds?: TraceEventType[];
  /**
   * Inclusive number range; a gap matches when it overlaps it. With both ends and `seqFrom`
   * above `seqTo`, the range runs through the wrap: seqFrom…(largest number), 0…seqTo.
   */
  seqFrom?: number;
  seqTo?: number;
  /** Attribute equality on the record. */
  attribute?: { name: string; value: string };
}

/** The findings a key can have, by kind (the tree's groups under a key). */
/** Groups a key lists in the tree. */
export type FindingGroup = 'gap' | 'duplicate' | 'late' | 'reordered' | 'reset';

export const KEY_FINDING_KINDS: readonly FindingGroup[] = ['gap', 'duplicate', 'late', 'reordered', 'reset'];

/** A key's totals of each finding (a lane's counts have them). */
export interface KeyFindingCounts {
  readonly gaps: number;
  readonly duplicates: number;
  readonly late: number;
  readonly reordered: number;
  readonly resets: number;
}

/**
 * The per-key findings a filter asks for when it shows findings only (kinds named, messages not
 * among them); undefined when it shows messages, or names no kinds.
 */
export function findingKindsOnly(f: TraceFilterSpec): readonly FindingGroup[] | undefined {
  const kinds = f.kinds;
  if (!kinds?.length || kinds.includes('message')) return undefined;
  return KEY_FINDING_KINDS.filter((g) => kinds.includes(g));
}

/**
 * Which keys the tree and the timeline list under a filter, or undefined for all of them: the keys
 * it names, and when it shows findings only (gaps, say) the keys with such a finding in the
 * capture — among 100 000 keys, the few with gaps, not pages of keys with none.
 */
export function keyListing(f: TraceFilterSpec): ((name: string, counts: KeyFindingCounts) => boolean) | undefined {
  const names = f.keys?.length ? new Set(f.keys) : undefined;
  const findings = findingKindsOnly(f);
  if (!names && !findings) return undefined;
  return (name, c) => (!names || names.has(name)) && (!findings || findings.some((g) => findingCount(c, g) > 0));
}

/** A key's total of one finding. */
export function findingCount(c: KeyFindingCounts, g: FindingGroup): number {
  switch (g) {
    case 'gap':
      return c.gaps;
    case 'duplicate':
      return c.duplicates;
    case 'late':
      return c.late;
    case 'reordered':
      return c.reordered;
    case 'reset':
      return c.resets;
  }
}

export function isFilterActive(f: TraceFilterSpec | undefined): boolean {
  return !!f && (!!f.keys?.length || !!f.kinds?.length || f.seqFrom !== undefined || f.seqTo !== undefined || !!f.attribute?.name);
}

export function describeFilter(f: TraceFilterSpec): string {
  const parts: string[] = [];
  if (f.keys?.length) parts.push(`key ${f.keys.join(', ')}`);
  if (f.kinds?.length) parts.push(f.kinds.join(', '));
  if (f.seqFrom !== undefined || f.seqTo !== undefined) parts.push(`#${f.seqFrom ?? '…'}–${f.seqTo ?? '…'}`);
  if (f.attribute?.name) parts.push(`${f.attribute.name}=${f.attribute.value}`);
  return parts.join(' · ') || 'none';
}

/**
 * Whether an event's numbers `from`…`to` (one number: from = to; a gap's range, which runs
 * through the wrap when to < from) meet a filter's range `lo`…`hi` (either end may be open:
 * undefined; through the wrap when hi < lo). Shared by exports and the timeline, so both keep
 * the same events.
 */
export function overlapsNumberRange(from: number, to: number, lo: number | undefined, hi: number | undefined): boolean {
  const start = lo ?? -Infinity;
  const end = hi ?? Infinity;
  // An event range through the wrap is two plain ones: its start to the top, the bottom to its end.
  return to < from ? meetsFilter(from, Infinity, start, end) || meetsFilter(-Infinity, to, start, end) : meetsFilter(from, to, start, end);
}

/**
 * Whether the plain range a…b meets the filter range start…end — which, when end < start, runs
 * through the wrap: start…top and bottom…end. No closures: the timeline runs this per event.
 */
function meetsFilter(a: number, b: number, start: number, end: number): boolean {
  return end < start ? start <= b || a <= end : a <= end && start <= b;
}

/**
 * Why `from`…`to` (either end may be open) is not a range of `bits`-bit numbers, or undefined
 * when it is: a number above the width's top, or — where numbers do not wrap — a start above
 * the end. The CLI's `--numbers` and the extension's Sequence range ask the same.
 */
export function numberRangeProblem(from: number | undefined, to: number | undefined, bits: SeqBits): string | undefined {
  if (bits === 64) return from !== undefined && to !== undefined && from > to ? '64-bit numbers do not wrap: write the lower number first' : undefined;
  const top = 2 ** bits - 1;
  return (from ?? 0) > top || (to ?? 0) > top ? `${bits}-bit numbers end at ${top}` : undefined;
}

/** A predicate for trace events (with the entry they are about, when they have one). */
export function traceEventMatcher(f: TraceFilterSpec | undefined): (ev: TraceEvent, entry?: CaptureEntry) => boolean {
  if (!isFilterActive(f)) return () => true;
  const spec = f as TraceFilterSpec;
  const keys = spec.keys?.length ? new Set(spec.keys) : undefined;
  const kinds = spec.kinds?.length ? new Set(spec.kinds) : undefined;
  const ranged = spec.seqFrom !== undefined || spec.seqTo !== undefined;
  const attr = spec.attribute?.name ? spec.attribute : undefined;
  return (ev, entry) => {
    if (kinds && !kinds.has(ev.type)) return false;
    if (keys && ev.type !== 'invalid' && !keys.has(ev.key)) return false;
    if (ranged) {
      if (ev.type === 'invalid') return false;
      if (ev.type === 'gap') {
        if (!overlapsNumberRange(ev.from, ev.to, spec.seqFrom, spec.seqTo)) return false;
      } else if (ev.type === 'reset') {
        // A reset is about the number before it and the one after: either in the range.
        if (!overlapsNumberRange(ev.from, ev.from, spec.seqFrom, spec.seqTo) && !overlapsNumberRange(ev.to, ev.to, spec.seqFrom, spec.seqTo)) return false;
      } else if (ev.type === 'reordered' || ev.seq === undefined || !overlapsNumberRange(ev.seq, ev.seq, spec.seqFrom, spec.seqTo)) return false;
    }
    if (attr && ev.type !== 'gap') {
      if (entry?.record?.message.attributes?.[attr.name] !== attr.value) return false;
    }
    return true;
  };
}
