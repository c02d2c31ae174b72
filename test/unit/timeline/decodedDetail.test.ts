/** The detail pane's and Copy Message's decoded record for payloads with a schema (test/fixtures/schemas). */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toRecord } from '../../../src/core/capture/captureRecord';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { schemaSetFromSetting } from '../../../src/core/schema/schemaSetting';
import { detailDecoder, withDecoded } from '../../../src/timeline/decodedPayload';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { SessionFiles } from '../../../src/timeline/node/sessionFiles';
import { TimelineService } from '../../../src/timeline/timelineService';

const DIR = join(__dirname, '..', '..', 'fixtures', 'schemas');
const CAPTURE = join(DIR, 'avro-binary.jsonl');

describe('message detail of payloads with a schema', () => {
  it('carries the decoded record and its source, or why it does not match; nothing without a schema', async () => {
    const schemas = await schemaSetFromSetting({ trades: 'trades.avsc' }, { resolve: (p) => join(DIR, p), read: (p) => readFile(p, 'utf8') });
    const options = { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas };
    const { session } = await loadSession([CAPTURE], options);
    assert.deepEqual([session.summary.received, session.summary.delivered, session.summary.invalid], [7, 7, 1]);
    const files = new SessionFiles(session);
    /** The event of an arrival (the message, or its invalid record). */
    const eventOf = (arrival: number) => {
      for (let id = 0; id < session.store.count; id++) if (session.event(id).arrival === arrival && session.event(id).kind !== 'gap') return id;
      throw new Error(`no event for arrival ${arrival}`);
    };
    try {
      const svc = new TimelineService(session, { id: 's', title: 't', options: '' }, (a) => files.read(a), undefined, detailDecoder(schemas));
      const first = await svc.detail(eventOf(0));
      assert.equal(first.decoded?.source, 'trades.avsc');
      assert.deepEqual(JSON.parse(first.decoded?.text ?? ''), { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
      assert.equal(first.decodeError, undefined);
      assert.ok(first.data, 'the raw payload is still there');
      const cut = await svc.detail(eventOf(7));
      assert.equal(cut.event.kind, 'invalid');
      assert.equal(cut.decoded, undefined);
      assert.match(cut.decodeError ?? '', /^the payload does not match the schema from trades\.avsc: .*price/);
      // Copy Message: the line's own fields, then the decoded record.
      const line = JSON.parse((await files.readText(0)) ?? '') as Record<string, unknown>;
      const rm = toRecord(line);
      assert.ok(typeof rm !== 'string');
      const copied = withDecoded(line, rm, schemas);
      assert.deepEqual(Object.keys(copied), [...Object.keys(line), 'decoded']);
      assert.deepEqual(copied.decoded, { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
      // Without a definition for its schema a binary payload says what to give.
      const bare = await new TimelineService(session, { id: 's', title: 't', options: '' }, (a) => files.read(a), undefined, detailDecoder(undefined)).detail(
        eventOf(0),
      );
      assert.match(bare.decodeError ?? '', /--schema trades=FILE\.avsc/);
      assert.deepEqual(withDecoded({ a: 1 }, { message: { messageId: '1', data: 'e30=' } }, schemas), { a: 1 }, 'no schema: as it is');
    } finally {
      await files.close?.();
    }
  });

  it('a BigQuery row written with the topic schema opens with its columns as the decoded record', async () => {
    const rows = join(__dirname, '..', '..', 'fixtures', 'bigquery-schema', 'rows.jsonl');
    const { session } = await loadSession([rows], resolveOptions({ key: 'json:channel', seq: 'json:seq' }));
    assert.deepEqual([session.summary.received, session.summary.delivered, session.summary.invalid], [6, 5, 1]);
    const files = new SessionFiles(session);
    try {
      const svc = new TimelineService(session, { id: 's', title: 't', options: '' }, (a) => files.read(a), undefined, detailDecoder(undefined));
      let id = 0;
      while (session.event(id).arrival !== 0) id++;
      const d = await svc.detail(id);
      assert.equal(d.decoded?.source, "the BigQuery table's columns (use_topic_schema)");
      assert.deepEqual(JSON.parse(d.decoded?.text ?? ''), { channel: 'A', seq: '1', price: 101.25, side: 'BUY' });
      assert.equal(d.decodeError, undefined, 'the BINARY schema its attributes name is not applied to the columns');
      assert.equal(d.orderingKey, 'A');
    } finally {
      await files.close?.();
    }
  });
});
