import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { ChunkPace, ChunkPacer, DEFAULT_CHUNK_PACE } from '../../../../src/timeline/chunkPace';
import { CaptureSession } from '../../../../src/timeline/captureSession';
import { loadSession, loadSessionInChunks } from '../../../../src/timeline/node/loadSession';
import { appendChunk, emptySession, packChunk, trimSession } from '../../../../src/timeline/sessionChunk';
import { generateCapture } from '../../../../scripts/lib/captureGenerator';
import { assertSameSession } from '../../../support/sameSession';

const SAMPLE = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const INVALID = join(__dirname, '..', '..', '..', 'fixtures', 'captures', 'with-invalid.jsonl');
const CME = resolveOptions({ preset: 'cme' });
/** A chunk after every batch the reader hands over. */
const EVERY_BATCH: ChunkPace = { firstMs: Infinity, everyMs: Infinity, growth: 0, everyArrivals: 1 };

/** Loads in chunks, appending each (moved as the worker moves it) to a session; the session after each chunk. */
async function loadChunked(paths: string[], pace = EVERY_BATCH, signal?: AbortSignal, onPartial?: (s: CaptureSession) => void) {
  let session: CaptureSession | undefined;
  const partials: { arrivals: number; events: number; keys: number; received: number; share: number; capacity: number }[] = [];
  const result = await loadSessionInChunks(
    paths,
    CME,
    { signal },
    {
      pace,
      now: () => 0,
      onChunk: (built, summary, names, last, share) => {
        const { chunk, transfer } = packChunk(built, summary, names, share);
        const moved = structuredClone(chunk, { transfer });
        session ??= emptySession(paths, moved.summary);
        appendChunk(session, moved);
        if (last) trimSession(session);
        else {
          partials.push({
            arrivals: session.arrivalCount,
            events: session.store.count,
            keys: session.keyNames.length,
            received: session.summary.received,
            share: moved.share,
            capacity: session.log.time.data.length,
          });
          onPartial?.(session);
        }
      },
    },
  );
  assert.ok(session, 'the last chunk always comes');
  return { ...result, session, partials };
}

describe('Loading a session in chunks', () => {
  /** A capture of several batches, with reorders, redeliveries and a loss. */
  let generated: string;
  before(() => {
    generated = join(mkdtempSync(join(tmpdir(), 'seqscope-chunks-')), 'reordered.jsonl');
    const capture = generateCapture({
      seed: 3,
      keys: 40,
      messagesPerKey: 400,
      reorderFraction: 0.05,
      reorderWindow: 4,
      redeliveryFraction: 0.02,
      losses: [{ key: '312', from: 30, to: 32 }],
    });
    writeFileSync(generated, capture.lines.join('\n') + '\n');
  });

  it('paces chunks by the clock (first soon, then spaced as the load goes on) or by arrivals, whichever comes first', () => {
    let now = 1000;
    const pacer = new ChunkPacer({ firstMs: 100, everyMs: 500, growth: 0.5, everyArrivals: 10_000 }, () => now);
    now += 99;
    assert.equal(pacer.due(50), false, 'not before firstMs');
    now += 1;
    assert.equal(pacer.due(60), true, 'the first at firstMs');
    now += 100;
    assert.equal(pacer.due(70), false, 'then not before everyMs');
    assert.equal(pacer.due(10_060), true, 'unless everyArrivals came since the last');
    now += 499;
    assert.equal(pacer.due(10_100), false);
    now += 1;
    assert.equal(pacer.due(10_100), true, 'everyMs after the last');
    // 700 ms into the load: the next waits max(500, 0.5 × time since the start).
    now += 1300;
    assert.equal(pacer.due(10_200), true, '2 000 ms in');
    // The next when the time since the last is half the time since the start: 4 000 ms in.
    now += 1999;
    assert.equal(pacer.due(10_300), false, 'not before half the time since the start');
    now += 1;
    assert.equal(pacer.due(10_300), true, '4 000 ms in: 2 000 ms after the last');
    now += 10_000;
    assert.equal(pacer.due(10_300), false, 'never a chunk without new arrivals');
  });

  it('builds, chunk by chunk, the very session a load in one piece builds', async () => {
    for (const paths of [[generated, INVALID], [generated]]) {
      const one = (await loadSession(paths, CME)).session;
      const chunked = await loadChunked(paths);
      assert.equal(chunked.cancelled, false);
      assert.ok(chunked.partials.length >= 2, `${chunked.partials.length} partial states of ${paths.join(', ')}`);
      // Each partial state shows more, and less than the whole.
      for (let i = 1; i < chunked.partials.length; i++) assert.ok(chunked.partials[i].arrivals > chunked.partials[i - 1].arrivals);
      assert.ok(chunked.partials[0].arrivals < one.arrivalCount);
      assert.ok(chunked.partials[0].received > 0 && chunked.partials[0].keys > 0, 'a partial state has counts and keys');
      // A column that grows grows to the whole session's size as the share read tells.
      const grown = chunked.partials.filter((p, i) => p.capacity !== (i ? chunked.partials[i - 1].capacity : 4096));
      assert.ok(grown.length > 0);
      for (const { share, capacity, arrivals } of grown) {
        assert.ok(share > 0 && share < 1 && capacity >= (arrivals / share) * 1.04, `room made for the whole (${capacity} for ${arrivals} at ${share})`);
      }
      assertSameSession(one, chunked.session);
      assert.deepEqual([...chunked.session.store.behind], [...one.store.behind], 'reorders: the message each came behind');
      assert.deepEqual([...chunked.session.store.released], [...one.store.released]);
      assert.deepEqual(
        chunked.session.store.keys.map((k) => k.reordered.toArray()),
        one.store.keys.map((k) => k.reordered.toArray()),
      );
    }
  });

  it('at the default pace on a small capture, sends it whole in the last chunk', async () => {
    const one = (await loadSession([SAMPLE], CME)).session;
    const chunked = await loadChunked([SAMPLE], DEFAULT_CHUNK_PACE);
    assert.equal(chunked.partials.length, 0);
    assertSameSession(one, chunked.session);
  });

  it('cancelled after a chunk, keeps a consistent partial session', async () => {
    const abort = new AbortController();
    const chunked = await loadChunked([generated, INVALID], EVERY_BATCH, abort.signal, () => abort.abort());
    assert.equal(chunked.cancelled, true);
    const s = chunked.session;
    assert.ok(s.arrivalCount > 0 && s.arrivalCount < (await loadSession([generated, INVALID], CME)).session.arrivalCount);
    assert.equal(s.summary.received + s.summary.invalid, s.arrivalCount, 'the summary counts what the columns hold');
    assert.equal(s.keyNames.length, s.summary.byKey.length);
  });

  it('refuses a chunk out of order (a programming error)', async () => {
    let chunks = 0;
    const s = emptySession([SAMPLE], (await loadSession([SAMPLE], CME)).session.summary);
    await assert.rejects(
      loadSessionInChunks(
        [generated],
        CME,
        {},
        {
          pace: EVERY_BATCH,
          now: () => 0,
          onChunk: (built, summary, names) => {
            if (chunks++ !== 1) return;
            appendChunk(s, packChunk(built, summary, names, 0.5).chunk);
          },
        },
      ),
      /session chunk out of order/,
    );
  });
});
