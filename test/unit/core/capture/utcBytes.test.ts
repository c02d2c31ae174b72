import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRfc3339 } from '../../../../src/core/capture/captureRecord';
import { digitsValue, utcFast } from '../../../../src/core/capture/utcBytes';

const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('utcBytes', () => {
  it('reads 1 to 15 digits exactly, and nothing else', () => {
    assert.equal(digitsValue(bytes('0'), 0, 1), 0);
    assert.equal(digitsValue(bytes('999999999999999'), 0, 15), 999_999_999_999_999);
    assert.ok(Number.isNaN(digitsValue(bytes(''), 0, 0)), 'no digits');
    assert.ok(Number.isNaN(digitsValue(bytes('1234567890123456'), 0, 16)), 'sixteen: could round');
    assert.ok(Number.isNaN(digitsValue(bytes('12a'), 0, 3)));
    assert.ok(Number.isNaN(digitsValue(bytes('-1'), 0, 2)));
  });

  it('reads a UTC time as the text parser does, to the same double', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }), fc.nat(9), (d, digits) => {
        const base = d.toISOString().slice(0, 19);
        const text = `${base}${digits ? `.${'123456789'.slice(0, digits)}` : ''}Z`;
        assert.equal(utcFast(bytes(text), 0, text.length), parseRfc3339(text), text);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves every other form to the text parser (NaN)', () => {
    for (const t of [
      '2026-12-07T10:00:00+01:00',
      '2026-02-30T10:00:00Z',
      '2026-12-07 10:00:00Z',
      '2026-12-07T10:00:00.Z',
      '2026-12-07T24:00:00Z',
      '2026-12-07T10:00:00z',
    ]) {
      assert.ok(Number.isNaN(utcFast(bytes(t), 0, t.length)), t);
    }
  });
});
