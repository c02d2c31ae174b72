import { strict as assert } from 'node:assert';
import { thinProgress } from '../../../../src/core/util/thinProgress';

describe('thinProgress', () => {
  it('passes the first report, then one per interval of the clock, and always the end', () => {
    let now = 0;
    const seen: [number, number][] = [];
    const report = thinProgress(
      100,
      () => now,
      (done, total) => seen.push([done, total]),
    );
    report(1, 10);
    now = 50;
    report(2, 10);
    now = 99;
    report(3, 10);
    now = 100;
    report(4, 10);
    now = 150;
    report(5, 10);
    report(10, 10);
    assert.deepEqual(seen, [
      [1, 10],
      [4, 10],
      [10, 10],
    ]);
  });

  it('passes every end, even one right after another report', () => {
    const seen: number[] = [];
    const report = thinProgress(
      100,
      () => 0,
      (done) => seen.push(done),
    );
    report(0, 0);
    report(5, 5);
    report(7, 7);
    assert.deepEqual(seen, [0, 5, 7]);
  });
});
