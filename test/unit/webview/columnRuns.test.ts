import assert from 'node:assert/strict';
import { ColumnHeights, TickRuns } from '../../../src/webview/columnRuns';

describe("webview column runs (a lane's ticks and bars as runs of pixel columns)", () => {
  const collect = () => {
    const runs: [number, number, number][] = [];
    return { runs, sink: (c0: number, c1: number, h: number) => runs.push([c0, c1, h]) };
  };

  it('joins ticks in consecutive columns into one run, and starts another after an empty column', () => {
    const { runs, sink } = collect();
    const t = new TickRuns(sink);
    for (const c of [3, 4, 4, 5, 7, 8]) t.add(c);
    t.flush();
    assert.deepEqual(runs, [
      [3, 6, 1],
      [7, 9, 1],
    ]);
  });

  it('starts a run of its own for a column out of order, and flushes nothing for a lane without ticks', () => {
    const { runs, sink } = collect();
    const t = new TickRuns(sink);
    t.flush();
    for (const c of [10, 11, 2, 12]) t.add(c);
    t.flush();
    assert.deepEqual(runs, [
      [10, 12, 1],
      [2, 3, 1],
      [12, 13, 1],
    ]);
    t.flush();
    assert.equal(runs.length, 3, 'a second flush adds nothing');
  });

  it('keeps the tallest bar per column and hands out runs of equal height, counting the columns filled', () => {
    const { runs, sink } = collect();
    const c = new ColumnHeights();
    c.reset(10);
    c.bar(0, 3, 4.4);
    c.bar(2, 4, 6);
    c.bar(8, 12, 0.2);
    assert.equal(c.runs(sink), 6);
    assert.deepEqual(runs, [
      [0, 2, 4],
      [2, 4, 6],
      [8, 10, 1],
    ]);
    assert.equal(c.at(9), 1);
    assert.equal(c.at(10), 0, 'clipped to the lane');
  });

  it('starts each lane empty, also a narrower one', () => {
    const { runs, sink } = collect();
    const c = new ColumnHeights();
    c.reset(8);
    c.bar(0, 8, 5);
    c.reset(4);
    c.bar(-2, 1, 3);
    assert.equal(c.runs(sink), 1);
    assert.deepEqual(runs, [[0, 1, 3]]);
  });
});
