import assert from 'node:assert/strict';
import { PageCache, PageKey, pageKeyString } from '../../../src/webview/pageCache';

const key = (o: Partial<PageKey> = {}): PageKey => ({ generation: 1, level: 10, t0: 0, t1: 3000, buckets: 100, lanes: [0, 1, 2], ...o });

describe('webview PageCache (LRU of pages, fresh vs stand-in)', () => {
  it('finds a fresh page covering the view at its level and generation', () => {
    const c = new PageCache<string>();
    c.put(key(), 'A');
    assert.equal(c.fresh({ t0: 500, t1: 2500 }, 10, 1, [0, 2]), 'A');
    assert.equal(c.fresh({ t0: 500, t1: 3500 }, 10, 1, [0]), undefined, 'not covering');
    assert.equal(c.fresh({ t0: 500, t1: 2500 }, 10.5, 1, [0]), undefined, 'other level');
    assert.equal(c.fresh({ t0: 500, t1: 2500 }, 10, 2, [0]), undefined, 'other generation');
    assert.equal(c.fresh({ t0: 500, t1: 2500 }, 10, 1, [3]), undefined, 'lane not in it');
  });

  it('evicts the least recently used page', () => {
    const c = new PageCache<string>(2);
    c.put(key({ t0: 0 }), 'A');
    c.put(key({ t0: 1 }), 'B');
    c.fresh({ t0: 500, t1: 2500 }, 10, 1, [0]); // touches A (first match)
    c.put(key({ t0: 2 }), 'C');
    assert.equal(c.size, 2);
    assert.ok(c.has(key({ t0: 0 })), 'A was used recently');
    assert.ok(!c.has(key({ t0: 1 })), 'B was evicted');
  });

  it('offers the best stand-in while the fresh page is on its way', () => {
    const c = new PageCache<string>();
    c.put(key({ generation: 1, level: 10 }), 'old generation, same level');
    c.put(key({ generation: 2, level: 12, t0: -10_000, t1: 10_000 }), 'current generation, coarser');
    c.put(key({ generation: 2, level: 10, t0: 2000, t1: 5000 }), 'current generation, partial');
    const best = c.bestFor(0, { t0: 500, t1: 2500 }, 10, 2);
    assert.equal(best?.page, 'current generation, coarser');
    assert.equal(best?.fresh, false);
    c.put(key({ generation: 2, level: 10 }), 'fresh');
    assert.deepEqual(c.bestFor(1, { t0: 500, t1: 2500 }, 10, 2), { page: 'fresh', fresh: true });
    assert.equal(c.bestFor(7, { t0: 500, t1: 2500 }, 10, 2), undefined, 'no page holds lane 7');
    assert.equal(c.bestFor(0, { t0: 50_000, t1: 60_000 }, 10, 2), undefined, 'nothing overlaps');
  });

  it('drops stale generations but keeps a few to draw from', () => {
    const c = new PageCache<string>();
    for (let i = 0; i < 5; i++) c.put(key({ generation: 1, t0: i }), `g1-${i}`);
    c.put(key({ generation: 2 }), 'g2');
    c.dropBefore(2, 2);
    assert.equal(c.size, 3);
    assert.ok(c.has(key({ generation: 1, t0: 4 })) && c.has(key({ generation: 1, t0: 3 })));
    assert.ok(c.has(key({ generation: 2 })));
  });

  it('keys pages by everything that makes them differ', () => {
    assert.notEqual(pageKeyString(key()), pageKeyString(key({ lanes: [0, 1] })));
    assert.notEqual(pageKeyString(key()), pageKeyString(key({ buckets: 101 })));
    assert.equal(pageKeyString(key()), pageKeyString(key()));
  });
});
