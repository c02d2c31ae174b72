import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleCaptures } from '../../../../src/timeline/node/captureSample';

describe('sampleCaptures: the head of capture files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-sample-'));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('a file read whole: its lines, the last counted without its newline', async () => {
    assert.deepEqual(await sampleCaptures([write('a.jsonl', 'one\ntwo\nthree')]), { totalBytes: 13, sampleBytes: 13, sampleLines: 3 });
    assert.deepEqual(await sampleCaptures([write('b.jsonl', 'one\ntwo\n')]), { totalBytes: 8, sampleBytes: 8, sampleLines: 2 });
    assert.deepEqual(await sampleCaptures([write('e.jsonl', '')]), { totalBytes: 0, sampleBytes: 0, sampleLines: 0 });
  });

  it('a file longer than its share of the head: the whole lines in it, up to the last newline', async () => {
    const line = 'x'.repeat(99) + '\n';
    const p = write('c.jsonl', line.repeat(2000) + 'y'.repeat(50));
    // The head is at least 64 KiB: 655 whole lines of 100 bytes.
    assert.deepEqual(await sampleCaptures([p], 1000), { totalBytes: 200_050, sampleBytes: 65_500, sampleLines: 655 });
  });

  it('several files: their sizes and heads added', async () => {
    const a = write('d1.jsonl', 'ab\ncd\n');
    const b = write('d2.jsonl', 'efg\n');
    assert.deepEqual(await sampleCaptures([a, b]), { totalBytes: 10, sampleBytes: 10, sampleLines: 3 });
  });
});
