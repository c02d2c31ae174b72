import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimRecordingPath } from '../../../../src/core/capture/recordingPath';

describe('claimRecordingPath', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-recname-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names a recording after the topic or subscription and the second, written once and readable, and creates it empty', () => {
    const p = claimRecordingPath(dir, 'orders', new Date('2026-12-01T09:30:05.123Z'));
    assert.equal(p, join(dir, 'orders-2026-12-01T09-30-05Z.jsonl'));
    assert.equal(statSync(p).size, 0);
  });

  it('gives two attaches within one second names of their own', () => {
    const now = new Date('2026-12-01T09:30:05.123Z');
    const later = new Date('2026-12-01T09:30:05.900Z');
    const paths = [claimRecordingPath(dir, 'orders', now), claimRecordingPath(dir, 'orders', later), claimRecordingPath(dir, 'orders', now)];
    assert.deepEqual(
      paths.map((p) => p.slice(dir.length + 1)),
      ['orders-2026-12-01T09-30-05Z.jsonl', 'orders-2026-12-01T09-30-05Z-2.jsonl', 'orders-2026-12-01T09-30-05Z-3.jsonl'],
    );
    assert.equal(readdirSync(dir).length, 3);
  });

  it('throws the system error when the folder is missing (the caller creates it first)', () => {
    assert.throws(() => claimRecordingPath(join(dir, 'missing'), 'orders', new Date()), { code: 'ENOENT' });
  });
});
