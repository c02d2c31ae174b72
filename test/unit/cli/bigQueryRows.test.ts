/** `seqscope replay` on a BigQuery subscription's table written with the topic's schema (test/fixtures/bigquery-schema). */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { textSink } from '../../support/textSink';

const DIR = join(__dirname, '..', '..', 'fixtures', 'bigquery-schema');
const ROWS = join(DIR, 'rows.jsonl');
const FIELDS = ['--key', 'json:channel', '--seq', 'json:seq'];

async function seqscope(...args: string[]) {
  const stdout = textSink();
  const stderr = textSink();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function counts(json: string) {
  const s = JSON.parse(json);
  return {
    received: s.received,
    delivered: s.delivered,
    duplicates: s.duplicates,
    gaps: s.gaps,
    lost: s.lost,
    invalid: s.invalid,
    keys: s.byKey.map((k: { key: string }) => k.key).sort(),
  };
}

describe('seqscope replay: BigQuery rows written with use_topic_schema', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-bq-schema-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const threads of ['1', '2']) {
    it(`--key json:channel --seq json:seq read the schema's columns (${threads} thread${threads === '1' ? '' : 's'})`, async () => {
      const r = await seqscope('replay', ROWS, ...FIELDS, '--json', '--threads', threads);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(counts(r.stdout), { received: 6, delivered: 5, duplicates: 1, gaps: 1, lost: 1, invalid: 1, keys: ['A', 'B'] });
    });
  }

  it('the bad row is invalid with its line and reason', async () => {
    const r = await seqscope('replay', ROWS, ...FIELDS, '--threads', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /line 6: publish_time "yesterday" is not a time/);
  });

  it('--export JSONL carries the row as decoded; --grep searches it', async () => {
    const out = join(dir, 'trace.jsonl');
    const r = await seqscope('replay', ROWS, ...FIELDS, '--export', out, '--only', 'message');
    assert.equal(r.code, 0, r.stderr);
    const events = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(events[0].decoded, { channel: 'A', seq: '1', price: 101.25, side: 'BUY' });
    assert.equal(events[0].decodedBy, "the BigQuery table's columns (use_topic_schema)");
    const grep = await seqscope('replay', ROWS, ...FIELDS, '--export', '-', '--only', 'message', '--grep', '"side":"SELL"');
    assert.equal(grep.code, 0, grep.stderr);
    const ids = grep.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).messageId)
      .sort();
    assert.deepEqual(ids, ['7002', '7003']);
  });

  it('a table written without write_metadata reads as a text archive: each row named <file>#<line>, said once', async () => {
    const r = await seqscope('replay', join(DIR, 'rows-no-metadata.jsonl'), '--input-format', 'text', ...FIELDS, '--json', '--threads', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(counts(r.stdout), { received: 6, delivered: 5, duplicates: 1, gaps: 1, lost: 1, invalid: 0, keys: ['A', 'B'] });
    assert.equal(r.stderr.match(/rows-no-metadata\.jsonl is a Cloud Storage subscription text archive/g)?.length, 1);
    assert.match(r.stderr, /named <file>#<number>/);
  });
});
