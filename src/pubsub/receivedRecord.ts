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
  /** PreciseDate: its toISOString keeps the nanoseconds Pub/Sub gives. */
  readonly publishTime: { toISOString(): string };
  readonly orderingKey?: string;
  /** 0 when the subscription has no dead-letter policy (the REST API then omits it). */
  readonly deliveryAttempt?: number;
  /** When the client received it (ms since epoch). */
  readonly received: number;
}

export function toReceivedMessage(m: SubscriberMessage, receivedAtMs: number = m.received): ReceivedMessage {
  const message: ReceivedMessage['message'] = {
    data: m.data.toString('base64'),
    messageId: m.id,
    publishTime: m.publishTime.toISOString(),
  };
  if (m.attributes && Object.keys(m.attributes).length) message.attributes = m.attributes;
  if (m.orderingKey) message.orderingKey = m.orderingKey;
  const rm: ReceivedMessage = { ackId: m.ackId, message };
  if (m.deliveryAttempt) rm.deliveryAttempt = m.deliveryAttempt;
  rm.receivedAt = new Date(receivedAtMs).toISOString();
  return rm;
}
