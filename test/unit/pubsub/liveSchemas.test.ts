/**
 * The schema revisions live sources meet: each asked for once, its line given once (before the
 * first message that names it), an unreachable Schema service said once per session, a missing
 * revision once per revision, and messages without a schema never waiting.
 */
import assert from 'node:assert/strict';
import type { SchemaRef } from '../../../src/core/schema/schemaRef';
import type { FetchedSchema } from '../../../src/core/schema/schemaRevisions';
import { readSchemaLine } from '../../../src/core/schema/schemaLine';
import { LiveSchemas } from '../../../src/pubsub/liveSchemas';

const attrs = (schema: string, revision: string) => ({
  googclient_schemaname: `projects/p/schemas/${schema}`,
  googclient_schemaencoding: 'BINARY',
  googclient_schemarevisionid: revision,
});

describe('LiveSchemas', () => {
  it('asks once per revision, gives its line once, and tells `learned` as the line is given', async () => {
    const asked: string[] = [];
    const learned: string[] = [];
    const fetch = (ref: SchemaRef): Promise<FetchedSchema> => {
      asked.push(`${ref.name}@${ref.revisionId}`);
      return Promise.resolve({ definition: { type: 'AVRO', definition: '"long"', source: `${ref.name}@${ref.revisionId}` } });
    };
    const s = new LiveSchemas(fetch, { learned: (key) => learned.push(key) });
    assert.equal(s.lookUp([undefined, { other: 'x' }]), undefined, 'nothing to wait for');
    const wait = s.lookUp([attrs('a', 'r1'), attrs('a', 'r1'), attrs('b', 'r2')]);
    assert.ok(wait);
    assert.equal(s.lineFor(attrs('a', 'r1')), undefined, 'not answered yet');
    const again = s.lookUp([attrs('a', 'r1')]);
    await wait;
    await again;
    assert.deepEqual(asked, ['projects/p/schemas/a@r1', 'projects/p/schemas/b@r2']);
    assert.equal(s.lookUp([attrs('a', 'r1')]), undefined, 'answered: no wait');
    const line = s.lineFor(attrs('a', 'r1'));
    assert.ok(line?.endsWith('\n'));
    const read = readSchemaLine(line!.trimEnd());
    assert.ok('key' in read);
    assert.deepEqual(read.key, 'projects/p/schemas/a@r1');
    assert.equal(s.lineFor(attrs('a', 'r1')), undefined, 'written once');
    assert.deepEqual(learned, ['projects/p/schemas/a@r1']);
  });

  it('an unreachable service is said once for the session; a deleted revision once per revision; neither gives a line', async () => {
    const said: string[] = [];
    const fetch = (ref: SchemaRef): Promise<FetchedSchema> =>
      ref.name.endsWith('/gone') ? Promise.resolve({ missing: 'no such revision' }) : Promise.reject(new Error('connect ECONNREFUSED'));
    const s = new LiveSchemas(fetch, { unavailable: (why) => said.push(why) });
    await s.lookUp([attrs('a', 'r1'), attrs('b', 'r1'), attrs('gone', 'r1'), attrs('gone', 'r2')]);
    await s.lookUp([attrs('c', 'r1')]);
    assert.equal(said.filter((w) => /could not be reached/.test(w)).length, 1);
    assert.match(said.find((w) => /could not be reached/.test(w))!, /ECONNREFUSED.*--schema a=FILE\.avsc.*seqscope\.schemas/);
    assert.equal(said.filter((w) => /no longer exists/.test(w)).length, 2);
    assert.equal(s.lineFor(attrs('a', 'r1')), undefined);
    assert.equal(s.lookUp([attrs('a', 'r1')]), undefined, 'not asked again');
  });
});
