import assert from 'node:assert/strict';
import { SerialSpace } from '../../../../src/core/sequencer/serial';

describe('SerialSpace', () => {
  it('treats 65535 → 0 as the next number in 16 bits', () => {
    const s = new SerialSpace(16);
    assert.equal(s.unwrap(0, 65535), 65536);
    assert.equal(s.wrap(65536), 0);
    assert.equal(s.compare(0, 65535), 1);
    assert.equal(s.compare(65535, 0), -1);
  });

  it('unwraps backwards across the wrap', () => {
    const s = new SerialSpace(16);
    assert.equal(s.unwrap(65534, 65536 + 2), 65534);
    assert.equal(s.unwrap(65535, 1), -1);
  });

  it('does not wrap 64-bit numbers', () => {
    const s = new SerialSpace(64);
    assert.equal(s.unwrap(5, 2 ** 40), 5);
    assert.equal(s.wrap(2 ** 40), 2 ** 40);
  });

  it('says why a value is not a number of the width', () => {
    assert.match(new SerialSpace(16).check(65536)!, /out of range for 16-bit/);
    assert.match(new SerialSpace(16).check(-1)!, /negative/);
    assert.match(new SerialSpace(32).check(1.5)!, /not an integer/);
    assert.equal(new SerialSpace(32).check(2 ** 32 - 1), undefined);
    assert.match(new SerialSpace(64).check(2 ** 60)!, /2\^53-1/);
  });
});
