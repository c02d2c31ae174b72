/**
 * The recorder's promise — a message is acked only after its line is in the file — and what a
 * crash leaves behind; plus the pure parts of the Pub/Sub layer: record conversion, names,
 * error explanations, tap ids.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CaptureReader } from '../../../src/core/capture/captureReader';
import { CaptureRecorder } from '../../../src/pubsub/captureRecorder';
import { describeSubscription, subscriptionCaveats } from '../../../src/pubsub/admin';
import { explainError, GRPC, PubsubError } from '../../../src/pubsub/pubsubErrors';
import { PreciseDate } from '@google-cloud/precise-date';
import { fromPulled, timestampIso } from '../../../src/pubsub/receivedRecord';
import { parseResourceName } from '../../../src/pubsub/resourceNames';
import { isTap, tapId, TAP_PREFIX } from '../../../src/pubsub/tap';

const line = (i: number) => JSON.stringify({ message: { messageId: `m${i}`, publishTime: '2026-11-30T09:30:00Z' }, receivedAt: '2026-11-30T09:30:01Z' }) + '\n';

async function readAll(path: string) {
  const out = [];
  for await (const b of new CaptureReader(path).batches()) out.push(...b);
  return out;
}

describe('CaptureRecorder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-rec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('calls back only after the line is in the file, and gives each line its byte offset', async () => {
    const path = join(dir, 'c.jsonl');
    const rec = await CaptureRecorder.open(path);
    const seen: { i: number; onDisk: string }[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < 50; i++) {
      offsets.push(rec.append(line(i), () => seen.push({ i, onDisk: readFileSync(path, 'utf8') })));
    }
    assert.equal(seen.length, 0, 'nothing is acknowledged before it is written');
    assert.equal(readFileSync(path, 'utf8'), '', 'the batch is still being gathered');
    await rec.close();
    assert.equal(seen.length, 50);
    for (const s of seen) assert.ok(s.onDisk.includes(line(s.i)), `line ${s.i} was in the file when its callback ran`);
    const text = readFileSync(path, 'utf8');
    offsets.forEach((o, i) => assert.equal(text.slice(o, o + line(i).length), line(i)));
    assert.equal((await readAll(path)).filter((e) => e.record).length, 50);
  });

  it('writes a batch of appends once, when the batch ends, with no close or timer', async () => {
    const path = join(dir, 'b.jsonl');
    const rec = await CaptureRecorder.open(path);
    const written: number[] = [];
    // A batch: what one synchronous run (a pull response's deliveries) appends.
    for (let i = 0; i < 10; i++) rec.append(line(i), () => written.push(i));
    await Promise.resolve();
    assert.deepEqual(written, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'every callback ran once the batch ended, in order');
    assert.equal(readFileSync(path, 'utf8'), Array.from({ length: 10 }, (_, i) => line(i)).join(''));
    assert.equal(rec.bytesWritten, rec.bytes);
    rec.append(line(10), () => written.push(10));
    await Promise.resolve();
    assert.equal(written.length, 11, 'the next batch is written on its own');
    await rec.close();
  });

  it('keeps byte offsets right for multi-byte UTF-8 and lines longer than the buffer', async () => {
    const path = join(dir, 'u.jsonl');
    const rec = await CaptureRecorder.open(path, { maxBufferBytes: 64 });
    const lines = ['{"a":"é€😀"}\n', '{"b":"' + 'ü'.repeat(100) + '"}\n', '{"c":1}\n'];
    const offsets = lines.map((l) => rec.append(l));
    await rec.close();
    const bytes = readFileSync(path);
    lines.forEach((l, i) => assert.equal(bytes.subarray(offsets[i], offsets[i] + Buffer.byteLength(l)).toString(), l));
    assert.equal(rec.bytes, bytes.length);
  });

  it('appendWith: lines encoded straight into the buffer, mixed with append(), in order, with room made when one does not fit', async () => {
    const path = join(dir, 'w.jsonl');
    // The buffer is maxBufferBytes + 4 KiB: the 9 000-byte line needs it emptied and doubled.
    const rec = await CaptureRecorder.open(path, { maxBufferBytes: 256 });
    const encode = (text: string, buf: Buffer, pos: number) => (pos + Buffer.byteLength(text) > buf.length ? -1 : pos + buf.write(text, pos));
    const lines = ['{"a":1}\n', '{"big":"' + 'x'.repeat(9000) + '"}\n', '{"é":"€"}\n', '{"c":3}\n'];
    let acked = 0;
    const offsets = lines.map((l, i) => (i === 2 ? rec.append(l, () => acked++) : rec.appendWith(encode, l, () => acked++)));
    assert.equal(acked, 0, 'callbacks never run inside appendWith()');
    await rec.close();
    assert.equal(acked, 4);
    const bytes = readFileSync(path);
    assert.equal(bytes.toString(), lines.join(''));
    lines.forEach((l, i) => assert.equal(bytes.subarray(offsets[i], offsets[i] + Buffer.byteLength(l)).toString(), l));
    assert.equal(rec.bytes, bytes.length);
    assert.equal(rec.lines, 4);
  });

  it('writes at once when the buffer fills, but calls back only when the batch ends', async () => {
    const path = join(dir, 'c.jsonl');
    const rec = await CaptureRecorder.open(path, { maxBufferBytes: 200 });
    let written = 0;
    for (let i = 0; i < 10; i++) rec.append(line(i), () => written++);
    const onDisk = readFileSync(path, 'utf8');
    assert.ok(onDisk.length >= 200 && onDisk.endsWith('\n'), `whole lines were written for size (${onDisk.length} bytes)`);
    assert.equal(written, 0, 'callbacks never run inside append()');
    await Promise.resolve();
    assert.equal(written, 10);
    await rec.close();
  });

  it('appends after a torn last line (a crash mid-write): every complete line still replays', async () => {
    const path = join(dir, 'torn.jsonl');
    writeFileSync(path, line(1) + line(2) + line(3).slice(0, 20));
    const rec = await CaptureRecorder.open(path, { append: true });
    const at = rec.append(line(4));
    await rec.close();
    const entries = await readAll(path);
    assert.deepEqual(
      entries.filter((e) => e.record).map((e) => e.record!.message.messageId),
      ['m1', 'm2', 'm4'],
    );
    assert.equal(entries.filter((e) => e.invalid).length, 1, 'the torn line is reported, not silently dropped');
    assert.equal(readFileSync(path, 'utf8').slice(at, at + line(4).length), line(4));
  });

  it('reports a failed write to every waiting callback (so those messages are not acked)', async () => {
    const path = join(dir, 'c.jsonl');
    const rec = await CaptureRecorder.open(path);
    // Closing the handle under it makes the next write fail as a full disk would.
    await (rec as unknown as { fh: { close(): Promise<void> } }).fh.close();
    const results: (Error | undefined)[] = [];
    rec.append(line(1), (e) => results.push(e));
    rec.append(line(2), (e) => results.push(e));
    await rec.flush();
    assert.equal(results.length, 2);
    assert.ok(results.every((e) => e instanceof Error && /cannot write to/.test(e.message)));
    rec.append(line(3), (e) => results.push(e));
    assert.equal(results.length, 2, 'not inside append()');
    await Promise.resolve();
    assert.ok(results[2] instanceof Error, 'later appends fail as soon as their batch ends');
  });

  it('refuses a path it cannot write, with the reason and a next step, before creating anything', async () => {
    writeFileSync(join(dir, 'plain'), '');
    const cases: [string, RegExp][] = [
      [join(dir, 'missing', 'x.jsonl'), /the folder .*missing does not exist: create it first/],
      [dir, /is a folder: name a file in it/],
      [join(dir, 'plain', 'x.jsonl'), /plain is not a folder/],
    ];
    for (const [path, re] of cases) {
      assert.match((await CaptureRecorder.problemWith(path)) ?? 'no problem', re, path);
      await assert.rejects(CaptureRecorder.open(path), re);
    }
    assert.equal(await CaptureRecorder.problemWith(join(dir, 'fine.jsonl')), undefined);
    assert.deepEqual(readdirSync(dir), ['plain'], 'nothing was created');
    if (process.getuid?.() === 0) return; // root may write in a read-only folder: the cases above hold for root too
    chmodSync(dir, 0o500);
    try {
      await assert.rejects(CaptureRecorder.open(join(dir, 'x.jsonl')), /permission denied/);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('refuses to truncate a file that holds a recording unless asked to append or overwrite; an empty file or a device is fine', async () => {
    const path = join(dir, 'yesterday.jsonl');
    writeFileSync(path, line(1));
    const before = readFileSync(path);
    const re = new RegExp(
      `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} already holds a recording \\(\\d+ B\\) whose messages were acked: add --append to continue it, --overwrite to replace it, or name a new file$`,
    );
    assert.match((await CaptureRecorder.problemWith(path)) ?? 'no problem', re);
    await assert.rejects(CaptureRecorder.open(path), (e: Error) => re.test(e.message));
    assert.deepEqual(readFileSync(path), before, 'the recording is untouched');

    assert.equal(await CaptureRecorder.problemWith(path, { append: true }), undefined);
    const replaced = await CaptureRecorder.open(path, { overwrite: true });
    replaced.append(line(2));
    await replaced.close();
    assert.equal(readFileSync(path, 'utf8'), line(2));

    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    assert.equal(await CaptureRecorder.problemWith(empty), undefined, 'an empty file has nothing to lose');
    if (existsSync('/dev/null')) assert.equal(await CaptureRecorder.problemWith('/dev/null'), undefined, 'a device is not a recording');
  });

  describe('gzip', () => {
    it('writes gzip members (gzipGatherMs 0: one a batch): the file is one gzip stream of exactly the lines, offsets index its text', async () => {
      const path = join(dir, 'c.jsonl.gz');
      const rec = await CaptureRecorder.open(path, { gzip: true, gzipGatherMs: 0 });
      assert.equal(rec.gzip, true);
      const offsets: number[] = [];
      const acked: number[] = [];
      for (let batch = 0; batch < 3; batch++) {
        for (let i = batch * 100; i < batch * 100 + 100; i++) offsets.push(rec.append(line(i), () => acked.push(i)));
        await Promise.resolve();
        assert.equal(acked.length, (batch + 1) * 100, 'a batch is acked once its member is written, when it ends');
        // Every acked line can be read back from what is on disk now, before close.
        assert.equal(gunzipSync(readFileSync(path)).toString().split('\n').length - 1, (batch + 1) * 100);
      }
      await rec.close();
      const file = readFileSync(path);
      const text = gunzipSync(file).toString();
      assert.equal(text, Array.from({ length: 300 }, (_, i) => line(i)).join(''));
      const batchText = (b: number) => Array.from({ length: 100 }, (_, i) => line(b * 100 + i)).join('');
      assert.deepEqual(file, Buffer.concat([0, 1, 2].map((b) => gzipSync(batchText(b), { level: 1 }))), 'three members, one a batch');
      offsets.forEach((o, i) => assert.equal(text.slice(o, o + line(i).length), line(i)));
      assert.equal(rec.bytes, text.length);
      assert.equal(rec.bytesWritten, file.length);
      assert.ok(file.length < text.length / 3, `compressed: ${file.length} of ${text.length} bytes`);
      assert.deepEqual(
        (await readAll(path)).map((e) => e.record?.message.messageId),
        Array.from({ length: 300 }, (_, i) => `m${i}`),
      );
    });

    it('gathers small batches into one member for gzipGatherMs (acks wait for it); 64 KiB is written at once', async () => {
      const path = join(dir, 'g.jsonl.gz');
      const rec = await CaptureRecorder.open(path, { gzip: true, gzipGatherMs: 60 });
      const acked: number[] = [];
      const text = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => line(from + i)).join('');
      for (let i = 0; i < 3; i++) {
        rec.append(line(i), () => acked.push(i));
        await Promise.resolve();
      }
      assert.equal(acked.length, 0, 'small batches wait: nothing written, nothing acked');
      assert.equal(readFileSync(path).length, 0);
      const waitedFrom = Date.now();
      while (acked.length < 3 && Date.now() - waitedFrom < 5000) await new Promise((r) => setTimeout(r, 10));
      assert.ok(Date.now() - waitedFrom >= 50, 'not before gzipGatherMs');
      assert.deepEqual(acked, [0, 1, 2], 'acked once their member is written');
      // One member for the three batches: byte for byte what gzip makes of their text at once.
      assert.deepEqual(readFileSync(path), gzipSync(text(0, 3), { level: 1 }));
      const big = 700; // ~75 KB of lines in one batch
      for (let i = 3; i < 3 + big; i++) rec.append(line(i), () => acked.push(i));
      await Promise.resolve();
      assert.equal(acked.length, 3 + big, 'a 64 KiB batch is written and acked when it ends');
      rec.append(line(big + 3), () => acked.push(big + 3));
      await rec.close();
      assert.equal(acked.length, big + 4, 'close writes what is gathered');
      assert.equal(gunzipSync(readFileSync(path)).toString(), text(0, big + 4));
    });

    it('a crash mid-write leaves every acked line readable; appending then is refused, with a next step', async () => {
      const path = join(dir, 'torn.jsonl.gz');
      const rec = await CaptureRecorder.open(path, { gzip: true });
      rec.append(line(1));
      rec.append(line(2));
      await rec.flush();
      const whole = readFileSync(path).length;
      rec.append(line(3));
      await rec.close();
      truncateSync(path, whole + 10); // the third member cut off part way
      const entries = await readAll(path);
      assert.deepEqual(
        entries.filter((e) => e.record).map((e) => e.record!.message.messageId),
        ['m1', 'm2'],
      );
      assert.match(entries.find((e) => e.invalid)?.invalid ?? '', /gzip data ends early/);
      const re =
        /cannot append to \S+torn\.jsonl\.gz: the gzip data ends early \(the file is truncated, or still being written\): nothing after this point can be read — record to a new file instead \(`seqscope replay` merges the two\)$/;
      assert.match((await CaptureRecorder.problemWith(path, { append: true })) ?? 'no problem', re);
      await assert.rejects(CaptureRecorder.open(path, { append: true }), re);
      assert.equal(readFileSync(path).length, whole + 10, 'the file is left as it was');
      assert.equal(await CaptureRecorder.problemWith(path, { overwrite: true }), undefined, 'replacing it is fine, when asked');
    });

    it('--append continues a file in its own format: gzip stays gzip, plain stays plain, whatever the name', async () => {
      const gz = join(dir, 'a.jsonl.gz');
      // Compressed by other means, without a final newline: the next line must not join it.
      writeFileSync(gz, Buffer.concat([gzipSync(line(1)), gzipSync(line(2).trimEnd())]));
      const rec = await CaptureRecorder.open(gz, { append: true });
      assert.equal(rec.gzip, true);
      const at = rec.append(line(3));
      await rec.close();
      const text = gunzipSync(readFileSync(gz)).toString();
      assert.equal(text, line(1) + line(2) + line(3));
      assert.equal(text.slice(at, at + line(3).length), line(3));

      const plain = join(dir, 'b.jsonl.gz');
      writeFileSync(plain, line(1));
      const rec2 = await CaptureRecorder.open(plain, { append: true, gzip: true });
      assert.equal(rec2.gzip, false, 'a plain file named .gz stays plain: one file, one format');
      rec2.append(line(2));
      await rec2.close();
      assert.equal(readFileSync(plain, 'utf8'), line(1) + line(2));

      const empty = join(dir, 'c.jsonl.gz');
      writeFileSync(empty, '');
      const rec3 = await CaptureRecorder.open(empty, { append: true, gzip: true });
      assert.equal(rec3.gzip, true, 'an empty file takes the asked format');
      await rec3.close();
    });

    it('--append reads a gzip file through gunzip once (checked, then opened), again when it changed in between', async () => {
      // Opens of the file for reading, as `seqscope record --append` checks it and then opens it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fsp = require('node:fs/promises') as { open: (...a: unknown[]) => Promise<unknown> };
      const realOpen = fsp.open;
      const reads = async (path: string, between: () => void = () => undefined): Promise<number> => {
        let n = 0;
        fsp.open = (...a: unknown[]) => {
          if (a[0] === path && a[1] === 'r') n++;
          return realOpen(...a);
        };
        try {
          const problem = await CaptureRecorder.problemWith(path, { append: true });
          between();
          if (problem) return n;
          const rec = await CaptureRecorder.open(path, { append: true });
          await rec.close();
          return n;
        } finally {
          fsp.open = realOpen;
        }
      };
      const a = join(dir, 'scan-a.jsonl.gz');
      const b = join(dir, 'scan-b.jsonl.gz');
      for (const p of [a, b]) writeFileSync(p, gzipSync(line(1)));
      const unchanged = await reads(a);
      // Cut off after the check: the open must read it again and refuse it.
      const whole = readFileSync(b).length;
      await assert.rejects(
        reads(b, () => truncateSync(b, whole - 3)),
        /cannot append to \S+scan-b\.jsonl\.gz: the gzip data ends early/,
      );
      const c = join(dir, 'scan-c.jsonl.gz');
      writeFileSync(c, gzipSync(line(1)));
      const changed = await reads(c, () => writeFileSync(c, Buffer.concat([gzipSync(line(1)), gzipSync(line(2))])));
      assert.equal(changed, unchanged + 1, `one more pass when the file changed (${unchanged} → ${changed})`);
      assert.equal(gunzipSync(readFileSync(c)).toString(), line(1) + line(2));
    });

    it('damaged gzip data is named as such, not as a cut-off file', async () => {
      const path = join(dir, 'bad.jsonl.gz');
      const data = gzipSync(Array.from({ length: 50 }, (_, i) => line(i)).join(''));
      data.fill(0x55, 20, 60);
      writeFileSync(path, data);
      assert.match(
        (await CaptureRecorder.problemWith(path, { append: true })) ?? 'no problem',
        /^cannot append to \S+bad\.jsonl\.gz: the gzip data is damaged \(.+\): nothing after this point can be read — record to a new file instead/,
      );
    });
  });
});

describe('Pub/Sub records, names and errors', () => {
  it('turns a delivery as the stream decodes it into the capture record replay reads (nanosecond publishTime kept)', () => {
    const rm = fromPulled(
      {
        ackId: 'ack-42',
        message: {
          data: Buffer.from('<img src=x onerror=alert(1)>'),
          attributes: { Channel: '310', MsgSeqNum: '7' },
          messageId: '42',
          // int64 as the generated client decodes it: a decimal string.
          publishTime: { seconds: '1796031000', nanos: 123456789 },
          orderingKey: '310',
        },
        deliveryAttempt: 0,
      },
      Date.parse('2026-11-30T09:30:00.130Z'),
    );
    assert.deepEqual(rm, {
      ackId: 'ack-42',
      message: {
        data: Buffer.from('<img src=x onerror=alert(1)>').toString('base64'),
        messageId: '42',
        publishTime: new PreciseDate({ seconds: 1796031000, nanos: 123456789 }).toISOString(),
        attributes: { Channel: '310', MsgSeqNum: '7' },
        orderingKey: '310',
      },
      receivedAt: '2026-11-30T09:30:00.130Z',
    });
  });

  it('leaves out what the REST API leaves out: empty attributes and ordering key, attempt 0, no publish time', () => {
    const rm = fromPulled({ ackId: 'a', message: { data: new Uint8Array([1, 2, 3]), attributes: {}, messageId: '1', orderingKey: '' }, deliveryAttempt: 0 }, 0);
    assert.deepEqual(rm, { ackId: 'a', message: { data: 'AQID', messageId: '1' }, receivedAt: '1970-01-01T00:00:00.000Z' });
    assert.equal(fromPulled({ ackId: 'b', message: { messageId: '2' }, deliveryAttempt: 3 }, 0).deliveryAttempt, 3, 'a dead-letter policy counts attempts');
  });

  it('formats publish times exactly as PreciseDate does, nanoseconds included', () => {
    for (const [seconds, nanos] of [
      [1796031000, 123456789],
      [1796031000, 5000],
      [1796031001, 0],
      [1796031001, 999999999],
      [0, 1],
    ]) {
      const expected = new PreciseDate({ seconds, nanos }).toISOString();
      assert.equal(timestampIso(seconds, nanos), expected);
      assert.equal(timestampIso(String(seconds), nanos), expected, 'int64 as a string');
      assert.equal(timestampIso({ toString: () => String(seconds) }, nanos), expected, 'int64 as a Long');
    }
  });

  it('parses full and bare resource names, and says what is wrong with bad ones', () => {
    assert.deepEqual(parseResourceName('subscriptions', 'projects/my-proj/subscriptions/md-310'), {
      project: 'my-proj',
      kind: 'subscriptions',
      id: 'md-310',
      path: 'projects/my-proj/subscriptions/md-310',
    });
    assert.equal(parseResourceName('topics', 'feed', 'my-proj').path, 'projects/my-proj/topics/feed');
    const bad: [string, RegExp][] = [
      ['projects/my-proj/topics/feed', /names a topic, not a subscription/],
      ['projects/My_Proj/subscriptions/abc', /not a valid project id/],
      ['projects/my-proj/subscriptions/ab', /not a valid subscription id/],
      ['projects/my-proj/subscriptions/googsub', /may not start with "goog"/],
      ['projects/my-proj/subscriptions/1abc', /not a valid subscription id/],
      ['a/b', /is not a subscription name/],
    ];
    for (const [text, re] of bad) {
      assert.throws(
        () => parseResourceName('subscriptions', text, 'my-proj'),
        (e: PubsubError) => e.kind === 'invalid-name' && re.test(e.message),
        text,
      );
    }
    assert.throws(
      () => parseResourceName('subscriptions', 'abc'),
      (e: PubsubError) => e.kind === 'no-project' && /seqscope.pubsub.projectId/.test(e.nextStep),
    );
  });

  it('says what to know about a subscription before trusting its order: no ordering, a dead-letter topic', () => {
    const name = parseResourceName('subscriptions', 'projects/my-project/subscriptions/feed');
    assert.deepEqual(subscriptionCaveats(describeSubscription({ enableMessageOrdering: true }, name)), []);
    assert.deepEqual(subscriptionCaveats(describeSubscription({ deadLetterPolicy: { deadLetterTopic: 'projects/my-project/topics/dlq' } }, name)), [
      'projects/my-project/subscriptions/feed does not have message ordering enabled; per-key order is not guaranteed',
      'projects/my-project/subscriptions/feed dead-letters to projects/my-project/topics/dlq: a message its consumers keep failing goes there, out of order, and is missing here (a gap, when numbered)',
    ]);
  });

  it('explains gRPC failures with a next step', () => {
    const cases: [number, string, RegExp][] = [
      [GRPC.NOT_FOUND, 'not-found', /does not exist/],
      [GRPC.PERMISSION_DENIED, 'permission-denied', /permission denied/],
      [GRPC.UNAUTHENTICATED, 'unauthenticated', /credentials/],
      [GRPC.UNAVAILABLE, 'unavailable', /did not answer/],
      [GRPC.DEADLINE_EXCEEDED, 'timeout', /did not answer/],
    ];
    for (const [code, kind, re] of cases) {
      const e = explainError(Object.assign(new Error('x'), { code, details: 'detail' }), { action: 'open subscription s', resource: 'subscription s' });
      assert.equal(e.kind, kind);
      assert.match(e.message, re);
      assert.ok(e.nextStep.length > 10);
    }
    const down = explainError({ code: GRPC.UNAVAILABLE, details: 'No connection established' }, { action: 'list', emulatorHost: '127.0.0.1:1' });
    assert.equal(down.kind, 'emulator-down');
    assert.match(down.message, /emulator at 127\.0\.0\.1:1 is not running/);
    assert.equal(explainError(new Error('Could not load the default credentials.'), { action: 'list' }).kind, 'unauthenticated');
  });

  it('names taps recognisably and validly, and tells them from other subscriptions', () => {
    const id = tapId('cme-feed', new Date('2026-11-30T09:30:00.123Z'), 'abc123');
    assert.equal(id, `${TAP_PREFIX}cme-feed-20261130t093000z-abc123`);
    const name = parseResourceName('subscriptions', id, 'my-proj');
    assert.ok(isTap({ name, topic: '', messageOrdering: true, ackDeadlineSeconds: 60, retainAckedMessages: true, labels: { seqscope: 'tap' } }));
    assert.ok(!isTap({ name, topic: '', messageOrdering: true, ackDeadlineSeconds: 60, retainAckedMessages: true, labels: {} }), 'the label must agree');
    assert.ok(parseResourceName('subscriptions', tapId('t'.repeat(255)), 'my-proj').id.length <= 255);
  });
});
