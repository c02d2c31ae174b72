/**
 * A message as the client library hands it to a subscriber, turned into the capture record the
 * engine reads (the REST `ReceivedMessage` shape plus `receivedAt`): what SeqScope records is
 * exactly what `seqscope replay` and the extension open.
 */
import type { ReceivedMessage } from '../core/captureRecord';

/** The fields of @google-cloud/pubsub's Message that a capture keeps (a structural subset). */
export interface SubscriberMessage {
  readonly id: string;
  readonly ackId: string;
  readonly data: Buffer;
  readonly attributes: Record<string, string>;
  /** PreciseDate: a Date with the microseconds and nanoseconds Pub/Sub gives. */
  readonly publishTime: PreciseTime;
  readonly orderingKey?: string;
  /** 0 when the subscription has no dead-letter policy (the REST API then omits it). */
  readonly deliveryAttempt?: number;
  /** When the client received it (ms since epoch). */
  readonly received: number;
}

/** What SeqScope reads of a PreciseDate (a plain Date-like with toISOString works too). */
export interface PreciseTime {
  toISOString(): string;
  getTime?(): number;
  getMicroseconds?(): number;
  getNanoseconds?(): number;
}

/**
 * Date#toISOString of one millisecond, remembered: messages arrive in batches that share their
 * receive millisecond (and often their publish millisecond), and formatting a date is a
 * measurable part of the per-message cost at full delivery rate.
 */
class IsoCache {
  private ms = NaN;
  private text = '';
  get(ms: number): string {
    if (ms !== this.ms) {
      this.ms = ms;
      this.text = new Date(ms).toISOString();
    }
    return this.text;
  }
}
const publishIso = new IsoCache();
const receiveIso = new IsoCache();

function pad3(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n);
}

/** RFC 3339 with nanoseconds, as PreciseDate#toISOString writes it (without its regex). */
export function preciseIso(t: PreciseTime): string {
  if (t.getTime && t.getMicroseconds && t.getNanoseconds) {
    const base = publishIso.get(t.getTime());
    return `${base.slice(0, -1)}${pad3(t.getMicroseconds())}${pad3(t.getNanoseconds())}Z`;
  }
  return t.toISOString();
}

export function toReceivedMessage(m: SubscriberMessage, receivedAtMs: number = m.received): ReceivedMessage {
  const message: ReceivedMessage['message'] = {
    data: m.data.toString('base64'),
    messageId: m.id,
    publishTime: preciseIso(m.publishTime),
  };
  if (m.attributes && Object.keys(m.attributes).length) message.attributes = m.attributes;
  if (m.orderingKey) message.orderingKey = m.orderingKey;
  const rm: ReceivedMessage = { ackId: m.ackId, message };
  if (m.deliveryAttempt) rm.deliveryAttempt = m.deliveryAttempt;
  rm.receivedAt = receiveIso.get(receivedAtMs);
  return rm;
}

/**
 * Printable ASCII without `"` and `\`: JSON writes such a string as it is, between quotes.
 * Everything else (controls, non-ASCII, lone surrogates) goes through JSON.stringify.
 */
const PLAIN = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

function quote(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

function attributesJson(a: Record<string, string>): string {
  let out = '';
  for (const k of Object.keys(a)) {
    const v = a[k];
    // JSON.stringify's rules for what a client could hand over besides strings.
    const text = typeof v === 'string' ? quote(v) : JSON.stringify(v);
    if (text !== undefined) out += `${out ? ',' : ''}${quote(k)}:${text}`;
  }
  return `{${out}}`;
}

/**
 * The capture line of a record: the same text as `JSON.stringify(rm) + '\n'` for a record made
 * by toReceivedMessage (same fields in the same order), written without the generic serializer.
 * It runs for every live delivery, and at the emulator's full rate JSON.stringify was the
 * largest single part of SeqScope's own per-message work (~40 % slower than this).
 */
export function captureLine(rm: ReceivedMessage): string {
  const m = rm.message;
  let msg = m.data !== undefined ? `"data":${quote(m.data)},` : '';
  msg += `"messageId":${quote(m.messageId)}`;
  if (m.publishTime !== undefined) msg += `,"publishTime":${quote(m.publishTime)}`;
  if (m.attributes !== undefined) msg += `,"attributes":${attributesJson(m.attributes)}`;
  if (m.orderingKey !== undefined) msg += `,"orderingKey":${quote(m.orderingKey)}`;
  let out = rm.ackId !== undefined ? `{"ackId":${quote(rm.ackId)},` : '{';
  out += `"message":{${msg}}`;
  if (rm.deliveryAttempt !== undefined) out += `,"deliveryAttempt":${JSON.stringify(rm.deliveryAttempt)}`;
  if (rm.receivedAt !== undefined) out += `,"receivedAt":${quote(rm.receivedAt)}`;
  return `${out}}\n`;
}

// ------------------------------------------------------------------ the same line, as bytes

const JSON_PARTS = {
  ackId: Buffer.from('{"ackId":'),
  messageOpen: Buffer.from('"message":{'),
  data: Buffer.from('"data":'),
  messageId: Buffer.from('"messageId":'),
  publishTime: Buffer.from(',"publishTime":'),
  attributes: Buffer.from(',"attributes":{'),
  orderingKey: Buffer.from(',"orderingKey":'),
  deliveryAttempt: Buffer.from(',"deliveryAttempt":'),
  receivedAt: Buffer.from(',"receivedAt":'),
};

function putBytes(buf: Buffer, pos: number, bytes: Buffer): number {
  if (pos < 0 || pos + bytes.length > buf.length) return -1;
  for (let i = 0; i < bytes.length; i++) buf[pos + i] = bytes[i];
  return pos + bytes.length;
}

function putByte(buf: Buffer, pos: number, byte: number): number {
  if (pos < 0 || pos >= buf.length) return -1;
  buf[pos] = byte;
  return pos + 1;
}

/** A JSON string: printable ASCII byte by byte; anything to escape or encode through JSON.stringify. */
function putString(buf: Buffer, pos: number, s: string): number {
  if (pos < 0) return -1;
  const n = s.length;
  if (pos + n + 2 > buf.length) return -1;
  buf[pos] = 0x22;
  let p = pos + 1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return putText(buf, pos, JSON.stringify(s));
    buf[p++] = c;
  }
  buf[p] = 0x22;
  return p + 1;
}

/** Any text, as UTF-8 (at most 3 bytes per UTF-16 unit). */
function putText(buf: Buffer, pos: number, text: string): number {
  if (pos < 0) return -1;
  const room = buf.length - pos;
  // The exact size only when the worst case does not fit (it costs a pass over the text).
  if (text.length * 3 > room && Buffer.byteLength(text) > room) return -1;
  return pos + buf.write(text, pos);
}

/**
 * Writes captureLine(rm) as UTF-8 into `buf` at `pos` and returns the position after it, or -1
 * when it did not fit (what was written past `pos` is then garbage). This is how a live source
 * records: no line string, no rope of pieces and no flattened copy per delivery — about 1.5 KB
 * less garbage per message, which at the emulator's full rate meant fewer scavenges and, with
 * them, fewer of the client library's short-lived objects promoted into full collections.
 */
export function writeCaptureLine(rm: ReceivedMessage, buf: Buffer, pos: number): number {
  const m = rm.message;
  const P = JSON_PARTS;
  let p = rm.ackId !== undefined ? putString(buf, putBytes(buf, pos, P.ackId), rm.ackId) : putByte(buf, pos, 0x7b);
  if (rm.ackId !== undefined) p = putByte(buf, p, 0x2c);
  p = p < 0 ? -1 : putBytes(buf, p, P.messageOpen);
  if (m.data !== undefined) {
    p = p < 0 ? -1 : putString(buf, putBytes(buf, p, P.data), m.data);
    p = putByte(buf, p, 0x2c);
  }
  p = p < 0 ? -1 : putString(buf, putBytes(buf, p, P.messageId), m.messageId);
  if (m.publishTime !== undefined) p = p < 0 ? -1 : putString(buf, putBytes(buf, p, P.publishTime), m.publishTime);
  if (m.attributes !== undefined) {
    p = p < 0 ? -1 : putBytes(buf, p, P.attributes);
    let first = true;
    for (const k of Object.keys(m.attributes)) {
      const v = m.attributes[k];
      if (typeof v !== 'string') {
        // What JSON.stringify does with what a client could hand over besides strings.
        const text = JSON.stringify(v);
        if (text === undefined) continue;
        if (!first) p = putByte(buf, p, 0x2c);
        p = putByte(buf, putString(buf, p, k), 0x3a);
        p = putText(buf, p, text);
      } else {
        if (!first) p = putByte(buf, p, 0x2c);
        p = putString(buf, putByte(buf, putString(buf, p, k), 0x3a), v);
      }
      first = false;
    }
    p = putByte(buf, p, 0x7d);
  }
  if (m.orderingKey !== undefined) p = p < 0 ? -1 : putString(buf, putBytes(buf, p, P.orderingKey), m.orderingKey);
  p = putByte(buf, p, 0x7d);
  if (rm.deliveryAttempt !== undefined) p = p < 0 ? -1 : putText(buf, putBytes(buf, p, P.deliveryAttempt), JSON.stringify(rm.deliveryAttempt));
  if (rm.receivedAt !== undefined) p = p < 0 ? -1 : putString(buf, putBytes(buf, p, P.receivedAt), rm.receivedAt);
  p = putByte(buf, p, 0x7d);
  return putByte(buf, p, 0x0a);
}

