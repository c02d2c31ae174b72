import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HasSeenIds, IdMemory, SeenIds } from '../../src/core/seenIds';

class Key implements HasSeenIds {
  seen: SeenIds | undefined = new SeenIds();
}

describe('IdMemory (the messageIds of keys without sequence numbers)', () => {
  it('remembers an id exactly while it is among its key’s last deliveries and the last of all keys', () => {
    // Few ids and keys, so repeats, both bounds and ids delivered again after being forgotten
    // come up in nearly every run.
    const op = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 5 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 80 }), (perKey, total, ops) => {
        const memory = new IdMemory<Key>(perKey, total);
        const keys = [new Key(), new Key(), new Key()];
        // The naive truth: every delivery, with its number on its key and over all keys.
        const log = keys.map(() => [] as { id: string; onKey: number; overall: number }[]);
        let overall = 0;
        for (const [ki, n] of ops) {
          const id = `m${n}`;
          const mine = log[ki];
          const last = [...mine].reverse().find((d) => d.id === id);
          const remembered = last !== undefined && last.onKey > mine.length - perKey && last.overall > overall - total;
          const k = keys[ki];
          const seen = k.seen as SeenIds;
          assert.equal(seen.has(id), remembered, `${id} on key ${ki} after ${overall} deliveries`);
          if (remembered) continue;
          memory.remember(k, seen, id);
          mine.push({ id, onKey: mine.length + 1, overall: ++overall });
          // Memory stays within both bounds.
          assert.ok(seen.size <= perKey);
          assert.ok(keys.reduce((a, x) => a + (x.seen as SeenIds).size, 0) <= total);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('copies a key’s ids and the memory independently of the originals', () => {
    const a = new Key();
    const memory = new IdMemory<Key>(4, 3);
    for (const id of ['x', 'y', 'z']) memory.remember(a, a.seen as SeenIds, id);
    const a2 = new Key();
    a2.seen = (a.seen as SeenIds).copy();
    const copy = memory.clone(() => a2);
    copy.remember(a2, a2.seen, 'w');
    assert.deepEqual(['x', 'y', 'z', 'w'].map((id) => (a2.seen as SeenIds).has(id)), [false, true, true, true], 'the copy forgot its oldest');
    assert.deepEqual(['x', 'y', 'z', 'w'].map((id) => (a.seen as SeenIds).has(id)), [true, true, true, false], 'the original is untouched');
  });

  it('keeps memory bounded over all keys when keys are many, whatever the number of deliveries', () => {
    const memory = new IdMemory<Key>(65_536, 1000);
    const keys = Array.from({ length: 5000 }, () => new Key());
    for (let i = 0; i < 50_000; i++) memory.remember(keys[i % keys.length], keys[i % keys.length].seen as SeenIds, `id-${i}`);
    assert.equal(keys.reduce((a, k) => a + (k.seen as SeenIds).size, 0), 1000);
    assert.ok((keys[0].seen as SeenIds).has('id-45000') === false && (keys[4999].seen as SeenIds).has('id-49999'));
  });

  it('rejects bounds below 1', () => {
    assert.throws(() => new IdMemory(0, 10), RangeError);
    assert.throws(() => new IdMemory(10, 0), RangeError);
  });
});
