/** Two sessions compared column by column (loads that must give the same session). */
import assert from 'node:assert/strict';
import { CaptureSession } from '../../src/timeline/captureSession';

/** Every column and index of two sessions, compared value by value. */
export function assertSameSession(a: CaptureSession, b: CaptureSession): void {
  assert.deepEqual(b.summary, a.summary);
  assert.deepEqual(b.keyNames, a.keyNames);
  assert.deepEqual([...b.paths], [...a.paths]);
  assert.equal(b.store.count, a.store.count);
  assert.equal(b.arrivalCount, a.arrivalCount);
  for (const c of ['kind', 'key', 'seq', 'seqTo', 'extra', 't0', 't1', 'flags', 'arrival', 'cause'] as const) {
    assert.deepEqual(b.store[c].toArray(), a.store[c].toArray(), `event column ${c}`);
  }
  for (const c of ['file', 'line', 'offset', 'length', 'time', 'key', 'seq'] as const) {
    assert.deepEqual(b.log[c].toArray(), a.log[c].toArray(), `arrival column ${c}`);
  }
  assert.deepEqual(b.log.messageId.toArray(), a.log.messageId.toArray());
  assert.equal(b.store.keys.length, a.store.keys.length);
  a.store.keys.forEach((ke, i) => {
    for (const l of ['all', 'gap', 'duplicate', 'late', 'releases', 'long'] as const)
      assert.deepEqual(b.store.keys[i][l].toArray(), ke[l].toArray(), `key ${i} ${l}`);
    assert.equal(b.store.keys[i].maxSpan, ke.maxSpan);
  });
  assert.deepEqual(b.store.invalid.toArray(), a.store.invalid.toArray());
  assert.deepEqual([...b.store.problems], [...a.store.problems]);
}
