import assert from 'node:assert/strict';
import { RequestChannel } from '../../../src/shared/requestChannel';
import type { HostMessage, WebviewMessage } from '../../../src/shared/protocol';
import type { StandalonePreview } from '../../../src/shared/standaloneEmbed';
import { previewAnswerer, timelineChannel } from '../../../src/shared/timelineChannel';

/** Lets every pending microtask (the channel's asynchronous replies) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A promise settled from outside: an answer still being computed. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function channel(ordered = true) {
  const replies: string[] = [];
  const failures: string[] = [];
  const c = new RequestChannel<string, string>({
    reply: (r) => replies.push(r),
    failed: (req, e) => failures.push(`${req}: ${(e as Error).message}`),
    ordered,
  });
  return { c, replies, failures };
}

describe('RequestChannel', () => {
  it('holds requests until a stage can answer them, then answers them in order', async () => {
    const { c, replies } = channel();
    c.request('a');
    c.request('b');
    await settle();
    assert.deepEqual(replies, []);
    assert.equal(c.waiting, 2);
    c.answerWith((req) => ({ reply: req.toUpperCase() }));
    await settle();
    assert.deepEqual(replies, ['A', 'B']);
  });

  it('keeps what a stage cannot answer for the next stage, and what is behind it too', async () => {
    const { c, replies } = channel();
    c.answerWith((req) => (req.startsWith('p') ? { reply: `preview ${req}` } : undefined));
    c.request('p1');
    c.request('x');
    c.request('p2');
    await settle();
    assert.deepEqual(replies, ['preview p1']);
    c.answerWith((req) => ({ reply: `session ${req}` }));
    await settle();
    assert.deepEqual(replies, ['preview p1', 'session x', 'session p2']);
  });

  it('drops a reply computed under a stage that has since been replaced', async () => {
    const { c, replies } = channel(false);
    const slow = deferred<{ reply: string }>();
    c.answerWith(() => slow.promise);
    c.request('page');
    await settle();
    const before = c.generation;
    c.answerWith((req) => ({ reply: `new ${req}` }));
    assert.equal(c.generation, before + 1);
    slow.resolve({ reply: 'old page' });
    c.request('page');
    await settle();
    assert.deepEqual(replies, ['new page']);
  });

  it('answers in order when ordered, and as answers come when not', async () => {
    for (const ordered of [true, false]) {
      const { c, replies } = channel(ordered);
      const slow = deferred<{ reply: string }>();
      c.answerWith((req) => (req === 'slow' ? slow.promise : { reply: req }));
      c.request('slow');
      c.request('fast');
      await settle();
      slow.resolve({ reply: 'slow' });
      await settle();
      assert.deepEqual(replies, ordered ? ['slow', 'fast'] : ['fast', 'slow'], `ordered: ${ordered}`);
    }
  });

  it('reports an answer that throws, and goes on with the next request', async () => {
    const { c, replies, failures } = channel();
    c.answerWith((req) => {
      if (req === 'bad') throw new Error('no such page');
      return req === 'worse' ? Promise.reject(new Error('gone')) : { reply: req };
    });
    for (const r of ['bad', 'worse', 'good']) c.request(r);
    await settle();
    assert.deepEqual(failures, ['bad: no such page', 'worse: gone']);
    assert.deepEqual(replies, ['good']);
  });

  it('drops what waits when told to, and everything once disposed', async () => {
    const { c, replies } = channel();
    c.request('old view');
    c.answerWith((req) => ({ reply: req }), true);
    await settle();
    assert.deepEqual(replies, []);
    const slow = deferred<{ reply: string }>();
    c.answerWith(() => slow.promise);
    c.request('late');
    await settle();
    c.dispose();
    slow.resolve({ reply: 'late' });
    c.request('after');
    await settle();
    assert.deepEqual(replies, []);
    assert.equal(c.waiting, 0);
  });
});

describe('timelineChannel and the preview answerer', () => {
  const init = { type: 'init', session: { id: 's1' } } as unknown as StandalonePreview['init'];
  const preview: StandalonePreview = {
    init,
    page: { t0: 0, t1: 100, lanes: [0, 1], page: { t0: 0, t1: 100, buckets: 10, lanes: [{ key: 0 }, { key: 1 }], invalid: [] } as never },
  };
  const page = (requestId: number, lanes: number[], t1 = 100): WebviewMessage => ({ type: 'requestPage', requestId, t0: 0, t1, buckets: 10, lanes });

  it('answers ready and the preview window from the first view; the rest waits for the session', async () => {
    const out: HostMessage[] = [];
    const c = timelineChannel(
      (m) => out.push(m),
      () => assert.fail('no failure expected'),
      true,
    );
    c.answerWith(previewAnswerer(preview));
    c.request({ type: 'ready' });
    c.request(page(1, [1]));
    c.request({ type: 'requestDetail', requestId: 2, eventId: 7 });
    await settle();
    assert.equal(out.length, 2);
    assert.equal(out[0], init);
    assert.deepEqual(out[1].type === 'page' && { id: out[1].requestId, lanes: out[1].page.lanes }, { id: 1, lanes: [{ key: 1 }] });
    assert.equal(c.waiting, 1);
    c.answerWith((m) => ({ reply: { type: 'error', message: `session answers ${m.type}` } }));
    await settle();
    assert.deepEqual(out[2], { type: 'error', message: 'session answers requestDetail' });
  });

  it('skips a waiting page request that a newer one supersedes', async () => {
    const out: HostMessage[] = [];
    const c = timelineChannel(
      (m) => out.push(m),
      () => assert.fail('no failure expected'),
      true,
    );
    c.request(page(1, [0], 50));
    c.request(page(2, [0], 60));
    c.request({ type: 'requestDetail', requestId: 3, eventId: 1 });
    c.answerWith((m) => ({ reply: { type: 'error', message: m.type === 'requestPage' ? `page ${m.requestId}` : m.type } }));
    await settle();
    assert.deepEqual(
      out.map((m) => m.type === 'error' && m.message),
      ['page 2', 'requestDetail'],
    );
  });
});
