import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { CaptureError } from '../../../../src/core/capture/captureReader';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { IntColumn } from '../../../../src/timeline/columns';
import { loadSessionInWorker, summarizeInWorker, WorkerLoadOptions } from '../../../../src/timeline/node/loadInWorker';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { TimelineService } from '../../../../src/timeline/timelineService';
import { CaptureSession } from '../../../../src/timeline/captureSession';
import { IDLE_REPLAY } from '../../../../src/shared/protocol';
import { answerFromPreview } from '../../../../src/shared/timelineChannel';
import { LANE_HEIGHT } from '../../../../src/webview/layout';
import { laneBlock, pageWindow } from '../../../../src/shared/paging';
import { Viewport } from '../../../../src/webview/viewport';
import { unpackLanes } from '../../../../src/shared/laneWire';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { loadComparison } from '../../../../src/timeline/node/loadComparison';
import { packSession, unpackSession } from '../../../../src/timeline/sessionTransfer';
import { generateCapture } from '../../../../scripts/lib/captureGenerator';
import { writeKeyPerMessageCapture } from '../../../support/captureLines';
import { ReplayCursor } from '../../../../src/timeline/replayCursor';
import { assertSameSession } from '../../../support/sameSession';

const SAMPLE = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const INVALID = join(__dirname, '..', '..', '..', 'fixtures', 'captures', 'with-invalid.jsonl');
const CME = resolveOptions({ preset: 'cme' });
// The worker entry, bundled by the product's own esbuild target for dist/loadWorker.js (a worker
// thread does not inherit mocha's TypeScript loader).
const WORKER = join(mkdtempSync(join(tmpdir(), 'seqscope-worker-bundle-')), 'loadWorker.js');
const viaWorker = (paths: string[], opts = CME, extra: WorkerLoadOptions = {}) => loadSessionInWorker(WORKER, paths, opts, extra);

describe('Loading a session on a worker thread', function () {
  this.timeout(60_000);

  before(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { targets } = require('../../../../esbuild.js') as { targets: { outfile: string }[] };
    const target = targets.find((t) => t.outfile === 'dist/loadWorker.js');
    assert.ok(target, 'esbuild.js builds dist/loadWorker.js');
    buildSync({ ...target, outfile: WORKER, bundle: true, logLevel: 'silent', absWorkingDir: join(__dirname, '..', '..', '..', '..') });
  });

  it('packs a session into trimmed arrays and unpacks the same session', async () => {
    const { session } = await loadSession([SAMPLE, INVALID], CME);
    const count = session.store.count;
    const { packed, transfer } = packSession(session);
    assert.ok(transfer.length > 20, 'every column travels in the transfer list');
    assert.equal(new Set(transfer).size, transfer.length, 'each buffer once');
    assert.equal(packed.events.kind.length, count, 'each column as long as its values, whatever its capacity');
    const copy = unpackSession(structuredClone(packed, { transfer }));
    assert.ok(
      transfer.every((b) => b.byteLength === 0),
      'every buffer moved (detached on the sending side)',
    );
    const fresh = (await loadSession([SAMPLE, INVALID], CME)).session;
    assertSameSession(fresh, copy);
    assert.equal(copy.event(10).messageId, fresh.event(10).messageId);
  });

  it('moves as many buffers for 5 000 keys as for 3: per-key lists go concatenated, and come back the same', async () => {
    // Transfer time grows with the square of the buffers in a message: one buffer per key and
    // list made a 100 000-key capture take three minutes to reach the extension host.
    const file = join(mkdtempSync(join(tmpdir(), 'seqscope-worker-keys-')), 'many-keys.jsonl');
    // Duplicates and a lost number in some keys: each kind of list has something to carry.
    const losses = [0, 7, 4000].map((k) => ({ key: String(310 + k), from: 3, to: 3 }));
    writeFileSync(file, generateCapture({ seed: 3, keys: 5_000, messagesPerKey: 6, redeliveryFraction: 0.02, losses }).lines.join('\n') + '\n');
    const { session } = await loadSession([file], CME);
    assert.equal(session.keyNames.length, 5_000);
    const small = packSession((await loadSession([SAMPLE], CME)).session).transfer.length;
    const { packed, transfer } = packSession(session);
    assert.equal(transfer.length, small, 'the same buffers whatever the number of keys');
    const copy = unpackSession(structuredClone(packed, { transfer }));
    assertSameSession((await loadSession([file], CME)).session, copy);
    assert.equal(copy.summary.gaps, 3, 'three keys have a gap to carry');
    assert.ok(copy.summary.duplicates > 0, 'and some duplicates');
    // A key's list is a view of the shared buffer: appending copies it out, never over the next key's.
    const [k0, k1] = [copy.store.keys[0].all, copy.store.keys[1].all];
    const next = k1.toArray();
    k0.push(-7);
    assert.equal(k0.get(k0.length - 1), -7);
    assert.deepEqual(k1.toArray(), next);
  });

  it('moves a mostly full column without a copy, and trims one that is mostly slack', () => {
    const full = new IntColumn(4);
    [1, 2, 3].forEach((v) => full.push(v));
    assert.equal(full.toMovable().buffer, full.data.buffer, '3 of 4: a view of the column’s own buffer');
    const sparse = new IntColumn(4);
    [1, 2].forEach((v) => sparse.push(v));
    const moved = sparse.toMovable();
    assert.notEqual(moved.buffer, sparse.data.buffer, '2 of 4: a copy');
    assert.deepEqual([...moved], [1, 2]);
    assert.equal(moved.buffer.byteLength, 8, 'right-sized');
  });

  it('starts a column of capacity 0 on a shared empty array that no push or move writes to', () => {
    const [a, b] = [new IntColumn(0), new IntColumn(0)];
    assert.equal(a.data, b.data, 'one empty array for both, no allocation');
    const moved = a.toMovable();
    assert.notEqual(moved.buffer, a.data.buffer, 'moving an empty column never hands over the shared array');
    structuredClone(moved, { transfer: [moved.buffer as ArrayBuffer] });
    a.push(5);
    assert.deepEqual(a.toArray(), Int32Array.of(5));
    assert.equal(b.data.length, 0, 'the other column is still empty');
    assert.equal(new IntColumn(0).data.byteLength, 0, 'and so is the shared array (not detached, not grown)');
    assert.equal(new IntColumn(0).data.buffer.byteLength, 0);
  });

  it('gives the same session as a load on the calling thread, with progress', async () => {
    const inThread = (await loadSession([SAMPLE], CME)).session;
    const progress: number[] = [];
    const r = await viaWorker([SAMPLE], CME, { onProgress: (read, total) => progress.push(read / total) });
    assert.equal(r.cancelled, false);
    assertSameSession(inThread, r.session);
    assert.ok(progress.length > 0 && progress[progress.length - 1] === 1, `progress reported up to the whole file (${progress})`);
  });

  it('loads a comparison as a calling-thread loadComparison does, its facts with it', async () => {
    const labels = ['a', 'b'] as const;
    const here = await loadComparison({ a: [SAMPLE], b: [SAMPLE], labels }, CME);
    const r = await viaWorker([SAMPLE, SAMPLE], CME, { compare: { firstB: 1, labels } });
    assertSameSession(here.session, r.session);
    assert.deepEqual(r.comparison, here.comparison);
    assert.equal(r.comparison!.comparison.totals.onlyA + r.comparison!.comparison.totals.onlyB, 0);
    assert.equal(r.session.keyNames.length, 3 * here.comparison.comparison.byKey.length);
  });

  it('answers step-through replay from the moved columns exactly as from the originals', async () => {
    const inThread = (await loadSession([SAMPLE], CME)).session;
    const moved = (await viaWorker([SAMPLE])).session;
    const a = new ReplayCursor(inThread, CME);
    const b = new ReplayCursor(moved, CME);
    for (const p of [1, 500, 2500, inThread.arrivalCount + 1]) assert.deepEqual(b.stateAt(p), a.stateAt(p), `position ${p}`);
  });

  it('keeps a pushed session growable (columns adopted from a transfer can still be appended to)', async () => {
    const moved = (await viaWorker([SAMPLE])).session;
    const n = moved.log.count;
    moved.log.add(0, 1, 0, 1, 1, 0, 1, 'extra-id');
    assert.equal(moved.log.count, n + 1);
    assert.equal(moved.log.messageId.get(n), 'extra-id');
    assert.equal(moved.log.messageId.get(n - 1), (await loadSession([SAMPLE], CME)).session.log.messageId.get(n - 1));
  });

  it('rejects with the same CaptureError (file, line) a calling-thread load gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-worker-'));
    const bad = join(dir, 'notes.txt');
    writeFileSync(bad, 'these are not messages\n');
    const here = await loadSession([bad], CME).then(
      () => undefined,
      (e: unknown) => e,
    );
    const there = await viaWorker([bad]).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(here instanceof CaptureError, `in-thread load throws a CaptureError (got ${String(here)})`);
    assert.ok(there instanceof CaptureError, `worker load throws a CaptureError too (got ${String(there)})`);
    assert.equal(there.message, here.message);
    assert.equal(there.path, here.path);
    assert.equal(there.line, here.line);
    const missing = await viaWorker([join(dir, 'nope.jsonl')]).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(missing instanceof Error && /nope\.jsonl/.test(missing.message), `a missing file is named (${String(missing)})`);
  });

  it('stops when aborted and keeps what was read, marked cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    const r = await viaWorker([SAMPLE], CME, { signal: abort.signal });
    assert.equal(r.cancelled, true);
    assert.ok(r.session.arrivalCount < (await loadSession([SAMPLE], CME)).session.arrivalCount, 'a partial session');
  });

  it('summarises alone, keeping no session: the summary a replay of the same captures makes', async () => {
    const r = await summarizeInWorker(WORKER, [SAMPLE, INVALID], CME);
    const cli = await runReplay({ paths: [SAMPLE, INVALID], options: CME });
    assert.equal(r.cancelled, false);
    assert.ok(r.summary.received > 0 && r.summary.invalid > 0);
    assert.deepEqual(r.summary, cli.summary);
    const abort = new AbortController();
    abort.abort();
    const cut = await summarizeInWorker(WORKER, [SAMPLE], CME, { signal: abort.signal });
    assert.equal(cut.cancelled, true);
    const missing = await summarizeInWorker(WORKER, [join(tmpdir(), 'nope.jsonl')], CME).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(missing instanceof Error && /nope\.jsonl/.test(missing.message), `a missing file is named (${String(missing)})`);
  });

  it('stops when its heap fills with keys, keeping what was read and saying where (not losing the worker)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-worker-heap-'));
    try {
      const orders = join(dir, 'orders.jsonl');
      writeKeyPerMessageCapture(orders, 200_000);
      const r = await viaWorker([orders], resolveOptions({}), { resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 } });
      assert.ok(r.heapStop, 'stopped by the heap guard');
      assert.equal(r.cancelled, true);
      assert.equal(r.heapStop.path, orders);
      const read = r.session.arrivalCount;
      assert.ok(read > 0 && read < 200_000, `${read} arrivals kept`);
      assert.equal(r.heapStop.line, read, 'one arrival per line, up to the last line read');
      assert.equal(r.session.summary.keys, read);
      assert.ok(r.heapStop.heap.used < r.heapStop.heap.limit && r.heapStop.heap.limit < 100 * 2 ** 20, "the worker's own small heap");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the first page a panel asks for from the first view, on screens up to 2 300 px tall and with many keys', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'seqscope-first-view-')), 'keys.jsonl');
    writeFileSync(file, generateCapture({ seed: 5, keys: 100, messagesPerKey: 4 }).lines.join('\n') + '\n');
    const { session } = await loadSession([file], CME);
    const view = new TimelineService(session, { id: 's1', title: 't', options: 'o' }).firstView(IDLE_REPLAY);
    const init = view.init.session;
    // As the webview asks (timelineApp.neededKey): the fit-all window, the blocks of the lanes in view.
    for (const plotHeight of [300, 576, 620, 1080, 2300]) {
      const inView = Math.ceil(plotHeight / LANE_HEIGHT);
      const win = pageWindow(new Viewport(init.start, init.end, 1200), 1200);
      const lanes = laneBlock(
        unpackLanes(init.lanes).map((l) => l.key),
        0,
        inView,
      );
      const answer = answerFromPreview(view, { type: 'requestPage', requestId: 1, t0: win.t0, t1: win.t1, buckets: win.buckets, lanes });
      assert.ok(answer?.reply?.type === 'page', `${plotHeight} px (${inView} lanes): answered from the first view`);
      assert.deepEqual(
        answer.reply.page.lanes.map((l) => l.key),
        lanes,
      );
    }
  });

  it('sends the session in chunks while it loads: the caller sees it grow, then the very session a load in one piece makes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'seqscope-chunked-worker-')), 'keys.jsonl');
    writeFileSync(file, generateCapture({ seed: 9, keys: 30, messagesPerKey: 500, reorderFraction: 0.05, reorderWindow: 4 }).lines.join('\n') + '\n');
    const seen: { session: CaptureSession; arrivals: number; received: number }[] = [];
    const r = await viaWorker([file, INVALID], CME, {
      threads: 1,
      chunks: {
        pace: { firstMs: Infinity, everyMs: Infinity, growth: 0, everyArrivals: 1 },
        onChunk: (session) => seen.push({ session, arrivals: session.arrivalCount, received: session.summary.received }),
      },
    });
    assert.ok(seen.length >= 2, `${seen.length} partial states`);
    assert.ok(
      seen.every((p) => p.session === r.session),
      'one session, growing',
    );
    assert.ok(seen[0].arrivals > 0 && seen[0].received > 0 && seen[0].arrivals < r.session.arrivalCount, 'the first partial state holds some of it');
    assertSameSession((await loadSession([file, INVALID], CME)).session, r.session);
  });
});
