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
