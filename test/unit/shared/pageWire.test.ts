import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import fc from 'fast-check';
import { packMarks, packPage, unpackMarks, unpackPage } from '../../../src/shared/pageWire';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { TimelineService } from '../../../src/timeline/timelineService';
import type { MarkList } from '../../../src/shared/timelineModel';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');

function marks(rows: [number, number, number, number, number, number][]): MarkList {
  return {
    id: rows.map((r) => r[0]),
    kind: rows.map((r) => r[1]),
    t0: rows.map((r) => r[2]),
    t1: rows.map((r) => r[3]),
    seq: rows.map((r) => r[4]),
    aux: rows.map((r) => r[5]),
  };
}

describe('pages on the wire (pageWire)', () => {
  it('gives back exactly the marks it was given, whatever the numbers', () => {
    const num = fc.oneof(
      fc.integer({ min: -2_000_000, max: 2_000_000 }),
      fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
      fc.double({ noNaN: false }),
      fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 60, -0, Infinity),
    );
    const row = fc.tuple(num, fc.integer({ min: 0, max: 4 }), num, num, num, num);
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const m = marks(rows);
        assert.deepEqual(unpackMarks(packMarks(m)), m);
      }),
      { numRuns: 500 },
    );
  });

  it('survives JSON (as postMessage and the embedded first view carry it) for integer times', () => {
    const m = marks([
      [7, 2, 1796031000306, 1796031000306, 36098, 1],
      [12, 2, 1796031000620, 1796031000620, 36182, 0],
      [40, 1, 1796031001761, 1796031011761, 36449, 36452],
      [41, 3, 1796031001762, 1796031001762, 65535, 0],
      [52, 2, 1796031002386, 1796031002386, 3, 0],
    ]);
    const wire = packMarks(m);
    assert.ok(!Array.isArray(wire.t0) && !Array.isArray(wire.t1) && !Array.isArray(wire.id), 'integer columns go as differences');
    assert.deepEqual(unpackMarks(JSON.parse(JSON.stringify(wire))), m);
  });

  it('sends fractional times as they are (their differences would not sum back exactly)', () => {
    const m = marks([
      [1, 2, 0.1, 0.1, 5, 0],
      [2, 2, 0.30000000000000004, 0.7, 6, 0],
    ]);
    const wire = packMarks(m);
    assert.ok(Array.isArray(wire.t0) && Array.isArray(wire.t1));
    assert.deepEqual(unpackMarks(JSON.parse(JSON.stringify(wire))), m);
  });

  it('halves a page of the sample’s marks at least, and unpacks to the page queried', async () => {
    const session = (await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }))).session;
    const svc = new TimelineService(session, { id: 's', title: 't', options: '' });
    const { start, end } = session.timeRange;
    const lanes = session.keyNames.map((_, i) => i);
    const reply = await svc.handle({ type: 'requestPage', requestId: 1, t0: start, t1: end, buckets: 4096, lanes });
    assert.ok(reply?.type === 'page');
    const page = unpackPage(JSON.parse(JSON.stringify(reply.page)));
    assert.ok(
      page.lanes.every((l) => (l.marks?.id.length ?? 0) > 500),
      'zoomed in enough for one mark per message',
    );
    assert.deepEqual(packPage(page), JSON.parse(JSON.stringify(reply.page)));
    const plain = JSON.stringify(page).length;
    const packed = JSON.stringify(reply.page).length;
    assert.ok(packed * 2 < plain, `packed ${packed} vs plain ${plain} characters`);
  });

  it('sends a density lane up to its last non-zero bucket, and unpacks it to every bucket', () => {
    const page = {
      t0: 0,
      t1: 100,
      buckets: 10,
      invalid: marks([]),
      lanes: [
        { key: 0, density: [0, 3, 0, 1, 0, 0, 0, 0, 0, 0], findings: marks([]), findingsOmitted: 0 },
        { key: 1, density: new Array<number>(10).fill(0), findings: marks([]), findingsOmitted: 0 },
        { key: 2, density: [1, 1, 1, 1, 1, 1, 1, 1, 1, 2], findings: marks([]), findingsOmitted: 0 },
      ],
    };
    const wire = JSON.parse(JSON.stringify(packPage(page)));
    assert.deepEqual(
      wire.lanes.map((l: { density: number[] }) => l.density),
      [[0, 3, 0, 1], [], [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]],
    );
    assert.deepEqual(unpackPage(wire), page);
  });
});
