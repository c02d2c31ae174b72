import assert from 'node:assert/strict';
import fc from 'fast-check';
import { avroDecoder } from '../../../../src/core/schema/avroPayload';
import { SchemaDefinitionError } from '../../../../src/core/schema/payloadDecoder';

/** The record the Pub/Sub emulator accepted on an Avro topic (binary and JSON encodings). */
const QUOTE = JSON.stringify({
  type: 'record',
  name: 'Quote',
  namespace: 'md',
  fields: [
    { name: 'channel', type: 'int' },
    { name: 'seq', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'side', type: { type: 'enum', name: 'Side', symbols: ['BID', 'ASK'] } },
    { name: 'raw', type: 'bytes' },
  ],
});
const quote = avroDecoder({ type: 'AVRO', definition: QUOTE, source: 'projects/p1/schemas/quote@9fe65ef6' });
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const text = (s: string) => new TextEncoder().encode(s);

describe('Avro payloads', () => {
  it('decodes a binary payload as the emulator delivered it (zig-zag ints, a union branch, an enum index, bytes)', () => {
    assert.deepEqual(quote.decode(hex('ec04eaf0e0fd5b02046869020600ff0a'), 'BINARY'), {
      record: { channel: 310, seq: 12345678901, note: 'hi', side: 'ASK', raw: Buffer.from([0, 255, 10]).toString('base64') },
    });
  });

  it('decodes Avro JSON encoding: a union wrapped in its branch name, bytes one character per byte', () => {
    const payload = text('{"channel":310,"seq":12345678901,"note":{"string":"hi"},"side":"ASK","raw":"\\u0000\\u00ff\\n"}');
    assert.deepEqual(quote.decode(payload, 'JSON'), { record: { channel: 310, seq: 12345678901, note: 'hi', side: 'ASK', raw: 'AP8K' } });
  });

  it('keeps a long beyond 2^53 exact, as a decimal string, from both encodings', () => {
    const json = quote.decode(text('{"channel":1,"seq":9007199254740993,"note":null,"side":"BID","raw":""}'), 'JSON');
    assert.deepEqual(json, { record: { channel: 1, seq: '9007199254740993', note: null, side: 'BID', raw: '' } });
    // 9007199254740993 zig-zag encoded: 18014398509481986 as a varint.
    const zigzag = 18014398509481986n;
    const varint: number[] = [];
    for (let v = zigzag; ; v >>= 7n) {
      if (v < 0x80n) {
        varint.push(Number(v));
        break;
      }
      varint.push(Number(v & 0x7fn) | 0x80);
    }
    const bin = Uint8Array.from([0x02, ...varint, 0x00, 0x00, 0x00]);
    assert.deepEqual(quote.decode(bin, 'BINARY'), { record: { channel: 1, seq: '9007199254740993', note: null, side: 'BID', raw: '' } });
    const min = quote.decode(text('{"channel":1,"seq":-9223372036854775808,"note":null,"side":"BID","raw":""}'), 'JSON');
    assert.equal('record' in min && (min.record as { seq: unknown }).seq, '-9223372036854775808');
  });

  it('says which field and byte a cut-off or overlong binary payload fails at, and never throws', () => {
    const cut = quote.decode(hex('ec04eaf0e0fd5b0204'), 'BINARY');
    assert.ok('invalid' in cut);
    assert.match(cut.invalid, /ends inside the Avro record \(field "note", at byte 7\)/);
    const extra = quote.decode(hex('ec04eaf0e0fd5b02046869020600ff0a0000'), 'BINARY');
    assert.deepEqual(extra, { invalid: '2 bytes follow the Avro record, which ends at byte 16' });
    const badEnum = quote.decode(hex('ec04eaf0e0fd5b0204686908'), 'BINARY');
    assert.ok('invalid' in badEnum, 'enum index 4 of 2 symbols');
    assert.match(badEnum.invalid, /field "side", at byte 11/);
  });

  it('says what in a JSON payload does not match: wrong type, unwrapped union, not JSON, not UTF-8', () => {
    const wrongType = quote.decode(text('{"channel":"310","seq":1,"note":null,"side":"BID","raw":""}'), 'JSON');
    assert.ok('invalid' in wrongType && /Avro JSON/.test(wrongType.invalid), JSON.stringify(wrongType));
    const unwrapped = quote.decode(text('{"channel":310,"seq":1,"note":"hi","side":"BID","raw":""}'), 'JSON');
    assert.ok('invalid' in unwrapped, 'the emulator refuses a union value not wrapped in its branch name; so does the decoder');
    assert.match((quote.decode(text('{"channel":'), 'JSON') as { invalid: string }).invalid, /^the payload is not JSON/);
    assert.deepEqual(quote.decode(Uint8Array.from([0xff, 0xfe]), 'JSON'), { invalid: 'the payload is not UTF-8 text, so not JSON' });
  });

  it('reads nested records, arrays, maps, fixed, floats and a union of two records (kept wrapped: it is ambiguous)', () => {
    const def = JSON.stringify({
      type: 'record',
      name: 'Book',
      fields: [
        {
          name: 'levels',
          type: {
            type: 'array',
            items: {
              type: 'record',
              name: 'Level',
              fields: [
                { name: 'px', type: 'double' },
                { name: 'qty', type: 'long' },
              ],
            },
          },
        },
        { name: 'tags', type: { type: 'map', values: 'string' } },
        { name: 'id', type: { type: 'fixed', name: 'Id', size: 2 } },
        {
          name: 'ev',
          type: [
            { type: 'record', name: 'Add', fields: [{ name: 'n', type: 'int' }] },
            { type: 'record', name: 'Del', fields: [{ name: 'n', type: 'int' }] },
          ],
        },
        { name: 'ratio', type: 'float' },
      ],
    });
    const d = avroDecoder({ type: 'AVRO', definition: def, source: 'book.avsc' });
    const json = '{"levels":[{"px":101.5,"qty":3}],"tags":{"venue":"XCME"},"id":"\\u0001\\u0002","ev":{"Del":{"n":7}},"ratio":0.5}';
    const r = d.decode(text(json), 'JSON');
    assert.deepEqual(r, { record: { levels: [{ px: 101.5, qty: 3 }], tags: { venue: 'XCME' }, id: 'AQI=', ev: { Del: { n: 7 } }, ratio: 0.5 } });
  });

  it('refuses a definition that is not JSON or not Avro, naming its source', () => {
    assert.throws(
      () => avroDecoder({ type: 'AVRO', definition: '{', source: 'a.avsc' }),
      (e: unknown) => e instanceof SchemaDefinitionError && e.source === 'a.avsc' && /not JSON/.test(e.message),
    );
    assert.throws(() => avroDecoder({ type: 'AVRO', definition: '{"type":"recrod"}', source: 'b.avsc' }), /not a valid Avro schema/);
  });

  it('never throws on any bytes, in either encoding (fuzzed)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.constantFrom('BINARY' as const, 'JSON' as const), (bytes, enc) => {
        const r = quote.decode(bytes, enc);
        assert.ok('record' in r || typeof r.invalid === 'string');
      }),
      { numRuns: 2000 },
    );
  });
});
