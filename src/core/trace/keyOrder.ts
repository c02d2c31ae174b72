/**
 * The order keys are listed in — the CLI's summary, the Sessions tree, the timeline's lanes.
 * Captures list keys as they first appeared; with 100 000 ordering keys a user wants them by
 * name, or the keys that lost messages first. One module so that all three agree.
 */

import { KeyFindingCounts, keyListing, TraceFilterSpec } from './traceFilter';

export type KeyOrder = 'arrival' | 'name' | 'findings';

export const KEY_ORDERS: readonly KeyOrder[] = ['arrival', 'name', 'findings'];

/** How each order is called in menus and headers. */
export const KEY_ORDER_LABELS: Readonly<Record<KeyOrder, string>> = {
  arrival: 'first seen',
  name: 'name',
  findings: 'most findings',
};

/** What each order does, in a sentence (the picker's detail, `--help`). */
export const KEY_ORDER_DETAILS: Readonly<Record<KeyOrder, string>> = {
  arrival: 'as they first appeared in the capture',
  name: 'by name, numbers in names by value: key-2 before key-10',
  findings: 'most lost messages first, then most late, then most reordered, then most duplicates; keys without findings last',
};

export function isKeyOrder(v: unknown): v is KeyOrder {
  return typeof v === 'string' && (KEY_ORDERS as readonly string[]).includes(v);
}

/** What ordering needs of a key besides its name: its totals over the whole capture. */
export interface KeyFindingTotals {
  readonly lost: number;
  readonly late: number;
  /** Absent where nothing is judged by publish order. */
  readonly reordered?: number;
  readonly duplicates: number;
}

/**
 * The indices of `keys` in the order to list them. Ties (same name, same findings) keep the
 * order of first appearance, so the result is the same on every run and on both sides of the
 * webview. Ordered by totals, not by counts at a replay position: lists that reshuffled at each
 * step would lose the reader's place.
 */
export function orderKeys<K extends KeyFindingTotals>(keys: readonly K[], order: KeyOrder, nameOf: (k: K) => string): number[] {
  const idx = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) idx[i] = i;
  if (order === 'name') {
    // Sorted on keys made once per name, compared as plain strings (natively): calling
    // compareNames in the sort took ~0.4 s for 100 000 names, this ~0.1 s. The same order (tested).
    const names = keys.map(nameOf);
    const sortKeys = names.map(naturalSortKey);
    idx.sort((a, b) => compareText(sortKeys[a], sortKeys[b]) || compareText(names[a], names[b]) || a - b);
  } else if (order === 'findings') {
    idx.sort((a, b) => {
      const ka = keys[a];
      const kb = keys[b];
      return kb.lost - ka.lost || kb.late - ka.late || (kb.reordered ?? 0) - (ka.reordered ?? 0) || kb.duplicates - ka.duplicates || a - b;
    });
  }
  return idx;
}

/**
 * The keys the tree and the timeline list, in their order: those the filter lists (see
 * keyListing), ordered by `order`. One function, so that a lane and its tree row are in the same
 * place, and the first view the host computes ahead is of the lanes the webview shows first.
 */
export function listKeys<K extends KeyFindingTotals & KeyFindingCounts>(
  keys: readonly K[],
  filter: TraceFilterSpec,
  order: KeyOrder,
  nameOf: (k: K) => string,
): number[] {
  const ordered = orderKeys(keys, order, nameOf);
  const listed = keyListing(filter);
  return listed ? ordered.filter((i) => listed(nameOf(keys[i]), keys[i])) : ordered;
}

/**
 * Natural order: runs of digits compare by value, of any length (ordering keys like
 * `order-18446744073709551616` are beyond a double), everything else by UTF-16 code unit. Equal
 * values written differently (`key-7`, `key-07`) then compare as text, so only equal names tie.
 *
 * Hand-written rather than Intl.Collator (~0.9 s to sort 100 000 names here; orderKeys, through
 * naturalSortKey, ~0.1 s) or the natural-compare package (reads digit runs into a double, so long
 * ones tie). The definition of the order; orderKeys sorts by naturalSortKey, which agrees with it.
 */
export function compareNames(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      // Skip leading zeros, then a longer run is the larger number; equal lengths compare digit by digit.
      let sa = i;
      let sb = j;
      while (sa < a.length && a.charCodeAt(sa) === 48) sa++;
      while (sb < b.length && b.charCodeAt(sb) === 48) sb++;
      let ea = sa;
      let eb = sb;
      while (ea < a.length && isDigit(a.charCodeAt(ea))) ea++;
      while (eb < b.length && isDigit(b.charCodeAt(eb))) eb++;
      if (ea - sa !== eb - sb) return ea - sa - (eb - sb);
      for (let k = 0; k < ea - sa; k++) {
        const d = a.charCodeAt(sa + k) - b.charCodeAt(sb + k);
        if (d !== 0) return d;
      }
      i = ea;
      j = eb;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  if (a.length - i !== b.length - j) return a.length - i - (b.length - j);
  // Same value throughout: the text decides (`key-07` before `key-7`), so that only equal names tie.
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A string whose plain (code unit) order is compareNames' order up to its final tie-break: each
 * run of digits becomes "0", its length without leading zeros as one code unit, then those digits
 * — so a longer number sorts higher, equal lengths digit by digit, and a number sorts against
 * other characters as its digits do ("0"–"9" all lie on one side of any other character). Names
 * without digits are their own key. (Runs beyond 65 535 digits would compare by their first
 * 65 535 length only; no key is that long.)
 */
export function naturalSortKey(name: string): string {
  let k = 0;
  while (k < name.length && !isDigit(name.charCodeAt(k))) k++;
  if (k === name.length) return name;
  let out = name.slice(0, k);
  while (k < name.length) {
    if (!isDigit(name.charCodeAt(k))) {
      const from = k;
      while (k < name.length && !isDigit(name.charCodeAt(k))) k++;
      out += name.slice(from, k);
      continue;
    }
    while (k < name.length && name.charCodeAt(k) === 48) k++;
    const from = k;
    while (k < name.length && isDigit(name.charCodeAt(k))) k++;
    out += '0' + String.fromCharCode(Math.min(k - from, 0xffff)) + name.slice(from, k);
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
