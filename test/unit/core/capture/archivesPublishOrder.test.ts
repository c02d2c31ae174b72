/**
 * Archives carry each message's publish_time, so an ordering key read from one is judged by its
 * publish order like a capture: a Cloud Storage Avro file, a BigQuery Avro export and a BigQuery
 * JSON export, each with a key written out of publish order.
 */
import assert from 'node:assert/strict';
import { AvroArchiveParser } from '../../../../src/core/capture/avroArchive';
import { CaptureEntry, parseEntry } from '../../../../src/core/capture/captureRecord';
import { ReplayEngine } from '../../../../src/core/replay/replayEngine';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { ReorderedEvent } from '../../../../src/core/trace/traceEvents';
import {
  ArchiveMessage,
  BIGQUERY_AVRO_SCHEMA,
  bigQueryAvroRow,
  bigQueryJsonRow,
  encodeAvro,
  gcsRecord,
  GCS_WITH_METADATA_SCHEMA,
  T0_US,
} from '../../../support/archiveFixtures';

/** Key acct-1 published 1001 (0 s), 1002 (1 s), 1003 (3 s); the archive holds 1003 before 1002. acct-2 in order. */
function plantedReorder(): ArchiveMessage[] {
  const m = (id: string, s: number, key: string): ArchiveMessage => ({
    id,
    us: T0_US + s * 1_000_000 + 123,
    key,
    attributes: {},
    payload: JSON.stringify({ id }),
  });
  return [m('1001', 0, 'acct-1'), m('2001', 0.5, 'acct-2'), m('1003', 3, 'acct-1'), m('2002', 3.5, 'acct-2'), m('1002', 1, 'acct-1')];
}

/** The default options (ordering keys judged by publish order), over the entries in file order. */
function reordered(entries: readonly CaptureEntry[]): { events: ReorderedEvent[]; options: string } {
  const events: ReorderedEvent[] = [];
  const engine = new ReplayEngine(resolveOptions({}), (ev) => {
    if (ev.type === 'reordered') events.push(ev);
  });
  engine.pushAll(entries);
  engine.finish();
  const s = engine.summary();
  assert.equal(s.invalid, 0);
  assert.equal(s.reordered, events.length);
  return { events, options: s.options };
}

async function avroEntries(schema: object, records: object[]): Promise<CaptureEntry[]> {
  const parser = new AvroArchiveParser(0, 'archive.avro', 0);
  return [...parser.push(await encodeAvro(schema, records)), ...parser.end()];
}

const EXPECTED = { key: 'acct-1', messageId: '1002', behindMessageId: '1003', byMs: 2000, byPosition: 1 };

describe('archives: judged by publish order', () => {
  it('a Cloud Storage Avro file (write_metadata): the message written after a later-published one is reordered', async () => {
    const { events, options } = reordered(await avroEntries(GCS_WITH_METADATA_SCHEMA, plantedReorder().map(gcsRecord)));
    assert.match(options, /seq publishTime/);
    assert.deepEqual(
      events.map((e) => ({ key: e.key, messageId: e.messageId, behindMessageId: e.behindMessageId, byMs: e.byMs, byPosition: e.byPosition })),
      [EXPECTED],
    );
    assert.equal(events[0].publishTime, '2026-12-01T09:30:01.000123Z');
    assert.equal(events[0].behindPublishTime, '2026-12-01T09:30:03.000123Z');
  });

  it('a BigQuery Avro export', async () => {
    const { events } = reordered(await avroEntries(BIGQUERY_AVRO_SCHEMA, plantedReorder().map(bigQueryAvroRow)));
    assert.deepEqual(
      events.map((e) => ({ key: e.key, messageId: e.messageId, behindMessageId: e.behindMessageId, byMs: e.byMs, byPosition: e.byPosition })),
      [EXPECTED],
    );
  });

  it('a BigQuery JSON export', () => {
    const entries = plantedReorder().map((m, i) => parseEntry(bigQueryJsonRow(m), 0, i + 1));
    const { events } = reordered(entries);
    assert.deepEqual(
      events.map((e) => ({ key: e.key, messageId: e.messageId, behindMessageId: e.behindMessageId, byMs: e.byMs, byPosition: e.byPosition, line: e.line })),
      [{ ...EXPECTED, line: 5 }],
    );
  });
});
