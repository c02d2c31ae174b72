// A session's notices: one at a time per subject, and a button picked on one that no longer
// holds says what happened instead of acting (VS Code cannot take a notification back).
import assert from 'node:assert/strict';
import { NoticeLevel, SessionNotices, timeOfDay } from '../../../src/extension/sessionNotices';

/** Lets the notices' answers (promise callbacks) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The notifications on screen, each answered when the test clicks (or closes) it. */
class FakeScreen {
  readonly shown: { level: NoticeLevel; message: string; buttons: readonly string[]; answer(pick?: string): void }[] = [];
  show = (level: NoticeLevel, message: string, buttons: readonly string[]) =>
    new Promise<string | undefined>((resolve) => this.shown.push({ level, message, buttons, answer: resolve }));
}

const T = Date.UTC(2026, 11, 6, 9, 12, 3);

describe('session notices', () => {
  let screen: FakeScreen;
  let now: number;
  let notices: SessionNotices;
  let retapped: number;
  const goneNotice = () => ({ level: 'warning' as const, message: 'SeqScope: tap · md-310: the tap is gone', actions: { 'Re-tap': () => retapped++ } });

  beforeEach(() => {
    screen = new FakeScreen();
    now = T;
    retapped = 0;
    notices = new SessionNotices(screen.show, () => now);
  });

  it('acts while it holds', async () => {
    notices.notify('live-1', 'tap-gone', goneNotice());
    assert.deepEqual(
      screen.shown.map((s) => [s.level, s.buttons]),
      [['warning', ['Re-tap']]],
    );
    screen.shown[0].answer('Re-tap');
    await settle();
    assert.equal(retapped, 1);
    assert.deepEqual(notices.holding('live-1'), [], 'answered: no longer on screen');
  });

  it('shows one per session and subject while it is unanswered; another session or subject gets its own', async () => {
    notices.notify('live-1', 'tap-gone', goneNotice());
    notices.notify('live-1', 'tap-gone', goneNotice());
    notices.notify('live-2', 'tap-gone', goneNotice());
    notices.notify('live-1', 'memory', { level: 'warning', message: 'nearly full', actions: {} });
    assert.equal(screen.shown.length, 3);
    screen.shown[0].answer(undefined); // closed without a pick: a later one may show again
    await settle();
    notices.notify('live-1', 'tap-gone', goneNotice());
    assert.equal(screen.shown.length, 4);
    assert.equal(retapped, 0, 'closing it does nothing');
  });

  it('settled (re-tapped): its button says what happened, with the time, and does not act', async () => {
    notices.notify('live-1', 'tap-gone', goneNotice());
    now = T + 65_000;
    notices.settle('live-1', (at) => `tap · md-310 was re-tapped at ${at}: nothing more to do`, 'tap-gone');
    assert.deepEqual(notices.holding('live-1'), []);
    screen.shown[0].answer('Re-tap');
    await settle();
    assert.equal(retapped, 0);
    assert.equal(screen.shown[1].level, 'info');
    assert.equal(screen.shown[1].message, `SeqScope: tap · md-310 was re-tapped at ${timeOfDay(T + 65_000)}: nothing more to do`);
    assert.match(timeOfDay(T), /^\d\d:\d\d:\d\d$/);
  });

  it('settled, a new notice about the same subject shows (the tap went again after a re-tap)', () => {
    notices.notify('live-1', 'tap-gone', goneNotice());
    notices.settle('live-1', () => 're-tapped');
    notices.notify('live-1', 'tap-gone', goneNotice());
    assert.equal(screen.shown.length, 2);
    assert.deepEqual(notices.holding('live-1'), ['tap-gone']);
  });

  it("settling every subject of one session leaves other sessions' notices alone", async () => {
    notices.notify('live-1', 'tap-gone', goneNotice());
    notices.notify('live-2', 'tap-gone', goneNotice());
    notices.settle('live-1', (at) => `tap · md-310 was detached at ${at}`);
    assert.deepEqual([notices.holding('live-1'), notices.holding('live-2')], [[], ['tap-gone']]);
    screen.shown[1].answer('Re-tap');
    await settle();
    assert.equal(retapped, 1);
  });

  it('an action that fails is reported, not thrown into the void', async () => {
    const problems: string[] = [];
    notices = new SessionNotices(
      screen.show,
      () => now,
      (m) => problems.push(m),
    );
    notices.notify('live-1', 'x', { level: 'warning', message: 'M', actions: { Go: () => Promise.reject(new Error('boom')) } });
    screen.shown[0].answer('Go');
    await settle();
    await settle();
    assert.deepEqual(problems, ['after "M": boom']);
  });
});
