/** BigQuery subscription rows written with use_topic_schema: the schema's columns are the message's decoded record. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowToRecord, TOPIC_SCHEMA_COLUMNS } from '../../../../src/core/capture/bigQueryRows';
import { parseEntry, type ReceivedMessage } from '../../../../src/core/capture/captureRecord';
import { contentHash } from '../../../../src/core/capture/contentHash';
import { parsePayloadJson, schemaReading } from '../../../../src/core/capture/payloadJson';
import { decodedTextOf } from '../../../../src/core/trace/decodedText';
import { JsonlFormatter } from '../../../../src/core/export/jsonlFormatter';
import { messageEvent } from '../../../../src/core/replay/replayEvents';

const ROWS = join(__dirname, '..', '..', '..', 'fixtures', 'bigquery-schema', 'rows.jsonl');
const ATTRIBUTES =
  '{"googclient_schemaname":"projects/p/schemas/trades","googclient_schemaencoding":"BINARY","googclient_schemarevisionid":"r1","ordering_key":"A"}';
const ROW = {
  subscription_name: 'projects/p/subscriptions/s',
  message_id: '7001',
  publish_time: '2026-12-01 14:30:00.1 UTC',
  attributes: ATTRIBUTES,
  channel: 'A',
  seq: '9007199254740993',
  price: 101.25,
  side: 'BUY',
  legs: [{ venue: 'X', qty: '3' }],
};

function record(row: Record<string, unknown>): ReceivedMessage {
  const rm = rowToRecord(row, 'base64-or-text');
  assert.equal(typeof rm, 'object', String(rm));
  return rm as ReceivedMessage;
}

describe('BigQuery rows written with the topic schema', () => {
  it('a row with metadata columns and no data column is a message whose payload is its schema columns, marked decoded', () => {
    const m = record(ROW).message;
    assert.equal(m.messageId, '7001');
    assert.equal(m.publishTime, '2026-12-01T14:30:00.1Z');
    assert.equal(m.orderingKey, 'A');
    assert.equal(m.attributes?.googclient_schemaencoding, 'BINARY');
    assert.equal(m.decodedBy, TOPIC_SCHEMA_COLUMNS);
    assert.deepEqual(JSON.parse(Buffer.from(m.data as string, 'base64').toString('utf8')), {
      channel: 'A',
      seq: '9007199254740993',
      price: 101.25,
      side: 'BUY',
      legs: [{ venue: 'X', qty: '3' }],
    });
  });

  it('a row with a data column, or with metadata only, reads as before (no decoded record)', () => {
    assert.equal(record({ ...ROW, data: 'aGk=' }).message.decodedBy, undefined);
    const bare = record({ message_id: '7', publish_time: '2026-12-01 09:30:00 UTC' }).message;
    assert.deepEqual(bare, { messageId: '7', publishTime: '2026-12-01T09:30:00Z' });
  });

  it('json: fields read the columns, never the attributes’ BINARY schema; int64 beyond 2^53 stays exact', () => {
    const rm = record(ROW);
    const v = parsePayloadJson(rm, undefined);
    assert.deepEqual(v, { value: { channel: 'A', seq: '9007199254740993', price: 101.25, side: 'BUY', legs: [{ venue: 'X', qty: '3' }] } });
    const reading = schemaReading(rm.message.data, rm.message.attributes, undefined, undefined, rm.message.decodedBy);
    assert.equal(reading?.kind, 'decoded');
    assert.equal(reading?.kind === 'decoded' && reading.source, TOPIC_SCHEMA_COLUMNS);
    assert.equal(reading?.kind === 'decoded' && (reading.record as { seq: string }).seq, '9007199254740993');
    const text = decodedTextOf(undefined)(rm);
    assert.ok(typeof text === 'object');
    assert.match(text.text, /"side":"BUY"/);
  });

  it('two copies whose columns differ are different content (a conflict, not a redelivery)', () => {
    assert.equal(contentHash(record(ROW).message), contentHash(record({ ...ROW }).message));
    assert.notEqual(contentHash(record(ROW).message), contentHash(record({ ...ROW, price: 101.5 }).message));
  });

  it('the JSONL export writes the row decoded, and reads back as the same message', () => {
    const rm = record(ROW);
    const entry = parseEntry(JSON.stringify(ROW), 0, 1);
    assert.deepEqual(entry.record, rm);
    const ev = messageEvent('A', 1, entry, 0, 0, 0, undefined, undefined);
    const line = JSON.parse(new JsonlFormatter().format([ev]));
    assert.equal(line.decodedBy, TOPIC_SCHEMA_COLUMNS);
    assert.equal(line.decoded.seq, '9007199254740993');
    const back = parseEntry(JSON.stringify(line), 0, 1).record as ReceivedMessage;
    assert.equal(back.message.decodedBy, TOPIC_SCHEMA_COLUMNS);
    assert.deepEqual(parsePayloadJson(back, undefined), parsePayloadJson(rm, undefined));
  });

  it('the fixture: each line a message or, for the bad time, an invalid record with the reason', () => {
    const lines = readFileSync(ROWS, 'utf8').trim().split('\n');
    const entries = lines.map((l, i) => parseEntry(l, 0, i + 1));
    assert.equal(entries.filter((e) => e.record).length, 6);
    const bad = entries.filter((e) => e.invalid);
    assert.deepEqual(
      bad.map((e) => e.line),
      [6],
    );
    assert.match(bad[0].invalid as string, /^publish_time "yesterday" is not a time/);
  });
});
