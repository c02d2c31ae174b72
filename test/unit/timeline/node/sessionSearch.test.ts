import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { schemaSetFromSetting } from '../../../../src/core/schema/schemaSetting';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { parseSearchInput } from '../../../../src/core/trace/messageMatch';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { recordFiles, recordRanges, searchInWorker } from '../../../../src/timeline/node/searchInWorker';
import { searchCaptures } from '../../../../src/timeline/node/sessionSearch';
import { CaptureSession } from '../../../../src/timeline/captureSession';
import { captureText } from '../../../support/captureLines';

const root = join(__dirname, '..', '..', '..', '..');
const SAMPLE = join(root, 'media', 'samples', 'cme-sample.jsonl');
const AVRO = join(root, 'test', 'fixtures', 'archives', 'gcs-metadata.avro');
const TEXT = join(root, 'test', 'fixtures', 'archives', 'gcs-text.txt');
const SCHEMAS = join(root, 'test', 'fixtures', 'schemas');
const CME = resolveOptions({ preset: 'cme' });

/** The sample's records as the file has them, decoded independently of the code under test. */
const sampleRecords = () =>
  readFileSync(SAMPLE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { message: { messageId: string; data: string } })
    .map((r) => ({ id: r.message.messageId, text: Buffer.from(r.message.data, 'base64').toString('utf8') }));

const search = (s: CaptureSession, input: string, limit?: number) => searchCaptures(recordFiles(s), recordRanges(s), parseSearchInput(input), { limit });

describe('Find Messages over a session (sessionSearch)', function () {
  this.timeout(60_000);
  let dir: string;
  let sample: CaptureSession;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-search-'));
    sample = (await loadSession([SAMPLE], CME)).session;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a message by its messageId, exactly', async () => {
    const records = sampleRecords();
    const r = await search(sample, records[2].id);
    assert.equal(r.searched, records.length);
    assert.deepEqual(
      r.hits.map((h) => [h.arrival, h.byId]),
      [[2, true]],
    );
    assert.equal(sample.log.messageId.get(r.hits[0].arrival), records[2].id);
    assert.match(r.hits[0].preview, /^\{"MsgSeqNum":41200,/);
    assert.equal((await search(sample, records[2].id.slice(0, -1) + 'x')).matched, 0);
  });

  it('finds text in decoded payloads (ignoring case) and regular expressions, in arrival order with a preview', async () => {
    const records = sampleRecords();
    const expected = records.flatMap((r, i) => (r.text.includes('4593.25') ? [i] : []));
    assert.ok(expected.length > 5, 'the sample has such payloads');
    const text = await search(sample, '4593.25');
    assert.deepEqual(
      text.hits.map((h) => h.arrival),
      expected,
    );
    assert.ok(text.hits.every((h) => !h.byId && h.preview.includes('4593.25')));
    assert.equal(text.binary, 0);

    const regex = await search(sample, '/"px":459[0-3]\\.25,"qty":4\\d/');
    const re = /"px":459[0-3]\.25,"qty":4\d/;
    assert.deepEqual(
      regex.hits.map((h) => h.arrival),
      records.flatMap((r, i) => (re.test(r.text) ? [i] : [])),
    );
    assert.equal((await search(sample, '/CHANNEL/')).matched, 0, 'case counts in a regular expression without i');
    assert.equal((await search(sample, '/CHANNEL/i')).matched, records.length);
    assert.equal((await search(sample, 'channel')).matched, records.length, 'plain text ignores case');
  });

  it('keeps the first hits up to the limit and counts the rest', async () => {
    const r = await search(sample, 'Channel', 10);
    assert.equal(r.hits.length, 10);
    assert.deepEqual(
      r.hits.map((h) => h.arrival),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.equal(r.matched, sample.arrivalCount);
  });

  it('finds in several merged captures by their arrival numbers, and in a capture without byte ranges (Avro)', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, captureText([0, 20, 40].map((t, i) => ({ t, channel: 'A', seq: i + 1, data: `a-${i + 1} needle` }))));
    writeFileSync(b, captureText([10, 30].map((t, i) => ({ t, channel: 'B', seq: i + 1, data: `b-${i + 1}` }))));
    const merged = (await loadSession([a, b], CME)).session;
    const r = await search(merged, 'needle');
    // Arrivals: a1 b1 a2 b2 a3.
    assert.deepEqual(
      r.hits.map((h) => h.arrival),
      [0, 2, 4],
    );
    assert.deepEqual(
      r.hits.map((h) => h.preview),
      ['a-1 needle', 'a-2 needle', 'a-3 needle'],
    );
    assert.deepEqual(
      (await search(merged, 'B-2')).hits.map((h) => h.arrival),
      [3],
    );
    // The first overall is the second file's, though the first file alone fills the limit.
    const first = await search(merged, '/a-[23]|b-1/', 1);
    assert.deepEqual(
      first.hits.map((h) => h.arrival),
      [1],
    );
    assert.equal(first.matched, 3);

    const avro = (await loadSession([AVRO], resolveOptions({}))).session;
    assert.ok(avro.log.offset.get(0) < 0, 'Avro records have no byte range');
    const id = avro.log.messageId.get(1);
    const byId = await search(avro, id);
    assert.deepEqual(
      byId.hits.map((h) => [h.arrival, h.byId]),
      [[1, true]],
    );
    assert.equal(byId.searched, avro.arrivalCount);
  });

  it('finds in an archive through its JSON Lines copy, as the extension opens one (Avro, a text archive)', async () => {
    const avro = (await loadSession([AVRO], resolveOptions({}), { copyTo: join(dir, 'avro-copy.jsonl') })).session;
    const id = avro.log.messageId.get(2);
    const ids = avro.log.messageId.toArray();
    assert.deepEqual(
      (await search(avro, id)).hits.map((h) => [h.arrival, h.byId]),
      ids.flatMap((x, i) => (x === id ? [[i, true]] : [])),
    );
    const text = (await loadSession([TEXT], resolveOptions({ key: 'json:key', seq: 'json:n' }), { inputFormat: 'text', copyTo: join(dir, 'text-copy.jsonl') }))
      .session;
    const lines = readFileSync(TEXT, 'utf8').trim().split('\n');
    const r = await search(text, '/"key":"acct-2"/');
    assert.deepEqual(
      r.hits.map((h) => h.arrival),
      lines.flatMap((l, i) => (l.includes('"key":"acct-2"') ? [i] : [])),
    );
    assert.ok(r.hits.length > 0);
  });

  it('passes over binary payloads, counting them; an id still finds one', async () => {
    const bin = join(dir, 'bin.jsonl');
    writeFileSync(
      bin,
      captureText([
        { t: 0, channel: 'X', seq: 1, id: 'packet-1', data: '\u0000\u0001 packet' },
        { t: 1, channel: 'X', seq: 2, data: 'text packet' },
      ]),
    );
    const s = (await loadSession([bin], CME)).session;
    const r = await search(s, 'packet');
    assert.deepEqual(
      r.hits.map((h) => h.arrival),
      [1],
    );
    assert.equal(r.binary, 1);
    const byId = await search(s, 'packet-1');
    assert.deepEqual(
      byId.hits.map((h) => [h.arrival, h.byId, h.preview]),
      [[0, true, '']],
    );
  });

  it('searches a payload with a schema as the record it decodes (JSON text)', async () => {
    const schemas = await schemaSetFromSetting({ trades: 'trades.avsc' }, { resolve: (p) => join(SCHEMAS, p), read: (p) => readFile(p, 'utf8') });
    const s = (await loadSession([join(SCHEMAS, 'avro-binary.jsonl')], { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas })).session;
    const decoded = await searchCaptures(recordFiles(s), recordRanges(s), parseSearchInput('"side":"SELL"'), { schemas });
    // Lines 2, 3 and 7 are SELL trades (their Avro enum's last byte is 0x02); line 8 is cut short, so binary.
    assert.deepEqual(
      decoded.hits.map((h) => [h.arrival, h.preview]),
      [
        [1, '{"channel":"B","seq":1,"price":null,"side":"SELL"}'],
        [2, '{"channel":"A","seq":2,"price":101.5,"side":"SELL"}'],
        [6, '{"channel":"A","seq":5,"price":null,"side":"SELL"}'],
      ],
    );
    assert.equal(decoded.binary, 1);
    const raw = await searchCaptures(recordFiles(s), recordRanges(s), parseSearchInput('SELL'), {});
    assert.deepEqual([raw.matched, raw.binary], [0, 8], 'without the schema the payloads are binary');
  });

  it('stops when cancelled, with what it found', async () => {
    const abort = new AbortController();
    abort.abort();
    const r = await searchCaptures(sample.paths, recordRanges(sample), parseSearchInput('Channel'), { signal: abort.signal });
    assert.equal(r.cancelled, true);
    assert.equal(r.searched, 0);
  });

  describe('on a worker thread', () => {
    let worker = '';
    before(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { targets } = require('../../../../esbuild.js') as { targets: { outfile: string }[] };
      const target = targets.find((t) => t.outfile === 'dist/searchWorker.js');
      assert.ok(target, 'esbuild.js builds dist/searchWorker.js');
      worker = join(dir, 'searchWorker.js');
      buildSync({ ...target, outfile: worker, bundle: true, logLevel: 'silent', absWorkingDir: root });
    });

    it('gives the same hits, reports progress, and leaves the session its columns', async () => {
      const progress: number[][] = [];
      const r = await searchInWorker(worker, sample, parseSearchInput('4593.25'), { onProgress: (...p) => progress.push(p) });
      assert.deepEqual(r, await search(sample, '4593.25'));
      assert.ok(progress.length >= 1);
      assert.deepEqual(progress[progress.length - 1], [sample.arrivalCount, sample.arrivalCount, r.matched], 'the last report is the whole');
      assert.equal(sample.log.offset.toArray().length, sample.arrivalCount, 'the ranges sent were copies');
    });

    it('decodes payloads by the schemas it is given', async () => {
      const schemas = await schemaSetFromSetting({ '*': join(SCHEMAS, 'trades.avsc') }, { resolve: (p) => p, read: (p) => readFile(p, 'utf8') });
      const s = (await loadSession([join(SCHEMAS, 'avro-binary.jsonl')], resolveOptions({}))).session;
      const r = await searchInWorker(worker, s, parseSearchInput('SELL'), { schemas });
      assert.deepEqual(
        r.hits.map((h) => h.arrival),
        [1, 2, 6],
      );
    });

    it('answers a cancel with what it found so far', async () => {
      const abort = new AbortController();
      abort.abort();
      const r = await searchInWorker(worker, sample, parseSearchInput('Channel'), { signal: abort.signal });
      assert.equal(r.cancelled, true);
    });
  });
});
