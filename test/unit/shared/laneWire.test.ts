import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import fc from 'fast-check';
import { packLanes, unpackLanes } from '../../../src/shared/laneWire';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { lanesOf, TimelineService } from '../../../src/timeline/timelineService';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import type { LaneInfo } from '../../../src/shared/protocol';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');

describe('lanes on the wire (laneWire)', () => {
  const count = fc.nat({ max: 2 ** 40 });
  const lane = fc.record({
    name: fc.string({ unit: 'binary' }),
    received: count,
    delivered: count,
    gaps: count,
    lost: count,
    duplicates: count,
    late: count,
    reordered: count,
    resets: count,
    hot: fc.boolean(),
    // A comparison's merged lane carries its range counts.
    compared: fc.option(fc.record({ onlyA: count, onlyB: count, lostBoth: count }), { nil: undefined }),
  });

  it('gives back exactly the lanes it was given, through JSON as postMessage carries it', () => {
    fc.assert(
      fc.property(fc.array(lane, { maxLength: 30 }), fc.boolean(), (ls, shuffled) => {
        // Lane i is key i (as lanesOf gives them), or keys in another order (a filtered list).
        const lanes: LaneInfo[] = ls.map(({ compared, ...l }, i) => ({
          key: shuffled ? (i * 7 + 3) % 101 : i,
          ...l,
          ...(compared ? { compared: { ...compared } } : {}),
        }));
        const wire = JSON.parse(JSON.stringify(packLanes(lanes)));
        assert.deepEqual(unpackLanes(wire), lanes);
      }),
      { numRuns: 300 },
    );
  });

  it('crosses as one string, whatever the number of lanes', () => {
    const lanes: LaneInfo[] = Array.from({ length: 100_000 }, (_, i) => ({
      key: i,
      name: `key-${i}`,
      received: 30,
      delivered: 29,
      gaps: i % 97 === 0 ? 1 : 0,
      lost: 0,
      duplicates: 1,
      late: 0,
      reordered: 0,
      resets: 0,
      hot: i === 5,
    }));
    const wire = packLanes(lanes);
    // What VS Code's replacer is called for: the object and its one value.
    const visited: unknown[] = [];
    const text = JSON.stringify({ lanes: wire }, (_k, v: unknown) => (visited.push(v), v));
    assert.equal(visited.length, 3);
    // ~110 characters a lane as objects; well under a third of that packed.
    assert.ok(text.length < JSON.stringify(lanes).length / 3, `${text.length} characters`);
    assert.deepEqual(unpackLanes(JSON.parse(text).lanes), lanes);
  });

  it("is what a session's init carries: the sample's lanes, unpacked, are lanesOf", async () => {
    const { session } = await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }));
    const service = new TimelineService(session, { id: 's', title: 'sample', options: '' });
    const init = service.initMessage({ playing: false, speed: 1, active: false });
    assert.equal(typeof init.session.lanes.columns, 'string');
    assert.deepEqual(unpackLanes(init.session.lanes), lanesOf(session));
    assert.deepEqual(
      unpackLanes(init.session.lanes).map((l) => l.name),
      ['318', '310', '312'],
    );
    assert.equal(lanesOf(session).find((l) => l.name === '310')?.gaps, 1, 'the counts are the real ones');
  });
});
