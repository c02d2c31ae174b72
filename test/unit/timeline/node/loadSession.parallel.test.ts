/**
 * The session loader on the parallel reader builds the session the one-thread load builds: the
 * same summary (counts, findings, per-key figures), event and arrival columns, per-key lists,
 * problems and pages, for random captures cut into random ranges scanned in random order by any
 * number of threads — merged captures, gzip and invalid records included.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { DEFAULT_OPTIONS } from '../../../../src/core/sequencer/sequencingOptions';
import { IDLE_REPLAY } from '../../../../src/shared/protocol';
import { CaptureSession } from '../../../../src/timeline/captureSession';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { TimelineService } from '../../../../src/timeline/timelineService';
import { captureBytes, CME, countingPool, parallelRunArb, suiteFolder } from '../../../support/parallelCaptures';
import { assertSameSession } from '../../../support/sameSession';

/** What the timeline shows of a session: its first view, and a page of every lane over all of it. */
async function pages(session: CaptureSession): Promise<unknown[]> {
  const service = new TimelineService(session, { id: 's', title: 't', options: 'o' });
  const view = service.firstView(IDLE_REPLAY);
  const { start, end } = view.init.session;
  const lanes = session.keyNames.map((_, i) => i);
  const all = await service.handle({ type: 'requestPage', requestId: 1, t0: start, t1: end + 1, buckets: 64, lanes });
  const events = [];
  for (let i = 0; i < session.store.count; i++) events.push(session.event(i));
  return [view, all, events];
}

describe('Loading a session on the parallel reader', () => {
  const { write } = suiteFolder('seqscope-parallel-load-');

  it('builds the session the one-thread load builds, for any cut and thread count', async () => {
    const counter = { scans: 0 };
    await fc.assert(
      fc.asyncProperty(parallelRunArb, fc.boolean(), async (run, gzip) => {
        const paths = run.captures.map((c) => write(gzip ? gzipSync(captureBytes(c)) : captureBytes(c)));
        const options = run.cme ? CME : DEFAULT_OPTIONS;
        const one = await loadSession(paths, options);
        const many = await loadSession(paths, options, { scanPool: countingPool(run, counter) });
        assertSameSession(one.session, many.session);
        assert.deepEqual(await pages(many.session), await pages(one.session));
        assert.equal(many.cancelled, one.cancelled);
      }),
      { numRuns: 120 },
    );
    assert.ok(counter.scans > 120, 'the loads went through the pool');
  });
});
