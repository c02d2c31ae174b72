import assert from 'node:assert/strict';

/** What `fn` throws; the test fails when it returns instead. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
}
