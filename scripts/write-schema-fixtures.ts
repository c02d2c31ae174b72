/**
 * Writes the captures of test/fixtures/schemas/ (Pub/Sub ReceivedMessages whose payloads are
 * written with trades.avsc or trade.proto), as test/fixtures/schemas/NOTICE.md describes.
 * Deterministic: `npx tsx scripts/write-schema-fixtures.ts` rewrites the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import protobuf from 'protobufjs';

const dir = join(__dirname, '..', 'test', 'fixtures', 'schemas');
const T0 = Date.parse('2026-12-01T14:30:00.000Z');
const SCHEMA = 'projects/demo-project/schemas/trades';
const REVISION = 'a1b2c3d4';

interface Trade {
  channel: string;
  seq: number;
  price: number | null;
  side: 'BUY' | 'SELL';
}

/** Channel A: 1, 2, 4, 3 (held, then delivered), 5. Channel B: 1, 3 (2 never arrives: a gap). */
const TRADES: Trade[] = [
  { channel: 'A', seq: 1, price: 101.25, side: 'BUY' },
  { channel: 'B', seq: 1, price: null, side: 'SELL' },
  { channel: 'A', seq: 2, price: 101.5, side: 'SELL' },
  { channel: 'A', seq: 4, price: 102, side: 'BUY' },
  { channel: 'A', seq: 3, price: 101.75, side: 'BUY' },
  { channel: 'B', seq: 3, price: 99.5, side: 'BUY' },
  { channel: 'A', seq: 5, price: null, side: 'SELL' },
];

function line(i: number, data: Uint8Array, attributes: Record<string, string>): string {
  const t = T0 + i * 100;
  return JSON.stringify({
    ackId: `ack-${i + 1}`,
    message: {
      data: Buffer.from(data).toString('base64'),
      attributes,
      messageId: String(9000 + i),
      publishTime: new Date(t - 5).toISOString(),
    },
    receivedAt: new Date(t).toISOString(),
  });
}

function write(name: string, lines: string[]): void {
  writeFileSync(join(dir, name), lines.join('\n') + '\n');
}

const avro = Type.forSchema(JSON.parse(readFileSync(join(dir, 'trades.avsc'), 'utf8')) as never);
const attrs = (encoding: string) => ({ googclient_schemaname: SCHEMA, googclient_schemaencoding: encoding, googclient_schemarevisionid: REVISION });

// Avro binary; the last line's payload is cut short inside its `seq` field.
const binary = TRADES.map((tr) => avro.toBuffer(tr));
const cut = avro.toBuffer({ channel: 'B', seq: 4, price: null, side: 'BUY' }).subarray(0, 3);
write('avro-binary.jsonl', [...binary.map((b, i) => line(i, b, attrs('BINARY'))), line(TRADES.length, cut, attrs('BINARY'))]);

// Avro's JSON encoding: a union's value wrapped in its branch's name, null bare.
const json = TRADES.map((tr) => JSON.stringify({ ...tr, price: tr.price === null ? null : { double: tr.price } }));
write(
  'avro-json.jsonl',
  json.map((text, i) => line(i, Buffer.from(text), attrs('JSON'))),
);

// Protocol Buffers binary, published without a schema (the emulator has no Protocol Buffers schemas).
const root = protobuf.parse(readFileSync(join(dir, 'trade.proto'), 'utf8'), { keepCase: true }).root;
const trade = root.lookupType('example.trades.Trade');
const proto = TRADES.map((tr) => trade.encode(trade.fromObject({ ...tr, price: tr.price ?? 0 })).finish());
write(
  'protobuf-binary.jsonl',
  proto.map((b, i) => line(i, b, {})),
);
