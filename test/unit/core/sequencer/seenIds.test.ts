import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdMemory } from '../../../../src/core/sequencer/seenIds';

class Key {}

/** Deliveries remembered, counted through `has` (each remembered once): what memory holds. */
function countRemembered(memory: IdMemory<Key>, keys: Key[], ids: string[]): number {
  return keys.reduce<number>((a, k) => a + ids.filter((id) => memory.has(k, id)).length, 0);
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
        const allIds = Array.from({ length: 6 }, (_, n) => `m${n}`);
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
          // Memory stays within the bound, over all keys; the same id under several keys counts for each.
          assert.equal(countRemembered(memory, keys, allIds), Math.min(total, log.length));
          assert.equal(memory.size, Math.min(total, log.length));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('copies independently of the original, naming the copies of the keys (as Sequencer.clone makes)', () => {
    const a = new Key();
    const b = new Key();
    const memory = new IdMemory<Key>(3);
    for (const id of ['x', 'y', 'z']) memory.remember(a, id);
    memory.remember(b, 'z'); // the same id under two keys; forgets a's 'x'
    const a2 = new Key();
    const b2 = new Key();
    const copy = memory.clone((k) => (k === a ? a2 : b2));
    assert.deepEqual([copy.has(a2, 'z'), copy.has(b2, 'z'), copy.has(a, 'z')], [true, true, false], 'the copy names the copies');
    copy.remember(a2, 'w'); // forgets a2's 'y'
    assert.deepEqual(
      ['x', 'y', 'z', 'w'].map((id) => copy.has(a2, id)),
      [false, false, true, true],
      'the copy forgot its oldest',
    );
    assert.deepEqual(
      ['x', 'y', 'z', 'w'].map((id) => memory.has(a, id)),
      [false, true, true, false],
      'the original is untouched',
    );
    assert.equal(memory.has(b, 'z'), true);
  });

  it("forgets one key's delivery of an id that other keys delivered too, and no other", () => {
    const keys = [new Key(), new Key(), new Key()];
    const memory = new IdMemory<Key>(3);
    for (const k of keys) memory.remember(k, 'same');
    memory.remember(keys[1], 'other'); // forgets keys[0]'s 'same'
    assert.deepEqual(
      keys.map((k) => memory.has(k, 'same')),
      [false, true, true],
    );
    memory.remember(keys[0], 'same'); // forgets keys[1]'s
    assert.deepEqual(
      keys.map((k) => memory.has(k, 'same')),
      [true, false, true],
    );
    memory.remember(keys[2], 'third'); // forgets keys[2]'s
    memory.remember(keys[2], 'fourth'); // forgets keys[1]'s 'other'
    assert.deepEqual(
      keys.map((k) => memory.has(k, 'same')),
      [true, false, false],
    );
    assert.equal(memory.has(keys[1], 'other'), false);
  });

  it('keeps memory bounded when keys are many, whatever the number of deliveries', () => {
    const memory = new IdMemory<Key>(1000);
    const keys = Array.from({ length: 5000 }, () => new Key());
    for (let i = 0; i < 50_000; i++) memory.remember(keys[i % keys.length], `id-${i}`);
    assert.equal(memory.size, 1000);
    assert.equal(countRemembered(memory, keys, ['id-49000', 'id-48999']), 1, 'the 1000th latest is remembered, the one before it is not');
    assert.equal(memory.has(keys[0], 'id-45000'), false);
    assert.equal(memory.has(keys[4999], 'id-49999'), true);
  });

  it('rejects a bound below 1', () => {
    assert.throws(() => new IdMemory(0), RangeError);
  });
});
