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

