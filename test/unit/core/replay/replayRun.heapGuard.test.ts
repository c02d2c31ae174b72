import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeapGuard, HeapUse } from '../../../../src/core/replay/heapGuard';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { writeKeyPerMessageCapture } from '../../../support/captureLines';
import { ScanPool } from '../../../../src/core/capture/parallelReader';
import { scanLines } from '../../../../src/core/capture/lineScan';

/** Scanning threads stood in for by this one (the columns are the same). */
const inThreadPool: ScanPool = { threads: 1, scan: async (range, job) => scanLines(new Uint8Array(range), job.options, job.maxRecordBytes) };

describe('runReplay with a heap guard', () => {
  let dir: string;
  let capture: string;
  const LINES = 20_000;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-heap-'));
    capture = join(dir, 'orders.jsonl');
    writeKeyPerMessageCapture(capture, LINES);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [how, scanPool] of [
    ['on one thread', undefined],
    ['through the parallel reader', inThreadPool],
  ] as const)
    it(`stops reading when the guard says the heap is full, and says where; what was read is summarised (${how})`, async () => {
      // A heap (1 GB) that fills after the third batch, and a collection that frees nothing.
      let checks = 0;
      let reserve = -1;
      const guard = new HeapGuard({
        read: (): HeapUse => ({ used: checks >= 3 ? 900e6 : 100e6, limit: 1000e6 }),
        collect: () => undefined,
      });
      const check = guard.check.bind(guard);
      guard.check = (r?: number) => {
        checks++;
        reserve = r ?? 0;
        check(r);
      };
      const r = await runReplay({ paths: [capture], options: resolveOptions({}), heapGuard: guard, scanPool });
      assert.equal(r.cancelled, true);
      assert.ok(r.heapStop, 'the result says the heap stopped it');
      assert.deepEqual(r.heapStop.heap, { used: 900e6, limit: 1000e6, reserve: r.summary.keys * 256 });
      assert.equal(r.heapStop.path, capture);
      assert.ok(r.summary.received > 0 && r.summary.received < LINES, `${r.summary.received} of ${LINES} read`);
      // One message per line and per key: the last line read is the count read.
      assert.equal(r.heapStop.line, r.summary.received);
      assert.equal(r.heapStop.keys, r.summary.keys);
      // The parallel reader reads a few ranges ahead of what it hands on.
      assert.ok(r.heapStop.bytesRead > 0 && r.heapStop.bytesRead <= r.heapStop.totalBytes);
      if (scanPool === undefined) assert.ok(r.heapStop.bytesRead < r.heapStop.totalBytes);
      assert.equal(r.summary.delivered, r.summary.received, 'what was read was sequenced to the end');
      assert.equal(reserve, r.summary.keys * 256, 'the reserve grows with the keys');
    });

  it('runs to the end with a guard that never fires, with no heapStop', async () => {
    const r = await runReplay({ paths: [capture], options: resolveOptions({}), heapGuard: new HeapGuard() });
    assert.equal(r.cancelled, false);
    assert.equal(r.heapStop, undefined);
    assert.equal(r.summary.received, LINES);
  });
});
