import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SchemaDefinitionError } from '../../../../src/core/schema/payloadDecoder';
import { protobufDecoder } from '../../../../src/core/schema/protobufPayload';

/** Pub/Sub's schema overview example (one top-level message type, as Pub/Sub requires). */
const INVENTORY = 'syntax = "proto3";\nmessage ProtocolBuffer {\n  string product_name = 1;\n  int32 SKU = 2;\n  bool in_stock = 3;\n}\n';
const inventory = protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: INVENTORY, source: 'projects/p/schemas/inventory@1' });
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const text = (s: string) => new TextEncoder().encode(s);

const BOOK = `syntax = "proto3";
package md.v1;
message Book {
  enum Side { SIDE_UNSPECIFIED = 0; BID = 1; ASK = 2; }
  message Level { double px = 1; int64 qty = 2; Side side = 3; }
  uint64 seq = 1;
  repeated Level levels = 2;
  map<string, string> tags = 3;
  bytes raw = 4;
  oneof event { int32 added = 5; int32 deleted = 6; }
}`;
const book = protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: BOOK, source: 'book.proto' });

describe('Protocol Buffers payloads', () => {
  it('decodes binary wire format written by hand from the encoding spec', () => {
    // field 1 (LEN) "ab"; field 2 (VARINT) 300 = ac 02; field 3 (VARINT) 1.
    assert.deepEqual(inventory.decode(hex('0a02616210ac021801'), 'BINARY'), { record: { product_name: 'ab', SKU: 300, in_stock: true } });
    assert.deepEqual(inventory.decode(new Uint8Array(), 'BINARY'), { record: { product_name: '', SKU: 0, in_stock: false } }, 'proto3 defaults');
  });

  it('reads a JSON payload with lowerCamelCase or .proto field names, and answers in .proto names', () => {
    const want = { record: { product_name: 'ab', SKU: 300, in_stock: true } };
    assert.deepEqual(inventory.decode(text('{"productName":"ab","SKU":300,"inStock":true}'), 'JSON'), want);
    assert.deepEqual(inventory.decode(text('{"product_name":"ab","SKU":300,"in_stock":true}'), 'JSON'), want);
  });

  it('keeps 64-bit integers exact as strings, enums by name, bytes as base64, nested messages, maps and oneofs', () => {
    // seq = 9007199254740993 (varint 81 80 80 80 80 80 80 10); levels[0] = {px 101.5, qty 3, side ASK};
    // tags {venue: XCME}; raw 00 ff; deleted = 7.
    const level = '09' + Buffer.from(new Float64Array([101.5]).buffer).toString('hex') + '1003' + '1802';
    const entry = '0a0576656e7565' + '1204' + Buffer.from('XCME').toString('hex');
    const bin =
      `088180808080808010` +
      `12${(level.length / 2).toString(16).padStart(2, '0')}${level}` +
      `1a${(entry.length / 2).toString(16).padStart(2, '0')}${entry}` +
      '220200ff' +
      '3007';
    const r = book.decode(hex(bin), 'BINARY');
    assert.deepEqual(r, {
      record: { seq: '9007199254740993', levels: [{ px: 101.5, qty: '3', side: 'ASK' }], tags: { venue: 'XCME' }, raw: 'AP8=', deleted: 7 },
    });
    const json = book.decode(
      text('{"seq":"9007199254740993","levels":[{"px":101.5,"qty":"3","side":"ASK"}],"tags":{"venue":"XCME"},"raw":"AP8=","deleted":7}'),
      'JSON',
    );
    assert.deepEqual(json, r, 'the JSON encoding reads to the same record');
  });

  it('says why a payload does not match: cut off, bad wire type, an unknown JSON field, not an object', () => {
    const cut = inventory.decode(hex('0a0561'), 'BINARY');
    assert.ok('invalid' in cut && /index out of range/.test(cut.invalid), JSON.stringify(cut));
    // As the client library delivers it: a Node Buffer (whose protobufjs reader would cut the string short silently).
    const cutBuffer = inventory.decode(Buffer.from('0a05610000', 'hex'), 'BINARY');
    assert.ok('invalid' in cutBuffer && /index out of range: 2 \+ 5 > 5/.test(cutBuffer.invalid), JSON.stringify(cutBuffer));
    const wire = inventory.decode(hex('2700'), 'BINARY'); // field 4, wire type 7
    assert.ok('invalid' in wire && /invalid wire type 7 at offset 1/.test(wire.invalid), JSON.stringify(wire));
    assert.deepEqual(inventory.decode(text('{"productName":"ab","colour":"red"}'), 'JSON'), { invalid: 'field "colour" is not in message ProtocolBuffer' });
    assert.deepEqual(book.decode(text('{"levels":[{"px":1,"size":2}]}'), 'JSON'), { invalid: 'field "levels[0].size" is not in message Level' });
    assert.deepEqual(inventory.decode(text('[1]'), 'JSON'), { invalid: 'the payload is not a JSON object, as message ProtocolBuffer is' });
  });

  it('picks the message type: the one top-level message, or the one named; refuses a guess', () => {
    const two = 'syntax = "proto3"; package a; message A { int32 x = 1; } message B { string y = 1; }';
    assert.throws(
      () => protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: two, source: 'two.proto' }),
      (e: unknown) => e instanceof SchemaDefinitionError && /2 message types \(a\.A, a\.B\): name the one payloads hold, as FILE\.proto:a\.A/.test(e.message),
    );
    const b = protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: two, messageType: 'a.B', source: 'two.proto' });
    assert.deepEqual(b.decode(hex('0a0178'), 'BINARY'), { record: { y: 'x' } });
    assert.throws(
      () => protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: two, messageType: 'a.C', source: 'two.proto' }),
      /no message type "a\.C" \(it has a\.A, a\.B\)/,
    );
    assert.throws(() => protobufDecoder({ type: 'PROTOCOL_BUFFER', definition: 'message {', source: 'bad.proto' }), /not a valid Protocol Buffers definition/);
  });

  it('never throws on any bytes, in either encoding (fuzzed)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.constantFrom('BINARY' as const, 'JSON' as const), (bytes, enc) => {
        const r = book.decode(bytes, enc);
        assert.ok('record' in r || typeof r.invalid === 'string');
      }),
      { numRuns: 2000 },
    );
  });
});
