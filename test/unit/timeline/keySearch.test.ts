import assert from 'node:assert/strict';
import { KeySearch } from '../../../src/timeline/keySearch';

describe('KeySearch', () => {
  const names = Array.from({ length: 100_000 }, (_, i) => `orders-${i}`);
  const search = new KeySearch(names);

  it('with nothing typed, the first page of keys in key order, and whether there are more', () => {
    assert.deepEqual(search.find('', 3), { matches: [0, 1, 2], more: true });
    assert.deepEqual(new KeySearch(['a', 'b']).find('  ', 5), { matches: [0, 1], more: false });
  });

  it('finds the keys containing what is typed, ignoring case and surrounding spaces, in key order', () => {
    const r = search.find(' S-9999', 500);
    assert.deepEqual(
      r.matches.map((i) => names[i]),
      [
        'orders-9999',
        'orders-99990',
        'orders-99991',
        'orders-99992',
        'orders-99993',
        'orders-99994',
        'orders-99995',
        'orders-99996',
        'orders-99997',
        'orders-99998',
        'orders-99999',
      ],
    );
    assert.equal(r.more, false);
  });

  it('lists in the order it is given (the key order), searching as before', () => {
    const shuffled = new KeySearch(['k-3', 'k-1', 'k-20', 'k-2'], [1, 3, 0, 2]);
    assert.deepEqual(shuffled.find('', 10), { matches: [1, 3, 0, 2], more: false });
    assert.deepEqual(shuffled.find('2', 10), { matches: [3, 2], more: false });
    assert.deepEqual(shuffled.find('k', 2), { matches: [1, 3], more: true });
  });

  it('stops at the limit and says there are more; exactly the limit is not "more"', () => {
    const r = search.find('7', 10);
    assert.equal(r.matches.length, 10);
    assert.ok(r.matches.every((i) => names[i].includes('7')));
    assert.equal(r.more, true);
    const eleven = search.find('-9999', 11);
    assert.deepEqual([eleven.matches.length, eleven.more], [11, false]);
  });

  it('finds nothing for a name no key contains; the empty key by what it is shown as, "(no key)"', () => {
    assert.deepEqual(search.find('zzz', 10), { matches: [], more: false });
    assert.deepEqual(new KeySearch(['', 'x']).find('', 10).matches, [0, 1]);
    assert.deepEqual(new KeySearch(['', 'x']).find('x', 10).matches, [1]);
    assert.deepEqual(new KeySearch(['', 'x', 'no keys']).find('No Key', 10).matches, [0, 2]);
    assert.deepEqual(new KeySearch(['', 'x']).find('(no key)', 10).matches, [0]);
  });
});
