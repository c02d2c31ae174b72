/** The JSONL export's `decoded` / `decodeError` fields, and the text --grep searches, for payloads with a schema. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedMessage } from '../../../../src/core/capture/captureRecord';
import { createFormatter } from '../../../../src/core/export';
import { localDefinition, parseSchemaFileSpec } from '../../../../src/core/schema/schemaDefinition';
import type { SchemaSet } from '../../../../src/core/schema/schemaSet';
import { decodedTextOf } from '../../../../src/core/trace/decodedText';
import type { MessageEvent } from '../../../../src/core/trace/traceEvents';

const path = join(__dirname, '..', '..', '..', 'fixtures', 'schemas', 'trades.avsc');
const SCHEMAS: SchemaSet = { byName: { trades: localDefinition(parseSchemaFileSpec(path), readFileSync(path, 'utf8')) } };
const ATTRS = { googclient_schemaname: 'projects/p/schemas/trades', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1' };
/** {channel: "A", seq: 1, price: null, side: "SELL"} in Avro binary. */
const DATA = Buffer.from([0x02, 0x41, 0x02, 0x00, 0x02]).toString('base64');

function event(data: string, attributes?: Record<string, string>): MessageEvent {
  return { type: 'message', key: 'A', seq: 1, messageId: 'm1', data, attributes, arrivedAt: 0, releasedAt: 0, heldMs: 0, line: 1 };
}

describe('decoded payloads in the JSONL export and in searches', () => {
  it('a message with a schema carries its record decoded, or why it does not match; one without carries neither', () => {
    const f = createFormatter('jsonl', undefined, { schemas: SCHEMAS });
    const text = f.format([event(DATA, ATTRS), event(Buffer.from([0x02, 0x41]).toString('base64'), ATTRS), event(Buffer.from('{"a":1}').toString('base64'))]);
    const [ok, bad, plain] = String(text)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(ok.decoded, { channel: 'A', seq: 1, price: null, side: 'SELL' });
    assert.equal(ok.data, DATA, 'the raw payload stays');
    assert.match(bad.decodeError, /field "seq", at byte 2/);
    assert.ok(!('decoded' in plain) && !('decodeError' in plain));
  });

  it('a search reads the decoded record as JSON text, and other payloads as their own text', () => {
    const textOf = decodedTextOf(SCHEMAS);
    const rm = (data: string, attributes?: Record<string, string>): ReceivedMessage => ({ message: { messageId: 'm', data, attributes } });
    assert.deepEqual(textOf(rm(DATA, ATTRS)), { text: '{"channel":"A","seq":1,"price":null,"side":"SELL"}' });
    assert.deepEqual(textOf(rm(Buffer.from('hello').toString('base64'))), { text: 'hello' });
    assert.equal(decodedTextOf(undefined)(rm(DATA, ATTRS)), 'binary');
  });
});
