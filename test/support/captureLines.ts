/** Builds capture lines (ReceivedMessage JSON) for tests. */
import { closeSync, openSync, writeSync } from 'node:fs';
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
  /** publishTime this many ms before receivedAt (default 5); undefined-like negative values mean clock skew. */
  publishLag?: number;
  /** Leave publishTime or receivedAt out. */
  without?: 'publishTime' | 'receivedAt';
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
      ...(s.without === 'publishTime' ? {} : { publishTime: new Date(T0 + s.t - (s.publishLag ?? 5)).toISOString() }),
      ...(s.orderingKey !== undefined ? { orderingKey: s.orderingKey } : {}),
    },
    deliveryAttempt: s.deliveryAttempt ?? 1,
    ...(s.without === 'receivedAt' ? {} : { receivedAt: new Date(T0 + s.t).toISOString() }),
  };
}

export function captureText(specs: readonly LineSpec[]): string {
  return specs.map((s) => JSON.stringify(receivedMessage(s))).join('\n') + '\n';
}

/**
 * Writes a capture of `lines` messages, each of its own ordering key (a topic keyed per order):
 * what fills the sequencer's memory fastest, per byte of capture.
 */
export function writeKeyPerMessageCapture(path: string, lines: number): void {
  const fd = openSync(path, 'w');
  try {
    for (let from = 0; from < lines; from += 10_000) {
      const chunk: string[] = [];
      for (let i = from; i < Math.min(lines, from + 10_000); i++)
        chunk.push(`${JSON.stringify(receivedMessage({ t: i, orderingKey: `order-${i}`, id: `m-${i}` }))}\n`);
      writeSync(fd, chunk.join(''));
    }
  } finally {
    closeSync(fd);
  }
}
