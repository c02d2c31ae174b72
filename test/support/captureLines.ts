/** Builds capture lines (ReceivedMessage JSON) for tests. */
export interface LineSpec {
  /** ms after 2026-11-30T09:30:00Z */
  t: number;
  seq?: number | string;
  channel?: string;
  id?: string;
  orderingKey?: string;
  sendingTime?: number;
  data?: string;
  deliveryAttempt?: number;
}

export const T0 = Date.parse('2026-11-30T09:30:00.000Z');

export function receivedMessage(s: LineSpec): Record<string, unknown> {
  const attributes: Record<string, string> = {};
  if (s.channel !== undefined) attributes.Channel = s.channel;
  if (s.seq !== undefined) attributes.MsgSeqNum = String(s.seq);
  if (s.sendingTime !== undefined) attributes.SendingTime = String(T0 + s.sendingTime);
  const id = s.id ?? `${s.channel ?? s.orderingKey ?? ''}-${s.seq}`;
  return {
    ackId: `ack-${id}-${s.t}`,
    message: {
      data: Buffer.from(s.data ?? JSON.stringify({ seq: s.seq })).toString('base64'),
      attributes,
      messageId: id,
      publishTime: new Date(T0 + s.t - 5).toISOString(),
      ...(s.orderingKey !== undefined ? { orderingKey: s.orderingKey } : {}),
    },
    deliveryAttempt: s.deliveryAttempt ?? 1,
    receivedAt: new Date(T0 + s.t).toISOString(),
  };
}

export function captureText(specs: readonly LineSpec[]): string {
  return specs.map((s) => JSON.stringify(receivedMessage(s))).join('\n') + '\n';
}
