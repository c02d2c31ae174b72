/**
 * Writes test/fixtures/cme-json/smartstream-json.jsonl: a capture (Pub/Sub ReceivedMessages) of
 * CME Smart Stream on GCP JSON payloads, as test/fixtures/cme-json/NOTICE.md describes.
 * Deterministic: `npx tsx scripts/write-cme-json-fixture.ts` rewrites the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64Json, smartStreamJson, SmartStreamJsonSpec } from '../test/support/smartStreamJson';

const out = join(__dirname, '..', 'test', 'fixtures', 'cme-json', 'smartstream-json.jsonl');
const T0 = Date.parse('2026-12-01T14:30:00.000Z');
/** Every record arrives this long after its sentTime. */
const LATENCY_MS = 25;

interface Row {
  t: number;
  /** A payload spec, or raw text for a payload that is not JSON. */
  json: Omit<SmartStreamJsonSpec, 'sentTime'> & { sentTime?: string | number; zoneless?: boolean; epochNs?: boolean };
  raw?: string;
  /** Index of the row whose message this line delivers again. */
  redelivers?: number;
}

const ROWS: Row[] = [
  { t: 0, json: { symbol: 'ESZ6', sequenceNumber: '1' } },
  { t: 10, json: { symbol: 'ESZ6', sequenceNumber: '2' } },
  { t: 15, json: { symbol: 'NQZ6', sequenceNumber: '1', epochNs: true } },
  { t: 20, json: { symbol: 'ESZ6', sequenceNumber: '4' } },
  { t: 30, json: { symbol: 'ESZ6', sequenceNumber: '3' } },
  { t: 35, json: { symbol: 'NQZ6', sequenceNumber: '2', zoneless: true } },
  { t: 40, json: { symbol: 'ESZ6', sequenceNumber: '5' } },
  { t: 45, json: { symbol: 'ESZ6', sequenceNumber: '5' }, redelivers: 6 },
  { t: 50, json: {}, raw: 'TRADE ESZ6 6000.25' },
  { t: 52, json: { noEntries: true, sequenceNumber: '9' } },
  { t: 55, json: { symbol: 'NQZ6', sequenceNumber: '3', sentTime: 'yesterday' } },
  // ESZ6 6 never sent: a gap, lost at the end.
  { t: 60, json: { symbol: 'ESZ6', sequenceNumber: '7' } },
  { t: 70, json: { symbol: 'NQZ6', sequenceNumber: '4' } },
];

function main(): void {
  const messages: { data: string; attributes: Record<string, string>; messageId: string; publishTime: string }[] = [];
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

function firstDelivery(r: Row, i: number): { data: string; attributes: Record<string, string>; messageId: string; publishTime: string } {
  const sentMs = T0 + r.t - LATENCY_MS;
  const iso = new Date(sentMs).toISOString();
  const sentTime = r.json.sentTime ?? (r.json.epochNs ? `${sentMs}000000` : r.json.zoneless ? iso.slice(0, -1) + '000000' : iso.slice(0, -1) + '000000Z');
  const data = r.raw !== undefined ? Buffer.from(r.raw).toString('base64') : base64Json(smartStreamJson({ ...r.json, sentTime }));
  return { data, attributes: {}, messageId: String(17000000000000000n + BigInt(i)), publishTime: new Date(T0 + r.t - 5).toISOString() };
}

main();
