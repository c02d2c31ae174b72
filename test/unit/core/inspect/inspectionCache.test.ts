import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InspectionCache } from '../../../../src/core/inspect/captureInspection';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';

const SAMPLE = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');

describe('InspectionCache', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-inspect-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers again from memory, and reads a capture again once it changed', async () => {
    const path = join(dir, 'a.jsonl');
    copyFileSync(SAMPLE, path);
    const cache = new InspectionCache(2);
    const cme = resolveOptions({ preset: 'cme' });
    const first = await cache.get([path], cme);
    assert.equal(first.summary.received, 3006);
    assert.equal(await cache.get([path], cme), first, 'the same inspection, not read again');
    assert.notEqual(await cache.get([path], resolveOptions({ preset: 'cme', gapTimeout: '1s' })), first, 'other options: another inspection');
    appendFileSync(path, '{"not": "a record"}\n');
    const changed = await cache.get([path], cme);
    assert.notEqual(changed, first);
    assert.equal(changed.summary.invalid, 1);
    assert.equal(cache.size, 2, 'bounded: the oldest was let go');
  });

  it('a failed inspection is not kept', async () => {
    const cache = new InspectionCache();
    await assert.rejects(cache.get([join(dir, 'missing.jsonl')], resolveOptions({})), /missing\.jsonl" cannot be read/);
    assert.equal(cache.size, 0);
  });
});
