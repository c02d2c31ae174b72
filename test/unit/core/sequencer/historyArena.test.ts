import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EMPTY_PAGE, HistoryArena, HistoryRing } from '../../../../src/core/sequencer/historyArena';

/** A ring as the sequencer makes one: its mask the history size − 1 until the budget stops it. */
function ring(size = 1 << 16): HistoryRing {
  return { histPage: EMPTY_PAGE, histOff: 0, histCap: 0, histLen: 0, histMask: size - 1 };
}

/** What a ring holds, slot by slot (0 = unknown), read through the arena. */
function contents(a: HistoryArena, r: HistoryRing, n = r.histLen): number[] {
  return Array.from({ length: n }, (_, i) => a.get(r, i));
}

describe('HistoryArena', () => {
  it('reads 0 for slots never filled, the stored hash for filled ones', () => {
    const a = new HistoryArena(1024);
    const r = ring();
    assert.equal(a.get(r, 0), 0);
    a.set(r, 0, 11);
    a.set(r, 1, -7); // hashes are signed 32-bit
    assert.deepEqual(contents(a, r, 3), [11, -7, 0]);
    a.set(r, 0, 12);
    assert.deepEqual(contents(a, r), [12, -7]);
  });

  it('keeps every slot when a ring grows past its chunk, up to the ring size', () => {
    const a = new HistoryArena(256);
    const r = ring();
    for (let i = 0; i < 256; i++) a.set(r, i, i + 1);
    assert.equal(r.histCap, 256);
    assert.deepEqual(
      contents(a, r),
      Array.from({ length: 256 }, (_, i) => i + 1),
    );
    // Full: slots are rewritten in place (the sequencer wraps its slot index).
    a.set(r, 3, 99);
    assert.equal(r.histCap, 256);
    assert.equal(a.get(r, 3), 99);
  });

  it('never lets two live rings share slots, across growth, freed chunks and new pages', () => {
    const a = new HistoryArena(512);
    const rings = Array.from({ length: 300 }, ring);
    const want: number[][] = rings.map(() => []);
    // Interleaved growth: each ring leaves chunks behind that other rings pick up.
    for (let step = 0; step < 400; step++) {
      rings.forEach((r, k) => {
        if (step % (1 + (k % 5)) !== 0 || want[k].length === 512) return;
        const v = k * 1000 + want[k].length + 1;
        a.set(r, want[k].length, v);
        want[k].push(v);
      });
    }
    rings.forEach((r, k) => assert.deepEqual(contents(a, r), want[k], `ring ${k}`));
  });

  it('copies a ring into another arena, independent of the original', () => {
    const a = new HistoryArena(64);
    const r = ring();
    for (let i = 0; i < 20; i++) a.set(r, i, 100 + i);
    const b = new HistoryArena(64);
    const c = ring();
    b.copy(r, c);
    assert.deepEqual(contents(b, c), contents(a, r));
    b.set(c, 20, 5);
    b.set(c, 0, 6);
    assert.equal(a.get(r, 0), 100);
    assert.equal(r.histLen, 20);
    const empty = ring();
    b.copy(ring(), empty);
    assert.equal(empty.histLen, 0);
    assert.equal(b.get(empty, 0), 0);
  });

  it('keeps all rings within the budget: a full ring then wraps at its size, keeping its latest hashes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1024 }),
        fc.array(fc.integer({ min: 0, max: 11 }), { minLength: 200, maxLength: 3000, size: 'max' }),
        (budget, writes) => {
          const size = 256;
          const a = new HistoryArena(size, budget);
          const rings = Array.from({ length: 12 }, () => ring(size));
          const written: number[][] = rings.map(() => []);
          for (const k of writes) {
            // As the sequencer does: position p goes to slot p & mask, positions in order.
            const r = rings[k];
            const p = written[k].length;
            const v = k * 100_000 + p + 1;
            a.set(r, p & r.histMask, v);
            written[k].push(v);
            // Past the budget only a ring's first chunk (16 slots) is still given.
            assert.ok(a.slots <= budget + 16 * rings.length, `${a.slots} slots in use, budget ${budget}`);
          }
          let inUse = 0;
          rings.forEach((r, k) => {
            const kept = r.histMask + 1;
            assert.ok(kept <= size && r.histCap <= kept, `ring ${k}: cap ${r.histCap}, wraps at ${kept}`);
            const latest = written[k].slice(-kept);
            const got = latest.map((_, i) => a.get(r, (written[k].length - latest.length + i) & r.histMask));
            assert.deepEqual(got, latest, `ring ${k} keeps its latest ${kept}`);
            inUse += r.histCap;
          });
          assert.equal(a.slots, inUse);
        },
      ),
    );
  });

  it('accepts ring sizes below the smallest chunk', () => {
    const a = new HistoryArena(2);
    const r = ring();
    a.set(r, 0, 1);
    a.set(r, 1, 2);
    assert.equal(r.histCap, 2);
    assert.deepEqual(contents(a, r), [1, 2]);
    assert.throws(() => new HistoryArena(3), RangeError);
  });
});
