import assert from 'node:assert/strict';
import { parseTimestampMs } from '../../../../src/core/util/timestamp';

const T = Date.parse('2026-12-01T09:30:00.000Z');

describe('parseTimestampMs', () => {
  it('reads ISO 8601 with Z, an offset, or no zone (UTC), to the nanosecond', () => {
    assert.equal(parseTimestampMs('2026-12-01T09:30:00Z'), T);
    assert.equal(parseTimestampMs('2026-12-01T09:30:00.123Z'), T + 123);
    assert.equal(parseTimestampMs('2026-12-01T09:30:00.123456789Z'), T + 123.456789);
    assert.equal(parseTimestampMs('2026-12-01T09:30:00.123456789'), T + 123.456789, 'zone-less is UTC');
    assert.equal(parseTimestampMs('2026-12-01 09:30:00.5'), T + 500);
    assert.equal(parseTimestampMs('2026-12-01T10:30:00+01:00'), T);
    assert.equal(parseTimestampMs('2026-12-01T04:30:00-0500'), T);
    assert.equal(parseTimestampMs('2026-12-01T09:30Z'), T, 'no seconds');
  });

  it('reads epoch ms and ns, as numbers or digit strings, told apart by size', () => {
    assert.equal(parseTimestampMs(T), T);
    assert.equal(parseTimestampMs(String(T)), T);
    assert.equal(parseTimestampMs(`${T}123456`), T + 0.123456, 'ns text keeps its ms exact past 2^53');
    assert.equal(parseTimestampMs(T * 1e6), T);
  });

  it('says why a value is not a time', () => {
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-12-01T25:00:00Z', '2026-12-01T09:30:00.1234567890Z', '-5', '']) {
      const r = parseTimestampMs(bad);
      assert.ok(typeof r === 'object', bad);
    }
    assert.deepEqual(parseTimestampMs(null), { error: 'is null, not a time' });
    assert.deepEqual(parseTimestampMs(true), { error: 'is boolean, not a time' });
    assert.ok(typeof parseTimestampMs(-1) === 'object');
  });
});
