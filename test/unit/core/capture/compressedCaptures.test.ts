/**
 * Gzip-compressed captures and captures from a stream: read exactly as the plain file, damage
 * reported where it is without losing what came before it, and compressed exports.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { CaptureError, CaptureReader } from '../../../../src/core/capture/captureReader';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { DamagedCompressionError, decompressCapture, isGzip, sniffGzip } from '../../../../src/core/capture/captureSource';
import { formatForPath } from '../../../../src/core/export';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceWriter } from '../../../../src/core/export/traceWriter';
import { captureText, LineSpec } from '../../../support/captureLines';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'captures');

async function readAll(r: CaptureReader): Promise<CaptureEntry[]> {
  const out: CaptureEntry[] = [];
  for await (const b of r.batches()) out.push(...b);
  return out;
}

/** What a reader makes of an entry, without where its bytes were (they differ once compressed). */
function essence(e: CaptureEntry) {
  return { line: e.line, time: e.time, invalid: e.invalid, id: e.record?.message.messageId };
}

function openFds(): number | undefined {
  return existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : undefined;
}

/** Three channels, 400 numbers each, interleaved: enough lines for several gzip blocks. */
function feed(): LineSpec[] {
  const lines: LineSpec[] = [];
  for (let i = 0; i < 1200; i++) lines.push({ t: i * 5, channel: String(310 + (i % 3)), seq: 1 + Math.floor(i / 3) });
  return lines;
}

describe('compressed captures and standard input', () => {
  let dir: string;
  let plain: string;
  let text: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-gz-'));
    text = captureText(feed());
    plain = join(dir, 'feed.jsonl');
    writeFileSync(plain, text);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const gz = (name: string, data: Buffer | string): string => {
    const p = join(dir, name);
    writeFileSync(p, Buffer.isBuffer(data) ? data : gzipSync(data));
    return p;
  };

  it('reads a gzip capture as the plain file: same records, lines and clock; progress in compressed bytes', async () => {
    const p = gz('feed.jsonl.gz', text);
    const want = (await readAll(new CaptureReader(plain))).map(essence);
    const r = new CaptureReader(p);
    const got = await readAll(r);
    assert.equal(r.compressed, true);
    assert.equal(r.format, 'jsonl');
    assert.deepEqual(got.map(essence), want);
    assert.equal(want.length, 1200);
    assert.equal(r.bytesRead, r.size, 'progress ends at the compressed size');
    assert.ok(r.size < Buffer.byteLength(text) / 3, 'size is the compressed file');
  });

  it('is told by content, not by name: a plain file called .gz and a gzip file called .jsonl', async () => {
    const misnamedPlain = join(dir, 'plain.gz');
    writeFileSync(misnamedPlain, text);
    const misnamedGz = gz('really-gzip.jsonl', text);
    const a = new CaptureReader(misnamedPlain);
    const b = new CaptureReader(misnamedGz);
    assert.equal((await readAll(a)).length, 1200);
    assert.equal((await readAll(b)).length, 1200);
    assert.equal(a.compressed, false);
    assert.equal(b.compressed, true);
    assert.equal(await sniffGzip(misnamedGz), true);
    assert.equal(await sniffGzip(misnamedPlain), false);
    assert.equal(isGzip(Buffer.from([0x1f])), false);
  });

  it('reads every member of a multi-member gzip (files concatenated with cat)', async () => {
    const lines = text.split('\n');
    const half = lines.slice(0, 600).join('\n') + '\n';
    const rest = lines.slice(600).join('\n');
    const p = gz('two-members.jsonl.gz', Buffer.concat([gzipSync(half), gzipSync(rest)]));
    const got = await readAll(new CaptureReader(p));
    assert.deepEqual(got.map(essence), (await readAll(new CaptureReader(plain))).map(essence));
  });

  it('reads compressed JSON arrays and pull responses', async () => {
    for (const name of ['array.json', 'pull-pretty.json', 'pull-compact.json']) {
      const src = join(FIXTURES, name);
      const want = (await readAll(new CaptureReader(src))).map(essence);
      const r = new CaptureReader(gz(`${name}.gz`, readFileSync(src)));
      assert.deepEqual((await readAll(r)).map(essence), want, name);
      assert.ok(want.length > 0, name);
    }
  });

  it('a truncated gzip: every record before the cut is read, and the cut is one invalid entry on its line', async () => {
    const whole = gzipSync(text);
    const p = gz('cut.jsonl.gz', whole.subarray(0, Math.floor(whole.length * 0.6)));
    const before = openFds();
    const got = await readAll(new CaptureReader(p));
    const valid = got.filter((e) => e.record);
    const invalid = got.filter((e) => e.invalid !== undefined);
    assert.ok(valid.length > 300 && valid.length < 1200, `some but not all records: ${valid.length}`);
    const want = (await readAll(new CaptureReader(plain))).map(essence);
    assert.deepEqual(valid.map(essence), want.slice(0, valid.length), 'nothing before the cut is lost or changed');
    assert.equal(invalid.length, 1, JSON.stringify(invalid));
    assert.match(invalid[0].invalid as string, /gzip data ends early \(the file is truncated/);
    assert.equal(invalid[0].line, valid.length + 1, 'reported on the line the data broke off in');
    assert.equal(openFds(), before, 'file closed');
  });

  it('a gzip capture cut anywhere: every line zlib can decode before the cut is read, then the cut as one invalid record (property)', async () => {
    const whole = gzipSync(text);
    const want = (await readAll(new CaptureReader(plain))).map(essence);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: whole.length - 1 }), async (cutAt) => {
        const cut = whole.subarray(0, cutAt);
        // What can be decoded from the cut file at all (zlib without the end check).
        const decodable = gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
        const complete = decodable.split('\n').length - 1;
        const reader = new CaptureReader('-', 0, Readable.from([cut]));
        if (complete === 0) {
          // Not one line: nothing to sequence, an input error naming what broke.
          await assert.rejects(readAll(reader), (e: unknown) => e instanceof CaptureError && /gzip data ends early/.test(e.message));
          return;
        }
        const got = await readAll(reader);
        const valid = got.filter((e) => e.record).map(essence);
        const invalid = got.filter((e) => e.invalid !== undefined);
        // Every complete line (and a last one cut exactly before its newline), nothing changed.
        assert.ok(valid.length === complete || valid.length === complete + 1, `${valid.length} records of ${complete} decodable lines`);
        assert.deepEqual(valid, want.slice(0, valid.length));
        assert.equal(invalid.length, 1, JSON.stringify(invalid));
        assert.match(invalid[0].invalid as string, /^the gzip data ends early/);
        assert.equal(got[got.length - 1], invalid[0], 'the cut comes last');
        assert.equal(invalid[0].line, complete + 1);
      }),
      { numRuns: 80 },
    );
  });

  it('damaged gzip data: reported with zlib’s reason after the good records; damage in the header is a CaptureError naming the file', async () => {
    const whole = Buffer.from(gzipSync(text));
    const bad = Buffer.from(whole);
    for (let i = Math.floor(bad.length / 2); i < Math.floor(bad.length / 2) + 64; i++) bad[i] ^= 0x5a;
    const got = await readAll(new CaptureReader(gz('damaged.jsonl.gz', bad)));
    const invalid = got.filter((e) => e.invalid !== undefined);
    assert.ok(got.filter((e) => e.record).length > 100);
    assert.ok(invalid.length >= 1);
    assert.match(invalid[invalid.length - 1].invalid as string, /gzip data (is damaged|ends early)/);

    const header = Buffer.from([0x1f, 0x8b, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff]);
    const hp = gz('bad-header.jsonl.gz', header);
    await assert.rejects(new CaptureReader(hp).open(), (e: unknown) => {
      assert.ok(e instanceof CaptureError);
      assert.match(e.message, /bad-header\.jsonl\.gz: the gzip data is damaged \(.+\)/);
      return true;
    });
  });

  it('a gzip file that holds no capture is rejected like a plain one, naming the file', async () => {
    const p = gz('notes.txt.gz', 'hello world\n');
    await assert.rejects(new CaptureReader(p).open(), /notes\.txt\.gz is not a capture: it starts with "hello world"/);
  });

  it('reads a capture from a stream ("-"), plain or compressed, whatever the chunking', async () => {
    const want = (await readAll(new CaptureReader(plain))).map(essence);
    const bytes = Buffer.from(text);
    const z = gzipSync(text);
    // One byte first: compression is told by two.
    for (const [name, chunks] of [
      ['plain', [bytes.subarray(0, 1), bytes.subarray(1, 5000), bytes.subarray(5000)]],
      ['gzip', [z.subarray(0, 1), z.subarray(1, 777), z.subarray(777)]],
    ] as const) {
      const r = new CaptureReader('-', 0, Readable.from(chunks));
      assert.equal(r.label, 'standard input');
      assert.deepEqual((await readAll(r)).map(essence), want, name);
      assert.equal(r.compressed, name === 'gzip');
    }
  });

  it('runReplay of a compressed capture and of standard input gives the summary of the plain file', async () => {
    const options = resolveOptions({ preset: 'cme' });
    const p = gz('replay.jsonl.gz', text);
    const { summary: want } = await runReplay({ paths: [plain], options });
    const { summary: fromGz } = await runReplay({ paths: [p], options });
    const { summary: fromStdin } = await runReplay({ paths: ['-'], options, stdin: Readable.from([gzipSync(text)]) });
    const counts = (s: typeof want) => ({ ...s, files: undefined });
    assert.deepEqual(counts(fromGz), counts(want));
    assert.deepEqual(counts(fromStdin), counts(want));
    assert.equal(want.delivered, 1200);
  });

  it('decompressCapture writes the plain bytes; damage or cancellation leaves no file behind', async () => {
    const p = gz('to-decompress.jsonl.gz', text);
    const out = join(dir, 'decompressed.jsonl');
    const seen: number[] = [];
    await decompressCapture(p, out, { onProgress: (n) => seen.push(n) });
    assert.equal(readFileSync(out, 'utf8'), text);
    assert.ok(seen.length > 0);

    const whole = gzipSync(text);
    const cut = gz('cut2.jsonl.gz', whole.subarray(0, whole.length - 100));
    const out2 = join(dir, 'cut2.jsonl');
    await assert.rejects(decompressCapture(cut, out2), DamagedCompressionError);
    assert.equal(existsSync(out2), false);
    // keepPartial: what came before the cut is kept, and the damage is said.
    const kept = await decompressCapture(cut, out2, { keepPartial: true });
    assert.match(kept.damage ?? '', /gzip data ends early/);
    const partial = readFileSync(out2, 'utf8');
    assert.ok(partial.length > text.length / 2 && text.startsWith(partial), `a prefix of the text: ${partial.length} of ${text.length}`);
    assert.deepEqual(await decompressCapture(p, out, { keepPartial: true }), {}, 'no damage, nothing said');

    const big = gz('big.jsonl.gz', text.repeat(40));
    const out3 = join(dir, 'big.jsonl');
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(decompressCapture(big, out3, { signal: abort.signal }), (e: unknown) => (e as Error).name === 'AbortError');
    assert.equal(existsSync(out3), false);
  });

  it('exports to a .gz name compressed, in the format of the name before .gz', async () => {
    assert.equal(formatForPath('trace.csv.gz'), 'csv');
    assert.equal(formatForPath('trace.json.GZ'), 'chrome-trace');
    assert.equal(formatForPath('trace.jsonl.gz'), 'jsonl');
    const options = resolveOptions({ preset: 'cme' });
    const plainOut = join(dir, 'trace.csv');
    const gzOut = join(dir, 'trace.csv.gz');
    await runReplay({ paths: [plain], options, writer: await TraceWriter.open(plainOut, formatForPath(plainOut)) });
    await runReplay({ paths: [plain], options, writer: await TraceWriter.open(gzOut, formatForPath(gzOut)) });
    const raw = readFileSync(gzOut);
    assert.ok(isGzip(raw));
    assert.equal(gunzipSync(raw).toString('utf8'), readFileSync(plainOut, 'utf8'));
    assert.ok(readFileSync(plainOut, 'utf8').startsWith('type,key,seq,'));
  });
});
