import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureReader } from '../../../../src/core/capture/captureReader';
import { CaptureEntry } from '../../../../src/core/capture/captureRecord';
import { mergeCaptures } from '../../../../src/core/capture/mergeCaptures';

const T0 = Date.parse('2024-03-07T14:00:00Z');

/** A capture line received `t` ms after T0; `null` makes an invalid line. */
function captureLine(id: string, t: number | null): string {
  if (t === null) return `{"not a record": "${id}"}`;
  return JSON.stringify({
    ackId: `ack-${id}`,
    message: { messageId: id, publishTime: new Date(T0).toISOString() },
    receivedAt: new Date(T0 + t).toISOString(),
  });
}

/** What an entry is: the messageId (or "invalid@line") and its file. */
function label(e: CaptureEntry): string {
  return `${e.file}:${e.record ? e.record.message.messageId : `invalid@${e.line}`}`;
}

async function collect(readers: CaptureReader[], signal?: AbortSignal): Promise<{ entries: CaptureEntry[]; batches: number }> {
  const entries: CaptureEntry[] = [];
  let batches = 0;
  for await (const b of mergeCaptures(readers, { signal })) {
    assert.ok(b.length > 0, 'no empty batches');
    batches++;
    entries.push(...b);
  }
  return { entries, batches };
}

describe('mergeCaptures', () => {
  let dir: string;
  let n = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-merge-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes a capture of [id, t] pairs and returns a reader for it at `index`. */
  function capture(index: number, records: [string, number | null][], format: 'jsonl' | 'array' = 'jsonl'): CaptureReader {
    const p = join(dir, `c${n++}.${format === 'jsonl' ? 'jsonl' : 'json'}`);
    const lines = records.map(([id, t]) => captureLine(id, t));
    writeFileSync(p, format === 'jsonl' ? lines.join('\n') + '\n' : '[\n' + lines.join(',\n') + '\n]\n');
    return new CaptureReader(p, index);
  }

  it('interleaves two files by time', async () => {
    const a = capture(0, [
      ['a0', 0],
      ['a20', 20],
      ['a40', 40],
    ]);
    const b = capture(1, [
      ['b10', 10],
      ['b30', 30],
      ['b50', 50],
    ]);
    const { entries } = await collect([a, b]);
    assert.deepEqual(entries.map(label), ['0:a0', '1:b10', '0:a20', '1:b30', '0:a40', '1:b50']);
    assert.deepEqual(
      entries.map((e) => e.time - T0),
      [0, 10, 20, 30, 40, 50],
    );
  });

  it('interleaves three files of different formats and lengths', async () => {
    const a = capture(0, [
      ['a5', 5],
      ['a6', 6],
      ['a7', 7],
      ['a100', 100],
    ]);
    const b = capture(
      1,
      [
        ['b1', 1],
        ['b50', 50],
      ],
      'array',
    );
    const c = capture(2, [
      ['c2', 2],
      ['c3', 3],
      ['c60', 60],
      ['c61', 61],
      ['c200', 200],
    ]);
    const { entries } = await collect([a, b, c]);
    assert.deepEqual(entries.map(label), ['1:b1', '2:c2', '2:c3', '0:a5', '0:a6', '0:a7', '1:b50', '2:c60', '2:c61', '0:a100', '2:c200']);
  });

  it('keeps each file’s own order even when its times go backwards', async () => {
    const a = capture(0, [
      ['a10', 10],
      ['a5', 5],
      ['a30', 30],
    ]);
    const b = capture(1, [
      ['b7', 7],
      ['b20', 20],
    ]);
    const { entries } = await collect([a, b]);
    assert.deepEqual(entries.map(label), ['1:b7', '0:a10', '0:a5', '1:b20', '0:a30']);
  });

  it('gives ties to the earlier file', async () => {
    const a = capture(0, [
      ['a10', 10],
      ['a20', 20],
    ]);
    const b = capture(1, [
      ['b10', 10],
      ['b20', 20],
    ]);
    const c = capture(2, [
      ['c10', 10],
      ['c20', 20],
    ]);
    assert.deepEqual((await collect([a, b, c])).entries.map(label), ['0:a10', '1:b10', '2:c10', '0:a20', '1:b20', '2:c20']);
    // The order of the list decides, not the file index alone: here file 2 is listed first.
    const a2 = capture(0, [['a10', 10]]);
    const c2 = capture(2, [['c10', 10]]);
    assert.deepEqual((await collect([c2, a2])).entries.map(label), ['2:c10', '0:a10']);
  });

  it('keeps an invalid entry (no time) at its place in its own file', async () => {
    const a = capture(0, [
      ['a10', 10],
      ['bad', null],
      ['a30', 30],
    ]);
    const b = capture(1, [
      ['b5', 5],
      ['b15', 15],
      ['b25', 25],
    ]);
    const { entries } = await collect([a, b]);
    assert.deepEqual(entries.map(label), ['1:b5', '0:a10', '0:invalid@2', '1:b15', '1:b25', '0:a30']);
  });

  it('puts invalid entries at the start of a file before anything timed', async () => {
    const a = capture(0, [['a1', 1]]);
    const b = capture(1, [
      ['bad1', null],
      ['bad2', null],
      ['b0', 0],
      ['bad3', null],
      ['b9', 9],
    ]);
    const { entries } = await collect([a, b]);
    assert.deepEqual(entries.map(label), ['1:invalid@1', '1:invalid@2', '1:b0', '1:invalid@4', '0:a1', '1:b9']);
  });

  it('keeps a truncation problem at the end of its own file', async () => {
    const p = join(dir, 'truncated.json');
    writeFileSync(p, '[\n' + captureLine('t1', 1) + ',\n' + captureLine('t2', 2) + ',\n');
    const b = capture(1, [
      ['b0', 0],
      ['b3', 3],
    ]);
    const { entries } = await collect([new CaptureReader(p, 0), b]);
    assert.deepEqual(entries.map(label), ['1:b0', '0:t1', '0:t2', '0:invalid@4', '1:b3']);
    assert.match(entries[3].invalid!, /truncated/);
  });

  it('passes a single file through unchanged', async () => {
    const a = capture(0, [
      ['a3', 3],
      ['a1', 1],
      ['bad', null],
    ]);
    const { entries } = await collect([a]);
    assert.deepEqual(entries.map(label), ['0:a3', '0:a1', '0:invalid@3']);
  });

  it('handles empty files among the others', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const a = capture(1, [
      ['a1', 1],
      ['a2', 2],
    ]);
    const { entries } = await collect([new CaptureReader(empty, 0), a]);
    assert.deepEqual(entries.map(label), ['1:a1', '1:a2']);
    assert.deepEqual((await collect([new CaptureReader(empty, 0), new CaptureReader(empty, 1)])).entries, []);
  });

  it('merges large files across many read chunks and output batches', async () => {
    const N = 30_000;
    const pad = 'p'.repeat(150);
    const even: string[] = [];
    const odd: string[] = [];
    for (let i = 0; i < N; i++) {
      const rec = (id: string, t: number) => JSON.stringify({ message: { messageId: id, attributes: { pad } }, receivedAt: new Date(T0 + t).toISOString() });
      even.push(rec(`e${i}`, 2 * i));
      odd.push(rec(`o${i}`, 2 * i + 1));
    }
    const pe = join(dir, 'even.jsonl');
    const po = join(dir, 'odd.jsonl');
    writeFileSync(pe, even.join('\n') + '\n');
    writeFileSync(po, odd.join('\n') + '\n');
    const readers = [new CaptureReader(po, 1), new CaptureReader(pe, 0)];
    const { entries, batches } = await collect(readers);
    assert.equal(entries.length, 2 * N);
    assert.ok(batches > 1, `${batches} batches`);
    for (let i = 0; i < entries.length; i++) {
      assert.equal(entries[i].time, T0 + i, `entry ${i}`);
      assert.equal(entries[i].record!.message.messageId, i % 2 === 0 ? `e${i / 2}` : `o${(i - 1) / 2}`);
    }
    for (const r of readers) assert.equal(r.bytesRead, r.size);
  });

  it('stops when the signal is aborted', async () => {
    const lines = (p: string) => Array.from({ length: 20_000 }, (_, i) => [`${p}${i}`, i] as [string, number]);
    const ac = new AbortController();
    const readers = [capture(0, lines('a')), capture(1, lines('b'))];
    let count = 0;
    for await (const b of mergeCaptures(readers, { signal: ac.signal })) {
      count += b.length;
      ac.abort();
    }
    assert.ok(count > 0 && count < 40_000, `read ${count}`);
  });
});
