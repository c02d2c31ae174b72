/**
 * Writes test/fixtures/archives/: Pub/Sub Cloud Storage and BigQuery subscription outputs made
 * with avsc and the documented schemas (facts and sources: test/fixtures/archives/NOTICE.md).
 * Run: npx tsx scripts/write-archive-fixtures.ts. The output is byte-for-byte reproducible.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BIGQUERY_AVRO_SCHEMA,
  bigQueryAvroRow,
  bigQueryJsonRow,
  encodeAvro,
  GCS_DATA_ONLY_SCHEMA,
  GCS_TOPIC_SCHEMA_WITH_METADATA,
  GCS_WITH_METADATA_SCHEMA,
  gcsRecord,
  gcsTopicRecord,
  TOPIC_SCHEMA,
  topicFields,
  topicTrades,
  scenario,
  splitKey,
  SUBSCRIPTION,
} from '../test/support/archiveFixtures';

const dir = join(__dirname, '..', 'test', 'fixtures', 'archives');

async function main(): Promise<void> {
  mkdirSync(join(dir, 'split'), { recursive: true });
  mkdirSync(join(dir, 'bad'), { recursive: true });
  const msgs = scenario();
  const write = (name: string, bytes: Buffer | string) => writeFileSync(join(dir, name), bytes);

  // Small blocks, so the files hold several (as Pub/Sub's do) and the damage cases can hit one.
  const withMeta = await encodeAvro(GCS_WITH_METADATA_SCHEMA, msgs.map(gcsRecord), { blockSize: 256 });
  write('gcs-metadata.avro', withMeta);
  write('gcs-metadata-deflate.avro.gz', gzipSync(await encodeAvro(GCS_WITH_METADATA_SCHEMA, msgs.map(gcsRecord), { codec: 'deflate' }), { mtime: 0 } as never));
  write(
    'gcs-data-only.avro',
    await encodeAvro(
      GCS_DATA_ONLY_SCHEMA,
      msgs.slice(0, 4).map((m) => ({ data: Buffer.from(m.payload) })),
    ),
  );
  write(
    'gcs-text.txt',
    msgs
      .slice(0, 4)
      .map((m) => m.payload + '\n')
      .join(''),
  );
  write('bigquery.avro', await encodeAvro(BIGQUERY_AVRO_SCHEMA, msgs.map(bigQueryAvroRow)));
  const rows = msgs.map(bigQueryJsonRow);
  // A row whose attributes column does not hold JSON: one invalid record, the rest still read.
  rows.splice(
    3,
    0,
    JSON.stringify({ subscription_name: SUBSCRIPTION, message_id: '9999', publish_time: '2026-12-01 09:30:01 UTC', data: '', attributes: '{"n": "7"' }),
  );
  write('bigquery.jsonl', rows.join('\n') + '\n');

  const [a, b] = splitKey();
  write('split/orders-2026-12-01T09:30:00+00:00_a1.avro', await encodeAvro(GCS_WITH_METADATA_SCHEMA, a.map(gcsRecord)));
  write('split/orders-2026-12-01T09:30:00+00:00_b2.avro', await encodeAvro(GCS_WITH_METADATA_SCHEMA, b.map(gcsRecord)));

  const trades = topicTrades();
  write('gcs-topic-schema.avro', await encodeAvro(GCS_TOPIC_SCHEMA_WITH_METADATA, trades.map(gcsTopicRecord), { blockSize: 256, exactLongs: true }));
  write('gcs-topic-schema-no-metadata.avro', await encodeAvro(TOPIC_SCHEMA, trades.map(topicFields), { exactLongs: true }));

  // write_metadata's message_id of another type: neither a Pub/Sub archive nor a topic schema's records with metadata.
  write(
    'bad/wrong-schema.avro',
    await encodeAvro(
      {
        type: 'record',
        name: 'Order',
        fields: [
          { name: 'message_id', type: 'long' },
          { name: 'publish_time', type: 'long' },
          { name: 'qty', type: 'int' },
        ],
      },
      [{ message_id: 1, publish_time: 0, qty: 1 }],
    ),
  );
  // The second block's sync marker damaged: its records are lost, the others read.
  const damaged = Buffer.from(withMeta);
  const sync = Buffer.from('SeqScopeFixture!', 'latin1');
  const second = damaged.indexOf(sync, damaged.indexOf(sync, damaged.indexOf(sync) + 16) + 16);
  damaged[second + 3] ^= 0xff;
  write('bad/corrupt-block.avro', damaged);
  write('bad/truncated.avro', withMeta.subarray(0, withMeta.length - 40));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
