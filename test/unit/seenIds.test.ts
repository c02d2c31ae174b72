import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HasSeenIds, IdMemory } from '../../src/core/seenIds';

class Key implements HasSeenIds {
  seen: Set<string> | undefined;
}

describe('IdMemory (the messageIds of keys without sequence numbers)', () => {
  it('remembers an id exactly while its delivery is among the last of all keys', () => {
    // Few ids and keys, so repeats, the bound and ids delivered again after being forgotten come
    // up in nearly every run.
    const op = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 5 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 80 }), (total, ops) => {
        const memory = new IdMemory<Key>(total);
        const keys = [new Key(), new Key(), new Key()];
        // The naive truth: every delivery, with its key and its number over all keys.
        const log: { key: number; id: string; overall: number }[] = [];
        for (const [ki, n] of ops) {
          const id = `m${n}`;
          const last = [...log].reverse().find((d) => d.key === ki && d.id === id);
          const remembered = last !== undefined && last.overall > log.length - total;
          assert.equal(memory.has(keys[ki], id), remembered, `${id} on key ${ki} after ${log.length} deliveries`);
          if (remembered) continue;
          memory.remember(keys[ki], id);
          log.push({ key: ki, id, overall: log.length + 1 });
          // Memory stays within the bound: every key's set together.
          assert.equal(keys.reduce((a, k) => a + (k.seen?.size ?? 0), 0), Math.min(total, log.length));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('copies independently of the original (with copies of the keys’ sets, as Sequencer.clone makes)', () => {
    const a = new Key();
    const memory = new IdMemory<Key>(3);
    for (const id of ['x', 'y', 'z']) memory.remember(a, id);
    const a2 = new Key();
    a2.seen = new Set(a.seen);
    const copy = memory.clone(() => a2);
    copy.remember(a2, 'w');
    assert.deepEqual(['x', 'y', 'z', 'w'].map((id) => copy.has(a2, id)), [false, true, true, true], 'the copy forgot its oldest');
    assert.deepEqual(['x', 'y', 'z', 'w'].map((id) => memory.has(a, id)), [true, true, true, false], 'the original is untouched');
  });

  it('keeps memory bounded when keys are many, whatever the number of deliveries', () => {
    const memory = new IdMemory<Key>(1000);
    const keys = Array.from({ length: 5000 }, () => new Key());
    for (let i = 0; i < 50_000; i++) memory.remember(keys[i % keys.length], `id-${i}`);
    assert.equal(keys.reduce((a, k) => a + (k.seen?.size ?? 0), 0), 1000);
    assert.equal(memory.size, 1000);
    assert.equal(memory.has(keys[0], 'id-45000'), false);
    assert.equal(memory.has(keys[4999], 'id-49999'), true);
  });

  it('rejects a bound below 1', () => {
    assert.throws(() => new IdMemory(0), RangeError);
  });
});
