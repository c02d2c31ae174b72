/**
 * Timeline pages as they cross to the webview: the same content as a TimelinePage, its mark
 * lists written as differences.
 *
 * Why: a page's findings are listed one by one (up to 2 000 per lane), and as plain numbers each
 * costs ~45 characters of JSON — two 13-digit times, a 7-digit id, a 5-digit number. Zoomed out
 * on a million events the first page was 560 KB, and in a remote workbench the message took
 * ~220 ms to reach the webview: the largest single step of the first paint. Written as
 * differences from the previous mark (times, ids and numbers grow along a lane) and spans
 * (t1 − t0, mostly 0), a mark takes ~18 characters.
 *
 * Exact: a column is written as differences only when all its values are safe integers, whose
 * sums are exact in doubles; anything else (fractional times, NaN numbers) goes as it is.
 * Browser-safe: the webview unpacks. The standalone page serialises nothing and passes plain
 * pages, which are valid WirePages (every column may go as it is) and unpack at no cost.
 */
import type { LaneCounts, LanePage, MarkList, TimelinePage } from './timelineModel';

/** A column: the values as they are, or `{ d }`: the first value, then each one's difference from the one before. */
export type WireColumn = number[] | { d: number[] };

export interface WireMarks {
  id: WireColumn;
  kind: number[];
  t0: WireColumn;
  /** As they are, or `{ s }`: each mark's t1 − t0 (when both columns are integers). */
  t1: number[] | { s: number[] };
  seq: WireColumn;
  aux: number[];
}

export interface WireLane {
  key: number;
  countsAt?: LaneCounts;
  marks?: WireMarks;
  /** Up to its last non-zero bucket: the buckets after it are zeros (a live page's future, most of it). */
  density?: number[];
  findings: WireMarks;
  findingsOmitted: number;
}

export interface WirePage {
  t0: number;
  t1: number;
  buckets: number;
  lanes: WireLane[];
  invalid: WireMarks;
}

export function packPage(p: TimelinePage): WirePage {
  return { t0: p.t0, t1: p.t1, buckets: p.buckets, lanes: p.lanes.map(packLane), invalid: packMarks(p.invalid) };
}

export function unpackPage(w: WirePage): TimelinePage {
  return { t0: w.t0, t1: w.t1, buckets: w.buckets, lanes: w.lanes.map((l) => unpackLane(l, w.buckets)), invalid: unpackMarks(w.invalid) };
}

function packLane(l: LanePage): WireLane {
  const w: WireLane = { key: l.key, findings: packMarks(l.findings), findingsOmitted: l.findingsOmitted };
  if (l.marks) w.marks = packMarks(l.marks);
  if (l.density) w.density = withoutTrailingZeros(l.density);
  if (l.countsAt) w.countsAt = l.countsAt;
  return w;
}

function unpackLane(w: WireLane, buckets: number): LanePage {
  const l: LanePage = { key: w.key, findings: unpackMarks(w.findings), findingsOmitted: w.findingsOmitted };
  if (w.marks) l.marks = unpackMarks(w.marks);
  if (w.density) l.density = w.density.length < buckets ? w.density.concat(new Array<number>(buckets - w.density.length).fill(0)) : w.density;
  if (w.countsAt) l.countsAt = w.countsAt;
  return l;
}

export function packMarks(m: MarkList): WireMarks {
  const spans = allIntegers(m.t0) && allIntegers(m.t1) ? m.t1.map((t, i) => t - m.t0[i]) : undefined;
  return {
    id: packColumn(m.id),
    kind: m.kind,
    t0: packColumn(m.t0),
    t1: spans && allIntegers(spans) ? { s: spans } : m.t1,
    seq: packColumn(m.seq),
    aux: m.aux,
  };
}

export function unpackMarks(w: WireMarks): MarkList {
  const t0 = unpackColumn(w.t0);
  const t1 = Array.isArray(w.t1) ? w.t1 : w.t1.s.map((s, i) => t0[i] + s);
  return { id: unpackColumn(w.id), kind: w.kind, t0, t1, seq: unpackColumn(w.seq), aux: w.aux };
}

/** A live page is mostly time still to come: its buckets after the last arrival do not cross, and each update's change is its last few. */
function withoutTrailingZeros(d: number[]): number[] {
  let n = d.length;
  while (n > 0 && d[n - 1] === 0) n--;
  return n === d.length ? d : d.slice(0, n);
}

/** Safe integers, and not −0 (a sum would give it back as 0). */
function allIntegers(a: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isSafeInteger(a[i]) || Object.is(a[i], -0)) return false;
  return true;
}

function packColumn(a: number[]): WireColumn {
  if (a.length < 2 || !allIntegers(a)) return a;
  const d = new Array<number>(a.length);
  d[0] = a[0];
  for (let i = 1; i < a.length; i++) d[i] = a[i] - a[i - 1];
  // A difference of two safe integers can leave the safe range (only for values near ±2^53):
  // then the sums would not be exact.
  return allIntegers(d) ? { d } : a;
}

function unpackColumn(c: WireColumn): number[] {
  if (Array.isArray(c)) return c;
  const d = c.d;
  const a = new Array<number>(d.length);
  let v = 0;
  for (let i = 0; i < d.length; i++) a[i] = v += d[i];
  return a;
}
