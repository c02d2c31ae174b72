import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyPatch, diffPatch } from '../../../src/shared/tailPatch';

/** As it crosses: through JSON. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('tail patches (what changed between two states, shared/tailPatch.ts)', () => {
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ maxDepth: 3 }, tie('scalar'), tie('list'), tie('object')),
    scalar: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null)),
    list: fc.oneof(fc.array(tie('scalar'), { maxLength: 8 }), fc.array(tie('any'), { maxLength: 4 })),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'lanes', 'v', 'o'), tie('any'), { maxKeys: 4 }),
  }));

  it('turns the first value into the second, whatever both are, through JSON', () => {
    fc.assert(
      fc.property(value.any, value.any, (a, b) => {
        const [x, y] = [wire(a), wire(b)];
        const p = diffPatch(x, y);
        if (!p) assert.deepEqual(x, y);
        else assert.deepEqual(applyPatch(wire(x), wire(p)), y);
      }),
      { numRuns: 2000 },
    );
  });

  it('turns a state into its grown self (lists appended to, a value changed, a property gone), leaving the first as it was', () => {
    const grown = fc.record({ base: fc.array(fc.integer(), { maxLength: 50 }), tail: fc.array(fc.integer(), { maxLength: 10 }), cut: fc.nat(5) });
    fc.assert(
      fc.property(grown, grown, fc.boolean(), (p, q, drop) => {
        const a = { marks: { id: p.base, t0: q.base }, lanes: [{ key: 1, n: p.cut }, { key: 2 }], page: { gone: 1 } };
        const b = {
          marks: { id: [...p.base.slice(0, p.base.length - p.cut), ...p.tail], t0: [...q.base, ...q.tail] },
          lanes: [{ key: 1, n: p.cut + 1 }, { key: 2 }, { key: 3 }],
          ...(drop ? {} : { page: { gone: 1 } }),
        };
        const before = wire(a);
        const patch = diffPatch(a, b);
        assert.ok(patch);
        assert.deepEqual(applyPatch(a, wire(patch)), b);
        assert.deepEqual(a, before, 'the first left as it was');
      }),
    );
  });

  it('carries a grown list as its kept length and the new tail only', () => {
    const a = {
      id: [1, 2, 3, 4],
      lanes: [
        { key: 0, d: [5, 5] },
        { key: 1, d: [7] },
      ],
    };
    const b = {
      id: [1, 2, 3, 4, 5, 6],
      lanes: [
        { key: 0, d: [5, 5] },
        { key: 1, d: [7, 8] },
      ],
    };
    assert.deepEqual(diffPatch(a, b), { o: { id: { a: 4, t: [5, 6] }, lanes: { e: [[1, { o: { d: { a: 1, t: [8] } } }]], n: 2 } } });
    assert.equal(diffPatch(b, wire(b)), undefined, 'the same: no patch');
    assert.deepEqual(diffPatch({ x: 1, y: undefined }, { x: 1 }), undefined, 'an undefined property is no property');
  });

  it('refuses a patch made for another value (a programming error, not a silent wrong state)', () => {
    assert.throws(() => applyPatch([1], { a: 3, t: [] }), /keeps 3 values of a list of 1/);
    assert.throws(() => applyPatch(5, { o: {} }), /not one/);
  });
});
