import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { Kind } from '../../../src/shared/timelineModel';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { generateCapture } from '../../../scripts/lib/captureGenerator';

describe('SessionBuilder (each event points back to its arrival)', () => {
  it('every arrival is the arrival of exactly one message, duplicate, late or invalid event, of its key and number, held ones too', async () => {
    const capture = generateCapture({
      seed: 21,
      keys: 12,
      messagesPerKey: 300,
      reorderFraction: 0.1,
      reorderWindow: 6,
      redeliveryFraction: 0.03,
      republishFraction: 0.02,
      losses: [{ key: '313', from: 40, to: 42 }],
    });
    const path = join(mkdtempSync(join(tmpdir(), 'seqscope-builder-')), 'held.jsonl');
    writeFileSync(path, `${capture.lines.join('\n')}\n{"not a record"\n`);
    const { session } = await loadSession([path], resolveOptions({ preset: 'cme' }));
    const { store, log } = session;
    const eventOf = new Int32Array(log.count).fill(-1);
    let held = 0;
    for (let id = 0; id < store.count; id++) {
      const kind = store.kind.get(id);
      if (kind !== Kind.message && kind !== Kind.duplicate && kind !== Kind.late && kind !== Kind.invalid) continue;
      const a = store.arrival.get(id);
      assert.ok(a >= 0 && a < log.count, `event ${id} (kind ${kind}) has an arrival`);
      assert.equal(eventOf[a], -1, `arrival ${a} is the arrival of events ${eventOf[a]} and ${id}`);
      eventOf[a] = id;
      assert.equal(store.key.get(id), log.key.get(a), `event ${id}: the key of its arrival`);
      if (kind !== Kind.invalid) assert.equal(store.seq.get(id), log.seq.get(a), `event ${id}: the number of its arrival`);
      // Released by a later arrival: the engine held it.
      if (store.cause.get(id) > a) held++;
    }
    assert.deepEqual(
      [...eventOf.keys()].filter((a) => eventOf[a] === -1),
      [],
      'arrivals without their event',
    );
    assert.ok(held > 50, `held entries exercised: ${held}`);
  });
});
