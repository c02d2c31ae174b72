import assert from 'node:assert/strict';
import { Flag, Kind } from '../../../src/shared/timelineModel';
import { PointMarks } from '../../../src/webview/pointMarks';

describe("webview point marks (one lane's finding markers before the lane layer draws them)", () => {
  it("picks a duplicate's marker from its flags: conflict, redelivery, else republish", () => {
    const p = new PointMarks();
    assert.equal(p.add(Kind.duplicate, Flag.conflict | Flag.redelivery, 0, false), 'conflict');
    assert.equal(p.add(Kind.duplicate, Flag.redelivery, 10, false), 'redelivery');
    assert.equal(p.add(Kind.duplicate, 0, 20, false), 'republish');
    assert.deepEqual(p.x, { redelivery: [10], republish: [20], conflict: [0], late: [], reordered: [], reset: [] });
  });

  it('keeps one marker every few px per kind (the three duplicate markers as one kind), and always the selected one', () => {
    const p = new PointMarks();
    assert.equal(p.add(Kind.late, 0, 0, false), 'late');
    assert.equal(p.add(Kind.late, 0, 3, false), undefined, 'too close to the last late one');
    assert.equal(p.add(Kind.reordered, 0, 3, false), 'reordered', 'another kind is not thinned by it');
    assert.equal(p.add(Kind.reset, 0, 4, false), 'reset');
    assert.equal(p.add(Kind.duplicate, Flag.redelivery, 4, false), 'redelivery');
    assert.equal(p.add(Kind.duplicate, 0, 6, false), undefined, 'a republish as close to a redelivery');
    assert.equal(p.add(Kind.late, 0, 4, true), 'late', 'selected');
    assert.equal(p.add(Kind.late, 0, 10, false), 'late');
    assert.deepEqual(p.x.late, [0, 4, 10]);
  });

  it('starts each lane empty', () => {
    const p = new PointMarks();
    p.add(Kind.late, 0, 0, false);
    p.clear();
    assert.deepEqual(p.x.late, []);
    assert.equal(p.add(Kind.late, 0, 1, false), 'late', 'no thinning against the lane before');
  });
});
