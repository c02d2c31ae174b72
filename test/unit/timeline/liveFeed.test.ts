/**
 * LiveFeed: a session grown message by message (as from a live subscription) must come to the
 * same verdict as loading the recording afterwards, declare gaps on the wall clock while nothing
 * arrives, and stop indexing (not counting) past its window.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceivedMessage } from '../../../src/core/capture/captureRecord';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { LiveFeed } from '../../../src/timeline/liveFeed';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { LineSpec, receivedMessage, T0 } from '../../support/captureLines';

// 16-bit: the stream wraps 65535 → 0.
const CME = resolveOptions({ preset: 'cme', seqBits: 16 });

function stream(): LineSpec[] {
  const specs: LineSpec[] = [];
  let t = 0;
  for (let n = 0; n < 300; n++) {
    for (const ch of ['310', '312']) {
      if (ch === '310' && n >= 100 && n < 103) continue; // a gap of 3
      specs.push({ t: (t += 5), channel: ch, seq: (65400 + n) % 65536 });
      if (n % 50 === 7) specs.push({ t: (t += 5), channel: ch, seq: (65400 + n) % 65536 }); // a redelivery
    }
  }
  return specs;
}

describe('LiveFeed', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-live-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('judged by publish order, marks a reordered message as it arrives, as loading the recording does', async () => {
    const path = join(dir, 'orders.jsonl');
    const lines = readFileSync(join(__dirname, '..', '..', '..', 'media', 'samples', 'orders-sample.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l + '\n');
    writeFileSync(path, lines.join(''));
    const options = resolveOptions({});
    const feed = new LiveFeed(path, options);
    let offset = 0;
    const seen: number[] = [];
    for (const l of lines) {
      feed.push(JSON.parse(l) as ReceivedMessage, offset, Buffer.byteLength(l));
      offset += Buffer.byteLength(l);
      seen.push(feed.session.countsAt(Infinity).reordered);
    }
    const first = seen.findIndex((n) => n > 0);
    // The first line published before a line of its key that came earlier.
    const latest = new Map<string, string>();
    const behind = lines.findIndex((l) => {
      const m = (JSON.parse(l) as ReceivedMessage).message;
      const before = latest.get(m.orderingKey!);
      if (before !== undefined && m.publishTime! < before) return true;
      if (before === undefined || m.publishTime! > before) latest.set(m.orderingKey!, m.publishTime!);
      return false;
    });
    assert.ok(behind > 0);
    assert.equal(first, behind, 'marked as the stream flows, on the arrival of the first message behind a later-published one');
    const live = feed.finish();
    const { session } = await loadSession([path], options);
    assert.equal(live.reordered, 4);
    assert.equal(live.reordered, session.summary.reordered);
    assert.deepEqual(feed.session.countsAt(Infinity), session.countsAt(Infinity));
  });

  it('grown one delivery at a time, agrees with loading the recording', async () => {
    const specs = stream();
    const path = join(dir, 'rec.jsonl');
    const lines = specs.map((s) => JSON.stringify(receivedMessage(s)) + '\n');
    writeFileSync(path, lines.join(''));
    const feed = new LiveFeed(path, CME);
    let offset = 0;
    for (const l of lines) {
      feed.push(JSON.parse(l) as ReceivedMessage, offset, Buffer.byteLength(l));
      offset += Buffer.byteLength(l);
    }
    const live = feed.finish();
    const { session } = await loadSession([path], CME);
    const loaded = session.summary;
    for (const k of ['received', 'delivered', 'gaps', 'lost', 'duplicates', 'redeliveries', 'late', 'invalid', 'keys'] as const)
      assert.equal(live[k], loaded[k], k);
    assert.equal(live.gaps, 1);
    assert.equal(live.lost, 3);
    assert.equal(feed.session.store.count, session.store.count, 'the same events indexed');
    assert.deepEqual(feed.session.countsAt(Infinity), session.countsAt(Infinity));
    assert.deepEqual(feed.session.keyNames, session.keyNames);
    // Byte ranges point at the recording's lines, so the detail view reads them back.
    assert.equal(feed.session.log.offset.get(5), session.log.offset.get(5));
  });

  it('declares a gap on the wall clock when its timeout passes, with nothing arriving', () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '1s' }));
    const push = (t: number, seq: number) => feed.push(receivedMessage({ t, channel: '310', seq }) as unknown as ReceivedMessage, -1, 0);
    push(0, 1);
    feed.tick(T0 + 1500); // start-of-key window passes: 1 delivered
    push(1600, 2);
    push(1700, 4); // 3 is missing
    feed.tick(T0 + 2000);
    assert.equal(feed.refresh().gaps, 0, 'still waiting');
    feed.tick(T0 + 2800);
    const s = feed.refresh();
    assert.equal(s.gaps, 1, 'declared after 1 s without any arrival');
    assert.equal(s.lost, 1);
    assert.equal(s.delivered, 3);
    assert.equal(feed.session.countsAt(Infinity).gaps, 1, 'and the views see it');
  });

  it('tells the views what a key waits for while a gap is open, until the gap is declared', () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '1s' }));
    const push = (t: number, seq: number) => feed.push(receivedMessage({ t, channel: '310', seq }) as unknown as ReceivedMessage, -1, 0);
    push(0, 1);
    feed.refresh();
    assert.equal(feed.session.openNow!()[0]?.state.kind, 'collecting', 'the start window');
    feed.tick(T0 + 1500);
    push(1600, 2);
    feed.refresh();
    assert.deepEqual(feed.session.openNow!(), [], 'nothing held: nothing open');
    push(1700, 4); // 3 is missing
    feed.tick(T0 + 2000);
    feed.refresh();
    const [open] = feed.session.openNow!();
    assert.equal(open.key, 0);
    assert.deepEqual(open.state, { kind: 'waiting', expected: 3, waitedMs: 300, timeoutMs: 1000, held: 1, openedAt: T0 + 1700 });
    assert.equal(feed.openStateOf(0), open.state, "the tree's and the status bar's reading is the same");
    feed.tick(T0 + 2800);
    feed.refresh();
    assert.deepEqual(feed.session.openNow!(), [], 'declared: an ordinary gap now');
  });

  it('one truth: what a key waits for changes only at a refresh, together with the counts', () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '1s' }));
    const push = (t: number, seq: number) => feed.push(receivedMessage({ t, channel: '310', seq }) as unknown as ReceivedMessage, -1, 0);
    push(0, 1);
    feed.tick(T0 + 1500);
    push(1600, 2);
    push(1700, 4); // 3 is missing
    let summary = feed.refresh();
    const waiting = feed.openKeys;
    assert.equal(waiting[0]?.state.kind, 'waiting');
    assert.equal(summary.gaps, 0);
    // The gap is declared inside the sequencer between two refreshes: the views go on showing
    // the wait, as the counts do, until the next refresh shows the declared gap everywhere.
    feed.tick(T0 + 2800);
    assert.equal(feed.session.openNow!(), waiting, 'the snapshot the views read is unchanged');
    assert.equal(feed.session.summary.gaps, 0);
    summary = feed.refresh();
    assert.equal(summary.gaps, 1);
    assert.deepEqual([feed.session.openNow!(), feed.openStateOf(0)], [[], undefined]);
  });

  it('starts a new window when one is full: bounded memory, counts since attach, line numbers go on', () => {
    const feed = new LiveFeed('/tmp/none.jsonl', resolveOptions({ preset: 'cme', gapTimeout: '1ms' }), { windowArrivals: 10 });
    const windows: number[] = [];
    feed.onRollover = (s) => windows.push(s.arrivalCount);
    const first = feed.session;
    for (let i = 0; i < 25; i++) feed.push(receivedMessage({ t: i * 10, channel: i % 2 ? '312' : '310', seq: i }) as unknown as ReceivedMessage, i * 100, 100);
    const s = feed.finish();
    assert.equal(s.received, 25, 'the sequencer counts everything since attach');
    assert.equal(feed.arrivals, 25);
    assert.equal(feed.rollovers, 2);
    assert.deepEqual(windows, [0, 0], 'each new window is announced empty, before its first arrival');
    assert.notEqual(feed.session, first);
    assert.equal(feed.session.arrivalCount, 5, 'the current window holds only the latest arrivals');
    assert.equal(feed.session.log.line.get(0), 21, 'line numbers in the recording go on');
    assert.equal(feed.session.log.offset.get(0), 2000);
    assert.deepEqual(feed.session.keyNames, ['310', '312'], "key indexes stay the sequencer's");
    assert.equal(feed.session.summary.firstTime, feed.session.log.time.get(0), "the window's timeline starts at its first arrival");
    assert.ok(feed.session.store.count < 25, `the window holds ${feed.session.store.count} events, not the whole stream's`);
  });
});
