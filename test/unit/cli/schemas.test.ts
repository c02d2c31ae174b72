/**
 * `--schema` and payloads with a Pub/Sub schema (test/fixtures/schemas): keys and numbers from
 * decoded fields, bad payloads as invalid records, the decoded record in the export and in --grep.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { main } from '../../../src/cli/main';
import { buildCli } from '../../support/builtCli';
import { textSink } from '../../support/textSink';

const DIR = join(__dirname, '..', '..', 'fixtures', 'schemas');
const AVRO_BINARY = join(DIR, 'avro-binary.jsonl');
const AVRO_JSON = join(DIR, 'avro-json.jsonl');
const PROTO_BINARY = join(DIR, 'protobuf-binary.jsonl');
const FIELDS = ['--key', 'json:channel', '--seq', 'json:seq', '--threads', '1'];

async function seqscope(...args: string[]) {
  const stdout = textSink();
  const stderr = textSink();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The counts the fixtures are written to give (NOTICE.md): channel A 1–5 with 4 before 3, channel B 1 and 3. */
function assertCounts(json: string, invalid: number): void {
  const s = JSON.parse(json);
  assert.deepEqual(
    { received: s.received, delivered: s.delivered, gaps: s.gaps, lost: s.lost, invalid: s.invalid, keys: s.byKey.map((k: { key: string }) => k.key).sort() },
    { received: 7, delivered: 7, gaps: 1, lost: 1, invalid, keys: ['A', 'B'] },
  );
}

describe('seqscope replay --schema', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-schemas-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--key json:… --seq json:… read Avro binary, Avro JSON and Protocol Buffers binary payloads as they read JSON', async () => {
    const binary = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', join(DIR, 'trades.avsc'), '--json');
    assert.equal(binary.code, 0, binary.stderr);
    assertCounts(binary.stdout, 1);
    const named = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', `trades=${join(DIR, 'trades.avsc')}`, '--json');
    assertCounts(named.stdout, 1);
    // Avro JSON reads without its schema too (its fields are plain here), and alike with it.
    assertCounts((await seqscope('replay', AVRO_JSON, ...FIELDS, '--json')).stdout, 0);
    assertCounts((await seqscope('replay', AVRO_JSON, ...FIELDS, '--schema', join(DIR, 'trades.avsc'), '--json')).stdout, 0);
    const proto = await seqscope('replay', PROTO_BINARY, ...FIELDS, '--schema', `${join(DIR, 'trade.proto')}:example.trades.Trade`, '--json');
    assert.equal(proto.code, 0, proto.stderr);
    assertCounts(proto.stdout, 0);
  });

  it('a payload that does not match its schema is an invalid record with the field and the byte; the rest is sequenced', async () => {
    const r = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', join(DIR, 'trades.avsc'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /line 8: the payload does not match the schema from .*trades\.avsc: the payload \(3 bytes\) ends inside the Avro record \(field "price", at byte 3\)/,
    );
  });

  it('without a definition, binary payloads are invalid and the run says what to give (exit 2); a bad --schema is a usage error naming it', async () => {
    const r = await seqscope('replay', AVRO_BINARY, ...FIELDS);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /no record could be sequenced.*schema projects\/demo-project\/schemas\/trades@a1b2c3d4 has no definition here: .*--schema trades=FILE\.avsc/,
    );
    const notSchema = join(dir, 'broken.avsc');
    writeFileSync(notSchema, '{"type": "record"');
    const bad = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', notSchema);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--schema .*broken\.avsc: the Avro schema is not JSON/);
    const missing = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', join(dir, 'none.avsc'));
    assert.match(missing.stderr, /--schema .*none\.avsc: cannot be read \(ENOENT\)/);
    const kind = await seqscope('replay', AVRO_BINARY, ...FIELDS, '--schema', join(dir, 'trades.xml'));
    assert.match(kind.stderr, /is not a schema file: give an Avro schema \(FILE\.avsc\) or a Protocol Buffers file/);
  });

  it('--export JSONL carries each message decoded (or why not); --grep matches the decoded text', async () => {
    const out = join(dir, 'trace.jsonl');
    const r = await seqscope('replay', AVRO_BINARY, '--schema', join(DIR, 'trades.avsc'), '--export', out);
    assert.equal(r.code, 0, r.stderr);
    const events = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(events[0].decoded, { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
    assert.match(events.at(-1).decodeError, /field "price", at byte 3/);
    const grep = await seqscope('replay', AVRO_BINARY, '--schema', join(DIR, 'trades.avsc'), '--export', '-', '--grep', '"side":"SELL"');
    assert.equal(grep.code, 0, grep.stderr);
    const ids = grep.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).messageId);
    assert.deepEqual(ids, ['9001', '9002', '9006']);
  });

  it('compare takes --schema too: an Avro side and a Protocol Buffers side of one stream match message for message', async () => {
    const r = await seqscope(
      'compare',
      AVRO_BINARY,
      PROTO_BINARY,
      '--key',
      'json:channel',
      '--seq',
      'json:seq',
      '--schema',
      `trades=${join(DIR, 'trades.avsc')}`,
      '--schema',
      join(DIR, 'trade.proto'),
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    const { totals } = JSON.parse(r.stdout);
    assert.deepEqual({ both: totals.both, onlyA: totals.onlyA, onlyB: totals.onlyB, lostBoth: totals.lostBoth }, { both: 7, onlyA: 0, onlyB: 0, lostBoth: 1 });
  });

  it('a --preset-file preset may name the schema (relative to the working directory); --schema given beside it wins', async () => {
    const presets = join(dir, 'presets.json');
    const rel = relative(process.cwd(), join(DIR, 'trades.avsc'));
    writeFileSync(presets, JSON.stringify({ trades: { key: 'json:channel', seq: 'json:seq', schema: rel } }));
    const r = await seqscope('replay', AVRO_BINARY, '--preset-file', presets, '--preset', 'trades', '--threads', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    assertCounts(r.stdout, 1);
    writeFileSync(presets, JSON.stringify({ trades: { key: 'json:channel', seq: 'json:seq', schemas: { trades: 'nowhere/trades.avsc' } } }));
    const missing = await seqscope('replay', AVRO_BINARY, '--preset-file', presets, '--preset', 'trades', '--threads', '1');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /the preset's schema nowhere\/trades\.avsc: cannot be read \(ENOENT\)/);
    const overridden = await seqscope(
      'replay',
      AVRO_BINARY,
      '--preset-file',
      presets,
      '--preset',
      'trades',
      '--schema',
      `trades=${join(DIR, 'trades.avsc')}`,
      '--threads',
      '1',
      '--json',
    );
    assert.equal(overridden.code, 0, overridden.stderr);
    assertCounts(overridden.stdout, 1);
  });

  it('the built CLI reads on several threads as on one (the definitions travel to the scanning threads)', async () => {
    const cli = await buildCli(dir);
    const run = (threads: string) =>
      spawnSync(
        process.execPath,
        [cli, 'replay', AVRO_BINARY, '--key', 'json:channel', '--seq', 'json:seq', '--schema', join(DIR, 'trades.avsc'), '--json', '--threads', threads],
        { encoding: 'utf8' },
      );
    const one = run('1');
    const two = run('2');
    assert.equal(two.status, 0, two.stderr);
    assertCounts(two.stdout, 1);
    assert.equal(two.stdout, one.stdout);
  });
});
