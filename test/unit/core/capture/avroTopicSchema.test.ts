/**
 * Avro archives written with the topic's schema (a Cloud Storage subscription's use_topic_schema):
 * told from Google's archive schemas by their fields, read as messages whose payload is the
 * record's own fields — keys and numbers from them, longs beyond 2^53 exact.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvroArchiveError, AvroArchiveParser, archiveSchema } from '../../../../src/core/capture/avroArchive';
import { TOPIC_SCHEMA_RECORDS } from '../../../../src/core/capture/avroTopicRecords';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { newRecordFields, readFields } from '../../../../src/core/capture/recordFields';
import { DEFAULT_OPTIONS } from '../../../../src/core/sequencer/sequencingOptions';
import { SerialSpace } from '../../../../src/core/sequencer/serial';
import {
  BIGQUERY_AVRO_SCHEMA,
  encodeAvro,
  GCS_DATA_ONLY_SCHEMA,
  GCS_TOPIC_SCHEMA_WITH_METADATA,
  GCS_WITH_METADATA_SCHEMA,
  gcsTopicRecord,
  TOPIC_SCHEMA,
  topicTrades,
} from '../../../support/archiveFixtures';

const fixtures = join(__dirname, '..', '..', '..', 'fixtures', 'archives');

function entriesOf(bytes: Buffer): { entries: CaptureEntry[]; parser: AvroArchiveParser } {
  const parser = new AvroArchiveParser(0, 'trades.avro', 0);
  return { entries: [...parser.push(bytes), ...parser.end()], parser };
}

const payload = (e: CaptureEntry) => JSON.parse(Buffer.from(e.record!.message.data!, 'base64').toString('utf8')) as Record<string, unknown>;
const decodedBy = (e: CaptureEntry) => (e.record!.message as { decodedBy?: string }).decodedBy;

describe('Avro archives written with the topic schema', () => {
  it('tells the schemas apart by their fields', () => {
    assert.deepEqual(archiveSchema(GCS_WITH_METADATA_SCHEMA), { kind: 'with-metadata' });
    assert.deepEqual(archiveSchema(BIGQUERY_AVRO_SCHEMA), { kind: 'with-metadata' });
    assert.deepEqual(archiveSchema(GCS_DATA_ONLY_SCHEMA), { kind: 'data-only' });
    assert.deepEqual(archiveSchema(GCS_TOPIC_SCHEMA_WITH_METADATA), { kind: 'topic-schema', metadata: true });
    assert.deepEqual(archiveSchema(TOPIC_SCHEMA), { kind: 'topic-schema', metadata: false });
    // A field named data among the topic's own: the topic's record, data included.
    assert.deepEqual(
      archiveSchema({
        type: 'record',
        name: 'T',
        fields: [
          { name: 'data', type: 'int' },
          { name: 'x', type: 'string' },
        ],
      }),
      {
        kind: 'topic-schema',
        metadata: false,
      },
    );
  });

  it('keeps the input error for a file that is neither', () => {
    assert.throws(
      () => archiveSchema({ type: 'array', items: 'string' }),
      (e: unknown) => e instanceof AvroArchiveError && /not a record of Pub\/Sub messages/.test(e.message),
    );
    assert.throws(() => archiveSchema({ type: 'record', name: 'E', fields: [] }), /not a record of Pub\/Sub messages/);
    assert.throws(
      () =>
        archiveSchema({
          type: 'record',
          name: 'T',
          fields: [
            { name: 'message_id', type: 'long' },
            { name: 'publish_time', type: 'long' },
            { name: 'x', type: 'int' },
          ],
        }),
      /field "message_id" is "long", expected string/,
    );
    assert.throws(
      () =>
        archiveSchema({
          type: 'record',
          name: 'T',
          fields: [
            { name: 'message_id', type: 'string' },
            { name: 'publish_time', type: 'boolean' },
            { name: 'x', type: 'int' },
          ],
        }),
      /field "publish_time" is "boolean"/,
    );
    assert.throws(
      () => archiveSchema({ ...GCS_WITH_METADATA_SCHEMA, fields: [...GCS_WITH_METADATA_SCHEMA.fields.slice(0, 4), { name: 'data', type: 'int' }] }),
      /field "data" is "int"/,
    );
  });

  it('reads write_metadata’s fields as the message and the rest as its decoded record', () => {
    const { entries, parser } = entriesOf(readFileSync(join(fixtures, 'gcs-topic-schema.avro')));
    assert.equal(parser.kind, 'topic-schema');
    assert.equal(parser.untimed, false);
    assert.equal(entries.length, 7);
    const [first] = entries;
    assert.equal(first.record!.message.messageId, '5001');
    assert.equal(first.record!.message.publishTime, '2026-12-01T09:30:00.000000Z');
    assert.equal(first.record!.message.orderingKey, 'A');
    assert.deepEqual(first.record!.message.attributes, { ordering_key: 'A' });
    assert.equal(first.time, Date.UTC(2026, 11, 1, 9, 30));
    assert.equal(decodedBy(first), TOPIC_SCHEMA_RECORDS);
    // No write_metadata field in the record; the enum as its symbol, the null branch as null, the long beyond 2^53 exact.
    assert.deepEqual(payload(first), { channel: 'A', seq: 1, price: 101.5, side: 'BUY', venue_ts_ns: '1796117405001015003', note: null });
    assert.deepEqual(payload(entries[1]).note, 'opening');
  });

  it('gives json: keys and numbers the record’s fields', () => {
    const { entries } = entriesOf(readFileSync(join(fixtures, 'gcs-topic-schema.avro')));
    const options = { ...DEFAULT_OPTIONS, key: { kind: 'json', path: ['channel'] }, seq: { kind: 'json', path: ['seq'] } } as const;
    const f = newRecordFields();
    const read = entries.map((e) => (readFields(e.record!, options, new SerialSpace(64), f) ? `${f.key}:${f.seq}` : f.reason));
    assert.deepEqual(read, ['A:1', 'B:1', 'A:2', 'B:2', 'B:2', 'A:4', 'A:5']);
    // The long beyond 2^53 is text, so not a number to sequence by: said, not rounded.
    const wide = { ...options, seq: { kind: 'json', path: ['venue_ts_ns'] } } as const;
    assert.equal(readFields(entries[0].record!, wide, new SerialSpace(64), f), false);
    assert.match(f.reason!, /payload field venue_ts_ns "1796117405001015003"/);
  });

  it('names records without write_metadata <file>#<n>, in file order, with no time', () => {
    const { entries, parser } = entriesOf(readFileSync(join(fixtures, 'gcs-topic-schema-no-metadata.avro')));
    assert.equal(parser.untimed, true);
    assert.deepEqual(
      entries.map((e) => e.record!.message.messageId),
      [1, 2, 3, 4, 5, 6, 7].map((n) => `trades.avro#${n}`),
    );
    assert.ok(entries.every((e) => e.time === 0 && e.record!.message.publishTime === undefined && decodedBy(e) === TOPIC_SCHEMA_RECORDS));
    assert.equal(payload(entries[2]).seq, 2);
  });

  it('says why a record’s metadata is not a message, with its place', async () => {
    const [good, bad] = topicTrades();
    const bytes = await encodeAvro(GCS_TOPIC_SCHEMA_WITH_METADATA, [gcsTopicRecord(good), { ...gcsTopicRecord(bad), message_id: '' }], { exactLongs: true });
    const { entries } = entriesOf(bytes);
    assert.equal(entries[0].record?.message.messageId, '5001');
    assert.equal(entries[1].record, undefined);
    assert.match(entries[1].invalid!, /^row has no message_id \(Avro record 2, block at byte \d+\)$/);
  });
});
