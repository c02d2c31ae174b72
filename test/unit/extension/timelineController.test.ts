import assert from 'node:assert/strict';
import type { HostMessage, ReplayInfo, WebviewMessage } from '../../../src/shared/protocol';
import type { StandalonePreview } from '../../../src/shared/standaloneEmbed';
import { ControlledSession, LIVE_POST_MS, TimelineController, TimelineHost } from '../../../src/extension/timelineController';
import { InitMessage, LiveReceiver } from '../../../src/shared/liveUpdates';
import { FakeTimers } from '../../support/fakeTimers';

/** Lets every pending microtask (the controller's asynchronous answers) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A listener list shaped as a VS Code event. */
function emitter<T>() {
  const listeners = new Set<(e: T) => unknown>();
  return {
    event: (l: (e: T) => unknown) => {
      listeners.add(l);
      return { dispose: () => void listeners.delete(l) };
    },
    fire: (e: T) => listeners.forEach((l) => l(e)),
    get count() {
      return listeners.size;
    },
  };
}

const REPLAY: ReplayInfo = { playing: false, speed: 1, active: false };

function init(id: string): StandalonePreview['init'] {
  return { type: 'init', session: { id } as never, overview: {} as never, filter: {}, keyOrder: 'arrival', replay: REPLAY };
}

function fakeSession(id: string) {
  /** What a live session's state is at (each growth changes it). */
  const version = { n: 0 };
  const replayChanged = emitter<void>();
  const changed = emitter<void>();
  const grew = emitter<void>();
  const viewChanged = emitter<'filter' | 'keyOrder'>();
  const handled: WebviewMessage[] = [];
  const seeks: number[] = [];
  const session: ControlledSession = {
    id,
    title: id,
    live: undefined,
    loading: undefined,
    options: {} as never,
    sourcePaths: [`/captures/${id}.jsonl`],
    filter: {},
    keyOrder: 'arrival',
    timeline: {
      handle: async (m) => {
        handled.push(m);
        return m.type === 'requestPage' ? { type: 'page', requestId: m.requestId, page: { id } as never } : undefined;
      },
      firstView: () => ({ init: init(id), page: undefined }),
      initMessage: () => init(id),
      liveInit: (_replay, follow) => ({
        ...init(id),
        overview: { version: version.n } as never,
        ...(follow ? { firstPage: { t0: 0, t1: 1, lanes: follow.lanes, page: { follow } as never } } : {}),
      }),
      overview: () => ({}) as never,
    },
    replay: {
      active: false,
      position: 0,
      info: () => REPLAY,
      run: () => true,
      setSpeed: () => undefined,
      seek: (p) => seeks.push(p),
      onDidChange: replayChanged.event,
    },
    setFilter: async () => undefined,
    onDidChange: changed.event,
    onDidGrow: grew.event,
    onDidChangeView: viewChanged.event,
  };
  /** The session grew: its state changed, and it says so. */
  const grow = () => {
    version.n++;
    grew.fire();
  };
  return { session, handled, seeks, replayChanged, viewChanged, changed, grew, grow };
}

/**
 * The webview's end of a live session's state: the `init` each message posted since the last
 * call makes (shared/liveUpdates.ts), each answered as drawn; the last one made.
 */
function liveWebview(posted: HostMessage[], c: TimelineController<ControlledSession>) {
  const receiver = new LiveReceiver();
  let read = 0;
  let last: InitMessage | undefined;
  return () => {
    for (const m of posted.slice(read)) {
      if (m.type !== 'init' && m.type !== 'liveUpdate') continue;
      const made = receiver.receive(m);
      assert.ok(made, `update ${m.type === 'liveUpdate' ? m.seq : 'init'} follows the last`);
      last = made;
      if (made.liveSeq !== undefined) c.receive({ type: 'liveDrawn', seq: made.liveSeq });
    }
    read = posted.length;
    return last;
  };
}

/** The panel around the controller, and the webview behind it: what each was told. */
function fakePanel(active?: ControlledSession) {
  const timers = new FakeTimers(1_000);
  const posted: HostMessage[] = [];
  const html: (string | undefined)[] = [];
  const events: string[] = [];
  const host: TimelineHost<ControlledSession> = {
    post: (m) => posted.push(m),
    setHtml: (s) => html.push(s?.id),
    visible: () => true,
    showing: (s) => events.push(`showing ${s?.id}`),
    select: (s, id) => events.push(`select ${s.id} ${id}`),
    setKeyOrder: async () => undefined,
    keyOrder: () => 'arrival',
    active: () => active,
    close: () => events.push('close'),
    failed: (m, e) => events.push(`failed ${m.type}: ${(e as Error).message}`),
    persists: true,
    timers,
  };
  const c = new TimelineController(host);
  const types = () => posted.map((m) => m.type);
  return { c, posted, html, events, timers, types };
}

/** The state's kind, read afresh (not narrowed by an earlier assertion). */
const kindOf = (c: TimelineController<ControlledSession>): string => c.state.kind;

const pageRequest = (requestId: number): Extract<WebviewMessage, { type: 'requestPage' }> => ({
  type: 'requestPage',
  requestId,
  t0: 0,
  t1: 10,
  buckets: 4,
  lanes: [0],
});

describe('TimelineController', () => {
  it('load → ready: progress, then the session (shown from its first chunk on), which the webview asks anew', async () => {
    const { c, posted, html, types, timers } = fakePanel();
    const a = fakeSession('a');
    c.load('a.jsonl');
    assert.equal(kindOf(c), 'loading');
    assert.deepEqual(html, [undefined], 'the page is set up at once, to show the progress');
    c.receive({ type: 'ready' });
    assert.deepEqual(posted[0], { type: 'loading', title: 'a.jsonl', fraction: 0, detail: 'Starting', sentAt: 1_000 });
    timers.t = 1_200;
    c.progress(0.5, 'Reading');
    assert.deepEqual(posted[1], { type: 'loading', title: 'a.jsonl', fraction: 0.5, detail: 'Reading', sentAt: 1_200 });
    c.receive(pageRequest(1));
    await settle();
    assert.equal(posted.length, 2, 'a page request waits for the session');

    c.finish(a.session);
    assert.equal(kindOf(c), 'ready');
    c.progress(0.9, 'Sequencing');
    c.finish(a.session);
    await settle();
    assert.deepEqual(types(), ['loading', 'loading', 'init', 'persist'], 'the session, no progress over it');
    assert.deepEqual(a.handled, [], 'the page asked of the progress is dropped: the webview asks the session after its init');
  });

  it('a page request before the webview shows the session is answered by the session once ready', async () => {
    const { c, posted, html } = fakePanel();
    const a = fakeSession('a');
    c.attach(a.session);
    assert.deepEqual(html, ['a'], 'the page embeds the first view');
    c.receive(pageRequest(1));
    c.receive({ type: 'ready', shown: 'a' });
    await settle();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['persist', 'page'],
      'shown from the page: no init',
    );
  });

  it('keeps a capture for a window reload, and no comparison (its panel is not brought back as a capture of both sides)', async () => {
    const { c, posted } = fakePanel();
    const a = fakeSession('a');
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    const cmp = fakeSession('cmp');
    c.attach({ ...cmp.session, sourcePaths: ['/captures/a.jsonl', '/captures/b.jsonl'], comparison: {} });
    c.receive({ type: 'ready', shown: 'cmp' });
    await settle();
    const restores = posted.flatMap((m) => (m.type === 'persist' ? [m.restore] : []));
    assert.deepEqual(restores[0], { kind: 'capture', paths: ['/captures/a.jsonl'], options: {} });
    assert.equal(restores[restores.length - 1], undefined);
  });

  it('keeps no schema definitions in the webview’s state: a restore reads them from the setting again', async () => {
    const { c, posted } = fakePanel();
    const a = fakeSession('a');
    const schemas = { fallback: { type: 'AVRO', definition: '"string"', source: 'trades.avsc' } } as const;
    c.attach({ ...a.session, options: { capacity: 10, schemas } as never });
    c.receive({ type: 'ready', shown: 'a' });
    await settle();
    const restores = posted.flatMap((m) => (m.type === 'persist' ? [m.restore] : []));
    assert.deepEqual(restores[0], { kind: 'capture', paths: ['/captures/a.jsonl'], options: { capacity: 10 } });
  });

  it('drops a reply of the session shown before, computed after another took its place', async () => {
    const { c, posted } = fakePanel();
    const a = fakeSession('a');
    const b = fakeSession('b');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handle = a.session.timeline.handle;
    (a.session.timeline as { handle: typeof handle }).handle = async (m) => {
      await gate;
      return handle(m);
    };
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    c.receive(pageRequest(1));
    await settle();
    c.attach(b.session);
    release();
    await settle();
    assert.deepEqual(
      posted.map((m) => (m.type === 'init' ? `init ${m.session.id}` : m.type)),
      ['persist', 'init b', 'persist'],
      "a's page is not sent over b",
    );
  });

  it('a notice: said in the error bar, requests answered with nothing, the restore kept', async () => {
    const { c, posted, html } = fakePanel();
    c.restore = { kind: 'capture', paths: ['/gone.jsonl'], options: {} as never };
    c.say('gone.jsonl is gone');
    assert.equal(kindOf(c), 'notice');
    assert.deepEqual(html, [undefined]);
    c.receive({ type: 'ready' });
    c.receive(pageRequest(1));
    c.receive({ type: 'seek', position: 3 });
    await settle();
    assert.deepEqual(posted, [
      { type: 'error', message: 'gone.jsonl is gone' },
      { type: 'persist', restore: c.restore },
    ]);
  });

  it('a load that ends with nothing to show closes the panel; one cancelled shows the active session', () => {
    const none = fakePanel();
    none.c.load('x');
    none.c.finish(undefined);
    assert.deepEqual(none.events, ['close']);
    const b = fakeSession('b');
    const some = fakePanel(b.session);
    some.c.load('x');
    some.c.finish(undefined);
    assert.equal(some.c.session, b.session);
  });

  it('disposed mid-load: the load ends quietly, nothing more is posted', async () => {
    const { c, posted, timers, events } = fakePanel();
    const a = fakeSession('a');
    c.load('a.jsonl');
    c.receive({ type: 'ready' });
    c.receive(pageRequest(1));
    const before = posted.length;
    c.dispose();
    assert.equal(timers.pending, 0, 'no timer left behind');
    c.progress(1, 'Done');
    c.finish(a.session);
    c.receive(pageRequest(2));
    await settle();
    assert.equal(posted.length, before);
    assert.deepEqual(a.handled, []);
    assert.deepEqual(events, []);
  });

  it('replay moves reach the webview at most every 100 ms; the session stops being followed once replaced', () => {
    const { c, posted, timers } = fakePanel();
    const a = fakeSession('a');
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    a.replayChanged.fire();
    a.replayChanged.fire();
    timers.advance(100);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['persist', 'replay', 'persist'],
    );
    c.attach(fakeSession('b').session);
    a.replayChanged.fire();
    a.viewChanged.fire('filter');
    timers.advance(100);
    assert.deepEqual(posted.map((m) => m.type).slice(3), ['init', 'persist']);
  });

  it('a failing command is said in the webview and reported', async () => {
    const { c, posted, events } = fakePanel();
    const a = fakeSession('a');
    (a.session.replay as { run: (action: unknown) => unknown }).run = () => {
      throw new Error('Replay is not possible while the session is live.');
    };
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    c.receive({ type: 'replay', action: 'play' });
    c.receive({ type: 'select', eventId: 4 });
    await settle();
    assert.deepEqual(posted.at(-1), { type: 'error', message: 'Replay is not possible while the session is live.' });
    assert.deepEqual(events, ['showing a', 'select a 4', 'failed replay: Replay is not possible while the session is live.']);
  });

  it('a capture loading that grows is shown at once, as the tree and the status bar show it, then at most every LIVE_POST_MS', async () => {
    const { c, posted, timers } = fakePanel();
    const a = fakeSession('a');
    (a.session as { loading: unknown }).loading = 0.25;
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    await settle();
    const inits = () => posted.filter((m) => m.type === 'init').length;
    const before = inits();
    a.changed.fire();
    assert.equal(inits(), before, 'a change that is no growth (a count, the replay) re-inits nothing');
    a.grew.fire();
    assert.equal(inits(), before + 1, 'the refresh reaches the timeline at once');
    timers.advance(100);
    a.grew.fire();
    a.grew.fire();
    assert.equal(inits(), before + 1, 'a refresh soon after waits');
    timers.advance(LIVE_POST_MS - 101);
    assert.equal(inits(), before + 1);
    timers.advance(1);
    assert.equal(inits(), before + 2, 'once, at the end of the interval, with the latest state');
    timers.advance(LIVE_POST_MS * 3);
    assert.equal(timers.pending, 0, 'nothing more to post');
    a.grew.fire();
    assert.equal(inits(), before + 3, 'idle again: at once');
  });

  it('a live session that grows: its whole state, then what changed, each once the webview drew the last; nothing when nothing changed', async () => {
    const { c, posted, timers } = fakePanel();
    const a = fakeSession('a');
    (a.session as { live: unknown }).live = {};
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    await settle();
    const live = () => posted.filter((m) => m.type === 'init' || m.type === 'liveUpdate');
    a.changed.fire();
    assert.equal(live().length, 0, 'a change that is no growth (a count, the replay) sends nothing');
    a.grow();
    assert.deepEqual(
      live().map((m) => m.type),
      ['init'],
      'the first refresh: the whole state, numbered',
    );
    const first = live()[0];
    assert.equal(first.type === 'init' && first.liveSeq, 1);
    a.grow();
    a.grow();
    timers.advance(LIVE_POST_MS * 3);
    assert.equal(live().length, 1, 'while the webview draws it, refreshes wait (however long)');
    c.receive({ type: 'liveDrawn', seq: 7 });
    assert.equal(live().length, 1, 'a state it was not sent: nothing');
    c.receive({ type: 'liveDrawn', seq: 1 });
    assert.equal(live().length, 2, 'drawn: the one owed goes at once');
    const update = live()[1];
    assert.ok(update.type === 'liveUpdate' && update.seq === 2);
    assert.deepEqual(update.patch, { o: { overview: { o: { version: { v: 3 } } } } }, 'only what changed, with the latest state');
    c.receive({ type: 'liveDrawn', seq: 2 });
    a.grew.fire();
    assert.equal(live().length, 2, 'grown with nothing changed: no update');
    a.grow();
    assert.equal(live().length, 3, 'idle: at once');
    c.receive({ type: 'liveResync' });
    const again = live().at(-1);
    assert.ok(again?.type === 'init' && again.liveSeq === 4, 'an update the webview could not place: the whole state again');
    c.receive({ type: 'liveDrawn', seq: 3 });
    a.grow();
    assert.equal(live().length, 4, 'the state before it drawn late: still waiting for the whole one');
  });

  it('a live refresh brings the page of the window the webview follows, as its last page request said; none once it stops following', async () => {
    const { c, posted } = fakePanel();
    const a = fakeSession('a');
    (a.session as { live: unknown }).live = {};
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    const lastInit = liveWebview(posted, c);
    const refresh = () => {
      lastInit();
      a.grow();
    };
    refresh();
    assert.equal(lastInit()?.firstPage, undefined, 'before any page request: nothing to send ahead');
    c.receive({ ...pageRequest(1), lanes: [0, 1], follow: { window: 'all', widthPx: 900 } });
    await settle();
    refresh();
    assert.deepEqual(lastInit()?.firstPage, { t0: 0, t1: 1, lanes: [0, 1], page: { follow: { window: 'all', widthPx: 900, lanes: [0, 1] } } });
    c.receive({ ...pageRequest(2), follow: { window: 60_000, widthPx: 900 } });
    await settle();
    refresh();
    assert.deepEqual(lastInit()?.firstPage?.page, { follow: { window: 60_000, widthPx: 900, lanes: [0] } }, 'the last request says');
    c.receive(pageRequest(3));
    await settle();
    refresh();
    assert.equal(lastInit()?.firstPage, undefined, 'following paused: the webview asks for what it needs');
  });

  it('forgets how the webview followed a session once another is shown', async () => {
    const { c, posted } = fakePanel();
    const a = fakeSession('a');
    const b = fakeSession('b');
    (a.session as { live: unknown }).live = {};
    (b.session as { live: unknown }).live = {};
    c.attach(a.session);
    c.receive({ type: 'ready', shown: 'a' });
    c.receive({ ...pageRequest(1), follow: { window: 'all', widthPx: 900 } });
    await settle();
    c.attach(b.session);
    const lastInit = liveWebview(posted, c);
    lastInit();
    b.grow();
    assert.equal(lastInit()?.session.id, 'b');
    assert.equal(lastInit()?.firstPage, undefined);
  });
});
