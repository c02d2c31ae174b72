/**
 * Writes test/fixtures/cme-json/smartstream-json.jsonl: a capture (Pub/Sub ReceivedMessages) of
 * CME Smart Stream JSON payloads from one topic, as test/fixtures/cme-json/NOTICE.md describes.
 * Deterministic: `npx tsx scripts/write-cme-json-fixture.ts` rewrites the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64Json, smartStreamJson } from '../test/support/smartStreamJson';

const out = join(__dirname, '..', 'test', 'fixtures', 'cme-json', 'smartstream-json.jsonl');
const T0 = Date.parse('2026-12-01T14:30:00.000Z');
/** Every record arrives this long after its sentTime. */
const LATENCY_MS = 25;

interface Row {
  /** Arrival, ms after T0. */
  t: number;
  symbol?: string;
  /** header.sequenceNumber; absent when undefined. */
  seq?: string;
  /** header.sentTime written otherwise than CME writes it (an invalid line). */
  sentTime?: string;
  /** A payload that is not JSON. */
  raw?: string;
  /** Index of the row whose message this line delivers again. */
  redelivers?: number;
}

// One topic, one sequence across its instruments (CME: "system generated per session").
const ROWS: Row[] = [
  { t: 0, symbol: 'ESZ6', seq: '1' },
  { t: 10, symbol: 'NQZ6', seq: '2' },
  { t: 15, symbol: 'ESZ6', seq: '4' },
  { t: 20, symbol: 'ESZ6', seq: '3' },
  { t: 30, symbol: 'NQZ6', seq: '5' },
  { t: 35, symbol: 'ESZ6', seq: '6' },
  { t: 40, redelivers: 5 },
  { t: 45, raw: 'TRD ESZ6 6000.25' },
  { t: 50, symbol: 'ESZ6' },
  // 7 is on this line, whose time cannot be read: a gap, lost at the end.
  { t: 55, symbol: 'NQZ6', seq: '7', sentTime: 'yesterday' },
  { t: 60, symbol: 'ESZ6', seq: '8' },
  { t: 70, symbol: 'NQZ6', seq: '9' },
];

type Message = { data: string; attributes: Record<string, string>; messageId: string; publishTime: string };

function firstDelivery(r: Row, i: number): Message {
  const sentTime = r.sentTime ?? new Date(T0 + r.t - LATENCY_MS).toISOString().replace('Z', '000000Z');
  const data = r.raw !== undefined ? Buffer.from(r.raw).toString('base64') : base64Json(smartStreamJson({ symbol: r.symbol, sequenceNumber: r.seq, sentTime }));
  return { data, attributes: {}, messageId: String(17000000000000000n + BigInt(i)), publishTime: new Date(T0 + r.t - 5).toISOString() };
}

function main(): void {
  const messages: Message[] = [];
  const lines = ROWS.map((r, i) => {
    // A redelivery is the very message again: Pub/Sub never changes a message's data,
    // attributes, messageId or publishTime; only deliveryAttempt, ackId and arrival differ.
    const message = r.redelivers !== undefined ? messages[r.redelivers] : firstDelivery(r, i);
    messages.push(message);
    return JSON.stringify({
      ackId: `ack-${i + 1}`,
      message,
      deliveryAttempt: r.redelivers !== undefined ? 2 : 1,
      receivedAt: new Date(T0 + r.t).toISOString(),
    });
  });
  writeFileSync(out, lines.join('\n') + '\n');
}

main();
