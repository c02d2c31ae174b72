import assert from 'node:assert/strict';
import { parseSchemaFileSpec } from '../../../../src/core/schema/schemaDefinition';
import { readSchemaRef } from '../../../../src/core/schema/schemaRef';
import { type FetchedSchema, SchemaRevisions } from '../../../../src/core/schema/schemaRevisions';
import type { SchemaDefinition } from '../../../../src/core/schema/schemaDefinition';
import type { SchemaRef } from '../../../../src/core/schema/schemaRef';

const AVRO = (n: string): SchemaDefinition => ({
  type: 'AVRO',
  definition: JSON.stringify({ type: 'record', name: n, fields: [{ name: 'seq', type: 'long' }] }),
  source: n,
});
const REF: SchemaRef = { name: 'projects/p1/schemas/quotes', encoding: 'BINARY', revisionId: 'a1' };
const ONE = Uint8Array.from([0x02]); // {seq: 1}

describe('schema references and revisions', () => {
  it('reads the googclient_* attributes, and the markers of a deleted schema or revision', () => {
    const name = 'projects/p1/schemas/quotes';
    assert.deepEqual(readSchemaRef({ googclient_schemaname: name, googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'a1' }), {
      kind: 'schema',
      ref: { name, encoding: 'BINARY', revisionId: 'a1' },
    });
    assert.deepEqual(readSchemaRef({ googclient_schemaname: '_deleted-schema_', googclient_schemaencoding: 'JSON' }), {
      kind: 'deleted',
      what: 'schema',
      encoding: 'JSON',
    });
    assert.deepEqual(
      readSchemaRef({ googclient_schemaname: name, googclient_schemaencoding: 'JSON', googclient_schemarevisionid: '_deleted-schema-revision_' }),
      {
        kind: 'deleted',
        what: 'revision',
        name,
        encoding: 'JSON',
      },
    );
    assert.deepEqual(readSchemaRef({ googclient_schemaname: name, googclient_schemaencoding: 'XML' }), { kind: 'none' });
    assert.deepEqual(readSchemaRef(undefined), { kind: 'none' });
  });

  it('reads --schema values, and refuses a file that is no schema with the forms it takes', () => {
    assert.deepEqual(parseSchemaFileSpec('q.avsc'), { path: 'q.avsc', type: 'AVRO' });
    assert.deepEqual(parseSchemaFileSpec('dir/md.proto'), { path: 'dir/md.proto', type: 'PROTOCOL_BUFFER' });
    assert.deepEqual(parseSchemaFileSpec('md.proto:md.v1.Book'), { path: 'md.proto', type: 'PROTOCOL_BUFFER', messageType: 'md.v1.Book' });
    assert.throws(
      () => parseSchemaFileSpec('q.txt'),
      (e: Error & { fix?: { flag?: string } }) => e.name === 'InputError' && e.fix?.flag === '--schema' && /FILE\.avsc/.test(e.message),
    );
  });

  it('asks the Schema service once per revision, however many messages ask at once', async () => {
    let asked = 0;
    let answer!: (a: FetchedSchema) => void;
    const revisions = new SchemaRevisions({
      fetch: () => {
        asked++;
        return new Promise((r) => (answer = r));
      },
    });
    assert.equal(revisions.cached(REF), undefined, 'not fetched yet');
    const a = revisions.resolve(REF);
    const b = revisions.resolve(REF);
    answer({ definition: AVRO('Quote') });
    const [la, lb] = await Promise.all([a, b]);
    assert.equal(asked, 1);
    assert.equal(la, lb);
    assert.ok('decoder' in la);
    assert.deepEqual(la.decoder.decode(ONE, 'BINARY'), { record: { seq: 1 } });
    assert.equal(revisions.cached(REF), la, 'kept');
    assert.deepEqual([...revisions.definitionsMet().keys()], ['projects/p1/schemas/quotes@a1'], 'what a recording keeps');
  });

  it('a recorded revision needs no service; a deleted or unreachable one falls back to a local file by name, else says the next step', async () => {
    const recorded = new SchemaRevisions({ recorded: new Map([['projects/p1/schemas/quotes@a1', AVRO('Rec')]]) });
    assert.ok('decoder' in recorded.cached(REF)!);

    const gone = new SchemaRevisions({ fetch: async () => ({ missing: 'NOT_FOUND' }) });
    assert.deepEqual(await gone.resolve(REF), {
      unavailable: 'projects/p1/schemas/quotes@a1 no longer exists (NOT_FOUND): give the schema as a file: --schema FILE, or the seqscope.schemas setting',
    });
    const offline = new SchemaRevisions({
      fetch: async () => Promise.reject(new Error('14 UNAVAILABLE: No connection established')),
      byName: new Map([['quotes', AVRO('Local')]]),
    });
    const local = await offline.resolve(REF);
    assert.ok('decoder' in local && local.decoder.source === 'Local', 'the local file mapped to the short name');

    const noService = new SchemaRevisions({});
    assert.match((noService.cached(REF) as { unavailable: string }).unavailable, /^no Schema service to ask for projects\/p1\/schemas\/quotes@a1/);
  });

  it('a payload without a schema of its own: the file mapped to its topic, else the default, else none', () => {
    const byTopic = new SchemaRevisions({ byName: new Map([['md-310', AVRO('Topic')]]), fallback: AVRO('Default') });
    assert.equal((byTopic.withoutRef('projects/cme/topics/md-310') as { decoder: { source: string } }).decoder.source, 'Topic');
    assert.equal((byTopic.withoutRef('projects/cme/topics/md-311') as { decoder: { source: string } }).decoder.source, 'Default');
    assert.equal(new SchemaRevisions({}).withoutRef('t'), undefined);
    const broken = new SchemaRevisions({ fallback: { type: 'AVRO', definition: '{', source: 'broken.avsc' } });
    assert.match((broken.withoutRef() as { unavailable: string }).unavailable, /^the schema from broken\.avsc does not compile: the Avro schema is not JSON/);
  });
});
