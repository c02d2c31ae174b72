import assert from 'node:assert/strict';
import { evalJsonPath, formatJsonPath, parseJsonPath } from '../../../../src/core/util/jsonPath';

describe('jsonPath', () => {
  it('parses dotted names with [n] indexes and formats them back', () => {
    assert.deepEqual(parseJsonPath('payload[0].instrument.symbol'), ['payload', 0, 'instrument', 'symbol']);
    assert.deepEqual(parseJsonPath('header.sentTime'), ['header', 'sentTime']);
    assert.deepEqual(parseJsonPath('rows[2][10]'), ['rows', 2, 10]);
    assert.deepEqual(parseJsonPath('seq'), ['seq']);
    assert.deepEqual(parseJsonPath('$.header.seq'), ['header', 'seq'], 'a JSONPath-style root');
    assert.equal(formatJsonPath(parseJsonPath('payload[0].instrument.symbol')), 'payload[0].instrument.symbol');
  });

  it('refuses what is not such a path, saying where', () => {
    for (const bad of ['', '.a', 'a.', 'a..b', '[0]', 'a[x]', 'a[-1]', 'a[0]b', 'a[*]', "a['b']", '$.']) {
      assert.throws(() => parseJsonPath(bad), { name: 'InputError' }, bad);
    }
    assert.throws(() => parseJsonPath('a[0]b'), /at "b"/);
  });

  it('evaluates own properties and array items only; anything else is undefined', () => {
    const doc = { header: { seq: 7, sentTime: '2026-12-01T09:30:00Z' }, payload: [{ instrument: { symbol: 'ESZ6' } }] };
    assert.equal(evalJsonPath(doc, parseJsonPath('payload[0].instrument.symbol')), 'ESZ6');
    assert.equal(evalJsonPath(doc, parseJsonPath('header.seq')), 7);
    assert.equal(evalJsonPath(doc, parseJsonPath('payload[1].instrument')), undefined);
    assert.equal(evalJsonPath(doc, parseJsonPath('header[0]')), undefined, 'an index on an object');
    assert.equal(evalJsonPath(doc, parseJsonPath('payload.length')), undefined, 'a name on an array');
    assert.equal(evalJsonPath(doc, parseJsonPath('header.constructor')), undefined, 'inherited');
    assert.equal(evalJsonPath(doc, parseJsonPath('header.seq.x')), undefined, 'into a number');
    assert.equal(evalJsonPath(null, parseJsonPath('a')), undefined);
    assert.equal(evalJsonPath(JSON.parse('{"__proto__":{"x":1}}'), parseJsonPath('__proto__.x')), 1, 'an own __proto__ from JSON.parse is data');
  });
});
