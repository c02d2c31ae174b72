/** `json:<path>` options read the decoded record whatever the encoding, alike by the engine's readFields and the scanner. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntry } from '../../../../src/core/capture/captureRecord';
import { scanLines } from '../../../../src/core/capture/lineScan';
import { newRecordFields, readFields } from '../../../../src/core/capture/recordFields';
import { localDefinition, parseSchemaFileSpec } from '../../../../src/core/schema/schemaDefinition';
import { parseSchemaFlag, type SchemaSet, schemaSetOf } from '../../../../src/core/schema/schemaSet';
import { resolveOptions, type SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { SerialSpace } from '../../../../src/core/sequencer/serial';

const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'schemas');
const fixture = (name: string) => readFileSync(join(DIR, name));
function schemas(flag: string): SchemaSet {
  const f = parseSchemaFlag(flag);
  const path = join(DIR, f.spec.path);
  const set = schemaSetOf([{ flag: f, definition: localDefinition(parseSchemaFileSpec(path), readFileSync(path, 'utf8')) }]);
  return set as SchemaSet;
}
const options = (set?: SchemaSet): SequencingOptions => ({ ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), ...(set ? { schemas: set } : {}) });

/** Each line's key and number by readFields over the full parse, or its reason. */
function engineRead(text: Buffer, o: SequencingOptions): string[] {
  const f = newRecordFields();
  const space = new SerialSpace(o.seqBits);
  return text
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const rm = parseEntry(line, 0, 1).record!;
      return readFields(rm, o, space, f) ? `${f.key}#${f.seq}` : `invalid: ${f.reason}`;
    });
}

const EXPECTED = ['A#1', 'B#1', 'A#2', 'A#4', 'A#3', 'B#3', 'A#5'];

describe('json: fields of payloads with a schema', () => {
  it('reads keys and numbers from Avro binary, Avro JSON and Protocol Buffers binary payloads alike', () => {
    assert.deepEqual(engineRead(fixture('avro-binary.jsonl'), options(schemas('trades=trades.avsc'))).slice(0, 7), EXPECTED);
    assert.deepEqual(engineRead(fixture('avro-json.jsonl'), options(schemas('trades=trades.avsc'))), EXPECTED);
    assert.deepEqual(engineRead(fixture('protobuf-binary.jsonl'), options(schemas('trade.proto'))), EXPECTED);
  });

  it('a payload that does not match is an invalid record with the field and the byte; without a definition, one that says what to give', () => {
    const read = engineRead(fixture('avro-binary.jsonl'), options(schemas('trades.avsc')));
    assert.match(read[7], /^invalid: the payload does not match the schema from .*trades\.avsc: .*field "price", at byte 3/);
    assert.match(
      engineRead(fixture('avro-binary.jsonl'), options())[0],
      /^invalid: the payload is binary and schema .*trades@a1b2c3d4 has no definition here: .*--schema trades=FILE/,
    );
  });

  it('the scanner reads what readFields reads, decoding by the schema attributes it carries over (only the bad record parsed whole)', () => {
    const o = options(schemas('trades=trades.avsc'));
    const c = scanLines(fixture('avro-binary.jsonl'), o, 1 << 20);
    const scanned = Array.from({ length: 7 }, (_, i) => `${c.keys[c.key[i]]}#${c.seq[i]}`);
    assert.deepEqual(scanned, EXPECTED);
    assert.equal(c.kind[7] !== 0, true);
    assert.match(c.reasons[0], /field "price", at byte 3/);
    assert.equal(c.parsed, 1, 'the valid records were read by the scanner, not parsed whole');
  });
});
