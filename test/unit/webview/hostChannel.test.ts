import assert from 'node:assert/strict';
import type { HostMessage, WebviewMessage } from '../../../src/shared/protocol';
import type { StandalonePreview } from '../../../src/shared/standaloneEmbed';
import { vscodeChannel } from '../../../src/webview/hostChannel';

/** Lets every pending microtask (the channel's asynchronous replies) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const init = (id: string): StandalonePreview['init'] => ({
  type: 'init',
  session: { id } as never,
  overview: {} as never,
  filter: {},
  keyOrder: 'arrival',
  replay: { playing: false, speed: 1, active: false },
});
const firstPage = { t0: 0, t1: 100, lanes: [0, 1], page: { t0: 0, t1: 100, buckets: 10, lanes: [{ key: 0 }, { key: 1 }], invalid: [] } as never };
const page = (requestId: number, t1 = 100): WebviewMessage => ({ type: 'requestPage', requestId, t0: 0, t1, buckets: 10, lanes: [0] });

/** The webview's window (its message events) and the VS Code API, as the channel sees them. */
function harness(embedded?: StandalonePreview) {
  const listeners: ((e: { data: unknown }) => void)[] = [];
  const toHost: WebviewMessage[] = [];
  const api = { postMessage: (m: unknown) => void toHost.push(m as WebviewMessage), getState: () => undefined, setState: () => undefined };
  /** What waits for the next frame. */
  const frame: (() => void)[] = [];
  const channel = vscodeChannel(api, embedded, { addEventListener: (_type, h) => void listeners.push(h) }, (f) => void frame.push(f));
  const received: HostMessage[] = [];
  channel.onMessage((m) => received.push(m));
  const fromHost = (m: HostMessage) => listeners.forEach((h) => h({ data: m }));
  const drawFrame = () => frame.splice(0).forEach((f) => f());
  return { channel, toHost, received, fromHost, drawFrame };
}

describe('vscodeChannel (the webview side in VS Code)', () => {
  it('answers ready and the first page from the embedded first view, once; the host hears the session is shown', async () => {
    const { channel, toHost, received } = harness({ init: init('a'), page: firstPage });
    channel.post({ type: 'ready' });
    channel.post(page(1));
    await settle();
    assert.deepEqual(toHost, [{ type: 'ready', shown: 'a' }]);
    assert.deepEqual(
      received.map((m) => (m.type === 'page' ? `page ${m.requestId}` : m.type)),
      ['init', 'page 1'],
    );
    channel.post(page(2));
    await settle();
    assert.deepEqual(toHost.at(-1), page(2), 'used once: the same window again goes to the host');
    assert.equal(received.length, 2);
  });

  it('forwards what the first view cannot answer, and answers from an init that brings its first page', async () => {
    const { channel, toHost, received, fromHost } = harness();
    channel.post({ type: 'ready' });
    channel.post(page(1, 50));
    await settle();
    assert.deepEqual(toHost, [{ type: 'ready' }, page(1, 50)]);
    fromHost({ ...init('b'), firstPage });
    channel.post(page(2));
    channel.post({ type: 'select', eventId: 3 });
    await settle();
    assert.deepEqual(toHost.slice(2), [{ type: 'select', eventId: 3 }]);
    assert.deepEqual(
      received.map((m) => (m.type === 'page' ? `page ${m.requestId}` : m.type)),
      ['init', 'page 2'],
    );
    fromHost({ type: 'replay', replay: { playing: true, speed: 1, active: true } });
    channel.post(page(3));
    await settle();
    assert.deepEqual(toHost.at(-1), page(3), 'any other host message ends the first view');
  });

  it('makes an init of each live update, answers the next page from it, says when it was drawn, and asks again when one is missed', async () => {
    const { channel, toHost, received, fromHost, drawFrame } = harness();
    fromHost({ ...init('live'), firstPage, liveSeq: 1 });
    assert.deepEqual(toHost, [], 'drawn only after its frame');
    drawFrame();
    assert.deepEqual(toHost, [{ type: 'liveDrawn', seq: 1 }]);
    const grownWire = { ...(firstPage.page as object), buckets: 12 };
    const grownPage = { ...firstPage, page: grownWire as never };
    fromHost({
      type: 'liveUpdate',
      seq: 2,
      patch: { o: { session: { o: { arrivals: { v: 7 } } }, firstPage: { o: { page: { o: { buckets: { v: 12 } } } } } } },
    });
    const made = received.at(-1);
    assert.ok(made?.type === 'init');
    assert.deepEqual(made, { ...init('live'), session: { id: 'live', arrivals: 7 } as never, firstPage: grownPage, liveSeq: 2 });
    channel.post(page(5));
    await settle();
    assert.deepEqual(received.at(-1), { type: 'page', requestId: 5, page: { ...grownWire, lanes: [{ key: 0 }] } }, 'its page answered here');
    drawFrame();
    assert.deepEqual(toHost.at(-1), { type: 'liveDrawn', seq: 2 });
    const before = received.length;
    fromHost({ type: 'liveUpdate', seq: 4, patch: { o: {} } });
    assert.equal(received.length, before, 'an update that does not follow the last: not shown');
    assert.deepEqual(toHost.at(-1), { type: 'liveResync' }, 'the whole state asked for');
    drawFrame();
    assert.deepEqual(toHost.at(-1), { type: 'liveResync' }, 'nothing drawn to say');
  });
});
