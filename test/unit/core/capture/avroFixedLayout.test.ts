/**
 * The reader of Google's fixed Avro layouts gives what avsc gives: the same entries (records,
 * lines, times, why invalid) and, through the engine, the same summary and trace events, for
 * random archives written by hand — hostile strings, empty and large maps, map blocks with
 * negative counts and byte sizes, big blocks, null and deflate codecs — and for the same
 * archives damaged on purpose, whose blocks it leaves to avsc.
 */
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { AvroArchiveParser } from '../../../../src/core/capture/avroArchive';
import { fixedLayout } from '../../../../src/core/capture/avroFixedLayout';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { contentHash } from '../../../../src/core/capture/contentHash';
import { ScanKind, ScannedEntry } from '../../../../src/core/capture/scannedEntry';
import { ReplayEngine } from '../../../../src/core/replay/replayEngine';
import { DEFAULT_OPTIONS, SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';
import { GCS_DATA_ONLY_SCHEMA, GCS_WITH_METADATA_SCHEMA, BIGQUERY_AVRO_SCHEMA } from '../../../support/archiveFixtures';
import { Type } from 'avsc';

interface Rec {
  sub: string;
  id: string;
  micros: number;
  attributes: [string, string][];
  data: Uint8Array;
  /** How the map is written: entries per map block, and whether blocks carry negative counts with byte sizes. */
  split: number;
  sized: boolean;
}

/** Avro long: zig-zag varint (exact for safe integers). */
function long(n: number): number[] {
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  const out: number[] = [];
  do {
    let b = z % 128;
    z = Math.floor(z / 128);
    if (z > 0) b |= 0x80;
    out.push(b);
  } while (z > 0);
  return out;
}

function bytes(b: Uint8Array): number[] {
  return [...long(b.length), ...b];
}
const text = (s: string) => bytes(Buffer.from(s, 'utf8'));

function map(entries: [string, string][], split: number, sized: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < entries.length; i += split) {
    const part = entries.slice(i, i + split);
    const body = part.flatMap(([k, v]) => [...text(k), ...text(v)]);
    if (sized) out.push(...long(-part.length), ...long(body.length), ...body);
    else out.push(...long(part.length), ...body);
  }
  out.push(0);
  return out;
}

function record(r: Rec, dataOnly: boolean): number[] {
  if (dataOnly) return bytes(r.data);
  return [...text(r.sub), ...text(r.id), ...long(r.micros), ...map(r.attributes, r.split, r.sized), ...bytes(r.data)];
}

const SYNC = Buffer.from('0123456789abcdef', 'latin1');

/** An Avro container file of `blocks` written by hand. */
function container(schema: object, codec: 'null' | 'deflate', blocks: number[][][]): Buffer {
  const meta: [string, string][] = [
    ['avro.schema', JSON.stringify(schema)],
    ['avro.codec', codec],
  ];
  const parts: number[] = [0x4f, 0x62, 0x6a, 0x01, ...map(meta, 2, false)];
  const out: Buffer[] = [Buffer.from(parts), SYNC];
  for (const b of blocks) {
    let body: Buffer = Buffer.from(b.flat());
    if (codec === 'deflate') body = deflateRawSync(body);
    out.push(Buffer.from([...long(b.length), ...long(body.length)]), body, SYNC);
  }
  return Buffer.concat(out);
}

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', '__proto__', 'constructor', 'ordering_key', 'orderingKey', 'n', 'toString', '\u0000', '\ud800', 'é'),
);
const recArb: fc.Arbitrary<Rec> = fc.record({
  sub: hostile,
  id: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) }, { weight: 1, arbitrary: hostile }),
  micros: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 5_000_000 }).map((n) => 1_796_117_400_000_000 + n) },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 51, -(2 ** 51), 2 ** 52, 2 ** 53 - 1, -(2 ** 53) + 1) },
  ),
  attributes: fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom('n', 'ordering_key', 'k'), hostile),
      fc.oneof(
        fc.integer({ min: 0, max: 9 }).map(String),
        fc.constantFrom('acct-1', 'acct-2', '', '70000', '4294967296', '9007199254740993', '-1', '007', '1e3'),
        hostile,
      ),
    ),
    { maxLength: 40 },
  ),
  data: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(Buffer.from('{"k":"a","n":3}'), new Uint8Array(0))),
  split: fc.integer({ min: 1, max: 5 }),
  sized: fc.boolean(),
});

const SCHEMAS = {
  metadata: GCS_WITH_METADATA_SCHEMA,
  dataOnly: GCS_DATA_ONLY_SCHEMA,
  plainLong: { ...GCS_WITH_METADATA_SCHEMA, fields: GCS_WITH_METADATA_SCHEMA.fields.map((f) => (f.name === 'publish_time' ? { ...f, type: 'long' } : f)) },
};

const archiveArb = fc.record({
  schema: fc.constantFrom<keyof typeof SCHEMAS>('metadata', 'dataOnly', 'plainLong'),
  codec: fc.constantFrom<'null' | 'deflate'>('null', 'deflate'),
  blocks: fc.array(fc.array(recArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
  /** Bytes flipped after the header: (fraction of the rest, xor). */
  damage: fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 255 })), { maxLength: 3 }) },
  ),
  chunk: fc.integer({ min: 1, max: 4096 }),
});

type Archive = typeof archiveArb extends fc.Arbitrary<infer T> ? T : never;

function archiveBytes(a: Archive): Buffer {
  const dataOnly = a.schema === 'dataOnly';
  const file = container(
    SCHEMAS[a.schema],
    a.codec,
    a.blocks.map((b) => b.map((r) => record(r, dataOnly))),
  );
  const headerEnd = file.indexOf(SYNC) + 16;
  for (const [at, xor] of a.damage) {
    const i = headerEnd + Math.min(file.length - headerEnd - 1, Math.floor(at * (file.length - headerEnd)));
    file[i] ^= xor;
  }
  return file;
}

function parse(
  bytes: Buffer,
  chunk: number,
  o: ConstructorParameters<typeof AvroArchiveParser>[3],
): { entries: CaptureEntry[]; parser: AvroArchiveParser } | string {
  const parser = new AvroArchiveParser(0, 'archive.avro', 0, o);
  const entries: CaptureEntry[] = [];
  try {
    for (let i = 0; i < bytes.length; i += chunk) entries.push(...parser.push(bytes.subarray(i, i + chunk)));
    entries.push(...parser.end());
  } catch (e) {
    return (e as Error).message;
  }
  return { entries, parser };
}

/** What a replay sees of an entry. */
function view(e: CaptureEntry): unknown {
  return { file: e.file, line: e.line, offset: e.offset, length: e.length, time: e.time, invalid: e.invalid, record: e.record };
}

function replay(entries: readonly CaptureEntry[], options: SequencingOptions): unknown {
  const events: unknown[] = [];
  const engine = new ReplayEngine(options, (ev: TraceEvent, e?: CaptureEntry) => events.push({ ev: { ...ev }, line: e?.line }), ['archive.avro']);
  for (const e of entries) engine.push(e);
  engine.finish();
  return { events, summary: engine.summary() };
}

const OPTIONS: SequencingOptions[] = [
  { ...DEFAULT_OPTIONS, seq: { kind: 'attribute', name: 'n' }, gapTimeoutMs: 1000 },
  { ...DEFAULT_OPTIONS, key: { kind: 'attribute', name: 'k' }, seq: { kind: 'attribute', name: 'n' }, seqBits: 16 },
  { ...DEFAULT_OPTIONS, key: { kind: 'json', path: ['k'] }, seq: { kind: 'json', path: ['n'] } },
  { ...DEFAULT_OPTIONS, seq: { kind: 'none' }, sendingTimeAttribute: 'n' },
];

describe('Avro fixed layouts', () => {
  it('tells Google’s two schemas by their parsed fields, not their text', () => {
    assert.equal(fixedLayout(Type.forSchema(GCS_WITH_METADATA_SCHEMA as never)), 'with-metadata');
    assert.equal(fixedLayout(Type.forSchema(GCS_DATA_ONLY_SCHEMA as never)), 'data-only');
    assert.equal(fixedLayout(Type.forSchema({ ...GCS_WITH_METADATA_SCHEMA, name: 'Other', doc: 'x' } as never)), 'with-metadata');
    assert.equal(fixedLayout(Type.forSchema(BIGQUERY_AVRO_SCHEMA as never)), undefined);
    const swapped = [...GCS_WITH_METADATA_SCHEMA.fields];
    [swapped[1], swapped[0]] = [swapped[0], swapped[1]];
    assert.equal(fixedLayout(Type.forSchema({ ...GCS_WITH_METADATA_SCHEMA, fields: swapped } as never)), undefined);
    const extra = [...GCS_WITH_METADATA_SCHEMA.fields, { name: 'x', type: 'int' }];
    assert.equal(fixedLayout(Type.forSchema({ ...GCS_WITH_METADATA_SCHEMA, fields: extra } as never)), undefined);
  });

  it('reads a big block of records with many attributes, map blocks of every kind, as avsc does', () => {
    const records: Rec[] = [];
    for (let i = 0; i < 3000; i++) {
      const attributes: [string, string][] = [
        ['ordering_key', `acct-${i % 7}`],
        ['n', String(Math.floor(i / 7) + 1)],
      ];
      for (let a = 0; a < (i % 5 === 0 ? 150 : 3); a++) attributes.push([`attr-${a}-é`, `value ${a} ${'x'.repeat(a % 13)}`]);
      records.push({
        sub: 'projects/p/subscriptions/s',
        id: String(100_000 + i),
        micros: 1_796_117_400_000_000 + i * 137,
        attributes,
        data: Buffer.from(`{"i":${i}}`),
        split: 1 + (i % 40),
        sized: i % 2 === 0,
      });
    }
    for (const codec of ['null', 'deflate'] as const) {
      const bytes = container(GCS_WITH_METADATA_SCHEMA, codec, [records.map((r) => record(r, false))]);
      const options = OPTIONS[0];
      const reference = parse(bytes, 1 << 16, { fixedLayouts: false });
      const scanned = parse(bytes, 1 << 16, { scan: { options, keep: true } });
      assert.ok(typeof reference !== 'string' && typeof scanned !== 'string');
      assert.equal(scanned.parser.blockCounts.fixed, 1);
      assert.equal(reference.entries.length, 3000);
      assert.deepEqual(scanned.entries.map(view), reference.entries.map(view));
      assert.deepEqual(replay(scanned.entries, options), replay(reference.entries, options));
    }
  });

  it('reads random and damaged archives into the entries avsc reads, whole records or scanned, and replays them alike', () => {
    let fixed = 0;
    let avsc = 0;
    fc.assert(
      fc.property(archiveArb, fc.constantFrom(...OPTIONS.keys()), (a, oi) => {
        const bytes = archiveBytes(a);
        const reference = parse(bytes, a.chunk, { fixedLayouts: false });
        const records = parse(bytes, a.chunk, {});
        const options = OPTIONS[oi];
        const scanned = parse(bytes, a.chunk, { scan: { options, keep: true } });
        if (typeof reference === 'string') {
          assert.equal(records, reference);
          assert.equal(scanned, reference);
          return;
        }
        assert.ok(typeof records !== 'string' && typeof scanned !== 'string');
        assert.deepEqual(records.entries, reference.entries);
        assert.deepEqual(scanned.entries.map(view), reference.entries.map(view));
        // The hash taken from the bytes is the hash of the record the engine takes for one read whole.
        for (const e of scanned.entries) if (e instanceof ScannedEntry && e.kind === ScanKind.Valid) assert.equal(e.hash, contentHash(e.record!.message));
        assert.deepEqual(replay(scanned.entries, options), replay(reference.entries, options));
        // Without the records kept, the replay's summary is the same.
        const lean = parse(bytes, a.chunk, { scan: { options, keep: false } });
        assert.ok(typeof lean !== 'string');
        assert.deepEqual((replay(lean.entries, options) as { summary: unknown }).summary, (replay(reference.entries, options) as { summary: unknown }).summary);
        fixed += records.parser.blockCounts.fixed;
        avsc += records.parser.blockCounts.avsc;
      }),
      { numRuns: 400 },
    );
    // Both paths were taken: blocks read by hand, and blocks (damaged, or out of its range) left to avsc.
    assert.ok(fixed > 100 && avsc > 20, `fixed ${fixed}, avsc ${avsc}`);
  });
});
