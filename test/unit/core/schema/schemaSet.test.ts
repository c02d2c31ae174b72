import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDefinition, parseSchemaFileSpec } from '../../../../src/core/schema/schemaDefinition';
import { needsSchema, parseSchemaFlag, readPayload, schemaSetOf } from '../../../../src/core/schema/schemaSet';
import { isInputError } from '../../../../src/core/util/inputError';

const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'schemas');
const avsc = localDefinition(parseSchemaFileSpec(join(DIR, 'trades.avsc')), readFileSync(join(DIR, 'trades.avsc'), 'utf8'));
const proto = localDefinition(parseSchemaFileSpec(join(DIR, 'trade.proto')), readFileSync(join(DIR, 'trade.proto'), 'utf8'));
const NAME = 'projects/demo-project/schemas/trades';
const attrs = (encoding: string, revision = 'r1', name = NAME) => ({
  googclient_schemaname: name,
  googclient_schemaencoding: encoding,
  googclient_schemarevisionid: revision,
});
/** Avro binary of {channel: "A", seq: 1, price: null, side: "SELL"}: string, long, union branch 0, enum 1. */
const A1 = Uint8Array.from([0x02, 0x41, 0x02, 0x00, 0x02]);

describe('schema sets: which definition reads a payload', () => {
  it('reads a payload by the revision its attributes name: recorded for it, else a file named after the schema', () => {
    const recorded = readPayload({ recorded: { [`${NAME}@r1`]: avsc } }, attrs('BINARY'), undefined, A1);
    assert.deepEqual(recorded, { kind: 'decoded', record: { channel: 'A', seq: 1, price: null, side: 'SELL' }, source: avsc.source });
    const byName = readPayload({ byName: { trades: avsc } }, attrs('BINARY', 'r2'), undefined, A1);
    assert.equal(byName.kind, 'decoded');
  });

  it('a binary payload whose schema has no definition is invalid with the next step; a JSON one reads as it is', () => {
    const binary = readPayload(undefined, attrs('BINARY'), undefined, A1);
    assert.equal(binary.kind, 'invalid');
    assert.match(
      (binary as { reason: string }).reason,
      /schema projects\/demo-project\/schemas\/trades@r1 has no definition here: .*--schema trades=FILE\.avsc/,
    );
    assert.deepEqual(readPayload(undefined, attrs('JSON'), undefined, Buffer.from('{"channel":"A"}')), { kind: 'plain' });
    assert.ok(needsSchema(undefined, attrs('BINARY')));
    assert.ok(!needsSchema(undefined, { Channel: 'A' }));
  });

  it('the default schema reads payloads without one of their own (binary, or JSON text), and those whose schema was deleted', () => {
    const set = schemaSetOf([{ flag: parseSchemaFlag('trade.proto'), definition: proto }]);
    assert.ok(set?.fallback && needsSchema(set, undefined));
    const bytes = Uint8Array.from([0x0a, 0x01, 0x42, 0x10, 0x07]); // channel "B", seq 7
    assert.deepEqual(readPayload(set, undefined, undefined, bytes), {
      kind: 'decoded',
      record: { channel: 'B', seq: '7', price: 0, side: 'BUY' },
      source: proto.source,
    });
    const json = readPayload(set, {}, undefined, Buffer.from('{"channel":"C","seq":"9"}'));
    assert.equal(json.kind === 'decoded' && (json.record as { channel: string }).channel, 'C');
    const deleted = readPayload(set, { googclient_schemaname: '_deleted-schema_', googclient_schemaencoding: 'BINARY' }, undefined, bytes);
    assert.equal(deleted.kind, 'decoded');
    const revisionGone = readPayload(undefined, attrs('BINARY', '_deleted-schema-revision_'), undefined, A1);
    assert.match((revisionGone as { reason: string }).reason, /its revision of projects\/demo-project\/schemas\/trades has been deleted/);
  });

  it('a payload that does not match is invalid with the field and the byte offset', () => {
    const r = readPayload({ byName: { trades: avsc } }, attrs('BINARY'), undefined, A1.subarray(0, 3));
    assert.equal(r.kind, 'invalid');
    assert.match((r as { reason: string }).reason, /does not match the schema from .*trades\.avsc: .*field "price", at byte 3/);
  });

  it('--schema NAME=FILE names the schema; a file without a name is the default and named after its file; two defaults are an input error', () => {
    assert.deepEqual(parseSchemaFlag('quotes=dir/q.proto:pkg.Quote'), {
      name: 'quotes',
      spec: { path: 'dir/q.proto', type: 'PROTOCOL_BUFFER', messageType: 'pkg.Quote' },
    });
    assert.deepEqual(parseSchemaFlag('dir/trades.avsc'), { spec: { path: 'dir/trades.avsc', type: 'AVRO' } });
    const set = schemaSetOf([
      { flag: parseSchemaFlag('dir/trades.avsc'), definition: avsc },
      { flag: parseSchemaFlag('quotes=q.proto'), definition: proto },
    ]);
    assert.deepEqual(Object.keys(set?.byName ?? {}).sort(), ['quotes', 'trades']);
    assert.equal(set?.fallback, avsc);
    assert.equal(schemaSetOf([]), undefined);
    assert.throws(
      () =>
        schemaSetOf([
          { flag: parseSchemaFlag('a.avsc'), definition: avsc },
          { flag: parseSchemaFlag('b.proto'), definition: proto },
        ]),
      (e: unknown) => isInputError(e) && /NAME=FILE/.test((e as Error).message),
    );
  });
});

describe('schema sets: malformed payloads, fuzzed', () => {
  it('any bytes, under any attributes, read as a record or an invalid reason — never a throw', () => {
    const set = schemaSetOf([
      { flag: parseSchemaFlag('trades.avsc'), definition: avsc },
      { flag: parseSchemaFlag('quotes=trade.proto'), definition: proto },
    ]);
    const valid = Array.from(A1);
    const payloads = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      // Valid Avro cut, extended or with one byte changed: the likely corruptions.
      fc.tuple(fc.nat(valid.length), fc.uint8Array({ maxLength: 6 })).map(([cut, tail]) => Uint8Array.from([...valid.slice(0, cut), ...tail])),
      fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })).map(([at, b]) => Uint8Array.from(valid.map((v, i) => (i === at ? b : v)))),
      fc.json().map((t) => new TextEncoder().encode(t)),
    );
    const attributes = fc.constantFrom<Record<string, string> | undefined>(
      undefined,
      attrs('BINARY'),
      attrs('JSON'),
      attrs('BINARY', 'r1', 'projects/p/schemas/quotes'),
      attrs('JSON', 'r1', 'projects/p/schemas/quotes'),
      { googclient_schemaname: '_deleted-schema_', googclient_schemaencoding: 'BINARY' },
    );
    fc.assert(
      fc.property(payloads, attributes, (payload, a) => {
        const r = readPayload(set, a, undefined, payload);
        assert.ok(r.kind === 'decoded' || (r.kind === 'invalid' && r.reason.length > 0) || r.kind === 'plain');
        if (r.kind === 'decoded') JSON.stringify(r.record);
      }),
      { numRuns: 3000 },
    );
  });
});
