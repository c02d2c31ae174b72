import assert from 'node:assert/strict';
import { comparedStyle, comparedWords, MIN_W, ribbons, TAG } from '../../../src/webview/comparedRibbons';
import { Kind } from '../../../src/shared/timelineModel';
import type { EventView, MarkList } from '../../../src/shared/timelineModel';

/** Findings as a page lists them: [kind, t0, t1] each, ids from 1. */
function marks(...m: [number, number, number][]): MarkList {
  return { id: m.map((_, i) => i + 1), kind: m.map((x) => x[0]), t0: m.map((x) => x[1]), t1: m.map((x) => x[2]), seq: m.map(() => 0), aux: m.map(() => 0) };
}

const px = (t: number) => t;

describe('comparedRibbons (a comparison’s ranges on a merged lane)', () => {
  it('draws a ribbon per range, only for the comparison’s kinds, a single number at least MIN_W wide', () => {
    const fl = marks([Kind.gap, 0, 50], [Kind.onlyA, 100, 160], [Kind.duplicate, 120, 120], [Kind.onlyB, 200, 200], [Kind.lostBoth, 300, 340]);
    const rs = ribbons(fl, px, 0, 1000);
    assert.deepEqual(
      rs.map((r) => [fl.kind[r.index], r.x0, r.x1]),
      [
        [Kind.onlyA, 100, 160],
        [Kind.onlyB, 200 - MIN_W / 2, 200 + MIN_W / 2],
        [Kind.lostBoth, 300, 340],
      ],
    );
  });

  it('leaves out a range outside the layer, and one hidden under the previous tag unless it is selected', () => {
    const fl = marks([Kind.onlyA, -50, -10], [Kind.onlyA, 100, 100], [Kind.onlyB, 102, 103], [Kind.lostBoth, 100 + TAG, 130]);
    assert.deepEqual(
      ribbons(fl, px, 0, 1000).map((r) => fl.id[r.index]),
      [2, 4],
    );
    assert.deepEqual(
      ribbons(fl, px, 0, 1000, 3).map((r) => fl.id[r.index]),
      [2, 3, 4],
    );
  });

  it('tells the three apart by glyph as well as colour', () => {
    const th = { onlyA: 'green', onlyB: 'purple', gap: 'red' };
    assert.deepEqual(
      [Kind.onlyA, Kind.onlyB, Kind.lostBoth].map((k) => comparedStyle(k, th)),
      [
        { mark: 'onlyA', color: 'green', glyph: 'A' },
        { mark: 'onlyB', color: 'purple', glyph: 'B' },
        { mark: 'lostBoth', color: 'red', glyph: '×' },
      ],
    );
  });

  it('says what a range is, naming the sides', () => {
    const base: EventView = {
      id: 1,
      kind: 'onlyA',
      key: '310 · merged',
      keyIndex: 2,
      t0: 0,
      t1: 1,
      seq: 3_100_100,
      seqTo: 3_100_103,
      count: 4,
      sides: ['A (a.jsonl)', 'B (b.jsonl)'],
    };
    assert.deepEqual(comparedWords(base), {
      title: 'Only in A (a.jsonl)',
      text: 'only in A (a.jsonl): #3100100–3100103, 4 numbers',
      meaning: 'B (b.jsonl) missed them',
    });
    assert.equal(comparedWords({ ...base, kind: 'onlyB', seq: 7, seqTo: 7, count: 1 }).text, 'only in B (b.jsonl): #7, 1 number');
    assert.deepEqual(comparedWords({ ...base, kind: 'lostBoth', seq: 65_535, seqTo: 1, count: 3 }), {
      title: 'Lost in both',
      text: 'lost in both: #65535–1, 3 numbers',
      meaning: 'neither A (a.jsonl) nor B (b.jsonl) had them',
    });
  });
});
