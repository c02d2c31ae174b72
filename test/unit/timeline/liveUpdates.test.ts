/**
 * A live session's updates (shared/liveUpdates.ts) against its whole state: a webview that
 * applied every update the host sent shows what one whole `init` from the same session state
 * shows — counts, key states, overview, the followed page — through gaps declared on the clock,
 * late numbers, duplicates, resets and invalid records, with updates held back while the webview
 * draws. The clock is the test's.
 */
import assert from 'node:assert/strict';
import type { ReceivedMessage } from '../../../src/core/capture/captureRecord';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { InitMessage, LiveReceiver, LiveSender, LiveUpdateMessage } from '../../../src/shared/liveUpdates';
import type { LiveFollow } from '../../../src/shared/liveWindow';
import { IDLE_REPLAY } from '../../../src/shared/protocol';
import { LiveFeed } from '../../../src/timeline/liveFeed';
import { overview } from '../../../src/timeline/timelineQuery';
import { TimelineService } from '../../../src/timeline/timelineService';
import { receivedMessage, T0 } from '../../support/captureLines';

const META = { id: 'live', title: 'tap · md', options: 'cme' };
const KEYS = ['310', '312', '314'];

/** Numbers that look random and are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** As it crosses to the webview: through JSON. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

interface Run {
  feed: LiveFeed;
  /** The state the webview made of every message it got. */
  shown: InitMessage | undefined;
  sent: { updates: number; fulls: number; withheld: number };
}

/** A stream over KEYS for `steps` refreshes of 100 ms, the host and the webview exchanging as the panel does. */
function run(seed: number, steps: number, follow: LiveFollow | undefined): Run {
  const random = prng(seed);
  const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '2s' }));
  const svc = new TimelineService(feed.session, META);
  const sender = new LiveSender();
  const receiver = new LiveReceiver();
  const next = KEYS.map(() => 50_000);
  const skipped: { key: number; seq: number }[] = [];
  const sent = { updates: 0, fulls: 0, withheld: 0 };
  let shown: InitMessage | undefined;
  let inFlight: number | undefined;
  let t = 0;
  const resetAt = Math.floor(steps / 2);
  const push = (key: number, seq: number | undefined) =>
    feed.push(receivedMessage({ t, channel: KEYS[key], seq }) as unknown as ReceivedMessage, -1, 0, T0 + t);
  const deliver = (m: InitMessage | LiveUpdateMessage) => {
    const made = receiver.receive(wire(m));
    assert.ok(made, 'each update follows the last');
    shown = made;
    inFlight = made.liveSeq;
  };
  const post = () => {
    if (!sender.mayPost()) return void sent.withheld++;
    const init = svc.liveInit(IDLE_REPLAY, follow);
    if (!sender.started) {
      sent.fulls++;
      return deliver(sender.full(init));
    }
    const m = sender.update(init);
    if (m) {
      sent.updates++;
      deliver(m);
    }
  };
  const drawn = () => {
    if (inFlight !== undefined && sender.drawn(inFlight)) post();
  };
  for (let step = 0; step < steps; step++) {
    // A quiet second now and then: gaps are declared by the clock alone.
    const quiet = random() < 0.05;
    // Key 0's publisher restarts: a reset.
    if (step === resetAt) next[0] = 1;
    for (let i = quiet ? 0 : Math.floor(random() * 40); i > 0; i--) {
      t += random() * 5;
      const key = Math.floor(random() * KEYS.length);
      const r = random();
      if (r < 0.03) {
        skipped.push({ key, seq: next[key] });
        next[key] += 1; // a hole: a gap, unless it comes soon
      } else if (r < 0.05 && skipped.length) {
        const late = skipped.shift()!;
        push(late.key, late.seq); // fills its hole, or late once its gap was declared
      } else if (r < 0.07) {
        push(key, next[key] - 1); // a duplicate
      } else if (r < 0.075) {
        push(key, undefined); // no number: an invalid record
      }
      push(key, next[key]++);
    }
    t = Math.max(t, (step + 1) * 100) + (quiet ? 1_000 : 0);
    feed.tick(T0 + t);
    feed.refresh();
    // As the session does when it grew (Session.grew).
    svc.invalidate();
    post();
    // The webview draws the last now, or only after the next refresh.
    if (random() < 0.6) drawn();
  }
  drawn();
  post();
  drawn();
  return { feed, shown, sent };
}

/** A live `init` with only what the receiver reads: its number (and sending time). */
function bareInit(fields: Partial<InitMessage>): InitMessage {
  return { type: 'init', session: { id: 'a' }, overview: {}, filter: {}, keyOrder: 'arrival', replay: IDLE_REPLAY, ...fields } as unknown as InitMessage;
}

describe('live updates (what changed since the last, applied by the webview)', () => {
  for (const [seed, follow] of [
    [1, { window: 'all', widthPx: 900, lanes: [0, 1, 2] }],
    [2, { window: 2_000, widthPx: 640, lanes: [0, 2] }],
    [3, undefined],
    [4, { window: 'all', widthPx: 1600, lanes: [0, 1, 2] }],
  ] as const) {
    it(`applied one after another, give what one whole update gives (seed ${seed}, ${follow ? `following ${follow.window}` : 'not following'})`, () => {
      const { feed, shown, sent } = run(seed, 120, follow && { ...follow, lanes: [...follow.lanes] });
      const whole = wire(new TimelineService(feed.session, META).liveInit(IDLE_REPLAY, follow && { ...follow, lanes: [...follow.lanes] }));
      assert.ok(shown);
      const { liveSeq, ...state } = shown;
      assert.deepEqual(state, whole);
      assert.equal(liveSeq, sent.fulls + sent.updates, 'numbered one after another');
      // What the run went through (else the test proves little).
      const s = feed.session.summary;
      assert.ok(s.gaps > 0 && s.duplicates > 0 && s.late > 0 && s.resets > 0 && s.invalid > 0, JSON.stringify({ ...s, byKey: undefined }));
      assert.ok(sent.updates > 50 && sent.withheld > 0 && sent.fulls === 1, JSON.stringify(sent));
      if (follow) assert.ok(whole.firstPage?.page.lanes.length, 'the followed page is compared too');
    });
  }

  it('its overview counts what the whole-session overview counts', () => {
    const { feed, shown } = run(5, 80, undefined);
    const o = shown!.overview;
    const once = overview(feed.session, 600);
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    for (const row of ['arrivals', 'gaps', 'duplicates', 'late', 'reordered'] as const) assert.equal(sum(o[row]), sum(once[row]), row);
    assert.ok(sum(o.gaps) > 0 && sum(o.duplicates) > 0);
    assert.equal(o.t0, feed.session.timeRange.start);
    assert.ok(o.arrivals.length > 300 && o.arrivals.length <= 600, `${o.arrivals.length} bins`);
  });

  it('an update that does not follow the last state is not applied: the webview asks for the whole state', () => {
    const receiver = new LiveReceiver();
    const base = bareInit({ liveSeq: 4 });
    assert.equal(receiver.receive({ type: 'liveUpdate', seq: 1, patch: { o: {} } }), undefined, 'no state yet');
    assert.ok(receiver.receive(base));
    assert.equal(receiver.receive({ type: 'liveUpdate', seq: 6, patch: { o: {} } }), undefined, 'one missed');
    assert.equal(receiver.receive({ type: 'liveUpdate', seq: 5, patch: { o: {} } }), undefined, 'nor after: the state was given up');
    assert.ok(receiver.receive({ ...base, liveSeq: 9 }));
    assert.equal(receiver.receive({ type: 'liveUpdate', seq: 10, patch: { o: { session: { o: { id: { v: 'b' } } } } } })?.session.id, 'b');
  });

  it("the state an update makes carries that update's sending time, not the one before's", () => {
    const receiver = new LiveReceiver();
    const base = bareInit({ liveSeq: 1, sentAt: 1000 });
    assert.equal(receiver.receive(base)?.sentAt, 1000);
    assert.equal(receiver.receive({ type: 'liveUpdate', seq: 2, patch: { o: {} }, sentAt: 1100 })?.sentAt, 1100);
    const untimed = receiver.receive({ type: 'liveUpdate', seq: 3, patch: { o: {} } });
    assert.ok(untimed && !('sentAt' in untimed), 'an update sent without a time makes a state without one');
  });
});
