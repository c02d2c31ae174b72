/**
 * What changed between two JSON values, as a patch that turns the first into the second: a live
 * session's update carries only this (see liveUpdates.ts). Shaped for data that grows at its end:
 * a list of numbers or strings whose start is unchanged travels as that start's length and the
 * new tail; lists of objects and objects travel as their changed entries; anything else whole.
 *
 * Exact: `applyPatch(a, diffPatch(a, b))` equals `b` as JSON (a property test holds it). Values
 * are JSON as a message carries it: an `undefined` property is no property. Browser-safe.
 */

export type TailPatch =
  /** The value, whole. */
  | { v: unknown }
  /** An object: its changed properties (`o`), and those it no longer has (`x`). */
  | { o: Record<string, TailPatch>; x?: string[] }
  /** A list of numbers or strings: its first `a` values kept, then `t`. */
  | { a: number; t: unknown[] }
  /** A list holding objects or lists: its length `n`, and its changed entries by index. */
  | { e: [number, TailPatch][]; n: number };

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isScalar(v: unknown): boolean {
  return typeof v !== 'object' || v === null;
}

function allScalars(a: readonly unknown[], from = 0): boolean {
  for (let i = from; i < a.length; i++) if (!isScalar(a[i])) return false;
  return true;
}

function sameScalar(a: unknown, b: unknown): boolean {
  // NaN crosses as null: two NaNs are the same value.
  return a === b || (a !== a && b !== b);
}

/** The patch that turns `a` into `b`; undefined when they are the same. */
export function diffPatch(a: unknown, b: unknown): TailPatch | undefined {
  if (Array.isArray(a) && Array.isArray(b)) return diffList(a, b);
  if (isObject(a) && isObject(b)) return diffObject(a, b);
  if (isScalar(a) && isScalar(b) && sameScalar(a, b)) return undefined;
  return { v: b };
}

function diffList(a: readonly unknown[], b: readonly unknown[]): TailPatch | undefined {
  // The common start and whether it is all scalars in one pass (a live page's lists run to
  // hundreds of thousands of numbers), then the rest of each.
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && isScalar(a[i]) && sameScalar(a[i], b[i])) i++;
  if (allScalars(a, i) && allScalars(b, i)) {
    if (i === a.length && i === b.length) return undefined;
    return { a: i, t: b.slice(i) };
  }
  const e: [number, TailPatch][] = [];
  for (let i = 0; i < b.length; i++) {
    const p = i < a.length ? diffPatch(a[i], b[i]) : { v: b[i] };
    if (p) e.push([i, p]);
  }
  return e.length || a.length !== b.length ? { e, n: b.length } : undefined;
}

function diffObject(a: Obj, b: Obj): TailPatch | undefined {
  const o: Record<string, TailPatch> = {};
  const x: string[] = [];
  let changed = false;
  for (const k of Object.keys(b)) {
    if (b[k] === undefined) continue;
    const p = a[k] === undefined ? { v: b[k] } : diffPatch(a[k], b[k]);
    if (p) {
      o[k] = p;
      changed = true;
    }
  }
  for (const k of Object.keys(a)) if (a[k] !== undefined && b[k] === undefined) x.push(k);
  if (!changed && !x.length) return undefined;
  return x.length ? { o, x } : { o };
}

/** `a` with `p` applied (a new value; `a` is left as it is). */
export function applyPatch(a: unknown, p: TailPatch): unknown {
  if ('v' in p) return p.v;
  if ('o' in p) {
    if (!isObject(a)) throw new Error('tail patch: an object patch on a value that is not one');
    const out: Obj = { ...a };
    for (const k of p.x ?? []) delete out[k];
    for (const k of Object.keys(p.o)) out[k] = applyPatch(a[k], p.o[k]);
    return out;
  }
  if (!Array.isArray(a)) throw new Error('tail patch: a list patch on a value that is not one');
  if ('a' in p) {
    if (p.a > a.length) throw new Error(`tail patch: keeps ${p.a} values of a list of ${a.length}`);
    return a.slice(0, p.a).concat(p.t);
  }
  const out = a.slice(0, p.n);
  for (const [i, q] of p.e) out[i] = applyPatch(a[i], q);
  if (out.length !== p.n) throw new Error(`tail patch: a list of ${out.length} where ${p.n} were patched`);
  return out;
}
