import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureError, CaptureFormat, CaptureReader, detectFormat } from '../../../../src/core/capture/captureReader';
import { CaptureEntry, parseEntry, parseRfc3339, recordTime, toRecord } from '../../../../src/core/capture/captureRecord';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'captures');
const fixture = (name: string) => join(FIXTURES, name);

async function readAll(path: string, index = 0): Promise<{ entries: CaptureEntry[]; batches: number; reader: CaptureReader }> {
  const reader = new CaptureReader(path, index);
  const entries: CaptureEntry[] = [];
  let batches = 0;
  for await (const b of reader.batches()) {
    assert.ok(b.length > 0, 'no empty batches');
    batches++;
    entries.push(...b);
  }
  return { entries, batches, reader };
}

async function formatOf(path: string): Promise<CaptureFormat> {
  const r = new CaptureReader(path);
  await r.open();
  await r.close();
  return r.format;
}

const BASIC_IDS = ['m1', 'm2', 'm3', 'm4'];
const BASIC_TIMES = ['2024-03-07T14:00:00.010Z', '2024-03-07T14:00:00.020Z', '2024-03-07T14:00:00.030Z', '2024-03-07T14:00:00.040Z'].map((s) => Date.parse(s));

function line(id: string, receivedAt: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ackId: `ack-${id}`,
    message: { messageId: id, data: 'AA==', attributes: { k: 'v' }, publishTime: '2024-01-01T00:00:00Z' },
    receivedAt,
    ...extra,
  });
}

function openFds(): number | undefined {
  return existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : undefined;
}

describe('captureReader', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-reader-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, content: string | Buffer): string => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  describe('detectFormat', () => {
    const cases: [string, string | Buffer, CaptureFormat][] = [
      ['JSON Lines', line('a', '2024-01-01T00:00:00Z') + '\n' + line('b', '2024-01-01T00:00:01Z') + '\n', 'jsonl'],
      ['JSON Lines of bare messages', '{"messageId":"1","publishTime":"2024-01-01T00:00:00Z"}\n', 'jsonl'],
      ['JSON Lines with a bad first line', '{"message": oops\n' + line('b', '2024-01-01T00:00:01Z') + '\n', 'jsonl'],
      ['an array', '[{"message":{"messageId":"1"}}]', 'array'],
      ['an empty array', '[]', 'array'],
      ['a compact pull response', '{"receivedMessages":[{"message":{"messageId":"1"}}]}\n', 'pull'],
      ['a compact pull response with another key first', '{"ackIds":[],"receivedMessages":[]}', 'pull'],
      ['a pretty pull response', '{\n  "receivedMessages": [\n    {\n      "message": {}\n    }\n  ]\n}\n', 'pull'],
      ['a pretty pull response, key on the first line', '{ "receivedMessages" : [\n{"message":{"messageId":"1"}}\n]}\n', 'pull'],
      ['a pretty pull response with another key first', '{\n  "ackIds": [],\n  "receivedMessages": []\n}\n', 'pull'],
      ['a CRLF pull response', '{"receivedMessages":[]}\r\n', 'pull'],
      ['an empty file', '', 'empty'],
      ['the REST answer to a pull that found nothing', '{}\n', 'empty'],
      ['only whitespace', ' \n\t\r\n  ', 'empty'],
      ['only a BOM', Buffer.from([0xef, 0xbb, 0xbf]), 'empty'],
      ['JSON Lines after a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(line('a', '2024-01-01T00:00:00Z') + '\n')]), 'jsonl'],
      ['an array after a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[]')]), 'array'],
      ['JSON Lines after blank lines', '\n\n  \n' + line('a', '2024-01-01T00:00:00Z') + '\n', 'jsonl'],
      ['an array after whitespace', '\n  \t[\n]', 'array'],
      ['a pull response after whitespace', '\r\n  {"receivedMessages":[]}', 'pull'],
      ['a record that holds receivedMessages next to its message', '{"message":{"messageId":"1"},"receivedMessages":[]}\n', 'jsonl'],
    ];
    for (const [what, content, format] of cases) {
      it(`detects ${what} as ${format}`, () => {
        assert.equal(detectFormat(Buffer.from(content), 'x.capture'), format);
      });
    }

    it('rejects a file that is not a capture, naming the file and what it starts with', () => {
      for (const content of ['hello world\n{"a":1}', '  # comment', '<xml/>', 'ünïcode everywhere, on and on and on']) {
        assert.throws(
          () => detectFormat(Buffer.from(content), '/data/notes.txt'),
          (e: unknown) => {
            assert.ok(e instanceof CaptureError);
            assert.equal(e.name, 'CaptureError');
            assert.equal(e.path, '/data/notes.txt');
            assert.equal(e.line, 1);
            assert.match(e.message, /^\/data\/notes\.txt is not a capture/);
            assert.ok(e.message.includes(JSON.stringify(content.trim().slice(0, 5)).slice(0, -1)), e.message);
            assert.ok(!e.message.includes('\uFFFD'), 'no broken characters');
            return true;
          },
        );
      }
    });
  });

  describe('CaptureReader.open', () => {
    it('detects the format of each fixture from its content', async () => {
      assert.equal(await formatOf(fixture('basic.jsonl')), 'jsonl');
      assert.equal(await formatOf(fixture('with-invalid.jsonl')), 'jsonl');
      assert.equal(await formatOf(fixture('array.json')), 'array');
      assert.equal(await formatOf(fixture('pull-pretty.json')), 'pull');
      assert.equal(await formatOf(fixture('pull-compact.json')), 'pull');
    });

    it('does not go by the extension', async () => {
      const p = write('looks-like.jsonl', '[' + line('a', '2024-01-01T00:00:00Z') + ']');
      assert.equal(await formatOf(p), 'array');
    });

    it('reports the size of the file', async () => {
      const r = new CaptureReader(fixture('basic.jsonl'));
      await r.open();
      await r.close();
      assert.equal(r.size, statSync(fixture('basic.jsonl')).size);
    });

    it('throws a CaptureError naming a file that is not a capture, and closes it', async () => {
      const p = write('hello.jsonl', 'hello, this is not JSON\n');
      const before = openFds();
      const r = new CaptureReader(p);
      await assert.rejects(r.open(), (e: unknown) => {
        assert.ok(e instanceof CaptureError);
        assert.equal(e.path, p);
        assert.ok(e.message.includes(p), e.message);
        assert.match(e.message, /is not a capture: it starts with "hello, this is n/);
        return true;
      });
      if (before !== undefined) assert.equal(openFds(), before, 'the file handle is closed');
    });

    it('throws a CaptureError for a missing file', async () => {
      const p = join(dir, 'nope', 'missing.jsonl');
      await assert.rejects(new CaptureReader(p).open(), (e: unknown) => {
        assert.ok(e instanceof CaptureError);
        assert.equal(e.path, p);
        assert.equal(e.message, `cannot read ${p}: no such file`);
        return true;
      });
    });

    it('throws a CaptureError for a directory, and closes it', async () => {
      const before = openFds();
      await assert.rejects(new CaptureReader(dir).open(), (e: unknown) => {
        assert.ok(e instanceof CaptureError);
        assert.equal(e.path, dir);
        assert.equal(e.message, `cannot read ${dir}: it is a directory, not a capture file`);
        return true;
      });
      if (before !== undefined) assert.equal(openFds(), before, 'the directory handle is closed');
    });

    it('batches() reports the same errors when open() was not called', async () => {
      const it = new CaptureReader(join(dir, 'missing.jsonl')).batches();
      await assert.rejects(it.next(), CaptureError);
    });
  });

  describe('reading entries', () => {
    it('reads the same records from every format, with each element’s own line', async () => {
      const expectedLines: Record<string, number[]> = {
        'basic.jsonl': [1, 2, 3, 4],
        'array.json': [2, 16, 31, 47],
        'pull-pretty.json': [3, 17, 32, 48],
        'pull-compact.json': [1, 1, 1, 1],
      };
      const reference = (await readAll(fixture('basic.jsonl'))).entries.map((e) => e.record);
      for (const [name, lines] of Object.entries(expectedLines)) {
        const { entries, reader } = await readAll(fixture(name), 3);
        assert.equal(entries.length, 4, name);
        for (const e of entries) assert.equal(e.invalid, undefined, `${name} line ${e.line}: ${e.invalid}`);
        assert.deepEqual(
          entries.map((e) => e.line),
          lines,
          name,
        );
        assert.deepEqual(
          entries.map((e) => e.file),
          [3, 3, 3, 3],
          name,
        );
        assert.deepEqual(
          entries.map((e) => e.time),
          BASIC_TIMES,
          name,
        );
        assert.deepEqual(
          entries.map((e) => e.record!.message.messageId),
          BASIC_IDS,
          name,
        );
        assert.deepEqual(
          entries.map((e) => e.record),
          reference,
          name,
        );
        assert.equal(reader.bytesRead, reader.size, name);
      }
    });

    it('keeps strings with structural characters, backslashes and non-ASCII text intact', async () => {
      const { entries } = await readAll(fixture('array.json'));
      const attrs = entries.map((e) => e.record!.message.attributes!);
      assert.equal(attrs[1].Note, 'a, "quoted" ] } value');
      assert.equal(attrs[2].Path, 'C:\\dir\\');
      assert.equal(attrs[3].Text, 'Grüße 📈 [x]');
      assert.equal(entries[2].record!.message.orderingKey, 'k-311');
      assert.equal(entries[2].record!.deliveryAttempt, 2);
    });

    it('reports invalid lines with their line and reason, and keeps reading', async () => {
      const { entries } = await readAll(fixture('with-invalid.jsonl'), 1);
      const shown = entries.map((e) => [e.line, e.invalid === undefined ? e.record!.message.messageId : e.invalid]);
      const expected: [number, string | RegExp][] = [
        [1, 'm1'],
        [2, /^not valid JSON \(/],
        [3, /^expected a ReceivedMessage object, found an array$/],
        [4, /^not a ReceivedMessage: it has no "message" object$/],
        [5, /^message has no messageId$/],
        [7, /^receivedAt "yesterday" is not an RFC 3339 time$/],
        [8, 'm8'],
        [9, 'm9'],
        [10, /^has neither receivedAt nor message.publishTime$/],
        [11, /^expected a ReceivedMessage object, found a string$/],
        [12, /^message.attributes is not an object$/],
        [13, /^publishTime "2024-03-07 14:00:06" is not an RFC 3339 time$/],
        [14, 'm14'],
      ];
      assert.equal(shown.length, expected.length, JSON.stringify(shown));
      expected.forEach(([ln, what], i) => {
        assert.equal(shown[i][0], ln, `entry ${i}`);
        if (typeof what === 'string') assert.equal(shown[i][1], what, `line ${ln}`);
        else assert.match(shown[i][1] as string, what, `line ${ln}`);
      });
      for (const e of entries) {
        assert.equal(e.file, 1);
        if (e.invalid !== undefined) {
          assert.ok(Number.isNaN(e.time), `line ${e.line} has no time`);
          assert.equal(e.record, undefined);
        } else {
          assert.ok(Number.isFinite(e.time), `line ${e.line} has a time`);
        }
      }
    });

    it('takes receivedAt as the time, else publishTime, and honours offsets', async () => {
      const { entries } = await readAll(fixture('with-invalid.jsonl'));
      const byLine = new Map(entries.map((e) => [e.line, e]));
      // Line 1 has both: receivedAt wins over the earlier publishTime.
      assert.equal(byLine.get(1)!.time, Date.parse('2024-03-07T14:00:01.000Z'));
      // Line 9 has only publishTime.
      assert.equal(byLine.get(9)!.time, Date.parse('2024-03-07T14:00:04.000Z'));
      // Line 14: receivedAt with a +01:00 offset.
      assert.equal(byLine.get(14)!.time, Date.parse('2024-03-07T13:00:07.250Z'));
    });

    it('accepts a bare PubsubMessage (no ReceivedMessage wrapper), with its receivedAt', async () => {
      const { entries } = await readAll(fixture('with-invalid.jsonl'));
      const e = entries.find((x) => x.line === 8)!;
      assert.equal(e.invalid, undefined);
      assert.equal(e.time, Date.parse('2024-03-07T14:00:03.500Z'));
      assert.equal(e.record!.message.messageId, 'm8');
      assert.equal(e.record!.receivedAt, '2024-03-07T14:00:03.500Z');
      assert.deepEqual(e.record!.message.attributes, { Channel: '310', MsgSeqNum: '2' });
    });

    it('reads CRLF JSON Lines with blank lines', async () => {
      const p = write(
        'crlf.jsonl',
        [line('a', '2024-01-01T00:00:01Z'), '', line('b', '2024-01-01T00:00:02Z'), line('c', '2024-01-01T00:00:03Z')].join('\r\n') + '\r\n',
      );
      const { entries } = await readAll(p);
      assert.deepEqual(
        entries.map((e) => [e.line, e.record?.message.messageId]),
        [
          [1, 'a'],
          [3, 'b'],
          [4, 'c'],
        ],
      );
    });

    it('reads a first line that follows a UTF-8 BOM', async () => {
      const p = write(
        'bom.jsonl',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(line('a', '2024-01-01T00:00:01Z') + '\n' + line('b', '2024-01-01T00:00:02Z'))]),
      );
      const { entries, reader } = await readAll(p);
      assert.deepEqual(
        entries.map((e) => [e.line, e.invalid ?? e.record!.message.messageId]),
        [
          [1, 'a'],
          [2, 'b'],
        ],
      );
      assert.equal(reader.bytesRead, reader.size);
      // Byte ranges count the BOM: the extension reads records back by them.
      const first = line('a', '2024-01-01T00:00:01Z');
      assert.deepEqual(
        entries.map((e) => [e.offset, e.length]),
        [
          [3, Buffer.byteLength(first)],
          [3 + Buffer.byteLength(first) + 1, Buffer.byteLength(line('b', '2024-01-01T00:00:02Z'))],
        ],
      );
    });

    it('reads an array after a BOM and leading whitespace', async () => {
      const p = write('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n\n[\n' + line('a', '2024-01-01T00:00:01Z') + '\n]\n')]));
      const { entries } = await readAll(p);
      assert.deepEqual(
        entries.map((e) => [e.line, e.invalid ?? e.record!.message.messageId]),
        [[4, 'a']],
      );
    });

    it('reads a pretty pull response whose first key is not receivedMessages', async () => {
      const doc = {
        ackIds: ['x'],
        receivedMessages: [JSON.parse(line('a', '2024-01-01T00:00:01Z')), JSON.parse(line('b', '2024-01-01T00:00:02Z'))],
        next: 'token',
      };
      const p = write('pull-other-key.json', JSON.stringify(doc, null, 2));
      const { entries, reader } = await readAll(p);
      assert.equal(reader.format, 'pull');
      assert.deepEqual(
        entries.map((e) => e.invalid ?? e.record!.message.messageId),
        ['a', 'b'],
      );
    });

    it('gives no entries for an empty file and for an empty array or pull response', async () => {
      for (const [name, content] of [
        ['empty.jsonl', ''],
        ['blank.jsonl', '\n\n  \n'],
        ['empty-array.json', '[\n]\n'],
        ['empty-pull.json', '{"receivedMessages": []}\n'],
      ]) {
        const { entries, reader } = await readAll(write(name, content));
        assert.deepEqual(entries, [], name);
        assert.equal(reader.bytesRead, reader.size, name);
      }
    });

    it('reports a truncated array: the cut-off element, then the truncation', async () => {
      const p = write('truncated.json', '[\n' + line('a', '2024-01-01T00:00:01Z') + ',\n' + line('b', '2024-01-01T00:00:02Z').slice(0, 40));
      const { entries } = await readAll(p, 2);
      assert.equal(entries.length, 3);
      assert.equal(entries[0].record!.message.messageId, 'a');
      assert.equal(entries[1].line, 3);
      assert.match(entries[1].invalid!, /^not valid JSON/);
      assert.equal(entries[2].line, 3);
      assert.equal(entries[2].file, 2);
      assert.equal(entries[2].invalid, 'the file ends inside the array (truncated?)');
      assert.ok(Number.isNaN(entries[2].time));
    });

    it('reports a pull-shaped file without a receivedMessages array', async () => {
      const p = write('no-messages.json', '{\n  "something": [1, 2]\n}\n');
      const { entries } = await readAll(p);
      assert.equal(entries.length, 1);
      assert.match(entries[0].invalid!, /ends before a "receivedMessages" array starts/);
    });
  });

  describe('large files', () => {
    const N = 50_000;
    let big: string;
    before(() => {
      const lines: string[] = [];
      const t0 = Date.parse('2024-03-07T14:00:00Z');
      for (let i = 1; i <= N; i++) {
        lines.push(
          JSON.stringify({
            ackId: `ack-${i}-${'x'.repeat(40)}`,
            message: {
              data: Buffer.from(`payload ${i} ✓`).toString('base64'),
              attributes: { Channel: String(i % 5), MsgSeqNum: String(i) },
              messageId: `m${i}`,
              publishTime: new Date(t0 + i).toISOString(),
            },
            deliveryAttempt: 1,
            receivedAt: new Date(t0 + i + 3).toISOString(),
          }),
        );
      }
      big = write('big.jsonl', lines.join('\n') + '\n');
      assert.ok(statSync(big).size > 3 << 20, 'spans several 1 MiB chunks');
    });

    it('reads every record in several batches, in order, and reads every byte', async () => {
      const reader = new CaptureReader(big, 0);
      let count = 0;
      let batches = 0;
      let expectLine = 1;
      for await (const batch of reader.batches()) {
        batches++;
        for (const e of batch) {
          assert.equal(e.line, expectLine, 'consecutive lines');
          assert.equal(e.invalid, undefined);
          assert.equal(e.record!.message.messageId, `m${expectLine}`);
          expectLine++;
          count++;
        }
      }
      assert.equal(count, N);
      assert.ok(batches > 1, `${batches} batches`);
      assert.equal(reader.size, statSync(big).size);
      assert.equal(reader.bytesRead, reader.size);
    });

    it('reads a large array across chunk boundaries', async () => {
      const lines: string[] = [];
      for (let i = 1; i <= 20_000; i++) lines.push(line(`a${i}`, new Date(Date.UTC(2024, 0, 1) + i).toISOString(), { pad: 'y'.repeat(100) }));
      const p = write('big.json', '[\n' + lines.join(',\n') + '\n]\n');
      const { entries, batches, reader } = await readAll(p);
      assert.equal(entries.length, 20_000);
      assert.ok(batches > 1);
      assert.equal(entries[0].line, 2);
      assert.equal(entries[19_999].line, 20_001);
      assert.equal(entries[19_999].record!.message.messageId, 'a20000');
      assert.ok(entries.every((e) => e.invalid === undefined));
      assert.equal(reader.bytesRead, reader.size);
    });

    it('stops reading when the signal is aborted', async () => {
      const reader = new CaptureReader(big, 0);
      const ac = new AbortController();
      let count = 0;
      for await (const batch of reader.batches({ signal: ac.signal })) {
        count += batch.length;
        ac.abort();
      }
      assert.ok(count > 0 && count < N, `read ${count} of ${N}`);
      assert.ok(reader.bytesRead < reader.size, 'did not read the rest');
    });

    it('reads nothing with an already-aborted signal', async () => {
      const reader = new CaptureReader(big, 0);
      const ac = new AbortController();
      ac.abort();
      let count = 0;
      for await (const batch of reader.batches({ signal: ac.signal })) count += batch.length;
      assert.equal(count, 0);
    });

    it('closes the file when the consumer stops early', async () => {
      const before = openFds();
      const reader = new CaptureReader(big, 0);
      for await (const batch of reader.batches()) {
        assert.ok(batch.length > 0);
        break;
      }
      if (before !== undefined) assert.equal(openFds(), before);
    });
  });
});

describe('captureRecord', () => {
  it('parseRfc3339 reads RFC 3339 times, with fractions and offsets', () => {
    assert.equal(parseRfc3339('2024-03-07T14:00:00Z'), Date.UTC(2024, 2, 7, 14));
    assert.equal(parseRfc3339('2024-03-07T14:00:00.5Z'), Date.UTC(2024, 2, 7, 14, 0, 0, 500));
    // Pub/Sub writes nanoseconds: cut to ms.
    // Sub-millisecond digits are kept as a fraction of a millisecond (to about 0.2 µs).
    assert.ok(Math.abs(parseRfc3339('2024-03-07T14:00:00.123456789Z') - (Date.UTC(2024, 2, 7, 14, 0, 0, 123) + 0.456789)) < 0.001);
    assert.ok(Math.abs(parseRfc3339('2024-03-07T14:00:00.999999Z') - (Date.UTC(2024, 2, 7, 14, 0, 0, 999) + 0.999)) < 0.001);
    assert.ok(parseRfc3339('2024-03-07T14:00:00.000001Z') > parseRfc3339('2024-03-07T14:00:00Z'), 'microseconds order records');
    assert.equal(parseRfc3339('2024-03-07T14:00:00+01:30'), Date.UTC(2024, 2, 7, 12, 30));
    assert.equal(parseRfc3339('2024-03-07T14:00:00-05:00'), Date.UTC(2024, 2, 7, 19));
    assert.equal(parseRfc3339('2024-03-07t14:00:00z'), Date.UTC(2024, 2, 7, 14));
    assert.equal(parseRfc3339('2024-03-07 14:00:00Z'), Date.UTC(2024, 2, 7, 14));
    assert.equal(parseRfc3339('2024-02-29T23:59:59Z'), Date.UTC(2024, 1, 29, 23, 59, 59));
    assert.equal(parseRfc3339('0050-01-01T00:00:00Z'), Date.parse('0050-01-01T00:00:00Z'));
  });

  it('parseRfc3339 rejects what is not an RFC 3339 date-time', () => {
    for (const s of [
      '',
      '1',
      '12',
      'yesterday',
      'March 7, 2024',
      '2024-03-07',
      '2024-03-07T14:00:00', // no offset: would depend on the machine's zone
      '2024-03-07 14:00:00',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-03-07T24:00:00Z',
      '2024-03-07T14:60:00Z',
      '2024-03-07T14:00:00.Z',
      '2024-03-07T14:00:00+0100',
      ' 2024-03-07T14:00:00Z',
    ]) {
      assert.ok(Number.isNaN(parseRfc3339(s)), JSON.stringify(s));
    }
  });

  it('recordTime prefers receivedAt and names the field it could not read', () => {
    assert.equal(
      recordTime({ message: { messageId: '1', publishTime: '2024-01-01T00:00:00Z' }, receivedAt: '2024-01-01T00:00:05Z' }),
      Date.UTC(2024, 0, 1, 0, 0, 5),
    );
    assert.equal(recordTime({ message: { messageId: '1', publishTime: '2024-01-01T00:00:00Z' } }), Date.UTC(2024, 0, 1));
    assert.equal(
      recordTime({ message: { messageId: '1', publishTime: '2024-01-01T00:00:00Z' }, receivedAt: 'soon' }),
      'receivedAt "soon" is not an RFC 3339 time',
    );
    assert.equal(recordTime({ message: { messageId: '1', publishTime: 'then' } }), 'publishTime "then" is not an RFC 3339 time');
    assert.equal(recordTime({ message: { messageId: '1', publishTime: 5 as unknown as string } }), 'publishTime 5 is not an RFC 3339 time');
  });

  it('toRecord checks the shape of the record', () => {
    assert.equal(toRecord(null), 'expected a ReceivedMessage object, found null');
    assert.equal(toRecord(3), 'expected a ReceivedMessage object, found a number');
    assert.equal(toRecord({ message: { messageId: '' } }), 'message has no messageId');
    assert.equal(toRecord({ message: { messageId: 7 } }), 'message has no messageId');
    assert.equal(toRecord({ message: { messageId: 'x', attributes: 'a=b' } }), 'message.attributes is not an object');
    assert.equal(toRecord({ message: { messageId: 'x', attributes: null } }), 'message.attributes is not an object');
    assert.equal(toRecord({ message: { messageId: 'x', orderingKey: 1 } }), 'message.orderingKey is not a string');
    const rm = toRecord({ messageId: 'x', receivedAt: '2024-01-01T00:00:00Z', orderingKey: 'k' });
    assert.deepEqual(rm, { message: { messageId: 'x', receivedAt: '2024-01-01T00:00:00Z', orderingKey: 'k' }, receivedAt: '2024-01-01T00:00:00Z' });
  });

  it('parseEntry never throws and stamps file and line', () => {
    // Its fields, whatever makes it (a RecordEntry, see captureRecord.ts).
    assert.deepEqual(
      { ...parseEntry('{"message":{"messageId":"x","publishTime":"2024-01-01T00:00:00Z"}}', 4, 17, 120, 66) },
      {
        file: 4,
        line: 17,
        offset: 120,
        length: 66,
        time: Date.UTC(2024, 0, 1),
        record: { message: { messageId: 'x', publishTime: '2024-01-01T00:00:00Z' } },
      },
    );
    const bad = parseEntry('{', 1, 2);
    assert.equal(bad.file, 1);
    assert.equal(bad.line, 2);
    assert.match(bad.invalid!, /^not valid JSON/);
  });
});
