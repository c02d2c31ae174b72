/**
 * Reads one JSON Lines record from its bytes, the way a replay's scanning step needs it: its
 * clock, publishTime and receivedAt, key, number, sender's time, messageId and content hash —
 * without JSON.parse and without a string for anything else. A replay needs a handful of fields
 * of each record and never its decoded payload, and parsing every record whole was most of a
 * replay's time.
 *
 * What it reads is exactly what `parseEntry`, `readFields` and `contentHash` give for the same
 * bytes: `scan` returns false for any record it cannot read with certainty — not a
 * ReceivedMessage object, an escape in a field it needs, a value of an unexpected type, a field
 * given twice, a number it would have to round, a record that is invalid for any reason — and
 * the caller then parses that record whole (lineScan.ts), so every verdict and reason comes from
 * the one full parse. The rest of the record is checked against the JSON grammar as it is
 * skipped (jsonBytes.ts), so a line JSON.parse would refuse is never read as a record.
 *
 * The payload (`data`) is hashed as it is stepped over; it is decoded only when the options read
 * it (`json:` fields, `mdp3` headers), and then `readFields` reads it as it reads any record —
 * with the schema attributes beside it, so a payload with a schema is decoded by it.
 */
import { parseRfc3339, PubsubMessage, ReceivedMessage, topicKey } from './captureRecord';
import { dataHash, FNV_PRIME, fnv, SEED } from './contentHash';
import { BYTE_CLASS, ByteClass, bytesEqual, lastString, skipSpace, skipString, skipValue, StringFlags } from './jsonBytes';
import { newRecordFields, readFields } from './recordFields';
import { readsJson, SequencingOptions } from '../sequencer/sequencingOptions';
import { SCHEMA_ENCODING_ATTRIBUTE, SCHEMA_NAME_ATTRIBUTE, SCHEMA_REVISION_ATTRIBUTE } from '../schema/schemaRef';
import { SerialSpace } from '../sequencer/serial';
import { digitsValue, utcFast } from './utcBytes';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

/** Fields of a record (bits, to tell one given twice). */
const MESSAGE = 1;
const RECEIVED_AT = 2;
const TOPIC = 4;
const DATA = 8;
const ATTRIBUTES = 16;
const MESSAGE_ID = 32;
const PUBLISH_TIME = 64;
const ORDERING_KEY = 128;

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const NAME_MESSAGE = ascii('message');
const NAME_RECEIVED_AT = ascii('receivedAt');
const NAME_TOPIC = ascii('topic');
const NAME_DATA = ascii('data');
const NAME_ATTRIBUTES = ascii('attributes');
const NAME_MESSAGE_ID = ascii('messageId');
const NAME_PUBLISH_TIME = ascii('publishTime');
const NAME_ORDERING_KEY = ascii('orderingKey');

/** Which record field b[s, e) names, 0 for none: told by length and first byte, then compared whole. */
function topField(b: Uint8Array, s: number, e: number): number {
  const n = e - s;
  if (n === 7) return bytesEqual(b, s, e, NAME_MESSAGE) ? MESSAGE : 0;
  if (n === 10) return bytesEqual(b, s, e, NAME_RECEIVED_AT) ? RECEIVED_AT : 0;
  if (n === 5) return bytesEqual(b, s, e, NAME_TOPIC) ? TOPIC : 0;
  return 0;
}

/** Which message field b[s, e) names, 0 for none. */
function messageField(b: Uint8Array, s: number, e: number): number {
  switch (e - s) {
    case 4:
      return bytesEqual(b, s, e, NAME_DATA) ? DATA : 0;
    case 9:
      return bytesEqual(b, s, e, NAME_MESSAGE_ID) ? MESSAGE_ID : 0;
    case 10:
      return bytesEqual(b, s, e, NAME_ATTRIBUTES) ? ATTRIBUTES : 0;
    case 11:
      if (b[s] === 0x70) return bytesEqual(b, s, e, NAME_PUBLISH_TIME) ? PUBLISH_TIME : 0;
      return bytesEqual(b, s, e, NAME_ORDERING_KEY) ? ORDERING_KEY : 0;
    default:
      return 0;
  }
}

/** Attributes the options read, by slot. */
const KEY = 0;
const SEQ = 1;
const SENT = 2;
/** The MsgSeqNum attribute an `mdp3` number is checked against. */
const MDP3_SEQ = 3;
/** The schema attributes, read with the payload for `json:` options: a payload with a schema is decoded by it. */
const SCHEMA_NAME = 4;
const SCHEMA_ENCODING = 5;
const SCHEMA_REVISION = 6;
const SLOTS = 7;

/** A string value without escapes from `i`: the position after it, or -1. Its flags are in `lastString`. */
function plainString(b: Uint8Array, i: number, end: number): number {
  if (i >= end || b[i] !== QUOTE) return -1;
  const j = skipString(b, i, end);
  return j < 0 || (lastString.flags & StringFlags.Escape) !== 0 ? -1 : j;
}

/** FNV-1a over ASCII bytes (each its own UTF-16 unit), continuing from `h`: `fnv` of their text. */
function fnvBytes(h: number, b: Uint8Array, s: number, e: number): number {
  for (let k = s; k < e; k++) h = Math.imul(h ^ b[k], FNV_PRIME);
  return h;
}

/** A field's span in the record: its content's bytes (without quotes), or absent. */
class Span {
  s = -1;
  e = -1;
  high = false;

  set(s: number, e: number): void {
    this.s = s;
    this.e = e;
    this.high = (lastString.flags & StringFlags.High) !== 0;
  }

  get present(): boolean {
    return this.s >= 0;
  }
}

export class RecordScanner {
  /** What the last `scan` that returned true read: as the full parse of the record gives it. */
  time = NaN;
  published = NaN;
  received = NaN;
  key = '';
  seq = 0;
  sent = NaN;
  messageId = '';
  hash = 0;

  /** The attributes read, by slot (ASCII names; a name with other characters is compared as text). */
  private readonly slotNames: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
  private readonly slotBytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
  private readonly slots = Array.from({ length: SLOTS }, () => new Span());
  /** Key, number and time come from attributes, the ordering key or nowhere: no readFields, no payload. */
  private readonly direct: boolean;
  /** False when the options name an attribute an object literal cannot hold as JSON.parse does (`__proto__`). */
  private readonly usable: boolean;
  private readonly fields = newRecordFields();

  // The record being read.
  private seen = 0;
  private readonly receivedAt = new Span();
  private readonly topic = new Span();
  private readonly id = new Span();
  private readonly publishTime = new Span();
  private readonly orderingKey = new Span();
  private readonly data = new Span();
  private dataHash = 0;
  private attributeSum = 0;
  /** Hashes of the attribute names read, to tell a name given twice. */
  private names = new Int32Array(16);
  private nameCount = 0;
  /** Recent keys by a hash of their bytes, so a key's string is made once, not once a record. */
  private readonly keyCache: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);

  constructor(
    private readonly options: SequencingOptions,
    private readonly space: SerialSpace,
  ) {
    const o = options;
    this.slotNames[KEY] = o.key.kind === 'attribute' ? o.key.name : undefined;
    this.slotNames[SEQ] = o.seq.kind === 'attribute' ? o.seq.name : undefined;
    this.slotNames[SENT] = o.sendingTimeAttribute;
    this.slotNames[MDP3_SEQ] = o.seq.kind === 'mdp3' ? 'MsgSeqNum' : undefined;
    if (readsJson(o)) {
      this.slotNames[SCHEMA_NAME] = SCHEMA_NAME_ATTRIBUTE;
      this.slotNames[SCHEMA_ENCODING] = SCHEMA_ENCODING_ATTRIBUTE;
      this.slotNames[SCHEMA_REVISION] = SCHEMA_REVISION_ATTRIBUTE;
    }
    for (let k = 0; k < SLOTS; k++) {
      const name = this.slotNames[k];
      this.slotBytes[k] = name !== undefined && /^[\x20-\x7e]*$/.test(name) ? ascii(name) : undefined;
    }
    this.usable = !this.slotNames.includes('__proto__');
    this.direct =
      o.key.kind !== 'json' && (o.seq.kind === 'attribute' || o.seq.kind === 'none') && o.sendingTimeMdp3 !== true && o.sendingTimeJson === undefined;
  }

  /**
   * Reads the record in b[start, end) (one line, without its line end). False: it could not with
   * certainty, and the caller parses the record whole.
   */
  scan(b: Buffer, start: number, end: number): boolean {
    if (!this.usable) return false;
    this.reset();
    let i = skipSpace(b, start, end);
    if (i >= end || b[i] !== LBRACE) return false;
    i = skipSpace(b, i + 1, end);
    for (;;) {
      const j = plainString(b, i, end);
      if (j < 0) return false;
      const field = topField(b, i + 1, j - 1);
      i = skipSpace(b, j, end);
      if (i >= end || b[i] !== COLON) return false;
      i = skipSpace(b, i + 1, end);
      if ((this.seen & field) !== 0) return false;
      this.seen |= field;
      if (field === MESSAGE) i = i < end && b[i] === LBRACE ? this.message(b, i, end) : -1;
      else if (field === RECEIVED_AT) i = this.stringField(b, i, end, this.receivedAt);
      else if (field === TOPIC) i = this.stringField(b, i, end, this.topic);
      else i = skipValue(b, i, end);
      if (i < 0) return false;
      i = skipSpace(b, i, end);
      if (i >= end) return false;
      if (b[i] === RBRACE) break;
      if (b[i] !== COMMA) return false;
      i = skipSpace(b, i + 1, end);
    }
    if (skipSpace(b, i + 1, end) !== end) return false;
    return this.finish(b);
  }

  private reset(): void {
    this.seen = 0;
    this.receivedAt.s = this.topic.s = this.id.s = this.publishTime.s = this.orderingKey.s = this.data.s = -1;
    for (const slot of this.slots) slot.s = -1;
    this.dataHash = SEED;
    this.attributeSum = 0;
    this.nameCount = 0;
  }

  /** A string field's value from `i` into `span`: the position after it, or -1. */
  private stringField(b: Uint8Array, i: number, end: number, span: Span): number {
    const j = plainString(b, i, end);
    if (j >= 0) span.set(i + 1, j - 1);
    return j;
  }

  /** The `message` object from `i` (its `{`): the position after it, or -1. */
  private message(b: Buffer, i: number, end: number): number {
    i = skipSpace(b, i + 1, end);
    if (i < end && b[i] === RBRACE) return i + 1;
    for (;;) {
      const j = plainString(b, i, end);
      if (j < 0) return -1;
      const field = messageField(b, i + 1, j - 1);
      i = skipSpace(b, j, end);
      if (i >= end || b[i] !== COLON) return -1;
      i = skipSpace(b, i + 1, end);
      if ((this.seen & field) !== 0) return -1;
      this.seen |= field;
      if (field === DATA) i = this.payload(b, i, end);
      else if (field === ATTRIBUTES) i = this.attributes(b, i, end);
      else if (field === MESSAGE_ID) i = this.stringField(b, i, end, this.id);
      else if (field === PUBLISH_TIME) i = this.stringField(b, i, end, this.publishTime);
      else if (field === ORDERING_KEY) i = this.stringField(b, i, end, this.orderingKey);
      else i = skipValue(b, i, end);
      if (i < 0) return -1;
      i = skipSpace(b, i, end);
      if (i >= end) return -1;
      if (b[i] === RBRACE) return i + 1;
      if (b[i] !== COMMA) return -1;
      i = skipSpace(b, i + 1, end);
    }
  }

  /** The payload string from `i`, hashed as it is stepped over (as contentHash hashes `data`: dataHash). */
  private payload(b: Buffer, i: number, end: number): number {
    if (i >= end || b[i] !== QUOTE) return -1;
    let h = SEED;
    let k = i + 1;
    // Base64 is plain ASCII: each byte is its UTF-16 unit. Anything else is decoded first. Words
    // while all four bytes are plain; the word that holds the closing quote has at most three
    // before it, hashed one at a time as dataHash hashes the last units.
    for (; k + 4 <= end; k += 4) {
      const c0 = b[k];
      const c1 = b[k + 1];
      const c2 = b[k + 2];
      const c3 = b[k + 3];
      if ((BYTE_CLASS[c0] | BYTE_CLASS[c1] | BYTE_CLASS[c2] | BYTE_CLASS[c3]) !== ByteClass.Plain) break;
      h = Math.imul(h ^ (c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)), FNV_PRIME);
    }
    while (k < end && BYTE_CLASS[b[k]] === ByteClass.Plain) h = Math.imul(h ^ b[k++], FNV_PRIME);
    if (k < end && b[k] === QUOTE) {
      lastString.flags = StringFlags.Ascii;
      this.data.set(i + 1, k);
      this.dataHash = h;
      return k + 1;
    }
    const j = this.stringField(b, i, end, this.data);
    if (j >= 0) this.dataHash = dataHash(b.toString('utf8', i + 1, j - 1));
    return j;
  }

  /** The attributes object from `i`: every pair hashed (as contentHash does), the ones the options read kept. */
  private attributes(b: Buffer, i: number, end: number): number {
    if (i >= end || b[i] !== LBRACE) return -1;
    i = skipSpace(b, i + 1, end);
    if (i < end && b[i] === RBRACE) return i + 1;
    let sum = 0;
    for (;;) {
      const j = plainString(b, i, end);
      if (j < 0) return -1;
      const ns = i + 1;
      const ne = j - 1;
      const nameText = (lastString.flags & StringFlags.High) !== 0 ? b.toString('utf8', ns, ne) : undefined;
      i = skipSpace(b, j, end);
      if (i >= end || b[i] !== COLON) return -1;
      i = skipSpace(b, i + 1, end);
      const k = plainString(b, i, end);
      if (k < 0) return -1;
      const valueHigh = (lastString.flags & StringFlags.High) !== 0;
      const nameHash = nameText === undefined ? fnvBytes(SEED, b, ns, ne) : fnv(SEED, nameText);
      if (!this.newName(nameHash)) return -1;
      const h = Math.imul(nameHash ^ 0x10000, FNV_PRIME);
      sum = (sum + (valueHigh ? fnv(h, b.toString('utf8', i + 1, k - 1)) : fnvBytes(h, b, i + 1, k - 1))) | 0;
      for (let s = 0; s < SLOTS; s++) {
        const name = this.slotNames[s];
        if (name === undefined) continue;
        const bytes = this.slotBytes[s];
        if (nameText === undefined ? bytes !== undefined && bytesEqual(b, ns, ne, bytes) : nameText === name) this.slots[s].set(i + 1, k - 1);
      }
      i = skipSpace(b, k, end);
      if (i >= end) return -1;
      if (b[i] === RBRACE) {
        this.attributeSum = sum;
        return i + 1;
      }
      if (b[i] !== COMMA) return -1;
      i = skipSpace(b, i + 1, end);
    }
  }

  /**
   * Notes an attribute name by its hash; false when the record gave that hash already (a name
   * given twice, which JSON.parse keeps once, or two names that collide: either way, parsed whole).
   */
  private newName(hash: number): boolean {
    const n = this.nameCount;
    for (let k = 0; k < n; k++) if (this.names[k] === hash) return false;
    if (n === this.names.length) {
      const grown = new Int32Array(2 * n);
      grown.set(this.names);
      this.names = grown;
    }
    this.names[n] = hash;
    this.nameCount = n + 1;
    return true;
  }

  /** What the record's fields make: false when it is not a valid record (the full parse says why). */
  private finish(b: Buffer): boolean {
    const id = this.id;
    if ((this.seen & MESSAGE) === 0 || !id.present || id.e === id.s) return false;
    const clock = this.receivedAt.present ? this.receivedAt : this.publishTime;
    if (!clock.present) return false;
    const time = timeOf(b, clock);
    if (time !== time) return false;
    this.time = time;
    this.received = this.receivedAt.present ? time : NaN;
    this.published = !this.receivedAt.present ? time : this.publishTime.present ? timeOf(b, this.publishTime) : NaN;
    this.messageId = text(b, id);
    this.hash = this.contentHash(b);
    return this.direct ? this.directFields(b) : this.payloadFields(b);
  }

  /** As contentHash: the payload's hash, the ordering key's, then the attributes' sum. */
  private contentHash(b: Buffer): number {
    let h = Math.imul(this.dataHash ^ 0xff, FNV_PRIME);
    const ok = this.orderingKey;
    if (ok.present) h = ok.high ? fnv(h, text(b, ok)) : fnvBytes(h, b, ok.s, ok.e);
    if ((this.seen & ATTRIBUTES) !== 0) h = Math.imul(h ^ this.attributeSum, FNV_PRIME);
    return h;
  }

  /** Key, number and sender's time as readFields reads them from attributes and the ordering key. */
  private directFields(b: Buffer): boolean {
    const o = this.options;
    let key = '';
    if (o.key.kind === 'orderingKey') {
      if (this.orderingKey.present) key = this.cachedText(b, this.orderingKey);
    } else if (o.key.kind === 'attribute') {
      const span = this.slots[KEY];
      // Missing (or, for a name like "constructor", read from Object.prototype by the full parse).
      if (!span.present) return false;
      key = this.cachedText(b, span);
    }
    if (this.topic.present) key = topicKey(text(b, this.topic), key);
    let seq = 0;
    if (o.seq.kind === 'attribute') {
      const span = this.slots[SEQ];
      seq = span.present && !span.high ? digitsValue(b, span.s, span.e) : NaN;
      if (seq !== seq || this.space.check(seq) !== undefined) return false;
    }
    let sent = NaN;
    if (o.sendingTimeAttribute !== undefined) {
      const span = this.slots[SENT];
      if (span.present) {
        sent = span.high ? NaN : digitsValue(b, span.s, span.e);
        if (sent !== sent) sent = Number(text(b, span));
      }
    }
    this.key = key;
    this.seq = seq;
    this.sent = sent;
    return true;
  }

  /** Key, number and sender's time by readFields itself, from a record of just what it reads (the payload among it). */
  private payloadFields(b: Buffer): boolean {
    let attributes: Record<string, string> | undefined;
    if ((this.seen & ATTRIBUTES) !== 0) {
      attributes = {};
      for (let s = 0; s < SLOTS; s++) {
        const name = this.slotNames[s];
        if (name !== undefined && this.slots[s].present) attributes[name] = text(b, this.slots[s]);
      }
    }
    const message: PubsubMessage = { messageId: this.messageId, attributes };
    if (this.data.present) message.data = text(b, this.data);
    if (this.orderingKey.present) message.orderingKey = text(b, this.orderingKey);
    const rm: ReceivedMessage = { message };
    if (this.topic.present) rm.topic = text(b, this.topic);
    const f = this.fields;
    if (!readFields(rm, this.options, this.space, f)) return false;
    this.key = f.key;
    this.seq = f.seq;
    this.sent = f.sent;
    return true;
  }

  /** A short field's text, made once for as long as it stays in the cache. */
  private cachedText(b: Buffer, span: Span): string {
    if (span.high) return text(b, span);
    const slot = fnvBytes(SEED, b, span.s, span.e) & (this.keyCache.length - 1);
    const cached = this.keyCache[slot];
    if (cached !== undefined && sameText(b, span.s, span.e, cached)) return cached;
    const t = text(b, span);
    this.keyCache[slot] = t;
    return t;
  }
}

/** A span's text: its bytes as Latin-1 when all are ASCII (the same text, faster), else as UTF-8. */
function text(b: Buffer, span: Span): string {
  return b.toString(span.high ? 'utf8' : 'latin1', span.s, span.e);
}

function sameText(b: Uint8Array, s: number, e: number, t: string): boolean {
  if (t.length !== e - s) return false;
  for (let k = 0; k < t.length; k++) if (t.charCodeAt(k) !== b[s + k]) return false;
  return true;
}

/** An RFC 3339 time's ms, as parseRfc3339 reads its text (the common UTC form read from the bytes). */
function timeOf(b: Buffer, span: Span): number {
  if (!span.high) {
    const t = utcFast(b, span.s, span.e);
    if (t === t) return t;
  }
  return parseRfc3339(text(b, span));
}
