import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareNames, isKeyOrder, KEY_ORDERS, naturalSortKey, orderKeys } from '../../../../src/core/trace/keyOrder';

/** A reference natural order, written the slow obvious way: split into digit and other runs, numbers as BigInt. */
function referenceCompare(a: string, b: string): number {
  const runs = (s: string) => s.match(/\d+|\D/g) ?? [];
  const ra = runs(a);
  const rb = runs(b);
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const x = ra[i];
    const y = rb[i];
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const vx = BigInt(x);
      const vy = BigInt(y);
      if (vx !== vy) return vx < vy ? -1 : 1;
    } else if (x !== y) {
      // A run of digits against another character: its first digit decides, as code units.
      return x.charCodeAt(0) - y.charCodeAt(0);
    }
  }
  if (ra.length !== rb.length) return ra.length - rb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const sign = (n: number) => Math.sign(n);
/** Names made of the characters that matter here: letters, separators and digits, zeros among them. */
const name = fc.string({ unit: fc.constantFrom('a', 'B', '-', '.', '0', '0', '1', '7', '9'), maxLength: 12 });

describe('key order', () => {
  it('compares names naturally: numbers by value, of any length, then as text', () => {
    const sorted = [
      'acct-2',
      'acct-10',
      'acct-9',
      'acct-07',
      'acct-7',
      'acct',
      'acct-100000000000000000000',
      'acct-99999999999999999999',
      'Acct-1',
      'acct-1b',
      'acct-1a',
    ].sort(compareNames);
    assert.deepEqual(sorted, [
      'Acct-1',
      'acct',
      'acct-1a',
      'acct-1b',
      'acct-2',
      'acct-07',
      'acct-7',
      'acct-9',
      'acct-10',
      'acct-99999999999999999999',
      'acct-100000000000000000000',
    ]);
    assert.equal(compareNames('310', '310'), 0);
    assert.ok(compareNames('', 'a') < 0);
    assert.ok(compareNames('key-007', 'key-7') < 0 && compareNames('key-7', 'key-007') > 0, 'equal values written differently do not tie');
  });

  it('is a total order that agrees with the reference (property)', () => {
    fc.assert(
      fc.property(name, name, name, (a, b, c) => {
        assert.equal(sign(compareNames(a, b)), sign(referenceCompare(a, b)), `${a} vs ${b}`);
        assert.ok(sign(compareNames(a, b)) === -sign(compareNames(b, a)), 'antisymmetric');
        assert.equal(compareNames(a, b) === 0, a === b, 'only equal names tie');
        if (compareNames(a, b) <= 0 && compareNames(b, c) <= 0) assert.ok(compareNames(a, c) <= 0, `transitive: ${a} ≤ ${b} ≤ ${c}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('sorts by keys made once per name in the same order as compareNames (property)', () => {
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    fc.assert(
      fc.property(name, name, (a, b) => {
        const byKey = text(naturalSortKey(a), naturalSortKey(b)) || text(a, b);
        assert.equal(sign(byKey), sign(compareNames(a, b)), `${a} vs ${b}`);
      }),
      { numRuns: 5000 },
    );
    assert.equal(naturalSortKey('no digits'), 'no digits', 'a name without digits is its own key');
  });

  const keys = [
    { name: 'k-10', lost: 0, late: 0, duplicates: 3 },
    { name: 'k-2', lost: 5, late: 0, duplicates: 0 },
    { name: 'k-1', lost: 0, late: 0, duplicates: 0 },
    { name: 'k-30', lost: 5, late: 1, duplicates: 0 },
    { name: 'k-3', lost: 0, late: 2, duplicates: 0 },
    { name: 'k-20', lost: 0, late: 0, duplicates: 0 },
  ];
  const names = (order: (typeof KEY_ORDERS)[number]) => orderKeys(keys, order, (k) => k.name).map((i) => keys[i].name);

  it('orders by first appearance, by name, or by findings (lost, late, duplicates; ties as they appeared)', () => {
    assert.deepEqual(names('arrival'), ['k-10', 'k-2', 'k-1', 'k-30', 'k-3', 'k-20']);
    assert.deepEqual(names('name'), ['k-1', 'k-2', 'k-3', 'k-10', 'k-20', 'k-30']);
    assert.deepEqual(names('findings'), ['k-30', 'k-2', 'k-3', 'k-10', 'k-1', 'k-20']);
    assert.deepEqual(
      orderKeys([], 'findings', (k: (typeof keys)[number]) => k.name),
      [],
    );
  });

  it('gives every index once, whatever the keys (property)', () => {
    const key = fc.record({ name, lost: fc.nat(3), late: fc.nat(3), duplicates: fc.nat(3) });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 40 }), fc.constantFrom(...KEY_ORDERS), (ks, order) => {
        const idx = orderKeys(ks, order, (k) => k.name);
        assert.deepEqual(
          [...idx].sort((a, b) => a - b),
          ks.map((_, i) => i),
        );
        for (let i = 1; i < idx.length; i++) {
          const [p, q] = [ks[idx[i - 1]], ks[idx[i]]];
          if (order === 'findings')
            assert.ok(p.lost > q.lost || (p.lost === q.lost && (p.late > q.late || (p.late === q.late && p.duplicates >= q.duplicates))));
          if (order === 'name') assert.ok(compareNames(p.name, q.name) <= 0);
        }
      }),
    );
  });

  it('knows its orders', () => {
    assert.ok(KEY_ORDERS.every(isKeyOrder));
    assert.equal(isKeyOrder('size'), false);
    assert.equal(isKeyOrder(undefined), false);
  });
});
