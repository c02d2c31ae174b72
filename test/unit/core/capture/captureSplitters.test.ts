import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonArraySplitter, LineSplitter, MAX_RECORD_BYTES, RawRecord, Splitter } from '../../../../src/core/capture/captureSplitters';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'captures');

interface Outcome {
  /** A record too long to keep has no text: its `span` is the input bytes it covers. */
  records: ({ line: number; text: string } | { line: number; span: string; invalid: RegExp })[];
  problem?: { line: number; reason: string };
}

/** Feeds `input` cut into pieces of the given sizes (the last piece takes the rest), then ends. */
function feed(make: () => Splitter, input: Buffer, sizes: (i: number) => number): Outcome {
  const s = make();
  const records: RawRecord[] = [];
  let pos = 0;
  for (let i = 0; pos < input.length; i++) {
    const n = Math.max(1, sizes(i));
    // A copy, so a splitter that kept a view of an old chunk would be caught if the caller reused it.
    records.push(...s.push(Buffer.from(input.subarray(pos, pos + n))));
    pos += n;
  }
  const end = s.end();
  records.push(...end.records);
  return outcome(input, records, end.problem);
}

/** Checks each record's byte offset/length against the input, then keeps line and text. */
function outcome(input: Buffer, raw: RawRecord[], problem?: { line: number; reason: string }): Outcome {
  for (const r of raw)
    if (r.invalid === undefined) assert.equal(input.toString('utf8', r.offset, r.offset + r.length), r.text, `offset ${r.offset} of line ${r.line}`);
  const records: Outcome['records'] = raw.map((r) => {
    if (r.invalid === undefined) return { line: r.line, text: r.text };
    assert.match(r.invalid, TOO_LONG);
    return { line: r.line, span: input.toString('utf8', r.offset, r.offset + r.length), invalid: TOO_LONG };
  });
  return problem ? { records, problem } : { records };
}

/** What a record longer than the splitter's bound is reported with. */
const TOO_LONG =
  /^the record is \d+ bytes, longer than SeqScope reads \(16 bytes; a Pub\/Sub message is at most 10 MB\): skipped unread — is a newline missing\?$/;

function whole(make: () => Splitter, input: Buffer): Outcome {
  return feed(make, input, () => input.length);
}

/** Deterministic pseudo-random chunk sizes (mulberry32). */
function randomSizes(seed: number, max: number): (i: number) => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return 1 + Math.floor(r * max);
  };
}

/** Asserts that every way of cutting `input` gives `expected`. */
function assertEveryCut(make: () => Splitter, input: Buffer, expected: Outcome): void {
  assert.deepEqual(whole(make, input), expected, 'whole input');
  assert.deepEqual(
    feed(make, input, () => 1),
    expected,
    '1-byte chunks',
  );
  assert.deepEqual(
    feed(make, input, () => 2),
    expected,
    '2-byte chunks',
  );
  assert.deepEqual(
    feed(make, input, () => 3),
    expected,
    '3-byte chunks',
  );
  for (let seed = 1; seed <= 20; seed++) {
    assert.deepEqual(feed(make, input, randomSizes(seed, 17)), expected, `random chunks, seed ${seed}`);
  }
  for (let cut = 0; cut <= input.length; cut++) {
    assert.deepEqual(
      feed(make, input, (i) => (i === 0 ? cut || input.length : input.length)),
      expected,
      `cut at byte ${cut}`,
    );
  }
  // Empty chunks in between change nothing.
  const s = make();
  const records: RawRecord[] = [];
  for (let i = 0; i < input.length; i++) {
    records.push(...s.push(Buffer.alloc(0)));
    records.push(...s.push(input.subarray(i, i + 1)));
  }
  const end = s.end();
  records.push(...end.records);
  assert.deepEqual(outcome(input, records, end.problem), expected, 'with empty chunks');
}

describe('LineSplitter', () => {
  const lines = () => new LineSplitter();

  it('splits lines with 1-based line numbers, skipping blank lines, at every chunk boundary', () => {
    const text = '{"a":1}\n\n   \t\n{"b":"x y"}\n{"c":[1,2]}\n';
    assertEveryCut(lines, Buffer.from(text), {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 4, text: '{"b":"x y"}' },
        { line: 5, text: '{"c":[1,2]}' },
      ],
    });
  });

  it('strips CR of CRLF line ends, and counts CRLF lines once', () => {
    const text = '{"a":1}\r\n\r\n{"b":2}\r\n{"c":3}\r\n';
    assertEveryCut(lines, Buffer.from(text), {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 3, text: '{"b":2}' },
        { line: 4, text: '{"c":3}' },
      ],
    });
  });

  it('hands on a last line without a newline (with or without a CR)', () => {
    assertEveryCut(lines, Buffer.from('{"a":1}\n{"b":2}'), {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 2, text: '{"b":2}' },
      ],
    });
    assertEveryCut(lines, Buffer.from('{"a":1}\r\n{"b":2}\r'), {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 2, text: '{"b":2}' },
      ],
    });
  });

  it('does not report trailing blank lines or whitespace as records', () => {
    assertEveryCut(lines, Buffer.from('{"a":1}\n\n  \n\t'), { records: [{ line: 1, text: '{"a":1}' }] });
    assert.deepEqual(whole(lines, Buffer.alloc(0)), { records: [] });
    assert.deepEqual(whole(lines, Buffer.from('\n\n\n')), { records: [] });
  });

  it('keeps a line that is only non-blank text, whatever it is (it is parsed later)', () => {
    assertEveryCut(lines, Buffer.from('not json\n  {"a":1}  \n'), {
      records: [
        { line: 1, text: 'not json' },
        { line: 2, text: '  {"a":1}  ' },
      ],
    });
  });

  it('decodes multi-byte UTF-8 characters split across chunks', () => {
    const text = '{"t":"Grüße"}\n{"t":"📈€"}\n{"t":"日本語"}';
    const input = Buffer.from(text, 'utf8');
    // The emoji is 4 bytes, € 3, ü 2: every cut below lands inside one of them somewhere.
    assert.ok(input.length > text.length);
    assertEveryCut(lines, input, {
      records: [
        { line: 1, text: '{"t":"Grüße"}' },
        { line: 2, text: '{"t":"📈€"}' },
        { line: 3, text: '{"t":"日本語"}' },
      ],
    });
  });

  it('returns the records completed by each chunk as it comes', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push(Buffer.from('{"a"')), []);
    assert.deepEqual(s.push(Buffer.from(':1}\n{"b":')), [{ line: 1, text: '{"a":1}', offset: 0, length: 7 }]);
    assert.deepEqual(s.push(Buffer.from('2}\n\n{"c":3}\n{"d"')), [
      { line: 2, text: '{"b":2}', offset: 8, length: 7 },
      { line: 4, text: '{"c":3}', offset: 17, length: 7 },
    ]);
    assert.deepEqual(s.end(), { records: [{ line: 5, text: '{"d"', offset: 25, length: 4 }] });
  });

  it('skips a line longer than its bound without holding it, and reports it with its place and size', () => {
    const long = 'x'.repeat(40);
    const input = Buffer.from(`ab\n${long}\r\ncd\n${'y'.repeat(16)}\n${'z'.repeat(17)}`);
    const expected: Outcome = {
      records: [
        { line: 1, text: 'ab' },
        { line: 2, span: long, invalid: TOO_LONG },
        { line: 3, text: 'cd' },
        { line: 4, text: 'y'.repeat(16) },
        { line: 5, span: 'z'.repeat(17), invalid: TOO_LONG },
      ],
    };
    assertEveryCut(() => new LineSplitter(16), input, expected);
    const s = new LineSplitter(16);
    s.push(Buffer.from(long.slice(0, 20)));
    assert.equal((s as unknown as { parts: Buffer[] }).parts.length, 0, 'past the bound, nothing is held');
  });

  it('gives the size in MiB for long records, with the default bound of 64 MiB', () => {
    assert.equal(MAX_RECORD_BYTES, 64 * 1024 * 1024);
    const s = new LineSplitter();
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 65; i++) assert.deepEqual(s.push(mib), []);
    const [r] = s.push(Buffer.from('\n{}\n'));
    assert.equal(
      r.invalid,
      'the record is 65 MiB, longer than SeqScope reads (64 MiB; a Pub/Sub message is at most 10 MB): skipped unread — is a newline missing?',
    );
    assert.deepEqual([r.line, r.offset, r.length, r.text], [1, 0, 65 * 1024 * 1024, '']);
    assert.deepEqual(s.end(), { records: [] });
  });

  it('numbers many lines correctly across chunks', () => {
    const all: string[] = [];
    for (let i = 1; i <= 500; i++) all.push(i % 7 === 0 ? '' : `{"n":${i}}`);
    const expected = all.flatMap((t, i) => (t === '' ? [] : [{ line: i + 1, text: t }]));
    const input = Buffer.from(all.join('\n') + '\n');
    assert.deepEqual(feed(lines, input, randomSizes(42, 300)), { records: expected });
    assert.deepEqual(
      feed(lines, input, () => 1),
      { records: expected },
    );
  });
});

describe('JsonArraySplitter', () => {
  const array = () => new JsonArraySplitter('array');
  const pull = () => new JsonArraySplitter('pull');

  /** Elements whose strings hold every structural character the splitter must not be fooled by. */
  const ELEMENTS: unknown[] = [
    { message: { messageId: 'a', data: 'x]y' } },
    { message: { messageId: 'b', attributes: { s: '}{,' } } },
    { message: { messageId: 'c', attributes: { q: 'say "hi"' } } },
    { message: { messageId: 'd', attributes: { p: 'ends in backslash\\' } } },
    { message: { messageId: 'e', attributes: { p: 'escaped quote \\" then ]' } } },
    { message: { messageId: 'f', attributes: { p: '\\\\' } } },
    { nested: { deep: [1, { g: [] }, [[]], { h: { i: '[{' } }] }, list: [{}, []] },
    [1, [2, 3], { x: ',' }],
    'a string, with ] and }',
    42,
    -1.5e3,
    true,
    null,
    { unicode: 'Grüße 📈 日本' },
  ];

  function parsed(o: Outcome): unknown[] {
    return o.records.map((r) => ('text' in r ? JSON.parse(r.text) : r));
  }

  it('splits a compact array into its element texts, at every chunk boundary', () => {
    const input = Buffer.from(JSON.stringify(ELEMENTS));
    const expected: Outcome = { records: ELEMENTS.map((e) => ({ line: 1, text: JSON.stringify(e) })) };
    assertEveryCut(array, input, expected);
    assert.deepEqual(parsed(whole(array, input)), ELEMENTS);
  });

  it('splits a pretty-printed array and gives each element the line it starts on', () => {
    const input = Buffer.from(JSON.stringify(ELEMENTS, null, 2) + '\n');
    const out = whole(array, input);
    assert.equal(out.problem, undefined);
    assert.deepEqual(parsed(out), ELEMENTS);
    // Each element starts on its own line: line 2 for the first, then after the previous one's lines.
    const expectedLines: number[] = [];
    let line = 2;
    for (const e of ELEMENTS) {
      expectedLines.push(line);
      line += JSON.stringify(e, null, 2).split('\n').length;
    }
    assert.deepEqual(
      out.records.map((r) => r.line),
      expectedLines,
    );
    assertEveryCut(array, input, out);
  });

  it('counts lines of CRLF pretty-printed arrays', () => {
    const input = Buffer.from('[\r\n  {"a": 1},\r\n\r\n  {\r\n    "b": "]\\r\\n"\r\n  }\r\n]\r\n');
    const out = whole(array, input);
    assert.deepEqual(
      out.records.map((r) => r.line),
      [2, 4],
    );
    assert.deepEqual(parsed(out), [{ a: 1 }, { b: ']\r\n' }]);
    assertEveryCut(array, input, out);
  });

  it('reads the fixture array with the lines its elements start on', () => {
    const out = whole(array, readFileSync(join(FIXTURES, 'array.json')));
    assert.equal(out.problem, undefined);
    assert.deepEqual(
      out.records.map((r) => r.line),
      [2, 16, 31, 47],
    );
    assert.deepEqual(
      parsed(out).map((e) => (e as { message: { messageId: string } }).message.messageId),
      ['m1', 'm2', 'm3', 'm4'],
    );
  });

  it('gives nothing and no problem for an empty array', () => {
    for (const text of ['[]', '[ ]', '[\n]\n', '  [\n\n]']) {
      assertEveryCut(array, Buffer.from(text), { records: [] });
    }
  });

  it('reports a file that ends before the array starts', () => {
    for (const text of ['', '   \n']) {
      const out = whole(array, Buffer.from(text));
      assert.deepEqual(out.records, []);
      assert.match(out.problem!.reason, /ends before a JSON array starts/);
    }
  });

  it('hands on a truncated last element and reports the truncation', () => {
    const input = Buffer.from('[\n  {"a": 1},\n  {"b": [1, 2');
    const expected: Outcome = {
      records: [
        { line: 2, text: '{"a": 1}' },
        { line: 3, text: '{"b": [1, 2' },
      ],
      problem: { line: 3, reason: 'the file ends inside the array (truncated?)' },
    };
    assertEveryCut(array, input, expected);
  });

  it('hands on an element truncated inside a string, even after an escaped quote', () => {
    const input = Buffer.from('[{"a":1},\n{"b":"x\\"],{');
    const out = whole(array, input);
    assert.deepEqual(out.records, [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '{"b":"x\\"],{' },
    ]);
    assert.match(out.problem!.reason, /truncated/);
    assert.equal(out.problem!.line, 2);
    assertEveryCut(array, input, out);
  });

  it('reports an array cut off after a comma, with no partial element', () => {
    const out = whole(array, Buffer.from('[{"a":1},\n'));
    assert.deepEqual(out.records, [{ line: 1, text: '{"a":1}' }]);
    assert.match(out.problem!.reason, /truncated/);
    assert.equal(out.problem!.line, 2);
  });

  it('skips an element longer than its bound, strings and escapes included, and goes on after it', () => {
    // 20 backslashes (ten escaped ones), an escaped quote, then more string: a splitter that
    // lost count of the backslashes across a dropped part would end the string early.
    const long = `{"s":"${'\\'.repeat(20)}\\"]},{${'\\'.repeat(4)}x","t":[1,{"u":"}"}]}`;
    const input = Buffer.from(`[{"a":1},\n${long},\n{"b":"]"},"${'q'.repeat(20)}",7]`);
    const expected: Outcome = {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 2, span: long, invalid: TOO_LONG },
        { line: 3, text: '{"b":"]"}' },
        { line: 3, span: `"${'q'.repeat(20)}"`, invalid: TOO_LONG },
        { line: 3, text: '7' },
      ],
    };
    assert.doesNotThrow(() => JSON.parse(input.toString()), 'the input is valid JSON');
    assertEveryCut(() => new JsonArraySplitter('array', 16), input, expected);
  });

  it('reports a too-long element cut off by the end of the file, once', () => {
    const input = Buffer.from(`[{"a":1},{"b":"${'x'.repeat(30)}`);
    const expected: Outcome = {
      records: [
        { line: 1, text: '{"a":1}' },
        { line: 1, span: `{"b":"${'x'.repeat(30)}`, invalid: TOO_LONG },
      ],
      problem: { line: 1, reason: 'the file ends inside the array (truncated?)' },
    };
    assertEveryCut(() => new JsonArraySplitter('array', 16), input, expected);
  });

  it('returns elements as soon as the chunk that completes them arrives', () => {
    const s = new JsonArraySplitter('array');
    assert.deepEqual(s.push(Buffer.from('[{"a":"]')), []);
    assert.deepEqual(s.push(Buffer.from('"},{"b"')), [{ line: 1, text: '{"a":"]"}', offset: 1, length: 9 }]);
    assert.deepEqual(s.push(Buffer.from(':2}]')), [{ line: 1, text: '{"b":2}', offset: 11, length: 7 }]);
    assert.deepEqual(s.end(), { records: [] });
  });

  describe('pull mode', () => {
    it('skips a too-long element of a pull response and reads the rest', () => {
      const big = { ackId: 'x'.repeat(40) };
      const input = Buffer.from(JSON.stringify({ receivedMessages: [{ a: 1 }, big, { b: 2 }], more: 'y' }));
      assertEveryCut(() => new JsonArraySplitter('pull', 16), input, {
        records: [
          { line: 1, text: '{"a":1}' },
          { line: 1, span: JSON.stringify(big), invalid: TOO_LONG },
          { line: 1, text: '{"b":2}' },
        ],
      });
    });

    it('splits a compact pull response, at every chunk boundary', () => {
      const input = Buffer.from(JSON.stringify({ receivedMessages: ELEMENTS }));
      assertEveryCut(pull, input, { records: ELEMENTS.map((e) => ({ line: 1, text: JSON.stringify(e) })) });
    });

    it('splits a pretty-printed pull response with element line numbers', () => {
      const input = Buffer.from(JSON.stringify({ receivedMessages: ELEMENTS.slice(0, 3) }, null, 2));
      const out = whole(pull, input);
      assert.equal(out.problem, undefined);
      assert.deepEqual(parsed(out), ELEMENTS.slice(0, 3));
      const first = 3;
      const second = first + JSON.stringify(ELEMENTS[0], null, 2).split('\n').length;
      const third = second + JSON.stringify(ELEMENTS[1], null, 2).split('\n').length;
      assert.deepEqual(
        out.records.map((r) => r.line),
        [first, second, third],
      );
      assertEveryCut(pull, input, out);
    });

    it('reads the fixture pull response', () => {
      const out = whole(pull, readFileSync(join(FIXTURES, 'pull-pretty.json')));
      assert.equal(out.problem, undefined);
      assert.deepEqual(
        out.records.map((r) => r.line),
        [3, 17, 32, 48],
      );
    });

    it('takes only the receivedMessages array, whatever other keys come before and after', () => {
      const doc = {
        ackIds: ['receivedMessages', 'x]'],
        label: 'receivedMessages',
        other: [{ message: { messageId: 'not-me' } }],
        meta: { receivedMessages: [{ message: { messageId: 'nor-me' } }] },
        receivedMessages: [{ message: { messageId: 'm1' } }, { message: { messageId: 'm2', data: ']}' } }],
        next: [{ message: { messageId: 'after' } }],
        tail: 'receivedMessages',
        receivedMessages2: [1],
      };
      for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2), JSON.stringify(doc, null, '\t')]) {
        const input = Buffer.from(text);
        const out = whole(pull, input);
        assert.equal(out.problem, undefined);
        assert.deepEqual(parsed(out), doc.receivedMessages);
        assertEveryCut(pull, input, out);
      }
    });

    it('gives nothing and no problem for an empty receivedMessages array', () => {
      assertEveryCut(pull, Buffer.from('{"receivedMessages": []}'), { records: [] });
      assertEveryCut(pull, Buffer.from('{\n  "x": 1,\n  "receivedMessages": [\n  ]\n}\n'), { records: [] });
    });

    it('reports a response without a receivedMessages array', () => {
      for (const text of ['{}', '{"receivedMessages": 5, "other": [{"a": 1}]}', '{"nested": {"receivedMessages": [{"a": 1}]}}']) {
        const out = whole(pull, Buffer.from(text));
        assert.deepEqual(out.records, [], text);
        assert.match(out.problem!.reason, /ends before a "receivedMessages" array starts/, text);
      }
    });

    it('hands on a truncated element and reports the truncation', () => {
      const input = Buffer.from('{\n  "receivedMessages": [\n    {"message": {"messageId": "m1"}},\n    {"message": {"messageId": "m');
      const out = whole(pull, input);
      assert.deepEqual(out.records, [
        { line: 3, text: '{"message": {"messageId": "m1"}}' },
        { line: 4, text: '{"message": {"messageId": "m' },
      ]);
      assert.deepEqual(out.problem, { line: 4, reason: 'the file ends inside the array (truncated?)' });
      assertEveryCut(pull, input, out);
    });
  });
});
