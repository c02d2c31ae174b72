import assert from 'node:assert/strict';
import {
  MAX_PENDING,
  PageRequest,
  PageRequester,
  REPLAY_REFRESH_MS,
  REQUEST_DEBOUNCE_MS,
  REQUEST_MAX_WAIT_MS,
  ViewNeed,
} from '../../../src/webview/pageRequester';
import type { Timers } from '../../../src/core/util/timers';

/** A clock that moves only when told, with the timers due by then run in order. */
class ManualClock implements Timers<number> {
  private t = 1000;
  private nextHandle = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number): number => {
    const h = this.nextHandle++;
    this.timers.set(h, { at: this.t + Math.max(0, ms), fn });
    return h;
  };
  clearTimeout = (h: number): void => void this.timers.delete(h);
  get timersPending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const until = this.t + ms;
    for (;;) {
      const due = [...this.timers].filter(([, x]) => x.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = until;
  }
}

/** A view of lanes 0–3 over [t0, t0 + 1000), one page window per view. */
function harness(opts: { maxWaitMs?: number } = {}) {
  const clock = new ManualClock();
  const sent: PageRequest[] = [];
  let view: ViewNeed | undefined = at(0);
  let invalidated = 0;
  let id = 0;
  const r = new PageRequester<string>(
    {
      need: () => view,
      send: (req) => sent.push(req),
      nextId: () => ++id,
      maxWaitMs: () => opts.maxWaitMs ?? REQUEST_MAX_WAIT_MS,
      invalidated: () => invalidated++,
    },
    clock,
  );
  return {
    r,
    clock,
    sent,
    invalidations: () => invalidated,
    moveTo: (t0: number) => (view = at(t0)),
    noView: () => (view = undefined),
  };
}

function at(t0: number): ViewNeed {
  return { view: { t0, t1: t0 + 1000 }, window: { level: 10, t0: t0 - 500, t1: t0 + 1500, buckets: 100 }, lanes: [0, 1, 2, 3], visible: [0, 1] };
}

describe('webview PageRequester (debounce, generations, stale replies)', () => {
  it('asks once the view has been still for the debounce, not on every change', () => {
    const { r, clock, sent, moveTo } = harness();
    for (let i = 0; i < 3; i++) {
      moveTo(i * 10);
      r.schedule();
      clock.advance(REQUEST_DEBOUNCE_MS - 10);
    }
    assert.equal(sent.length, 0, 'still moving');
    clock.advance(9);
    assert.equal(sent.length, 0, 'still within the debounce of the last change');
    clock.advance(1);
    assert.equal(sent.length, 1, 'the debounce after the last change');
    clock.advance(REQUEST_DEBOUNCE_MS * 10);
    assert.equal(sent.length, 1, 'once');
    assert.deepEqual(sent[0], { requestId: 1, t0: 20 - 500, t1: 20 + 1500, buckets: 100, lanes: [0, 1, 2, 3] }, 'the page for where the view stopped');
    assert.equal(r.pendingCount, 1);
    assert.equal(r.pagesRequested, 1);
  });

  it('asks within the maximum wait while the view keeps moving (another process hosts), and only once it pauses standalone', () => {
    for (const maxWaitMs of [REQUEST_MAX_WAIT_MS, Infinity]) {
      const { r, clock, sent, moveTo } = harness({ maxWaitMs });
      let t = 0;
      // A change every 20 ms for a second: never idle for the debounce.
      for (; t < 1000; t += 20) {
        moveTo(t);
        r.schedule();
        clock.advance(20);
      }
      if (maxWaitMs === Infinity) assert.equal(sent.length, 0, 'standalone: waits for the gesture to pause');
      else
        assert.ok(
          sent.length >= Math.floor(1000 / maxWaitMs) - 1 && sent.length <= Math.ceil(1000 / maxWaitMs),
          `one request per maximum wait, got ${sent.length}`,
        );
      clock.advance(REQUEST_DEBOUNCE_MS);
      assert.equal(sent.at(-1)?.t0, t - 20 - 500, 'the last request is for where the view stopped');
    }
  });

  it('asks at once on requestNow, not again for a page in flight or cached', () => {
    const { r, clock, sent } = harness();
    r.schedule();
    r.requestNow();
    assert.equal(sent.length, 1);
    clock.advance(1000);
    assert.equal(sent.length, 1, 'the scheduled request was dropped');
    r.requestNow();
    assert.equal(sent.length, 1, 'the same page is in flight');
    assert.equal(
      r.receive(1, () => 'P1'),
      true,
    );
    assert.equal(r.isFresh(), true);
    r.requestNow();
    assert.equal(sent.length, 1, 'cached and fresh');
    assert.deepEqual(r.bestFor(0), { page: 'P1', fresh: true });
  });

  it('asks nothing before there is a view', () => {
    const { r, clock, sent, noView } = harness();
    noView();
    r.schedule();
    clock.advance(1000);
    r.requestNow();
    assert.deepEqual(sent, []);
    assert.equal(r.needed(), undefined);
    assert.equal(r.isFresh(), false);
  });

  it('drops a reply of an earlier generation (a filter or replay change while it was on its way)', () => {
    const { r, sent } = harness();
    r.requestNow();
    const g = r.generation;
    r.invalidate();
    assert.equal(r.generation, g + 1);
    assert.equal(sent.length, 2, 'the page asked for again, for the new generation');
    let unpacked = 0;
    assert.equal(
      r.receive(sent[0].requestId, () => `old ${++unpacked}`),
      false,
      'stale',
    );
    assert.equal(unpacked, 0, 'a stale page is not even unpacked');
    assert.equal(r.cache.size, 0);
    assert.equal(
      r.receive(sent[1].requestId, () => 'new'),
      true,
    );
    assert.deepEqual(r.bestFor(1), { page: 'new', fresh: true });
  });

  it('drops replies to requests superseded by a later reply, and replies never asked for', () => {
    const { r, clock, sent, moveTo } = harness();
    for (const t of [0, 5000, 10_000]) {
      moveTo(t);
      r.requestNow();
    }
    assert.equal(r.pendingCount, 3);
    // The host skips the second request and answers the third: the first is superseded too.
    assert.equal(
      r.receive(sent[2].requestId, () => 'third'),
      true,
    );
    assert.equal(r.pendingCount, 0);
    assert.equal(
      r.receive(sent[0].requestId, () => 'first'),
      false,
      'late reply to a superseded request',
    );
    assert.equal(
      r.receive(999, () => 'stranger'),
      false,
      'never asked for',
    );
    assert.equal(r.cache.size, 1);
    clock.advance(1000);
    assert.equal(sent.length, 3);
  });

  it('forgets the oldest request past MAX_PENDING (a host may never answer it)', () => {
    const { r, sent, moveTo } = harness();
    for (let i = 0; i <= MAX_PENDING; i++) {
      moveTo(i * 5000);
      r.requestNow();
    }
    assert.equal(sent.length, MAX_PENDING + 1);
    assert.equal(r.pendingCount, MAX_PENDING);
    assert.equal(
      r.receive(sent[0].requestId, () => 'oldest'),
      false,
      'forgotten',
    );
  });

  it('keeps a few pages of older generations to draw from, never as fresh', () => {
    const { r, sent } = harness();
    r.requestNow();
    r.receive(sent[0].requestId, () => 'before');
    r.invalidate();
    assert.deepEqual(r.bestFor(0), { page: 'before', fresh: false }, 'a stand-in while the new page is on its way');
    assert.equal(r.isFresh(), false);
    r.reset();
    assert.equal(r.cache.size, 0, 'another session: nothing kept');
    assert.equal(r.pendingCount, 0);
  });

  it('re-asks on a replay move at most every REPLAY_REFRESH_MS, the last position winning', () => {
    const { r, clock, sent, invalidations } = harness();
    const g0 = r.generation;
    r.replayAt('1');
    assert.equal(r.generation, g0 + 1, 'the first move re-asks at once');
    assert.equal(sent.length, 1);
    r.replayAt('2');
    r.replayAt('3');
    r.replayAt('3');
    assert.equal(r.generation, g0 + 1, 'then throttled');
    assert.equal(clock.timersPending, 1, 'one refresh scheduled for the moves since');
    clock.advance(REPLAY_REFRESH_MS);
    assert.equal(r.generation, g0 + 2);
    assert.equal(invalidations(), 1, 'the app is told to redraw');
    assert.equal(sent.length, 2);
    assert.equal(sent[1].requestId > sent[0].requestId, true);
    r.replayAt('3');
    clock.advance(REPLAY_REFRESH_MS * 2);
    assert.equal(r.generation, g0 + 2, 'the same position: nothing to re-ask');
  });
});
