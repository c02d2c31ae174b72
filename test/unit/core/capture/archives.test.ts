/** Pub/Sub archives (Cloud Storage Avro and text, BigQuery rows) read as captures: the reader, and the built CLI on the fixtures. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvroArchiveParser } from '../../../../src/core/capture/avroArchive';
import { exportTime, rowToRecord } from '../../../../src/core/capture/bigQueryRows';
import { patternRegExp } from '../../../../src/core/capture/capturePaths';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { buildCli } from '../../../support/builtCli';

const root = join(__dirname, '..', '..', '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'archives');

describe('archives: BigQuery rows', () => {
  it('reads BigQuery TIMESTAMP text, shortened fraction or none, and RFC 3339', () => {
    assert.equal(exportTime('2026-12-01 09:30:00.123456 UTC'), '2026-12-01T09:30:00.123456Z');
    assert.equal(exportTime('2026-12-01 09:30:00.1 UTC'), '2026-12-01T09:30:00.1Z');
    assert.equal(exportTime('2026-12-01 09:30:00 UTC'), '2026-12-01T09:30:00Z');
    assert.equal(exportTime('2026-12-01T09:30:00.5+01:00'), '2026-12-01T09:30:00.5+01:00');
    assert.equal(exportTime(1796117400123456), '2026-12-01T09:30:00.123456Z');
    assert.equal(exportTime(1796117400000001), '2026-12-01T09:30:00.000001Z');
    assert.equal(exportTime('2026-12-01 09:30:00'), undefined, 'no zone: not guessed');
    assert.equal(exportTime('yesterday'), undefined);
  });

  it('takes the ordering key out of the attributes, attributes as a JSON string or an object', () => {
    const row = { message_id: '7', publish_time: '2026-12-01 09:30:00 UTC', attributes: '{"n":"1","ordering_key":"acct-1"}', data: 'aGk=' };
    assert.deepEqual(rowToRecord(row, 'base64-or-text'), {
      message: { messageId: '7', publishTime: '2026-12-01T09:30:00Z', orderingKey: 'acct-1', attributes: { n: '1', ordering_key: 'acct-1' }, data: 'aGk=' },
    });
    const obj = rowToRecord({ ...row, attributes: { n: 2 }, data: { price: 1 } }, 'base64-or-text');
    assert.deepEqual(obj, {
      message: { messageId: '7', publishTime: '2026-12-01T09:30:00Z', attributes: { n: '2' }, data: Buffer.from('{"price":1}').toString('base64') },
    });
  });

  it('says why a row is not a record', () => {
    assert.match(
      rowToRecord({ message_id: '7', publish_time: '2026-12-01 09:30:00 UTC', attributes: '{"n":' }, 'text') as string,
      /^attributes is not valid JSON/,
    );
    assert.match(rowToRecord({ message_id: '7', publish_time: 'soon' }, 'text') as string, /^publish_time "soon" is not a time/);
    assert.equal(rowToRecord({ message_id: '' }, 'text'), 'row has no message_id');
  });
});

describe('archives: Avro container parsing', () => {
  it('reads the same entries whether the bytes come whole or a byte at a time', () => {
    const bytes = readFileSync(join(fixtures, 'gcs-metadata.avro'));
    const whole = new AvroArchiveParser(0, 'x', 0);
    const a = [...whole.push(bytes), ...whole.end()];
    const bytewise = new AvroArchiveParser(0, 'x', 0);
    const b: CaptureEntry[] = [];
    for (let i = 0; i < bytes.length; i++) b.push(...bytewise.push(bytes.subarray(i, i + 1)));
    b.push(...bytewise.end());
    assert.equal(a.length, 9);
    assert.deepEqual(b, a);
    assert.deepEqual(a[0].record, {
      message: {
        messageId: '1001',
        publishTime: '2026-12-01T09:30:00.000123Z',
        orderingKey: 'acct-1',
        attributes: { n: '1', ordering_key: 'acct-1' },
        data: Buffer.from('{"key":"acct-1","n":1}').toString('base64'),
      },
    });
    assert.equal(a[0].time, Date.UTC(2026, 11, 1, 9, 30) + 0.123);
  });

  it('matches file-name patterns', () => {
    assert.ok(patternRegExp('orders-*.avro').test('orders-2026-12-01T09:30:00+00:00_a1.avro'));
    assert.ok(!patternRegExp('orders-*.avro').test('orders-1.avro.tmp'));
    assert.ok(patternRegExp('part-?.txt').test('part-1.txt'));
  });
});

describe('archives: the built CLI', function () {
  this.timeout(60_000);
  let dir: string;
  let cli: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-archives-'));
    cli = await buildCli(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function replay(...args: string[]) {
    const r = spawnSync(process.execPath, [cli, 'replay', '--json', '--seq', 'attribute:n', '--gap-timeout', '5s', ...args], {
      encoding: 'utf8',
      cwd: fixtures,
    });
    return { code: r.status, stderr: r.stderr, summary: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined };
  }

  /** The counts of the fixture scenario (NOTICE.md): acct-1 1 2 2' 3 5 6, acct-2 1 2 3. */
  const SCENARIO = { received: 9, delivered: 8, gaps: 1, lost: 1, duplicates: 1, redeliveries: 1, keys: 2 };
  const counts = (s: Record<string, unknown> | undefined) => s && Object.fromEntries(Object.keys(SCENARIO).map((k) => [k, s[k]]));

  for (const file of ['gcs-metadata.avro', 'gcs-metadata-deflate.avro.gz', 'bigquery.avro']) {
    it(`replays ${file}`, () => {
      const r = replay(file);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(counts(r.summary), SCENARIO);
      assert.equal(r.summary?.invalid, 0);
      assert.equal(r.summary?.firstTime, Date.UTC(2026, 11, 1, 9, 30) + 0.123);
      assert.deepEqual(
        (r.summary?.byKey as { key: string }[]).map((k) => k.key),
        ['acct-1', 'acct-2'],
      );
      assert.equal(r.stderr, '');
    });
  }

  it('replays BigQuery JSON Lines, the row whose attributes are not JSON counted invalid by its line', () => {
    const r = replay('bigquery.jsonl');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(counts(r.summary), SCENARIO);
    assert.equal(r.summary?.invalid, 1);
    const [sample] = r.summary?.invalidSamples as { line: number; reason: string }[];
    assert.equal(sample.line, 4);
    assert.match(sample.reason, /^attributes is not valid JSON/);
  });

  it('replays an Avro archive written without metadata, saying what is unknown', () => {
    const r = replay('--seq', 'none', 'gcs-data-only.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 4);
    assert.equal(r.summary?.keys, 1);
    assert.match(
      r.stderr,
      /^seqscope: note: gcs-data-only\.avro is a Cloud Storage subscription Avro archive written without write_metadata: its messages carry no ids, publish times/,
    );
  });

  it('reads a text archive only when asked, in file order, saying what is unknown', () => {
    // Its payloads are JSON objects: read as JSON Lines, no line is a message, and the run says what to do.
    const guessed = replay('--seq', 'none', 'gcs-text.txt');
    assert.equal(guessed.summary?.received, 0);
    assert.equal(guessed.summary?.invalid, 4);
    assert.equal(guessed.code, 2, 'no record could be sequenced: a failed run');
    assert.equal(guessed.stderr.trim().split('\n').length, 1, guessed.stderr);
    assert.match(
      guessed.stderr,
      /note: no record is a Pub\/Sub message: if these are bare payloads \(a Cloud Storage subscription's text archive\), read them with --input-format text/,
    );
    const r = replay('--seq', 'none', '--input-format', 'text', 'gcs-text.txt');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 4);
    assert.equal(r.summary?.duplicates, 0);
    assert.match(
      r.stderr,
      /note: gcs-text\.txt is a Cloud Storage subscription text archive \(bare payloads\): its messages carry no ids, publish times, attributes or ordering keys; file order is taken as arrival order/,
    );
  });

  it('merges a folder, or a pattern, of files by publish time: a key split across files is sequenced right', () => {
    for (const arg of ['split', 'split/*.avro']) {
      const r = replay(arg);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((r.summary?.files as string[]).length, 2, arg);
      assert.deepEqual(counts(r.summary), { received: 6, delivered: 6, gaps: 0, lost: 0, duplicates: 0, redeliveries: 0, keys: 1 }, arg);
      assert.equal(r.summary?.late, 0);
    }
    const none = replay('split/*.jsonl');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no file matches split\/\*\.jsonl/);
  });

  it('merges archives of different kinds', () => {
    const r = replay('gcs-metadata.avro', 'bigquery.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 18);
    assert.equal(r.summary?.duplicates, 10, 'the second copy of each message is a duplicate');
  });

  it('reports a wrong Avro schema as an error naming the file and the field', () => {
    const r = replay('bad/wrong-schema.avro');
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^seqscope: bad\/wrong-schema\.avro is an Avro file but cannot be read as a Pub\/Sub archive: its Avro schema's field "message_id" is "long", expected string \(/,
    );
  });

  /** The topic-schema fixtures' scenario (NOTICE.md): channel A 1 2 4 5, B 1 2 2'. */
  const TRADES = { received: 7, delivered: 6, gaps: 1, lost: 1, duplicates: 1, redeliveries: 1, keys: 2 };
  const tradeCounts = (s: Record<string, unknown> | undefined) => s && Object.fromEntries(Object.keys(TRADES).map((k) => [k, s[k]]));

  it('replays a use_topic_schema archive by its records’ fields, the payload the record with longs exact', () => {
    const r = replay('--key', 'json:channel', '--seq', 'json:seq', 'gcs-topic-schema.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(tradeCounts(r.summary), TRADES);
    assert.equal(r.summary?.invalid, 0);
    assert.equal(r.summary?.firstTime, Date.UTC(2026, 11, 1, 9, 30));
    assert.equal(r.stderr, '');
    const out = spawnSync(
      process.execPath,
      [cli, 'replay', '--key', 'json:channel', '--seq', 'json:seq', '--export', '-', '--format', 'jsonl', 'gcs-topic-schema.avro'],
      {
        encoding: 'utf8',
        cwd: fixtures,
      },
    );
    const events = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; messageId: string; orderingKey: string; data: string });
    const first = events.find((e) => e.type === 'message')!;
    assert.equal(first.messageId, '5001');
    assert.equal(first.orderingKey, 'A');
    assert.deepEqual(JSON.parse(Buffer.from(first.data, 'base64').toString('utf8')), {
      channel: 'A',
      seq: 1,
      price: 101.5,
      side: 'BUY',
      venue_ts_ns: '1796117405001015003',
      note: null,
    });
  });

  it('replays a topic schema’s records written without metadata in file order, saying once what is unknown', () => {
    const r = replay('--key', 'json:channel', '--seq', 'json:seq', 'gcs-topic-schema-no-metadata.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(tradeCounts(r.summary), { ...TRADES, redeliveries: 0 });
    assert.equal(
      r.stderr
        .split('\n')
        .filter((l) =>
          l.includes('seqscope: note: gcs-topic-schema-no-metadata.avro is a Cloud Storage subscription Avro archive written without write_metadata'),
        ).length,
      1,
      r.stderr,
    );
  });

  it('skips a corrupt block with its byte offset and reads the rest', () => {
    const r = replay('bad/corrupt-block.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 5);
    assert.equal(r.summary?.invalid, 1);
    const [sample] = r.summary?.invalidSamples as { reason: string }[];
    assert.match(sample.reason, /^the Avro block at byte 648 is damaged \(its sync marker does not match the header's\)/);
  });

  it('ends on a block whose entry count is damaged (found by the fuzz run): the record is invalid, the rest read', () => {
    // One flipped byte turns a map's count into billions; read as written it never ended.
    const r = replay('bad/fuzz-hang.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 7);
    assert.equal(r.summary?.invalid, 1);
    assert.match((r.summary?.invalidSamples as { reason: string }[])[0].reason, /^the Avro block at byte 403 is damaged: record 1 of its 2 does not decode/);
  });

  it('reads a truncated archive up to its last whole block', () => {
    const r = replay('bad/truncated.avro');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary?.received, 8);
    assert.equal(r.summary?.invalid, 1);
    assert.match((r.summary?.invalidSamples as { reason: string }[])[0].reason, /is cut off or damaged \(the file ends before the block does/);
  });

  it('reads an Avro archive from standard input', () => {
    const input = readFileSync(join(fixtures, 'gcs-metadata-deflate.avro.gz'));
    const r = spawnSync(process.execPath, [cli, 'replay', '--json', '--seq', 'attribute:n', '-'], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { received: number }).received, 9);
  });

  it('reads a folder copied elsewhere (paths are not tied to the fixture folder)', () => {
    const copy = join(dir, 'copy');
    cpSync(join(fixtures, 'split'), copy, { recursive: true });
    const r = replay(copy);
    assert.equal(r.summary?.received, 6);
  });
});
