// When the Sessions tree draws again: within STATE_MS of a change a user compares across the
// views, once every COUNTS_MS while only a live stream's counts climb.
import assert from 'node:assert/strict';
import { COUNTS_MS, PacedSession, STATE_MS, steadyState, TreeRefreshPace } from '../../../src/extension/treeRefreshPace';
import { FakeTimers } from '../../support/fakeTimers';

const summary = { keys: 50, gaps: 0, lost: 0, duplicates: 0, conflicts: 0, late: 0, reordered: 0, resets: 0, invalid: 0, received: 0, delivered: 0 };
function liveSession(over: Partial<PacedSession> = {}, live: Partial<NonNullable<PacedSession['live']>> = {}): PacedSession {
  return {
    id: 's1',
    title: 'tap · md-310',
    live: { state: 'live', tapGone: false, openKeys: 0, windows: 1, reconnects: 0, ...live },
    loading: undefined,
    replay: { active: false },
    keyOrder: 'name',
    filter: {},
    data: { summary: { ...summary } },
    ...over,
  };
}

describe('the Sessions tree’s pace', () => {
  let timers: FakeTimers;
  let draws: number[];
  let pace: TreeRefreshPace;
  beforeEach(() => {
    timers = new FakeTimers();
    draws = [];
    pace = new TreeRefreshPace(() => draws.push(timers.t), timers);
  });

  /** A live refresh every 100 ms for `ms`, its state from `state(t)`. */
  const stream = (ms: number, state: (t: number) => string | undefined) => {
    for (let i = 0; i < ms / 100; i++) {
      pace.changed(state(timers.t));
      timers.advance(100);
    }
  };

  it('draws a steady live stream’s counts once a second, its first state within STATE_MS', () => {
    stream(3000, () => 'steady');
    assert.deepEqual(draws, [STATE_MS, STATE_MS + COUNTS_MS, STATE_MS + 2 * COUNTS_MS]);
  });

  it('a change of state while the counts wait is drawn within STATE_MS of it', () => {
    stream(500, () => 'steady');
    assert.deepEqual(draws, [STATE_MS]);
    // 500 ms in: a gap is declared (the state's signature changes).
    pace.changed('a gap');
    timers.advance(STATE_MS);
    assert.deepEqual(draws, [STATE_MS, 500 + STATE_MS]);
    // Then steady again, with the gap: once a second.
    stream(2000, () => 'a gap');
    assert.deepEqual(draws, [STATE_MS, 500 + STATE_MS, 500 + STATE_MS + COUNTS_MS, 500 + STATE_MS + 2 * COUNTS_MS]);
  });

  it('anything not a steady live stream (a key waiting, a capture, a replay) is drawn within STATE_MS, at most that often', () => {
    stream(1000, () => undefined);
    assert.deepEqual(draws, [200, 400, 600, 800, 1000]);
  });

  it('flush draws what waits now; dispose drops it', () => {
    pace.changed('steady');
    pace.flush();
    assert.deepEqual(draws, [0]);
    assert.equal(timers.pending, 0);
    pace.changed('steady');
    assert.equal(timers.pending, 1);
    pace.dispose();
    assert.equal(timers.pending, 0);
    timers.advance(2 * COUNTS_MS);
    assert.deepEqual(draws, [0]);
  });
});

describe('steadyState (what must not lag)', () => {
  it('is the same while only the counts climb, and changes with a finding, the state or the view', () => {
    const base = steadyState([liveSession()], 's1');
    assert.ok(base !== undefined);
    const more = liveSession();
    Object.assign(more.data.summary, { received: 9000, delivered: 8990 });
    assert.equal(steadyState([more], 's1'), base, 'counts alone');
    for (const field of ['gaps', 'lost', 'duplicates', 'conflicts', 'late', 'reordered', 'resets', 'invalid', 'keys'] as const) {
      const s = liveSession();
      (s.data.summary as Record<string, number>)[field]++;
      assert.notEqual(steadyState([s], 's1'), base, field);
    }
    assert.notEqual(steadyState([liveSession({}, { windows: 2 })], 's1'), base, 'a new window');
    assert.notEqual(steadyState([liveSession({}, { reconnects: 1 })], 's1'), base, 'a reconnect');
    assert.notEqual(steadyState([liveSession({ keyOrder: 'gaps' })], 's1'), base, 'the key order');
    assert.notEqual(steadyState([liveSession({ filter: { keys: ['k1'] } })], 's1'), base, 'the filter');
    assert.notEqual(steadyState([liveSession({ title: 'tap · md-311' })], 's1'), base, 'the title');
    assert.notEqual(steadyState([liveSession()], undefined), base, 'the active session');
    assert.notEqual(steadyState([liveSession(), liveSession({ id: 's2' })], 's1'), base, 'another session');
  });

  it('is undefined unless every session is a live one flowing steadily', () => {
    assert.equal(steadyState([], undefined), undefined);
    assert.equal(steadyState([liveSession({ live: undefined })], 's1'), undefined, 'a capture');
    assert.equal(steadyState([liveSession({}, { openKeys: 1 })], 's1'), undefined, 'a key waiting or collecting');
    assert.equal(steadyState([liveSession({}, { state: 'disconnected' })], 's1'), undefined, 'an outage');
    assert.equal(steadyState([liveSession({}, { state: 'connecting' })], 's1'), undefined, 'connecting');
    assert.equal(steadyState([liveSession({}, { tapGone: true })], 's1'), undefined, 'the tap gone');
    assert.equal(steadyState([liveSession({ loading: 0.5 })], 's1'), undefined, 'loading');
    assert.equal(steadyState([liveSession({ replay: { active: true } })], 's1'), undefined, 'replaying');
    assert.equal(steadyState([liveSession(), liveSession({ id: 's2', live: undefined })], 's1'), undefined, 'a capture beside');
  });
});
