/**
 * Numbers and RFC 3339 UTC times read from a record's bytes without making their text: the
 * scanner's (recordScan.ts) fast path, computed exactly as captureRecord's text parsers compute
 * them (NaN for anything they would not read the common way).
 */

/** The value of 1 to 15 ASCII digits (exact), or NaN. */
export function digitsValue(b: Uint8Array, s: number, e: number): number {
  if (e === s || e - s > 15) return NaN;
  let v = 0;
  for (let k = s; k < e; k++) {
    const c = b[k] - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/** Midnight (ms) of the last date seen. */
let cachedDay = -1;
let cachedDayMs = 0;

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]Z` from its bytes, computed exactly as captureRecord's
 * parseUtcFast computes it from its text (same operations in the same order, so the same
 * double); NaN for anything else.
 */
export function utcFast(b: Uint8Array, s: number, e: number): number {
  const n = e - s;
  if (n < 20 || b[e - 1] !== 90 || b[s + 4] !== 45 || b[s + 7] !== 45 || b[s + 10] !== 84 || b[s + 13] !== 58 || b[s + 16] !== 58) return NaN;
  const y = digitsValue(b, s, s + 4),
    mo = digitsValue(b, s + 5, s + 7),
    d = digitsValue(b, s + 8, s + 10);
  const h = digitsValue(b, s + 11, s + 13),
    mi = digitsValue(b, s + 14, s + 16),
    sec = digitsValue(b, s + 17, s + 19);
  if (!(y >= 100) || !(mo >= 1) || mo > 12 || !(d >= 1) || d > daysIn(y, mo) || !(h <= 23) || !(mi <= 59) || !(sec <= 59)) return NaN;
  let frac = 0;
  if (n > 20) {
    if (b[s + 19] !== 46 || n === 21) return NaN;
    let scale = 100;
    for (let k = s + 20; k < e - 1; k++) {
      const c = b[k] - 48;
      if (c < 0 || c > 9) return NaN;
      frac += c * scale;
      scale /= 10;
    }
  }
  const day = (y * 100 + mo) * 100 + d;
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayMs = Date.UTC(y, mo - 1, d);
  }
  return cachedDayMs + h * 3_600_000 + mi * 60_000 + sec * 1000 + frac;
}

function daysIn(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}
