import assert from 'node:assert/strict';
import type { SessionInfo } from '../../../src/shared/protocol';
import { TimeWindow } from '../../../src/webview/timeWindow';
import { runViewKey, ViewKeyTarget } from '../../../src/webview/viewKeys';

const T0 = Date.UTC(2026, 11, 2, 2, 49, 56);

const session = (id: string, end: number): SessionInfo => ({
  id,
  title: id,
  options: '',
  start: T0,
  end,
  arrivals: 10,
  events: 10,
  lanes: [],
  invalid: 0,
});

describe('webview view keys (what each key action does)', () => {
  const target = (log: string[]): ViewKeyTarget => {
    const time = new TimeWindow(() => log.push('changed'));
    time.open(session('capture', T0 + 100_000), [], undefined, 1000);
    assert.ok(time.vp);
    return {
      time,
      viewport: time.vp,
      live: false,
      focusedLane: 5,
      lanesPerScreen: 3,
      focusLane: (i) => log.push(`lane ${i}`),
      navigate: (dir) => log.push(`navigate ${dir}`),
      openDetail: () => log.push('detail'),
      dismiss: () => log.push('dismiss'),
      help: () => log.push('help'),
    };
  };

  it('moves the lane focus by one or by a screen', () => {
    const log: string[] = [];
    const t = target(log);
    for (const a of ['laneUp', 'laneDown', 'lanePageUp', 'lanePageDown'] as const) runViewKey(a, t);
    assert.deepEqual(log, ['lane 4', 'lane 6', 'lane 2', 'lane 8']);
  });

  it('zooms and pans the time window: a tenth of the view, or to either end of the session', () => {
    const log: string[] = [];
    const t = target(log);
    const vp = t.viewport;
    runViewKey('zoomIn', t);
    const span = vp.span;
    const t0 = vp.t0;
    runViewKey('panForward', t);
    assert.ok(Math.abs(vp.t0 - (t0 + span * 0.1)) < 1e-6);
    runViewKey('panToEnd', t);
    assert.ok(Math.abs(vp.t1 - vp.domainT1) <= vp.span, 'at the end');
    runViewKey('panToStart', t);
    assert.ok(Math.abs(vp.t0 - vp.domainT0) <= vp.span, 'at the start');
    assert.deepEqual(log, ['changed', 'changed', 'changed', 'changed']);
  });

  it('hands findings, the detail, dismiss and help to the timeline', () => {
    const log: string[] = [];
    const t = target(log);
    for (const a of ['nextFinding', 'previousFinding', 'openDetail', 'dismiss', 'help'] as const) runViewKey(a, t);
    assert.deepEqual(log, ['navigate 1', 'navigate -1', 'detail', 'dismiss', 'help']);
  });
});
