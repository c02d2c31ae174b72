import assert from 'node:assert/strict';
import { futureSeekProblem, SEEK_CLOCK_SKEW_MS } from '../../../../src/core/util/seekTime';

describe('futureSeekProblem', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');

  it('lets any past time through, and the present up to a minute of clock skew', () => {
    for (const t of ['2026-12-01T11:55:00Z', '2020-01-01T00:00:00Z', '2026-12-01T12:00:00Z']) assert.equal(futureSeekProblem(new Date(t), now), undefined, t);
    assert.equal(futureSeekProblem(new Date(now + SEEK_CLOCK_SKEW_MS), now), undefined);
  });

  it('refuses a time past that, saying what seeking there would do', () => {
    assert.equal(
      futureSeekProblem(new Date(now + SEEK_CLOCK_SKEW_MS + 1), now),
      '2026-12-01T12:01:00.001Z is in the future: seeking there acknowledges every message published before it, including those not yet received',
    );
    // A typo in the year.
    assert.match(futureSeekProblem(new Date('2027-12-01T11:55:00Z'), now) ?? '', /^2027-12-01T11:55:00\.000Z is in the future/);
  });
});
