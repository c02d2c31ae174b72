// The test hook's draw history: whole, or only what a polling reader has not taken yet.
import assert from 'node:assert/strict';
import { DrawLog } from '../../../src/webview/drawLog';

describe('DrawLog (the test hook’s draw history)', () => {
  it('gives the frames and data draws after those a reader took, the last 4 096 at most', () => {
    const log = new DrawLog();
    for (let i = 0; i < 10; i++) log.record(i, { layer: i / 2, overview: i / 4 });
    assert.deepEqual(log.recent(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(log.recent(7), [7, 8, 9]);
    assert.deepEqual(log.recentParts(8), { layer: [4, 4.5], overview: [2, 2.25] });
    assert.deepEqual(log.recent(10), [], 'nothing new');
    assert.deepEqual(log.recent(99), [], 'a count from the future: nothing');
    assert.deepEqual(log.recent(-5), log.recent(), 'a negative count: all');

    for (const end of [5, 5, 7, 6, 9]) log.drewData(end);
    assert.equal(log.dataDrawsTotal, 3, 'only draws that reached further count');
    assert.deepEqual(
      log.recentDataDraws().map((d) => d.end),
      [5, 7, 9],
    );
    assert.deepEqual(
      log.recentDataDraws(2).map((d) => d.end),
      [9],
    );

    for (let i = 0; i < 5000; i++) log.record(i);
    assert.equal(log.recent().length, 4096);
    assert.equal(log.recent(5000).length, 10, 'the frames after the first 5 000 of 5 010');
    assert.equal(log.recent(100).length, 4096, 'no more than are kept');
  });
});
