import assert from 'node:assert/strict';
import { join } from 'node:path';
import { packSnapshot } from '../../../src/timeline/node/standaloneHtml';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { restoreSession, snapshotSession } from '../../../src/timeline/sessionSnapshot';
import { restoreSessionSliced } from '../../../src/webview/sessionRestore';
import { shuffle, unpackSnapshot, unshuffle } from '../../../src/shared/snapshotPacking';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const XSS = join(__dirname, '..', '..', 'fixtures', 'xss.jsonl');
const nodeB64 = { encode: (b: Uint8Array) => Buffer.from(b).toString('base64'), decode: (t: string) => new Uint8Array(Buffer.from(t, 'base64')) };

describe('webview snapshot packing (standalone export)', function () {
  this.timeout(30_000);

  it('shuffles byte planes and back', () => {
    const bytes = new Uint8Array(64).map((_, i) => i * 7);
    for (const w of [1, 4, 8]) assert.deepEqual(unshuffle(shuffle(bytes, w), w), bytes);
    assert.deepEqual([...shuffle(new Uint8Array([1, 2, 3, 4, 5, 6]), 2)], [1, 3, 5, 2, 4, 6]);
  });

  for (const [name, file] of [
    ['the CME sample (decimal messageIds)', SAMPLE],
    ['the XSS fixture (other messageIds, an invalid record)', XSS],
  ]) {
    it(`round-trips ${name} to the same session, much smaller`, async () => {
      const { session } = await loadSession([file], resolveOptions({ preset: 'cme' }));
      const snap = snapshotSession(session, nodeB64, {});
      const packed = await packSnapshot(snap);
      assert.equal(packed.packedMessageIds.encoding, file === SAMPLE ? 'decimal' : 'json');
      if (file === SAMPLE) assert.ok(JSON.stringify(packed).length < JSON.stringify(snap).length / 4, 'at least 4× smaller');
      const { snapshot, base64 } = await unpackSnapshot(JSON.parse(JSON.stringify(packed)), nodeB64);
      assert.deepEqual(snapshot.messageIds, snap.messageIds);
      const a = restoreSession(snap, nodeB64);
      // The page restores in slices: it must build the very same session.
      let yields = 0;
      const b = await restoreSessionSliced(snapshot, base64, async () => void yields++);
      assert.equal(b.store.count, a.store.count);
      for (let id = 0; id < a.store.count; id++) assert.deepEqual(b.event(id), a.event(id));
      assert.deepEqual(b.keyNames, a.keyNames);
      for (const col of ['file', 'line', 'time', 'key', 'seq'] as const) assert.deepEqual([...b.log[col].toArray()], [...a.log[col].toArray()], col);
      assert.deepEqual(b.log.messageId.toArray(), a.log.messageId.toArray());
      assert.deepEqual(b.summary, a.summary);
      for (let k = 0; k < a.store.keys.length; k++) {
        for (const g of ['all', 'gap', 'duplicate', 'late'] as const) assert.deepEqual([...b.store.keys[k][g].toArray()], [...a.store.keys[k][g].toArray()]);
        assert.equal(b.store.keys[k].maxSpan, a.store.keys[k].maxSpan);
      }
      assert.deepEqual([...b.store.problems], [...a.store.problems]);
      if (file === SAMPLE) assert.equal(yields, 0, 'fewer rows than a slice');
    });
  }
});
