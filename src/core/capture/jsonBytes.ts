/**
 * JSON read from its UTF-8 bytes, for the record scanner (recordScan.ts): whitespace, strings,
 * numbers, literals and whole values skipped, each checked against the JSON grammar as strictly
 * as `JSON.parse` checks it, without building a string or an object. Every function gets the
 * position of a token's first byte and the end of the text, and returns the position after the
 * token, or -1 when the bytes are not that token (or not one this reader is sure of: the caller
 * then parses the record whole, so a -1 is never wrong, only slower).
 *
 * Pure: Uint8Array only.
 */

/** What a byte is inside a JSON string. */
export const enum ByteClass {
  /** Printable ASCII other than `"` and `\`: itself, one UTF-16 unit. */
  Plain = 0,
  Quote = 1,
  Backslash = 2,
  /** Below 0x20: not allowed unescaped inside a string. */
  Control = 3,
  /** 0x80 and above: part of a multi-byte UTF-8 sequence (or not UTF-8 at all). */
  High = 4,
}

export const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++)
  BYTE_CLASS[c] = c < 0x20 ? ByteClass.Control : c === 0x22 ? ByteClass.Quote : c === 0x5c ? ByteClass.Backslash : c >= 0x80 ? ByteClass.High : ByteClass.Plain;

/** Characters a backslash may escape (besides `u`, which takes four hex digits). */
const ESCAPABLE = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPABLE[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/** What the last `skipString` found inside the string. */
export const enum StringFlags {
  /** Plain ASCII: its bytes are its UTF-16 units. */
  Ascii = 0,
  /** Some byte ≥ 0x80: decode it as UTF-8. */
  High = 1,
  /** An escape: only JSON.parse decodes it. */
  Escape = 2,
}

/** The flags of the string `skipString` read last (an out-parameter: no allocation per string). */
export const lastString = { flags: StringFlags.Ascii as StringFlags };

/** The position after JSON whitespace (space, tab, LF, CR) from `i`. */
export function skipSpace(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** `b[i]` is the opening quote: the position after the closing one, or -1. Sets `lastString.flags`. */
export function skipString(b: Uint8Array, i: number, end: number): number {
  let flags = StringFlags.Ascii;
  i++;
  for (;;) {
    while (i < end && BYTE_CLASS[b[i]] === ByteClass.Plain) i++;
    if (i >= end) return -1;
    const k = BYTE_CLASS[b[i]];
    if (k === ByteClass.Quote) {
      lastString.flags = flags;
      return i + 1;
    } else if (k === ByteClass.High) {
      flags |= StringFlags.High;
      i++;
    } else if (k === ByteClass.Backslash) {
      flags |= StringFlags.Escape;
      if (i + 1 >= end) return -1;
      const e = b[i + 1];
      if (e === 0x75 /* u */) {
        if (i + 5 >= end || !HEX[b[i + 2]] || !HEX[b[i + 3]] || !HEX[b[i + 4]] || !HEX[b[i + 5]]) return -1;
        i += 6;
      } else if (ESCAPABLE[e]) i += 2;
      else return -1;
    } else return -1;
  }
}

/** A JSON number from `i` (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`): the position after it, or -1. */
export function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (i < end && b[i] === 0x2d) i++;
  if (i >= end) return -1;
  if (b[i] === 0x30) i++;
  else if (b[i] >= 0x31 && b[i] <= 0x39) while (i < end && isDigit(b[i])) i++;
  else return -1;
  if (i < end && b[i] === 0x2e) {
    i++;
    const from = i;
    while (i < end && isDigit(b[i])) i++;
    if (i === from) return -1;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const from = i;
    while (i < end && isDigit(b[i])) i++;
    if (i === from) return -1;
  }
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function skipLiteral(b: Uint8Array, i: number, end: number, word: readonly number[]): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

/** Whether b[i, end) holds `null`, and only that, from `i`. */
export function isNull(b: Uint8Array, i: number, end: number): boolean {
  return skipLiteral(b, i, end, NULL) > 0;
}

/** Nesting deeper than this is left to JSON.parse (no real record nests so deep). */
const MAX_DEPTH = 64;
const IN_OBJECT = 1;
const IN_ARRAY = 2;
const nesting = new Uint8Array(MAX_DEPTH);

/**
 * Any JSON value from `i` (its first byte; no whitespace before it): the position after it, or
 * -1. Objects and arrays are walked with a stack of their kinds, not by recursion.
 */
export function skipValue(b: Uint8Array, i: number, end: number): number {
  let depth = 0;
  for (;;) {
    // A value starts at i.
    if (i >= end) return -1;
    const c = b[i];
    if (c === 0x22) i = skipString(b, i, end);
    else if (c === 0x7b || c === 0x5b) {
      i = skipSpace(b, i + 1, end);
      if (i < end && b[i] === (c === 0x7b ? 0x7d : 0x5d)) i++;
      else {
        if (depth === MAX_DEPTH) return -1;
        nesting[depth++] = c === 0x7b ? IN_OBJECT : IN_ARRAY;
        if (c === 0x7b && (i = skipMemberName(b, i, end)) < 0) return -1;
        continue;
      }
    } else if (c === 0x2d || isDigit(c)) i = skipNumber(b, i, end);
    else if (c === 0x74) i = skipLiteral(b, i, end, TRUE);
    else if (c === 0x66) i = skipLiteral(b, i, end, FALSE);
    else if (c === 0x6e) i = skipLiteral(b, i, end, NULL);
    else return -1;
    // After a value: close what it ended, or go on to the next member or item.
    for (;;) {
      if (i < 0) return -1;
      if (depth === 0) return i;
      i = skipSpace(b, i, end);
      if (i >= end) return -1;
      const inObject = nesting[depth - 1] === IN_OBJECT;
      const d = b[i];
      if (d === 0x2c) {
        i = skipSpace(b, i + 1, end);
        if (inObject) i = skipMemberName(b, i, end);
        break;
      }
      if (d !== (inObject ? 0x7d : 0x5d)) return -1;
      depth--;
      i++;
    }
    if (i < 0) return -1;
  }
}

/** A member's name and colon from `i` (its opening quote): the position of its value, or -1. */
function skipMemberName(b: Uint8Array, i: number, end: number): number {
  if (i >= end || b[i] !== 0x22) return -1;
  i = skipString(b, i, end);
  if (i < 0) return -1;
  i = skipSpace(b, i, end);
  if (i >= end || b[i] !== 0x3a) return -1;
  return skipSpace(b, i + 1, end);
}

/** Whether b[s, e) holds exactly the ASCII bytes of `name`. */
export function bytesEqual(b: Uint8Array, s: number, e: number, name: Uint8Array): boolean {
  if (e - s !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[s + k] !== name[k]) return false;
  return true;
}
