/**
 * Writes Pub/Sub archive files the way Google's services do, with avsc and the schemas Google
 * documents (see test/fixtures/archives/NOTICE.md for where each fact comes from). Used by
 * scripts/write-archive-fixtures.ts (the checked-in fixtures) and the archive benchmark.
 */
import { streams } from 'avsc';
import { topicSchemaType } from '../../src/core/capture/avroTopicRecords';

/** Cloud Storage subscription, Avro output, write_metadata disabled (Google's docs, verbatim). */
export const GCS_DATA_ONLY_SCHEMA = {
  type: 'record',
  namespace: 'com.google.pubsub',
  name: 'PubsubMessage',
  fields: [{ name: 'data', type: 'bytes' }],
};

/** Cloud Storage subscription, Avro output, write_metadata enabled (Google's docs, verbatim). */
export const GCS_WITH_METADATA_SCHEMA = {
  type: 'record',
  namespace: 'com.google.pubsub',
  name: 'PubsubMessageWithMetadata',
  fields: [
    { name: 'subscription_name', type: 'string' },
    { name: 'message_id', type: 'string' },
    { name: 'publish_time', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'attributes', type: { type: 'map', values: 'string' } },
    { name: 'data', type: 'bytes' },
  ],
};

/**
 * A BigQuery subscription's table (write_metadata; data BYTES, attributes STRING) exported as
 * Avro: NULLABLE columns become unions with null, TIMESTAMP a long timestamp-micros.
 */
export const BIGQUERY_AVRO_SCHEMA = {
  type: 'record',
  name: 'Root',
  fields: [
    { name: 'subscription_name', type: ['null', 'string'] },
    { name: 'message_id', type: ['null', 'string'] },
    { name: 'publish_time', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
    { name: 'data', type: ['null', 'bytes'] },
    { name: 'attributes', type: ['null', { type: 'string', sqlType: 'JSON' }] },
  ],
};

export const SUBSCRIPTION = 'projects/demo-project/subscriptions/orders-archive';

/** One published message of a fixture. */
export interface ArchiveMessage {
  readonly id: string;
  /** Publish time, microseconds since the epoch. */
  readonly us: number;
  readonly key?: string;
  readonly attributes: Record<string, string>;
  readonly payload: string;
}

/** 2026-12-01T09:30:00Z in microseconds. */
export const T0_US = Date.UTC(2026, 11, 1, 9, 30, 0) * 1000;

/** Cloud Storage Avro record (write_metadata): the ordering key is an entry of the attributes map. */
export function gcsRecord(m: ArchiveMessage): Record<string, unknown> {
  return {
    subscription_name: SUBSCRIPTION,
    message_id: m.id,
    publish_time: m.us,
    attributes: m.key === undefined ? m.attributes : { ...m.attributes, ordering_key: m.key },
    data: Buffer.from(m.payload, 'utf8'),
  };
}

/** BigQuery row: attributes (ordering key included) as a JSON string. */
export function bigQueryAvroRow(m: ArchiveMessage): Record<string, unknown> {
  return { ...gcsRecord(m), attributes: JSON.stringify(m.key === undefined ? m.attributes : { ...m.attributes, ordering_key: m.key }) };
}

/** BigQuery JSON export of a row: TIMESTAMP as "YYYY-MM-DD HH:MM:SS[.ffffff] UTC" (trailing zeros dropped), BYTES as base64. */
export function bigQueryJsonRow(m: ArchiveMessage): string {
  const iso = new Date(Math.floor(m.us / 1000)).toISOString();
  const frac = String(m.us % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  const time = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? '.' + frac : ''} UTC`;
  const attrs = m.key === undefined ? m.attributes : { ...m.attributes, ordering_key: m.key };
  return JSON.stringify({
    subscription_name: SUBSCRIPTION,
    message_id: m.id,
    publish_time: time,
    data: Buffer.from(m.payload).toString('base64'),
    attributes: JSON.stringify(attrs),
  });
}

/** An Avro object container file of `records`, with a fixed sync marker so the bytes are reproducible. */
export function encodeAvro(
  schema: object,
  records: readonly object[],
  o: { blockSize?: number; codec?: 'null' | 'deflate'; exactLongs?: boolean } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const enc = new streams.BlockEncoder(
      // Longs beyond 2^53 are written from decimal strings (as SeqScope reads them).
      (o.exactLongs ? topicSchemaType(schema) : schema) as never,
      {
        blockSize: o.blockSize ?? 65536,
        codec: o.codec ?? 'null',
        syncMarker: Buffer.from('SeqScopeFixture!', 'latin1'),
      } as never,
    );
    const parts: Buffer[] = [];
    enc.on('data', (c: Buffer) => parts.push(c));
    enc.on('error', reject);
    enc.on('end', () => resolve(Buffer.concat(parts)));
    for (const r of records) enc.write(r);
    enc.end();
  });
}

/**
 * The main scenario, per key in publish order: acct-1 numbers 1 2 3 5 6 with 2 delivered twice
 * (same message id: a redelivery) and 4 never published; acct-2 numbers 1 2 3. `n` is the
 * sequence attribute.
 */
export function scenario(): ArchiveMessage[] {
  const at = (s: number) => T0_US + Math.round(s * 1_000_000);
  const m = (id: string, s: number, key: string, n: number): ArchiveMessage => ({
    id,
    us: at(s) + 123,
    key,
    attributes: { n: String(n) },
    payload: JSON.stringify({ key, n }),
  });
  return [
    m('1001', 0, 'acct-1', 1),
    m('2001', 0.5, 'acct-2', 1),
    m('1002', 1, 'acct-1', 2),
    m('1002', 1.5, 'acct-1', 2),
    m('2002', 2, 'acct-2', 2),
    m('1003', 3, 'acct-1', 3),
    m('2003', 4, 'acct-2', 3),
    m('1005', 20, 'acct-1', 5),
    m('1006', 21, 'acct-1', 6),
  ];
}

/**
 * Pub/Sub's docs: a key's messages may be split across several Cloud Storage files. Key
 * `order-7` numbers 1–6, published a second apart, written to two files: 1 2 5 6 and 3 4.
 */
export function splitKey(): [ArchiveMessage[], ArchiveMessage[]] {
  const m = (n: number): ArchiveMessage => ({ id: `70${n}`, us: T0_US + n * 1_000_000, key: 'order-7', attributes: { n: String(n) }, payload: `step ${n}` });
  return [
    [m(1), m(2), m(5), m(6)],
    [m(3), m(4)],
  ];
}

/**
 * A topic's Avro schema, as a schema topic's publisher writes records of it: a `long` beyond
 * 2^53 (`venue_ts_ns`), an enum and a nullable field among its fields.
 */
export const TOPIC_SCHEMA = {
  type: 'record',
  name: 'Trade',
  namespace: 'com.example.md',
  fields: [
    { name: 'channel', type: 'string' },
    { name: 'seq', type: 'long' },
    { name: 'price', type: 'double' },
    { name: 'side', type: { type: 'enum', name: 'Side', symbols: ['BUY', 'SELL'] } },
    { name: 'venue_ts_ns', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
};

/**
 * A Cloud Storage subscription's Avro output with use_topic_schema and write_metadata: the topic
 * schema's fields with write_metadata's beside them (put first here: the docs say "additional
 * fields" and not where; SeqScope reads them anywhere).
 */
export const GCS_TOPIC_SCHEMA_WITH_METADATA = {
  ...TOPIC_SCHEMA,
  fields: [...GCS_WITH_METADATA_SCHEMA.fields.filter((f) => f.name !== 'data'), ...TOPIC_SCHEMA.fields],
};

/** One record of the topic schema, published under id `id` at `us` (microseconds). */
export interface TopicTrade {
  readonly id: string;
  readonly us: number;
  readonly channel: string;
  readonly seq: number;
  readonly price: number;
  readonly side: 'BUY' | 'SELL';
  /** Nanoseconds, beyond 2^53: a decimal string. */
  readonly venueTsNs: string;
  readonly note: string | null;
}

/**
 * Channel A numbers 1 2 4 5 (3 never published), channel B 1 2, number 2 of B delivered twice
 * (the same message id: a redelivery). Ordered by the ordering key = channel.
 */
export function topicTrades(): TopicTrade[] {
  const t = (id: string, s: number, channel: string, seq: number, side: 'BUY' | 'SELL', note: string | null = null): TopicTrade => ({
    id,
    us: T0_US + Math.round(s * 1_000_000),
    channel,
    seq,
    price: 101.25 + seq / 4,
    side,
    // The venue's time of the trade: the same in every copy of a message.
    venueTsNs: String(1_796_117_400_000_000_000n + BigInt(id) * 1_000_003n),
    note,
  });
  return [
    t('5001', 0, 'A', 1, 'BUY'),
    t('6001', 0.25, 'B', 1, 'SELL', 'opening'),
    t('5002', 0.5, 'A', 2, 'SELL'),
    t('6002', 0.75, 'B', 2, 'BUY'),
    t('6002', 1, 'B', 2, 'BUY'),
    t('5004', 1.5, 'A', 4, 'BUY'),
    t('5005', 2, 'A', 5, 'SELL'),
  ];
}

/** The topic schema's fields of a trade. */
export function topicFields(m: TopicTrade): Record<string, unknown> {
  return { channel: m.channel, seq: m.seq, price: m.price, side: m.side, venue_ts_ns: m.venueTsNs, note: m.note };
}

/** A use_topic_schema record with write_metadata's fields (the ordering key among the attributes). */
export function gcsTopicRecord(m: TopicTrade): Record<string, unknown> {
  return {
    subscription_name: SUBSCRIPTION,
    message_id: m.id,
    publish_time: m.us,
    attributes: { ordering_key: m.channel },
    ...topicFields(m),
  };
}
