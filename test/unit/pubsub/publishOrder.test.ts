/**
 * The emulator tests' count of reordered deliveries by publish order (test/support/publishOrder.ts):
 * checked against issue 43's definition on small recordings, since its figures go into the docs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reorderedIn, timeNs } from '../../support/publishOrder';

const dir = mkdtempSync(join(tmpdir(), 'seqscope-order-'));

/** A recording: [messageId, key, publish ms offset, receive ms offset] per line. */
function file(name: string, lines: [string, string, number, number][]): string {
  const path = join(dir, name);
  const iso = (ms: number) => new Date(Date.UTC(2026, 11, 5, 9) + ms).toISOString().replace('Z', '123456Z');
  writeFileSync(
    path,
    lines
      .map(([id, key, pub, rec]) =>
        JSON.stringify({
          ackId: id,
          message: { messageId: id, orderingKey: key, publishTime: iso(pub) },
          receivedAt: new Date(Date.UTC(2026, 11, 5, 9) + rec).toISOString(),
        }),
      )
      .join('\n') + '\n',
  );
  return path;
}

describe('reorderedIn (publish order in recordings)', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('flags a first copy that arrives after a later-published message of its key; ties and redeliveries never', () => {
    const a = file('a.jsonl', [
      ['1', 'k', 0, 0],
      ['2', 'k', 5, 10], // one batch with 3: equal publish times
      ['4', 'k', 9, 20],
      ['9', 'other', 1, 25],
      ['1', 'k', 0, 27], // a redelivery of 1: not judged
    ]);
    const b = file('b.jsonl', [
      ['3', 'k', 5, 30], // after 4 (published later): reordered; its tie with 2 is not
      ['5', 'k', 9, 40],
    ]);
    assert.deepEqual(reorderedIn([a, b]), { reordered: 1, keys: ['k'], distinct: 6 });
    assert.deepEqual(reorderedIn([a]), { reordered: 0, keys: [], distinct: 4 });
  });

  it('reads publish times to the nanosecond', () => {
    assert.equal(timeNs('2026-12-05T09:00:00.000000001Z') - timeNs('2026-12-05T09:00:00Z'), 1n);
    assert.equal(timeNs('2026-12-05T09:00:00.5Z'), timeNs('2026-12-05T09:00:00.500000000Z'));
  });
});
