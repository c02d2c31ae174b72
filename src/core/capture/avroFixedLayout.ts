/**
 * A hand-written reader of the two record layouts a Cloud Storage subscription writes, Google's
 * fixed `PubsubMessageWithMetadata` (subscription_name string, message_id string, publish_time
 * long, attributes map<string>, data bytes) and `PubsubMessage` (data bytes): it finds each
 * record's fields in a block's bytes without building avsc's objects (a record object, an
 * attributes map and a Buffer copy of the data per record), which the collector spent most of an
 * Avro replay on.
 *
 * It reads a block whole or not at all: anything it does not expect (a length or count out of
 * range, a number that is not an exact integer, a map block whose byte size does not match, an
 * empty message_id, bytes left over) makes `layOutBlock` return false, and the block is then
 * decoded by avsc (avroArchive.ts), which says what is wrong as it always has. Whatever it reads,
 * it reads as avsc does (the same varint arithmetic, UTF-8 decoding and map construction), so
 * the records are identical. A replay that sequences by attributes reads the few it names, and
 * the content hash, from the map's bytes (AttributeSpans) without making the map at all.
 */
import type { Type } from 'avsc';

/** Which fixed layout a writer's schema is, if it is one. */
export type FixedLayout = 'with-metadata' | 'data-only';

const WITH_METADATA: readonly (readonly [string, string])[] = [
  ['subscription_name', 'string'],
  ['message_id', 'string'],
  ['publish_time', 'long'],
  ['attributes', 'map'],
  ['data', 'bytes'],
];
const DATA_ONLY: readonly (readonly [string, string])[] = [['data', 'bytes']];

/** The fixed layout `writer` (the file's parsed schema) has exactly — field names, order and types — or undefined. */
export function fixedLayout(writer: Type): FixedLayout | undefined {
  const w = writer as unknown as { typeName: string; fields?: readonly { name: string; type: { typeName: string; valuesType?: { typeName: string } } }[] };
  if (w.typeName !== 'record' || w.fields === undefined) return undefined;
  const fields = w.fields;
  const same = (want: readonly (readonly [string, string])[]) =>
    fields.length === want.length &&
    want.every(
      ([name, type], i) => fields[i].name === name && fields[i].type.typeName === type && (type !== 'map' || fields[i].type.valuesType?.typeName === 'string'),
    );
  if (same(WITH_METADATA)) return 'with-metadata';
  if (same(DATA_ONLY)) return 'data-only';
  return undefined;
}

/** Where each record's fields are in a block's bytes; reused from block to block. */
export class BlockLayout {
  count = 0;
  idStart = new Int32Array(1024);
  idEnd = new Int32Array(1024);
  /** publish_time, microseconds since the epoch. */
  micros = new Float64Array(1024);
  attrStart = new Int32Array(1024);
  dataStart = new Int32Array(1024);
  dataEnd = new Int32Array(1024);
  /** Where each record starts, and the block's end at [count]. */
  recordStart = new Int32Array(1025);

  reserve(n: number): void {
    if (n <= this.idStart.length) return;
    const size = Math.max(n, this.idStart.length * 2);
    this.idStart = new Int32Array(size);
    this.idEnd = new Int32Array(size);
    this.micros = new Float64Array(size);
    this.attrStart = new Int32Array(size);
    this.dataStart = new Int32Array(size);
    this.dataEnd = new Int32Array(size);
    this.recordStart = new Int32Array(size + 1);
  }
}

/** The position after the last varint read by `long`. */
let cursor = 0;

/**
 * The Avro `long` at b[p] (zig-zag varint), read as avsc reads it; NaN when it does not end
 * before `end` or its magnitude reaches 2^52 (avsc's float arithmetic would round it).
 */
function long(b: Uint8Array, p: number, end: number): number {
  let n = 0;
  let scale = 1;
  let byte: number;
  do {
    if (p >= end || scale > 2 ** 49) return NaN;
    byte = b[p++];
    n += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  if (n >= 2 ** 53) return NaN;
  cursor = p;
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** The end of the string/bytes value at p (its length prefix read), or -1; its start is `cursor`. */
function skipBytes(b: Uint8Array, p: number, end: number): number {
  const len = long(b, p, end);
  if (!(len >= 0) || cursor + len > end) return -1;
  return cursor + len;
}

/** The end of the map<string> at p, or -1 when it is not one avsc reads alike. */
function skipMap(b: Uint8Array, p: number, end: number): number {
  for (;;) {
    let n = long(b, p, end);
    if (n !== n) return -1;
    p = cursor;
    if (n === 0) return p;
    let size = -1;
    if (n < 0) {
      n = -n;
      size = long(b, p, end);
      if (!(size >= 0)) return -1;
      p = cursor;
    }
    if (n > end - p) return -1;
    const start = p;
    for (let i = 0; i < n; i++) {
      p = skipBytes(b, p, end);
      if (p < 0) return -1;
      p = skipBytes(b, p, end);
      if (p < 0) return -1;
    }
    if (size >= 0 && p - start !== size) return -1;
  }
}

/**
 * Finds the fields of the `count` records in `data` (a block, decompressed) into `out`. False
 * when anything is unexpected: the caller decodes the block with avsc instead.
 */
export function layOutBlock(layout: FixedLayout, data: Uint8Array, count: number, out: BlockLayout): boolean {
  out.reserve(count);
  const end = data.length;
  let p = 0;
  for (let i = 0; i < count; i++) {
    out.recordStart[i] = p;
    if (layout === 'with-metadata') {
      p = skipBytes(data, p, end);
      if (p < 0) return false;
      p = skipBytes(data, p, end);
      if (p < 0 || p === cursor) return false;
      out.idStart[i] = cursor;
      out.idEnd[i] = p;
      const micros = long(data, p, end);
      if (micros !== micros) return false;
      out.micros[i] = micros;
      p = cursor;
      out.attrStart[i] = p;
      p = skipMap(data, p, end);
      if (p < 0) return false;
    }
    p = skipBytes(data, p, end);
    if (p < 0) return false;
    out.dataStart[i] = cursor;
    out.dataEnd[i] = p;
  }
  if (p !== end) return false;
  out.recordStart[count] = p;
  out.count = count;
  return true;
}

/** The text of b[s, e) as avsc reads a string (UTF-8, bad bytes replaced alike). */
export function utf8(b: Buffer, s: number, e: number): string {
  return (b as unknown as { utf8Slice(s: number, e: number): string }).utf8Slice(s, e);
}

/** The attributes map at p (laid out already), built as avsc builds it: assigned one by one on `{}`, later names winning. */
export function readAttributes(b: Buffer, p: number): Record<string, string> {
  const val: Record<string, string> = {};
  const end = b.length;
  for (;;) {
    let n = long(b, p, end);
    p = cursor;
    if (n === 0) return val;
    if (n < 0) {
      n = -n;
      long(b, p, end);
      p = cursor;
    }
    while (n--) {
      const ke = skipBytes(b, p, end);
      const key = utf8(b, cursor, ke);
      const ve = skipBytes(b, ke, end);
      val[key] = utf8(b, cursor, ve);
      p = ve;
    }
  }
}

const BASE64 = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) => c.charCodeAt(0));
const PAD = 0x3d;
const PRIME = 0x01000193;
/** FNV-1a's offset basis (contentHash.ts's SEED). */
const SEED_HASH = 0x811c9dc5 | 0;

/**
 * contentHash.ts's `dataHash` of the base64 text of b[s, e), without making the text: each three
 * bytes are four characters, one word (padded base64 always is whole words).
 */
export function dataHashBase64(b: Uint8Array, s: number, e: number): number {
  let h = SEED_HASH;
  let i = s;
  for (; i + 3 <= e; i += 3) {
    const v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    h = Math.imul(h ^ (BASE64[v >>> 18] | (BASE64[(v >>> 12) & 63] << 8) | (BASE64[(v >>> 6) & 63] << 16) | (BASE64[v & 63] << 24)), PRIME);
  }
  const rest = e - i;
  if (rest === 0) return h;
  const v = (b[i] << 16) | (rest === 2 ? b[i + 1] << 8 : 0);
  const third = rest === 2 ? BASE64[(v >>> 6) & 63] : PAD;
  return Math.imul(h ^ (BASE64[v >>> 18] | (BASE64[(v >>> 12) & 63] << 8) | (third << 16) | (PAD << 24)), PRIME);
}

/** The attribute names a replay reads, by slot. */
const KEY = 0;
const SEQ = 1;
const SENT = 2;
const ORDERING_KEY = 3;
const ORDERING_KEY_2 = 4;
const SLOTS = 5;
const PROTO = Uint8Array.from('__proto__', (c) => c.charCodeAt(0));
/** The slots of the names a replay asks for. */
export const ATTRIBUTE_SLOTS = { KEY, SEQ, SENT } as const;

/** FNV-1a over ASCII bytes (each its own UTF-16 unit), continuing from `h`: `fnv` of their text. */
function fnvBytes(h: number, b: Uint8Array, s: number, e: number): number {
  for (let k = s; k < e; k++) h = Math.imul(h ^ b[k], PRIME);
  return h;
}

function fnvText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}

function isAscii(b: Uint8Array, s: number, e: number): boolean {
  for (let k = s; k < e; k++) if (b[k] > 0x7f) return false;
  return true;
}

function sameBytes(b: Uint8Array, s: number, e: number, want: Uint8Array): boolean {
  if (e - s !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (b[s + k] !== want[k]) return false;
  return true;
}

/**
 * What a replay reads of a record's attributes map, straight from its bytes: the values of the
 * names it asks for (by slot) and the map's part of the content hash (contentHash's sum over
 * name/value pairs). It declines — the record is then read whole — when the map could read
 * otherwise as an object (a name given twice, `__proto__`).
 */
export class AttributeSpans {
  readonly s = new Int32Array(SLOTS);
  readonly e = new Int32Array(SLOTS);
  /** Whether a slot's value has bytes beyond ASCII (its text is then decoded as UTF-8). */
  readonly high = new Uint8Array(SLOTS);
  sum = 0;
  private readonly want: (Uint8Array | undefined)[];
  private names = new Int32Array(32);

  /** `key`, `seq`, `sent`: the attribute names asked for (ASCII; others are never asked for here). */
  constructor(key: string | undefined, seq: string | undefined, sent: string | undefined) {
    const bytes = (n: string | undefined) => (n === undefined ? undefined : Uint8Array.from(n, (c) => c.charCodeAt(0)));
    this.want = [bytes(key), bytes(seq), bytes(sent), bytes('ordering_key'), bytes('orderingKey')];
  }

  /** Whether slot `k` names an attribute the map has. */
  has(k: number): boolean {
    return this.s[k] >= 0;
  }

  /** Reads the map at p (laid out already); false when it declines. */
  read(b: Buffer, p: number): boolean {
    this.s.fill(-1);
    let sum = 0;
    let count = 0;
    const end = b.length;
    for (;;) {
      let n = long(b, p, end);
      p = cursor;
      if (n === 0) break;
      if (n < 0) {
        n = -n;
        long(b, p, end);
        p = cursor;
      }
      while (n--) {
        const ke = skipBytes(b, p, end);
        const ks = cursor;
        const ve = skipBytes(b, ke, end);
        const vs = cursor;
        p = ve;
        if (sameBytes(b, ks, ke, PROTO)) return false;
        const asciiName = isAscii(b, ks, ke);
        const nameHash = asciiName ? fnvBytes(SEED_HASH, b, ks, ke) : fnvText(SEED_HASH, utf8(b, ks, ke));
        for (let i = 0; i < count; i++) if (this.names[i] === nameHash) return false;
        if (count === this.names.length) this.names = Int32Array.from({ length: count * 2 }, (_, i) => this.names[i] ?? 0);
        this.names[count++] = nameHash;
        const asciiValue = isAscii(b, vs, ve);
        const h = Math.imul(nameHash ^ 0x10000, PRIME);
        sum = (sum + (asciiValue ? fnvBytes(h, b, vs, ve) : fnvText(h, utf8(b, vs, ve)))) | 0;
        if (!asciiName) continue;
        for (let k = 0; k < SLOTS; k++) {
          const w = this.want[k];
          if (w !== undefined && sameBytes(b, ks, ke, w)) {
            this.s[k] = vs;
            this.e[k] = ve;
            this.high[k] = asciiValue ? 0 : 1;
          }
        }
      }
    }
    this.sum = sum;
    return true;
  }

  /** The slot holding the ordering key as rowToRecord reads it (`ordering_key`, else `orderingKey`), or -1. */
  orderingKeySlot(): number {
    return this.has(ORDERING_KEY) ? ORDERING_KEY : this.has(ORDERING_KEY_2) ? ORDERING_KEY_2 : -1;
  }

  /** FNV-1a of slot k's value text, continuing from h. */
  hashValue(h: number, b: Buffer, k: number): number {
    return this.high[k] ? fnvText(h, utf8(b, this.s[k], this.e[k])) : fnvBytes(h, b, this.s[k], this.e[k]);
  }
}
