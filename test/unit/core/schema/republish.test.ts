import assert from 'node:assert/strict';
import { Type, types as avroTypes } from 'avsc';
import fc from 'fast-check';
import type { CaptureEntry, PubsubMessage } from '../../../../src/core/capture/captureRecord';
import { base64Bytes } from '../../../../src/core/capture/mdp3';
import { avroDecoder } from '../../../../src/core/schema/avroPayload';
import { protobufDecoder } from '../../../../src/core/schema/protobufPayload';
import { compileEncoder, Reencoder as CoreReencoder, refusal, type TopicSchema } from '../../../../src/core/schema/republish';
import { checkCapture } from '../../../../src/pubsub/topicSchema';
import type { SchemaDefinition } from '../../../../src/core/schema/schemaDefinition';
import type { SchemaFetch } from '../../../../src/core/schema/schemaRevisions';

const QUOTE = {
  type: 'record',
  name: 'Quote',
  namespace: 'md',
  fields: [
    { name: 'channel', type: 'string' },
    { name: 'seq', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'raw', type: 'bytes', default: '' },
    { name: 'side', type: { type: 'enum', name: 'Side', symbols: ['BID', 'ASK'] }, default: 'BID' },
    {
      name: 'leg',
      type: [
        'null',
        { type: 'record', name: 'Px', fields: [{ name: 'px', type: 'double' }] },
        { type: 'record', name: 'Qty', fields: [{ name: 'qty', type: 'int' }] },
      ],
      default: null,
    },
    { name: 'tags', type: { type: 'map', values: 'long' }, default: {} },
  ],
};
const avroDef = (source = 'projects/p/schemas/quote@r2'): SchemaDefinition => ({ type: 'AVRO', definition: JSON.stringify(QUOTE), source });
const avroTarget = (encoding: 'BINARY' | 'JSON'): TopicSchema => ({ name: 'projects/p/schemas/quote', encoding, definition: avroDef() });
const avsc = Type.forSchema(QUOTE as never);

const BOOK = `syntax = "proto3";
package md.v1;
message Book {
  enum Side { SIDE_UNSPECIFIED = 0; BID = 1; ASK = 2; }
  message Level { double px = 1; int64 qty = 2; Side side = 3; }
  uint64 seq = 1;
  repeated Level levels = 2;
  map<int32, string> tags = 3;
  bytes raw = 4;
  oneof event { int32 added = 5; int32 deleted = 6; }
  string venue_code = 7;
}`;
const protoDef: SchemaDefinition = { type: 'PROTOCOL_BUFFER', definition: BOOK, source: 'projects/p/schemas/book@r1' };
const protoTarget = (encoding: 'BINARY' | 'JSON'): TopicSchema => ({ name: 'projects/p/schemas/book', encoding, definition: protoDef });

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const msg = (data: Uint8Array | string, attributes?: Record<string, string>): PubsubMessage => ({
  data: b64(data),
  messageId: '1',
  ...(attributes ? { attributes } : {}),
});
/** The core Reencoder, handed a message as the Pub/Sub layer hands it one. */
class Reencoder extends CoreReencoder {
  reencodeMessage(m: PubsubMessage, topic: string | undefined) {
    return this.reencode(typeof m.data === 'string' ? base64Bytes(m.data) : undefined, m.attributes, topic);
  }
}
const ok = (r: ReturnType<Reencoder['reencode']>) => {
  assert.ok(!('invalid' in r), JSON.stringify(r));
  return r;
};
const invalid = (r: ReturnType<Reencoder['reencode']>) => {
  assert.ok('invalid' in r, 'expected a refusal');
  return r.invalid;
};

describe('republishing into a schema topic', () => {
  describe('Avro', () => {
    it('writes a plain JSON payload as Avro binary, defaults filled, a long beyond 2^53 exact', () => {
      const r = ok(
        new Reencoder(avroTarget('BINARY'), undefined).reencodeMessage(msg('{"channel":"A","seq":9007199254740993,"note":"hi","raw":"AP8="}'), undefined),
      );
      assert.deepEqual(avroDecoder(avroDef()).decode(r.data, 'BINARY'), {
        record: { channel: 'A', seq: '9007199254740993', note: 'hi', raw: 'AP8=', side: 'BID', leg: null, tags: {} },
      });
    });

    it("writes Avro's JSON encoding for a JSON topic: unions wrapped, bytes as text, longs exact", () => {
      const r = ok(
        new Reencoder(avroTarget('JSON'), undefined).reencodeMessage(msg('{"channel":"A","seq":"9007199254740993","note":"hi","leg":{"px":1.5}}'), undefined),
      );
      const text = Buffer.from(r.data).toString();
      assert.equal(text, '{"channel":"A","seq":9007199254740993,"note":{"string":"hi"},"raw":"","side":"BID","leg":{"md.Px":{"px":1.5}},"tags":{}}');
      assert.deepEqual(avroDecoder(avroDef()).decode(r.data, 'JSON'), {
        record: { channel: 'A', seq: '9007199254740993', note: 'hi', raw: '', side: 'BID', leg: { 'md.Px': { px: 1.5 } }, tags: {} },
      });
    });

    it("re-encodes a message by its own schema (recorded), drops the source's googclient_* attributes and keeps the others", () => {
      const source: SchemaDefinition = { type: 'AVRO', definition: JSON.stringify(QUOTE), source: 'projects/src/schemas/q@r1' };
      const attrs = { googclient_schemaname: 'projects/src/schemas/q', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1', n: '7' };
      const payload = avsc.toBuffer({ channel: 'B', seq: 2, note: null, raw: Buffer.from([1, 2]), side: 'ASK', leg: { 'md.Qty': { qty: 3 } }, tags: { a: 1 } });
      const re = new Reencoder(avroTarget('JSON'), { recorded: { 'projects/src/schemas/q@r1': source } });
      const r = ok(re.reencodeMessage(msg(payload, attrs), undefined));
      assert.deepEqual(r.attributes, { n: '7' });
      assert.equal(
        Buffer.from(r.data).toString(),
        '{"channel":"B","seq":2,"note":null,"raw":"\\u0001\\u0002","side":"ASK","leg":{"md.Qty":{"qty":3}},"tags":{"a":1}}',
      );
      // Into a BINARY topic, the bytes are the ones the source was written with.
      assert.deepEqual(
        Buffer.from(
          ok(new Reencoder(avroTarget('BINARY'), { recorded: { 'projects/src/schemas/q@r1': source } }).reencodeMessage(msg(payload, attrs), undefined)).data,
        ),
        payload,
      );
    });

    it("reads a JSON payload in Avro's JSON encoding (wrapped unions) when its schema is out of reach", () => {
      const attrs = { googclient_schemaname: 'projects/src/schemas/q', googclient_schemaencoding: 'JSON', googclient_schemarevisionid: 'r1' };
      const re = new Reencoder(avroTarget('BINARY'), undefined);
      const r = ok(re.reencodeMessage(msg('{"channel":"A","seq":1,"note":{"string":"x"},"raw":"AAAA"}', attrs), undefined));
      assert.equal(r.attributes, undefined);
      assert.deepEqual(avsc.fromBuffer(Buffer.from(r.data)).note, 'x');
      assert.deepEqual([...avsc.fromBuffer(Buffer.from(r.data)).raw], [65, 65, 65, 65], "bytes as Avro's JSON encoding writes them: a character a byte");
      // The same text without the attributes is a record as the decoder writes one: bytes in base64.
      assert.deepEqual([...avsc.fromBuffer(Buffer.from(ok(re.reencodeMessage(msg('{"channel":"A","seq":1,"raw":"AAAA"}'), undefined)).data)).raw], [0, 0, 0]);
    });

    it('refuses a record that does not fit, naming the field and what the schema expects', () => {
      const re = new Reencoder(avroTarget('BINARY'), undefined);
      const why = (json: string) => invalid(re.reencodeMessage(msg(json), undefined));
      assert.equal(why('{"seq":1}'), 'field "channel": missing: record md.Quote requires it (it has no default)');
      assert.equal(why('{"channel":"A","seq":1,"venue":"X"}'), 'field "venue": is not a field of record md.Quote');
      assert.equal(why('{"channel":"A","seq":"one"}'), 'field "seq": expected long (a 64-bit integer), got the string "one"');
      assert.equal(why('{"channel":"A","seq":1,"side":"MID"}'), 'field "side": expected one of enum md.Side\'s symbols (BID, ASK), got the string "MID"');
      assert.equal(why('{"channel":"A","seq":1,"tags":{"k":"v"}}'), 'field "tags.k": expected long (a 64-bit integer), got the string "v"');
      assert.match(why('{"channel":"A","seq":1,"leg":{"px":"high"}}'), /^field "leg": fits none of the union's branches \(null, md\.Px, md\.Qty\)/);
      assert.equal(why('{"channel":"A","seq":1,"leg":{"md.Px":{"px":"high"}}}'), 'field "leg.px": expected double, got the string "high"');
      assert.equal(why('[1]'), 'expected record md.Quote, got an array');
      assert.match(why('not json'), /no schema of its own and is not JSON text: give its schema with --schema FILE/);
      assert.equal(invalid(re.reencodeMessage({ messageId: '1' }, undefined)), 'the message has no payload to write with the schema');
    });

    it('a binary payload whose schema is out of reach is refused with the next step', () => {
      const attrs = { googclient_schemaname: 'projects/src/schemas/q', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1' };
      assert.match(
        invalid(new Reencoder(avroTarget('BINARY'), undefined).reencodeMessage(msg(Buffer.from([2, 65, 2]), attrs), undefined)),
        /--schema q=FILE\.avsc/,
      );
    });

    it('any record decoded from Avro binary writes back to the same bytes (property)', () => {
      const decoder = avroDecoder(avroDef());
      const re = new Reencoder(avroTarget('BINARY'), { fallback: avroDef('quote.avsc') });
      const record = fc.record({
        channel: fc.string(),
        seq: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        note: fc.option(fc.string(), { nil: null }),
        raw: fc.uint8Array({ maxLength: 8 }).map((a) => Buffer.from(a)),
        side: fc.constantFrom('BID', 'ASK'),
        leg: fc.oneof(
          fc.constant(null),
          fc.double({ noNaN: true }).map((px) => ({ 'md.Px': { px } })),
          fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((qty) => ({ 'md.Qty': { qty } })),
        ),
        // avsc's own map reader drops a "__proto__" key (it assigns keys to a plain object): the next test writes one.
        tags: fc.dictionary(
          fc.string().filter((k) => k !== '__proto__'),
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        ),
      });
      fc.assert(
        fc.property(record, (r) => {
          const bytes = avroDecoderBytes(r);
          assert.ok('record' in decoder.decode(bytes, 'BINARY'));
          const out = ok(re.reencodeMessage(msg(bytes), undefined));
          assert.deepEqual(Buffer.from(out.data), Buffer.from(bytes));
        }),
        { numRuns: 300 },
      );
    });

    it('writes a map key "__proto__" as the data it is', () => {
      const r = ok(new Reencoder(avroTarget('BINARY'), undefined).reencodeMessage(msg('{"channel":"A","seq":1,"tags":{"__proto__":5,"b":6}}'), undefined));
      const tags = Buffer.from(r.data).subarray(-16);
      assert.deepEqual([...tags], [0x04, 0x12, ...Buffer.from('__proto__'), 0x0a, 0x02, 0x62, 0x0c, 0x00], 'two entries: "__proto__" 5, "b" 6');
    });
  });

  describe('Protocol Buffers', () => {
    const book = protobufDecoder(protoDef);

    it('writes a JSON payload (either field naming) as binary: nested, repeated, map, enum, bytes, oneof, uint64 exact', () => {
      const json =
        '{"seq":"18446744073709551615","levels":[{"px":101.5,"qty":9007199254740993,"side":"ASK"}],"tags":{"7":"x"},"raw":"AP8=","deleted":7,"venueCode":"XCME"}';
      const r = ok(new Reencoder(protoTarget('BINARY'), undefined).reencodeMessage(msg(json), undefined));
      assert.deepEqual(book.decode(r.data, 'BINARY'), {
        record: {
          seq: '18446744073709551615',
          levels: [{ px: 101.5, qty: '9007199254740993', side: 'ASK' }],
          tags: { 7: 'x' },
          raw: 'AP8=',
          deleted: 7,
          venue_code: 'XCME',
        },
      });
      // The binary payload read by the capture's --schema, written into a JSON topic: the same record.
      const json2 = ok(new Reencoder(protoTarget('JSON'), { fallback: protoDef }).reencodeMessage(msg(r.data), undefined));
      assert.deepEqual(book.decode(json2.data, 'JSON'), book.decode(r.data, 'BINARY'));
    });

    it('any record written and decoded again writes to the same record, in either encoding (property)', () => {
      const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
      const level = fc.record({
        px: fc.double({ noNaN: true, noDefaultInfinity: true }),
        qty: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
        side: fc.constantFrom('SIDE_UNSPECIFIED', 'BID', 'ASK'),
      });
      const record = fc.record(
        {
          seq: uint64,
          levels: fc.array(level, { maxLength: 3 }),
          tags: fc.dictionary(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String), fc.string()),
          raw: fc.uint8Array({ maxLength: 6 }).map((a) => Buffer.from(a).toString('base64')),
          added: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
          venue_code: fc.string(),
        },
        { requiredKeys: [] },
      );
      const bin = new Reencoder(protoTarget('BINARY'), { fallback: protoDef });
      const json = new Reencoder(protoTarget('JSON'), { fallback: protoDef });
      fc.assert(
        fc.property(record, (r) => {
          const first = book.decode(ok(bin.reencodeMessage(msg(JSON.stringify(r)), undefined)).data, 'BINARY');
          assert.ok('record' in first, JSON.stringify(first));
          const again = book.decode(ok(bin.reencodeMessage(msg(JSON.stringify(first.record)), undefined)).data, 'BINARY');
          assert.deepEqual(again, first);
          assert.deepEqual(book.decode(ok(json.reencodeMessage(msg(JSON.stringify(first.record)), undefined)).data, 'JSON'), first);
        }),
        { numRuns: 200 },
      );
    });

    it('re-encodes an Avro message into a Protocol Buffers JSON topic by field names', () => {
      const flat = `syntax = "proto3";\nmessage Quote { string channel = 1; int64 seq = 2; string note = 3; }`;
      const target: TopicSchema = {
        name: 'projects/p/schemas/flat',
        encoding: 'JSON',
        definition: { type: 'PROTOCOL_BUFFER', definition: flat, source: 'projects/p/schemas/flat@1' },
      };
      const src = avroDef('projects/src/schemas/q@r1');
      const small = { type: 'record', name: 'Quote', fields: QUOTE.fields.slice(0, 3) };
      const payload = Type.forSchema(small as never).toBuffer({ channel: 'A', seq: 5, note: 'n' });
      const attrs = { googclient_schemaname: 'projects/src/schemas/q', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: 'r1' };
      const re = new Reencoder(target, { recorded: { 'projects/src/schemas/q@r1': { ...src, definition: JSON.stringify(small) } } });
      assert.equal(Buffer.from(ok(re.reencodeMessage(msg(payload, attrs), undefined)).data).toString(), '{"channel":"A","seq":"5","note":"n"}');
    });

    it('refuses what protobufjs would coerce silently, naming the field', () => {
      const re = new Reencoder(protoTarget('BINARY'), undefined);
      const why = (json: string) => invalid(re.reencodeMessage(msg(json), undefined));
      assert.equal(why('{"seq":"x"}'), 'field "seq": expected uint64, got the string "x"');
      assert.equal(why('{"seq":-1}'), 'field "seq": expected uint64, got the number -1');
      assert.equal(
        why('{"levels":[{"side":"MID"}]}'),
        'field "levels[0].side": expected one of enum Side\'s values (SIDE_UNSPECIFIED, BID, ASK), got the string "MID"',
      );
      assert.equal(why('{"levels":[{"qty":1.5}]}'), 'field "levels[0].qty": expected int64, got the number 1.5');
      assert.equal(why('{"added":1,"deleted":2}'), 'field "deleted": is in oneof event with "added", which is set too');
      assert.equal(why('{"tags":{"x":"y"}}'), 'field "tags["x"]": expected int32, got the string "x"');
      assert.equal(why('{"venue":"X"}'), 'field "venue": is not a field of message Book');
      assert.equal(why('{"raw":"not base64!"}'), 'field "raw": expected bytes as base64 text, got the string "not base64!"');
      assert.equal(why('{"levels":{"px":1}}'), 'field "levels": expected a list (repeated Level), got an object');
    });

    it('a .proto that does not compile is the definition error it is', () => {
      assert.throws(() => compileEncoder({ type: 'PROTOCOL_BUFFER', definition: 'message {', source: 's' }), /not a valid Protocol Buffers definition/);
    });
  });

  describe('checking a whole capture', () => {
    const entries = (payloads: string[]): AsyncIterable<CaptureEntry[]> =>
      (async function* () {
        yield payloads.map((p, i) => ({ file: 0, line: i + 1, time: i, record: { message: msg(p) } }));
        yield [{ file: 0, line: payloads.length + 1, time: 0, invalid: 'not JSON' }];
      })();

    it('counts every message that does not fit and keeps the first few by line', async () => {
      const good = '{"channel":"A","seq":1}';
      const payloads = [good, '{"seq":2}', good, ...Array.from({ length: 6 }, () => '{"channel":"A"}')];
      const re = new Reencoder(avroTarget('BINARY'), undefined);
      const check = await checkCapture(entries(payloads), re, { keep: 3 });
      assert.deepEqual({ read: check.read, failed: check.failed, lines: check.failures.map((f) => f.line) }, { read: 9, failed: 7, lines: [2, 4, 5] });
      const text = refusal(check, 'projects/p/topics/t', avroTarget('BINARY'));
      assert.match(
        text,
        /^nothing published: 7 of 9 message\(s\) do not fit the schema of projects\/p\/topics\/t \(projects\/p\/schemas\/quote@r2, BINARY\):\n {2}line 2: field "channel": missing/,
      );
      assert.match(text, /… and 4 more\n/);
    });

    it('fetches each revision the capture names once, and says which could not be', async () => {
      const asked: string[] = [];
      const fetch: SchemaFetch = async (ref) => {
        asked.push(ref.revisionId!);
        return ref.revisionId === 'r1' ? { definition: avroDef('projects/src/schemas/q@r1') } : { missing: 'deleted' };
      };
      const payload = b64(avsc.toBuffer({ channel: 'A', seq: 1, note: null, raw: Buffer.alloc(0), side: 'BID', leg: null, tags: {} }));
      const at = (rev: string) => ({ googclient_schemaname: 'projects/src/schemas/q', googclient_schemaencoding: 'BINARY', googclient_schemarevisionid: rev });
      const batches = (async function* () {
        yield ['r1', 'r1', 'r2', 'r2'].map((rev, i) => ({
          file: 0,
          line: i + 1,
          time: i,
          record: { message: { data: payload, messageId: String(i), attributes: at(rev) } },
        }));
      })();
      const re = new Reencoder(avroTarget('BINARY'), undefined, fetch);
      const check = await checkCapture(batches, re);
      assert.deepEqual(asked, ['r1', 'r2']);
      assert.deepEqual(
        check.failures.map((f) => f.line),
        [3, 4],
      );
      assert.deepEqual(re.fetchNotices, [
        'schema projects/src/schemas/q@r2 no longer exists (deleted): give it as a file: --schema q=FILE.avsc (or FILE.proto), or in the seqscope.schemas setting',
      ]);
    });
  });
});

/** A record in avsc's own form (wrapped union, bigint long) as Avro binary. */
function avroDecoderBytes(r: { seq: bigint } & Record<string, unknown>): Uint8Array {
  const withBig = Type.forSchema(QUOTE as never, {
    registry: {
      long: avroTypes.LongType.__with({
        fromBuffer: (b: Buffer) => b.readBigInt64LE(0),
        toBuffer: (v: bigint) => {
          const b = Buffer.alloc(8);
          b.writeBigInt64LE(v);
          return b;
        },
        fromJSON: BigInt,
        toJSON: Number,
        isValid: (v: unknown) => typeof v === 'bigint',
        compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
      }),
    } as never,
  });
  return withBig.toBuffer(r);
}
