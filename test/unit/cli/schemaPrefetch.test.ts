import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isConnected, schemaRefsIn, withFetchedSchemas } from '../../../src/cli/schemaPrefetch';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';

const DIR = join(__dirname, '..', '..', 'fixtures', 'schemas');

describe('schema revisions fetched before a replay', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-prefetch-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds each revision the captures name once, plain or gzip, without parsing records', async () => {
    const gz = join(dir, 'json.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(join(DIR, 'avro-json.jsonl'))));
    const refs = await schemaRefsIn([join(DIR, 'avro-binary.jsonl'), gz, join(DIR, 'protobuf-binary.jsonl'), '-']);
    assert.deepEqual(
      refs.map((r) => `${r.name}@${r.revisionId}`),
      ['projects/demo-project/schemas/trades@a1b2c3d4'],
    );
  });

  it('asks only when connected: --project, --emulator-host or PUBSUB_EMULATOR_HOST', async () => {
    assert.equal(isConnected({}, {}), false);
    assert.equal(isConnected({}, { PUBSUB_EMULATOR_HOST: 'localhost:8085' }), true);
    assert.equal(isConnected({ project: 'p' }, {}), true);
    const saved = process.env.PUBSUB_EMULATOR_HOST;
    delete process.env.PUBSUB_EMULATOR_HOST;
    try {
      const o = resolveOptions({});
      assert.equal(await withFetchedSchemas(o, [join(DIR, 'avro-binary.jsonl')], {}, () => assert.fail('nothing to say offline')), o);
    } finally {
      if (saved !== undefined) process.env.PUBSUB_EMULATOR_HOST = saved;
    }
  });
});
