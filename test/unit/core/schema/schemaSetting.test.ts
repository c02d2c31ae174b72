import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { describeOptions, resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { schemaReading } from '../../../../src/core/capture/payloadJson';
import { readPayload } from '../../../../src/core/schema/schemaSet';
import { type SchemaFiles, schemaSetFromSetting } from '../../../../src/core/schema/schemaSetting';
import { InputError } from '../../../../src/core/util/inputError';

const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'schemas');
/** Relative paths against the fixtures folder, as the extension resolves them against the workspace. */
const files: SchemaFiles = { resolve: (p) => (isAbsolute(p) ? p : join(DIR, p)), read: (p) => readFile(p, 'utf8') };
const BINARY = { googclient_schemaname: 'projects/demo-project/schemas/trades', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1' };
/** Avro binary of {channel: "A", seq: 1, price: null, side: "SELL"}. */
const A1 = Uint8Array.from([0x02, 0x41, 0x02, 0x00, 0x02]);
const RECORD = { channel: 'A', seq: 1, price: null, side: 'SELL' };

async function refused(value: unknown, message: RegExp): Promise<void> {
  await assert.rejects(schemaSetFromSetting(value, files), (e: unknown) => {
    assert.ok(e instanceof InputError, String(e));
    assert.equal(e.fix.setting, 'seqscope.schemas');
    assert.match(e.message, message);
    return true;
  });
}

describe('seqscope.schemas: the setting as a schema set', () => {
  it('names none: no set', async () => {
    assert.equal(await schemaSetFromSetting(undefined, files), undefined);
    assert.equal(await schemaSetFromSetting({}, files), undefined);
  });

  it('a schema name maps to its file, read against the workspace, and decodes that schema’s payloads', async () => {
    const set = await schemaSetFromSetting({ 'projects/demo-project/schemas/trades': 'trades.avsc' }, files);
    assert.ok(set);
    assert.equal(set.fallback, undefined);
    assert.deepEqual(Object.keys(set.byName ?? {}), ['projects/demo-project/schemas/trades']);
    assert.deepEqual(readPayload(set, BINARY, undefined, A1), { kind: 'decoded', record: RECORD, source: 'trades.avsc' });
    // A payload without a schema of its own is not read by a named entry.
    assert.deepEqual(readPayload(set, undefined, undefined, A1), { kind: 'plain' });
  });

  it('a topic maps to its file: its payloads without a schema of their own are decoded by it, other topics’ are not', async () => {
    const set = await schemaSetFromSetting({ 'md-trades': 'trades.avsc' }, files);
    const data = Buffer.from(A1).toString('base64');
    assert.deepEqual(schemaReading(data, undefined, 'projects/demo-project/topics/md-trades', set), { kind: 'decoded', record: RECORD, source: 'trades.avsc' });
    assert.deepEqual(schemaReading(data, undefined, 'md-trades', set)?.kind, 'decoded');
    assert.equal(schemaReading(data, undefined, 'projects/demo-project/topics/quotes', set), undefined);
    assert.equal(schemaReading(data, undefined, undefined, set), undefined);
  });

  it('"*" decodes payloads without a schema of their own, and the schema its file is named after', async () => {
    const set = await schemaSetFromSetting({ '*': join(DIR, 'trades.avsc'), quotes: 'trade.proto:example.trades.Trade' }, files);
    assert.ok(set?.fallback);
    assert.equal(set.fallback.source, join(DIR, 'trades.avsc'));
    assert.deepEqual(Object.keys(set.byName ?? {}).sort(), ['quotes', 'trades']);
    assert.equal(set.byName?.quotes?.type, 'PROTOCOL_BUFFER');
    assert.equal(set.byName?.quotes?.messageType, 'example.trades.Trade');
    assert.deepEqual(readPayload(set, undefined, undefined, A1), { kind: 'decoded', record: RECORD, source: join(DIR, 'trades.avsc') });
    assert.deepEqual(readPayload(set, BINARY, undefined, A1).kind, 'decoded');
    // The session's options say which files read its payloads.
    assert.match(describeOptions({ ...resolveOptions({}), schemas: set }), /, schemas .*trades\.avsc, trade\.proto$/);
  });

  it('a bad entry is an input error naming the setting and the entry', async () => {
    await refused(['trades.avsc'], /^seqscope\.schemas must map a schema name or topic to a file/);
    await refused({ trades: 3 }, /^seqscope\.schemas\["trades"\] must be a schema file: FILE\.avsc/);
    await refused({ ' ': 'trades.avsc' }, /^seqscope\.schemas\[" "\]: name the schema or topic/);
    await refused({ trades: 'trades.txt' }, /^seqscope\.schemas\["trades"\]: "trades\.txt" is not a schema file/);
    await refused({ trades: 'missing.avsc' }, /^seqscope\.schemas\["trades"\]: missing\.avsc cannot be read \(ENOENT\)$/);
    // A .proto whose message type is not declared in it.
    await refused({ trades: 'trade.proto:example.trades.Nope' }, /^seqscope\.schemas\["trades"\]: trade\.proto is not a valid schema: /);
  });

  it('a file that does not compile is an input error, not an invalid record per message', async () => {
    const broken: SchemaFiles = { resolve: (p) => p, read: async () => '{"type": "record", "name": "T", "fields": [{"name": "x", "type": "nope"}]}' };
    await assert.rejects(schemaSetFromSetting({ '*': 'broken.avsc' }, broken), /^InputError: seqscope\.schemas\["\*"\]: broken\.avsc is not a valid schema: /);
  });

  it("a preset's schema files join the setting's, which replace them name by name; a bad one names the preset", async () => {
    const both = await schemaSetFromSetting({ trades: 'trades.avsc' }, files, { '*': 'trades.avsc', trades: 'missing.avsc' });
    assert.ok(both);
    assert.equal(both.fallback?.source, 'trades.avsc', 'the preset gives the default');
    assert.deepEqual(readPayload(both, BINARY, undefined, A1), { kind: 'decoded', record: RECORD, source: 'trades.avsc' });
    const only = await schemaSetFromSetting(undefined, files, { '*': 'trades.avsc' });
    assert.deepEqual(readPayload(only, undefined, undefined, A1), { kind: 'decoded', record: RECORD, source: 'trades.avsc' });
    await assert.rejects(schemaSetFromSetting({}, files, { trades: 'missing.avsc' }), (e: unknown) => {
      assert.ok(e instanceof InputError, String(e));
      assert.equal(e.fix.setting, 'seqscope.presets');
      assert.match(e.message, /^seqscope\.presets: schema "trades": missing\.avsc cannot be read \(ENOENT\)/);
      return true;
    });
  });
});
