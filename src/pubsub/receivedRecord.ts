/**
 * A delivery as the pull stream decodes it (the generated client's ReceivedMessage), turned
 * into the capture record the engine reads (the REST `ReceivedMessage` shape plus
 * `receivedAt`): what SeqScope records is exactly what `seqscope replay` and the extension open.
 */
import type { ReceivedMessage } from '../core/capture/captureRecord';
import { encodeText } from './captureRecorder';
import type { PulledMessage } from './pullStream';

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

function pad6(n: number): string {
  const t = String(n);
  return t.length >= 6 ? t : '000000'.slice(t.length) + t;
}

/**
 * A protobuf Timestamp as RFC 3339 with nanoseconds (what PreciseDate#toISOString writes, and
 * what the REST API's publishTime carries when the server has the precision).
 */
export function timestampIso(seconds: number | string | { toString(): string }, nanos: number): string {
  const s = typeof seconds === 'number' ? seconds : Number(String(seconds));
  const ns = nanos > 0 ? nanos : 0;
  const ms = s * 1000 + Math.floor(ns / 1e6);
  const base = publishIso.get(ms);
  return `${base.slice(0, -1)}${pad6(ns % 1e6)}Z`;
}

function base64(data: Uint8Array | string | null | undefined): string {
  if (data === null || data === undefined) return '';
  if (typeof data === 'string') return data; // a decoder set to bytes-as-base64 gave it already
  return (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength)).toString('base64');
}

/**
 * A delivery as the stream gives it, turned into the capture record (the REST shape: fields the
 * REST API leaves out when empty are left out here too), received at `receivedAtMs` (whole ms).
 */
export function fromPulled(pm: PulledMessage, receivedAtMs: number, topic?: string): ReceivedMessage {
  const m = pm.message ?? {};
  const message: ReceivedMessage['message'] = { data: base64(m.data), messageId: m.messageId ?? '' };
  const t = m.publishTime;
  if (t) message.publishTime = timestampIso(t.seconds ?? 0, t.nanos ?? 0);
  const attributes = m.attributes;
  if (attributes && Object.keys(attributes).length) message.attributes = attributes;
  if (m.orderingKey) message.orderingKey = m.orderingKey;
  const rm: ReceivedMessage = { ackId: pm.ackId ?? '', message };
  if (pm.deliveryAttempt) rm.deliveryAttempt = pm.deliveryAttempt;
  rm.receivedAt = receiveIso.get(receivedAtMs);
  if (topic !== undefined) rm.topic = topic;
  return rm;
}

/** The fixed parts of a capture line, as bytes. */
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
  topic: Buffer.from(',"topic":'),
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

/** Any text, as UTF-8 (passing -1 on). */
function putText(buf: Buffer, pos: number, text: string): number {
  return pos < 0 ? -1 : encodeText(text, buf, pos);
}

/**
 * Writes the capture line of a record — for a record made by fromPulled the same text as
 * `JSON.stringify(rm) + '\n'` (same fields, same order) — as UTF-8 into `buf` at `pos`, and
 * returns the position after it, or -1 when it did not fit (what was written past `pos` is then
 * garbage). This is how a live source records: no line string, no rope of pieces and no
 * flattened copy per delivery, about 1.5 KB less garbage per message; at the emulator's full
 * rate that garbage meant more scavenges and, with them, more of the client library's
 * short-lived objects promoted into full collections.
 */
export function writeCaptureLine(rm: ReceivedMessage, buf: Buffer, pos: number): number {
  // Every put* passes -1 on, so a line that does not fit needs no check until the end.
  const m = rm.message;
  const P = JSON_PARTS;
  let p = rm.ackId !== undefined ? putByte(buf, putString(buf, putBytes(buf, pos, P.ackId), rm.ackId), 0x2c) : putByte(buf, pos, 0x7b);
  p = putBytes(buf, p, P.messageOpen);
  if (m.data !== undefined) p = putByte(buf, putString(buf, putBytes(buf, p, P.data), m.data), 0x2c);
  p = putString(buf, putBytes(buf, p, P.messageId), m.messageId);
  if (m.publishTime !== undefined) p = putString(buf, putBytes(buf, p, P.publishTime), m.publishTime);
  if (m.attributes !== undefined) {
    p = putBytes(buf, p, P.attributes);
    let first = true;
    for (const k of Object.keys(m.attributes)) {
      const v = m.attributes[k];
      // What JSON.stringify does with what a client could hand over besides strings.
      const other = typeof v === 'string' ? undefined : JSON.stringify(v);
      if (typeof v !== 'string' && other === undefined) continue;
      if (!first) p = putByte(buf, p, 0x2c);
      p = putByte(buf, putString(buf, p, k), 0x3a);
      p = other === undefined ? putString(buf, p, v) : putText(buf, p, other);
      first = false;
    }
    p = putByte(buf, p, 0x7d);
  }
  if (m.orderingKey !== undefined) p = putString(buf, putBytes(buf, p, P.orderingKey), m.orderingKey);
  p = putByte(buf, p, 0x7d);
  if (rm.deliveryAttempt !== undefined) p = putText(buf, putBytes(buf, p, P.deliveryAttempt), JSON.stringify(rm.deliveryAttempt));
  if (rm.receivedAt !== undefined) p = putString(buf, putBytes(buf, p, P.receivedAt), rm.receivedAt);
  if (rm.topic !== undefined) p = putString(buf, putBytes(buf, p, P.topic), rm.topic);
  return putByte(buf, putByte(buf, p, 0x7d), 0x0a);
}

/** Reused by captureLine: grows to the longest line seen. */
let lineScratch = Buffer.allocUnsafe(4096);

/** The capture line of a record as a string (writeCaptureLine's bytes; for callers without a recorder). */
export function captureLine(rm: ReceivedMessage): string {
  let end: number;
  while ((end = writeCaptureLine(rm, lineScratch, 0)) < 0) lineScratch = Buffer.allocUnsafe(lineScratch.length * 2);
  return lineScratch.toString('utf8', 0, end);
}
