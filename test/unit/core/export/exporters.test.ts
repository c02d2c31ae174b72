import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ChromeEvent, ChromeTraceFormatter } from '../../../../src/core/export/chromeTraceFormatter';
import { CSV_COLUMNS, CsvFormatter } from '../../../../src/core/export/csvFormatter';
import { createFormatter, formatForPath, isTraceFormat, TRACE_FORMATS, TraceFormatter } from '../../../../src/core/export';
import { JsonlFormatter } from '../../../../src/core/export/jsonlFormatter';
import { ParquetFormatter } from '../../../../src/core/export/parquetFormatter';
import { ExportError } from '../../../../src/core/export/outputFile';
import { TraceWriter } from '../../../../src/core/export/traceWriter';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';

const T0 = Date.parse('2024-03-07T14:00:00Z');

/** One of every event type, with the awkward characters CSV must quote. */
function sampleEvents(): TraceEvent[] {
  return [
    {
      type: 'message',
      key: '310',
      seq: 1,
      messageId: 'm1',
      publishTime: '2024-03-07T13:59:59.990Z',
      receivedAt: '2024-03-07T14:00:00.000Z',
      attributes: { Channel: '310', MsgSeqNum: '1', Note: 'a, "b"\nc' },
      data: 'eyJ4IjoxfQ==',
      deliveryAttempt: 1,
      arrivedAt: T0,
      releasedAt: T0,
      heldMs: 0,
      latencyMs: 4.5,
      line: 1,
    },
    {
      type: 'gap',
      key: '310',
      from: 2,
      to: 4,
      count: 3,
      openedAt: T0 + 10,
      declaredAt: T0 + 10_010,
      waitedMs: 10_000,
      reason: 'timeout',
    },
    {
      type: 'message',
      key: 'key, with "quotes"\r\nand lines',
      seq: 5,
      messageId: 'm5',
      arrivedAt: T0 + 10,
      releasedAt: T0 + 10_010.5,
      heldMs: 10_000.5,
      file: 'b,c.jsonl',
      line: 3,
    },
    {
      type: 'duplicate',
      key: '310',
      seq: 1,
      messageId: 'm1',
      redelivery: true,
      deliveryAttempt: 2,
      at: T0 + 20_000,
      line: 7,
    },
    {
      type: 'duplicate',
      key: '',
      messageId: 'm9',
      redelivery: false,
      firstMessageId: 'm8',
      cascade: 2,
      at: T0 + 20_001,
      line: 8,
    },
    {
      type: 'late',
      key: '310',
      seq: 3,
      messageId: 'm3',
      lostAt: T0 + 10_010,
      at: T0 + 30_000,
      line: 9,
    },
    {
      type: 'invalid',
      line: 10,
      reason: 'not valid JSON (Unexpected token "x", at position 3)',
      at: T0 + 30_000,
    },
  ];
}

/** A strict RFC 4180 parser (quoted fields may hold commas, quotes as "", CR and LF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let atFieldStart = true;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        assert.ok(i === text.length || text[i] === ',' || text[i] === '\n' || text[i] === '\r', `text after a closing quote at ${i}`);
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      assert.ok(atFieldStart, `a quote inside an unquoted field at ${i}`);
      quoted = true;
      atFieldStart = false;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      atFieldStart = false;
      i++;
    }
  }
  assert.ok(!quoted, 'unterminated quoted field');
  assert.ok(row.length === 0 && field === '', 'the last row ends with a line break');
  return rows;
}

function render(f: TraceFormatter, batches: TraceEvent[][], startAt?: number): string {
  if (startAt !== undefined) f.startAt?.(startAt);
  return f.header() + batches.map((b) => f.format(b)).join('') + f.footer();
}

describe('exporters', () => {
  describe('formatForPath / createFormatter', () => {
    it('picks the format from the file name', () => {
      assert.equal(formatForPath('out.csv'), 'csv');
      assert.equal(formatForPath('OUT.CSV'), 'csv');
      assert.equal(formatForPath('trace.json'), 'chrome-trace');
      assert.equal(formatForPath('run.trace'), 'chrome-trace');
      assert.equal(formatForPath('run.perfetto-trace.json'), 'chrome-trace');
      assert.equal(formatForPath('out.parquet'), 'parquet');
      assert.equal(formatForPath('out.jsonl'), 'jsonl');
      assert.equal(formatForPath('out'), 'jsonl');
      assert.equal(formatForPath('csv'), 'jsonl');
    });

    it('knows its formats and builds a formatter for each', () => {
      assert.deepEqual([...TRACE_FORMATS], ['jsonl', 'csv', 'chrome-trace', 'parquet']);
      assert.ok(isTraceFormat('csv'));
      assert.ok(!isTraceFormat('json'));
      assert.ok(!isTraceFormat('CSV'));
      assert.ok(createFormatter('jsonl') instanceof JsonlFormatter);
      assert.ok(createFormatter('csv') instanceof CsvFormatter);
      assert.ok(createFormatter('chrome-trace') instanceof ChromeTraceFormatter);
      assert.ok(createFormatter('parquet') instanceof ParquetFormatter);
    });
  });

  describe('JSONL', () => {
    it('writes one JSON object per line that parses back to the event', () => {
      const events = sampleEvents();
      const text = render(new JsonlFormatter(), [events.slice(0, 3), [], events.slice(3)]);
      assert.ok(text.endsWith('\n'));
      const lines = text.split('\n');
      assert.equal(lines.pop(), '');
      assert.equal(lines.length, events.length);
      lines.forEach((l, i) => assert.deepEqual(JSON.parse(l), events[i]));
    });

    it('writes nothing for no events', () => {
      assert.equal(render(new JsonlFormatter(), [[]]), '');
    });

    it('keeps hostile names exact (JSON escapes what it must; nothing is cut or neutralised)', () => {
      const key = '=cmd|\u202e' + 'x'.repeat(2000) + '\u0007<b>';
      const ev: TraceEvent = { type: 'late', key, seq: 1, messageId: '@m', lostAt: T0, at: T0, line: 1 };
      const back = JSON.parse(render(new JsonlFormatter(), [[ev]]).trim());
      assert.equal(back.key, key);
      assert.equal(back.messageId, '@m');
    });
  });

  describe('CSV', () => {
    it('writes a header row of the columns', () => {
      const rows = parseCsv(new CsvFormatter().header());
      assert.deepEqual(rows, [[...CSV_COLUMNS]]);
    });

    it('writes one row per event that a strict RFC 4180 parser reads back', () => {
      const events = sampleEvents();
      const text = render(new CsvFormatter(), [events.slice(0, 2), events.slice(2)]);
      const [header, ...rows] = parseCsv(text);
      assert.deepEqual(header, [...CSV_COLUMNS]);
      assert.equal(rows.length, events.length);
      rows.forEach((row, i) => {
        assert.equal(row.length, CSV_COLUMNS.length, `row ${i}`);
        const ev = events[i] as unknown as Record<string, unknown>;
        CSV_COLUMNS.forEach((col, j) => {
          const v = ev[col];
          const cell = row[j];
          if (v === undefined) assert.equal(cell, '', `${col} of row ${i}`);
          else if (col === 'attributes') assert.deepEqual(JSON.parse(cell), v);
          else assert.equal(cell, String(v), `${col} of row ${i}`);
        });
      });
    });

    it('quotes commas, quotes and line breaks in keys, reasons and attributes', () => {
      const events = sampleEvents();
      const text = new CsvFormatter().format(events);
      assert.ok(text.includes('"key, with ""quotes""\r\nand lines"'), 'key quoted with doubled quotes and its CRLF kept');
      assert.ok(text.includes('"b,c.jsonl"'), 'file quoted');
      assert.ok(text.includes('"not valid JSON (Unexpected token ""x"", at position 3)"'), 'reason quoted');
      assert.ok(
        text.includes(`"${JSON.stringify(events[0].type === 'message' ? events[0].attributes : {}).replace(/"/g, '""')}"`),
        'attributes as quoted JSON',
      );
    });

    it('writes booleans as true / false, not 1 and an empty cell', () => {
      const [, ...rows] = parseCsv(render(new CsvFormatter(), [sampleEvents()]));
      const col = CSV_COLUMNS.indexOf('redelivery');
      const dups = rows.filter((r) => r[0] === 'duplicate');
      assert.deepEqual(
        dups.map((r) => r[col]),
        ['true', 'false'],
      );
      // Events without the column leave it empty.
      assert.equal(rows[0][col], '');
    });

    it('neutralises cells a spreadsheet would run as a formula (= + - @ tab CR), keeps numbers as numbers', () => {
      const hostile = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\r=1', 'plain', '\u202eevil'];
      const events: TraceEvent[] = hostile.map((key, i) => ({ type: 'late', key, seq: 1, messageId: key, lostAt: T0, at: T0 + i, line: i + 1 }));
      const rows = parseCsv(new CsvFormatter().format(events));
      const keyCol = CSV_COLUMNS.indexOf('key');
      const idCol = CSV_COLUMNS.indexOf('messageId');
      const want = ['\'=HYPERLINK("http://x","y")', "'+1+1", "'-2+3", "'@SUM(A1)", "'\tcmd", "'\r=1", 'plain', '\u202eevil'];
      assert.deepEqual(
        rows.map((r) => r[keyCol]),
        want,
      );
      assert.deepEqual(
        rows.map((r) => r[idCol]),
        want,
      );
      // A negative number is data, not a formula.
      const [gapRow] = parseCsv(
        new CsvFormatter().format([{ type: 'message', key: 'k', messageId: 'm', arrivedAt: T0, releasedAt: T0, heldMs: 0, latencyMs: -5, line: 1 }]),
      );
      assert.equal(gapRow[CSV_COLUMNS.indexOf('latencyMs')], '-5');
    });

    it('writes a conflict and its reason in their own columns', () => {
      const [row] = parseCsv(
        new CsvFormatter().format([
          {
            type: 'duplicate',
            key: 'k',
            seq: 2,
            messageId: 'm2',
            redelivery: false,
            firstMessageId: 'm2',
            conflict: true,
            conflictReason: 'data differs from the first copy',
            at: T0,
            line: 4,
          },
        ]),
      );
      assert.equal(row[CSV_COLUMNS.indexOf('conflict')], 'true');
      assert.equal(row[CSV_COLUMNS.indexOf('conflictReason')], 'data differs from the first copy');
    });

    it('writes nothing for an empty batch, and only the header for no events', () => {
      const f = new CsvFormatter();
      assert.equal(f.format([]), '');
      assert.equal(render(new CsvFormatter(), []), CSV_COLUMNS.join(',') + '\n');
    });
  });

  describe('chrome-trace', () => {
    function parse(text: string): {
      traceEvents: ChromeEvent[];
      displayTimeUnit: string;
      otherData: { producer: string; origin: string | null; keyOrder?: string };
    } {
      return JSON.parse(text);
    }

    it('writes valid JSON with traceEvents, even with no events', () => {
      const doc = parse(render(new ChromeTraceFormatter(), []));
      assert.equal(doc.displayTimeUnit, 'ms');
      assert.deepEqual(doc.traceEvents, [{ name: 'process_name', ph: 'M', pid: 0, tid: 0, args: { name: 'capture' } }]);
      assert.deepEqual(doc.otherData, { producer: 'seqscope', origin: null, keyOrder: 'arrival' });
    });

    it('writes valid JSON over several batches, with the origin at the first record', () => {
      const events = sampleEvents();
      const doc = parse(render(new ChromeTraceFormatter(), [events.slice(0, 1), [], events.slice(1, 4), events.slice(4)], T0));
      assert.ok(Array.isArray(doc.traceEvents));
      assert.equal(doc.otherData.origin, new Date(T0).toISOString());
    });

    it('names one process per key, once, and sorts them', () => {
      const doc = parse(render(new ChromeTraceFormatter(), [sampleEvents()], T0));
      const names = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name');
      assert.deepEqual(
        names.map((e) => [e.pid, e.args!.name]),
        [
          [0, 'capture'],
          [1, 'key 310'],
          [2, 'key key, with "quotes"\r\nand lines'],
          [3, '(no key)'],
        ],
      );
      const sorts = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_sort_index');
      assert.deepEqual(
        sorts.map((e) => [e.pid, e.args!.sort_index]),
        [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
      );
      const threads = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name');
      assert.equal(threads.length, 6);
    });

    it("sorts the keys' tracks in the key order asked for: by name, or most lost, late, duplicated first", () => {
      const sortIndex = (order: 'name' | 'findings') => {
        const doc = parse(render(new ChromeTraceFormatter(order), [sampleEvents()], T0));
        const names = new Map(doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args!.name]));
        const sorts = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_sort_index');
        assert.equal(doc.otherData.keyOrder, order);
        return sorts.sort((a, b) => (a.args!.sort_index as number) - (b.args!.sort_index as number)).map((e) => names.get(e.pid));
      };
      // 310 lost 3 numbers and has a duplicate and a late message; (no key) has a duplicate; the quoted key nothing.
      assert.deepEqual(sortIndex('findings'), ['key 310', '(no key)', 'key key, with "quotes"\r\nand lines']);
      assert.deepEqual(sortIndex('name'), ['(no key)', 'key 310', 'key key, with "quotes"\r\nand lines']);
    });

    it('pairs b/e async events by id for holds and gaps', () => {
      const events = sampleEvents();
      const doc = parse(render(new ChromeTraceFormatter(), [events], T0));
      const asyncEvents = doc.traceEvents.filter((e) => e.ph === 'b' || e.ph === 'e');
      const byId = new Map<string, ChromeEvent[]>();
      for (const e of asyncEvents) {
        assert.ok(e.id !== undefined, 'async events have ids');
        byId.set(e.id!, [...(byId.get(e.id!) ?? []), e]);
      }
      // One gap, one held message (the unheld message gets no slice).
      assert.equal(byId.size, 2);
      for (const [id, pair] of byId) {
        assert.deepEqual(
          pair.map((e) => e.ph),
          ['b', 'e'],
          `id ${id}`,
        );
        assert.equal(pair[0].name, pair[1].name);
        assert.equal(pair[0].cat, pair[1].cat);
        assert.equal(pair[0].pid, pair[1].pid);
        assert.ok(pair[1].ts! >= pair[0].ts!);
      }
      const gap = asyncEvents.filter((e) => e.cat === 'gap');
      assert.deepEqual(
        gap.map((e) => [e.ph, e.name, e.ts, e.pid]),
        [
          ['b', 'gap #2–4', 10_000, 1],
          ['e', 'gap #2–4', 10_010_000, 1],
        ],
      );
      assert.deepEqual(gap[0].args, { from: 2, to: 4, count: 3, reason: 'timeout' });
      const hold = asyncEvents.filter((e) => e.cat === 'hold');
      assert.deepEqual(
        hold.map((e) => [e.ph, e.name, e.ts, e.pid]),
        [
          ['b', 'hold #5', 10_000, 2],
          ['e', 'hold #5', 10_010_500, 2],
        ],
      );
    });

    it('writes deliveries, duplicates, late messages and invalid records as instants', () => {
      const doc = parse(render(new ChromeTraceFormatter(), [sampleEvents()], T0));
      const instants = doc.traceEvents.filter((e) => e.ph === 'i');
      assert.deepEqual(
        instants.map((e) => [e.cat, e.name, e.ts, e.pid, e.tid, e.s]),
        [
          ['delivered', '#1', 0, 1, 1, 't'],
          ['delivered', '#5', 10_010_500, 2, 1, 't'],
          ['duplicate', 'redelivery #1', 20_000_000, 1, 2, 't'],
          ['duplicate', 'duplicate m9', 20_001_000, 3, 2, 't'],
          ['late', 'late #3', 30_000_000, 1, 2, 't'],
          ['invalid', 'invalid', 30_000_000, 0, 0, 'p'],
        ],
      );
      assert.deepEqual(instants[0].args, { messageId: 'm1', heldMs: 0, line: 1 });
      assert.deepEqual(instants[5].args, { line: 10, reason: 'not valid JSON (Unexpected token "x", at position 3)' });
    });

    it('has integer, non-negative microsecond timestamps when started at the first record', () => {
      // Release order is not arrival order: the first event here opened after a later one arrived.
      const events: TraceEvent[] = [
        { type: 'invalid', line: 1, reason: 'bad', at: 0 },
        { type: 'message', key: 'A', seq: 2, messageId: 'a2', arrivedAt: T0 + 5, releasedAt: T0 + 5, heldMs: 0, line: 3 },
        { type: 'message', key: 'B', seq: 7, messageId: 'b7', arrivedAt: T0 + 0.25, releasedAt: T0 + 50, heldMs: 49.75, line: 2 },
      ];
      const doc = parse(render(new ChromeTraceFormatter(), [events], T0));
      const timed = doc.traceEvents.filter((e) => e.ts !== undefined);
      assert.equal(timed.length, 5);
      for (const e of timed) {
        assert.ok(Number.isInteger(e.ts) && e.ts! >= 0, `${e.name} ts ${e.ts}`);
      }
      // µs: 5ms → 5000, 0.25ms → 250, 50ms → 50000.
      assert.deepEqual(
        timed.map((e) => e.ts),
        [0, 5000, 250, 50_000, 50_000],
      );
    });

    it('without startAt, takes the origin from the first timed event, not an invalid one at 0', () => {
      const events: TraceEvent[] = [
        { type: 'invalid', line: 1, reason: 'bad', at: 0 },
        { type: 'gap', key: 'A', from: 1, to: 1, count: 1, openedAt: T0 + 100, declaredAt: T0 + 200, waitedMs: 100, reason: 'timeout' },
      ];
      const doc = parse(render(new ChromeTraceFormatter(), [events]));
      assert.equal(doc.otherData.origin, new Date(T0 + 100).toISOString());
      assert.deepEqual(
        doc.traceEvents.filter((e) => e.ts !== undefined).map((e) => e.ts),
        [0, 0, 100_000],
      );
      const gap = doc.traceEvents.find((e) => e.cat === 'gap')!;
      assert.equal(gap.name, 'gap #1');
    });

    it('startAt only sets the origin once', () => {
      const f = new ChromeTraceFormatter();
      f.startAt(T0);
      f.startAt(T0 + 1000);
      const doc = parse(render(f, [[{ type: 'late', key: 'k', seq: 1, messageId: 'x', lostAt: T0, at: T0 + 1, line: 1 }]]));
      assert.equal(doc.otherData.origin, new Date(T0).toISOString());
      assert.equal(doc.traceEvents.find((e) => e.cat === 'late')!.ts, 1000);
    });
  });
});

describe('TraceWriter', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-writer-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a JSONL trace to a file in batches; close() ends it', async () => {
    const p = join(dir, 'trace.jsonl');
    const w = await TraceWriter.open(p, 'jsonl');
    assert.equal(w.format, 'jsonl');
    const events = sampleEvents();
    for (const e of events.slice(0, 3)) w.add(e);
    await w.flush();
    await w.flush();
    for (const e of events.slice(3)) w.add(e);
    await w.close();
    const lines = readFileSync(p, 'utf8').split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      events,
    );
  });

  it('writes a chrome trace that parses as JSON, with its time origin', async () => {
    const p = join(dir, 'trace.json');
    const w = await TraceWriter.open(p, 'chrome-trace');
    w.startAt(T0);
    for (const e of sampleEvents()) w.add(e);
    await w.close();
    const doc = JSON.parse(readFileSync(p, 'utf8'));
    assert.equal(doc.otherData.origin, new Date(T0).toISOString());
    assert.ok(doc.traceEvents.length > sampleEvents().length);
  });

  it('writes the header and footer even with no events', async () => {
    const pc = join(dir, 'empty.csv');
    const wc = await TraceWriter.open(pc, 'csv');
    await wc.close();
    assert.equal(readFileSync(pc, 'utf8'), CSV_COLUMNS.join(',') + '\n');
    const pt = join(dir, 'empty.json');
    const wt = await TraceWriter.open(pt, 'chrome-trace');
    await wt.close();
    assert.ok(Array.isArray(JSON.parse(readFileSync(pt, 'utf8')).traceEvents));
  });

  it('writes large traces through backpressure', async () => {
    const p = join(dir, 'big.jsonl');
    const w = await TraceWriter.open(p, 'jsonl');
    const N = 50_000;
    for (let i = 0; i < N; i++) {
      w.add({ type: 'message', key: 'k', seq: i, messageId: `m${i}`, arrivedAt: T0 + i, releasedAt: T0 + i, heldMs: 0, line: i + 1 });
      if (i % 5000 === 4999) await w.flush();
    }
    await w.close();
    const lines = readFileSync(p, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, N);
    assert.equal(JSON.parse(lines[N - 1]).messageId, `m${N - 1}`);
  });

  it('gives an ExportError naming the path when the directory does not exist', async () => {
    const p = join(dir, 'no', 'such', 'dir', 'trace.jsonl');
    await assert.rejects(TraceWriter.open(p, 'jsonl'), (e: unknown) => {
      assert.ok(e instanceof ExportError);
      assert.equal(e.name, 'ExportError');
      assert.equal(e.path, p);
      assert.equal(e.code, 'ENOENT');
      assert.equal(e.message, `cannot write ${p}: the folder ${join(dir, 'no', 'such', 'dir')} does not exist`);
      assert.equal(e.nextStep, 'create it, or export to a folder that exists');
      return true;
    });
  });

  it('gives an ExportError when the path is a directory', async () => {
    await assert.rejects(TraceWriter.open(dir, 'csv'), (e: unknown) => e instanceof ExportError && e.path === dir);
  });

  it('writes to a stream it does not own without ending it', async () => {
    const chunks: string[] = [];
    const out = new Writable({
      write(chunk, _enc, cb) {
        chunks.push(String(chunk));
        cb();
      },
    });
    const w = await TraceWriter.open(out, 'chrome-trace');
    w.startAt(T0);
    w.add(sampleEvents()[0]);
    await w.close();
    assert.equal(out.writableEnded, false);
    const doc = JSON.parse(chunks.join(''));
    assert.equal(doc.traceEvents.filter((e: ChromeEvent) => e.cat === 'delivered').length, 1);
  });

  it('turns a stream error into an ExportError rather than hanging', async () => {
    const failing = () =>
      new Writable({
        highWaterMark: 1,
        write(_chunk, _enc, cb) {
          cb(new Error('disk full'));
        },
      });
    // The write fills the buffer, so flush waits for a drain that never comes: the error must end the wait.
    const w1 = await TraceWriter.open(failing(), 'jsonl');
    w1.add(sampleEvents()[0]);
    await assert.rejects(w1.flush(), (e: unknown) => e instanceof ExportError && /cannot write stdout: disk full/.test(e.message));

    // An error noticed later fails the next flush / close.
    const out = new Writable({
      write(_chunk, _enc, cb) {
        setImmediate(() => cb(new Error('disk full')));
      },
    });
    const w2 = await TraceWriter.open(out, 'jsonl');
    w2.add(sampleEvents()[0]);
    await w2.flush();
    while (!out.errored) await new Promise((r) => setImmediate(r)); // the stream has taken the error in
    await assert.rejects(w2.close(), (e: unknown) => e instanceof ExportError && /disk full/.test(e.message));
  });
});
