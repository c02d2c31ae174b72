/**
 * A session judged by publish order (the default for ordering keys): its reordered message in
 * the store, the key's findings, a lane's page, the overview, counts at a replay position,
 * Run to Next Reordered, and through the worker transfer and the standalone snapshot.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { Kind } from '../../../src/shared/timelineModel';
import { CaptureSession } from '../../../src/timeline/captureSession';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { restoreSession, snapshotSession } from '../../../src/timeline/sessionSnapshot';
import { packSession, unpackSession } from '../../../src/timeline/sessionTransfer';
import { overview, queryTimeline } from '../../../src/timeline/timelineQuery';

const ORDERED = join(__dirname, '..', '..', 'fixtures', 'publish-order', 'ordered-keys.jsonl');
const nodeB64 = { encode: (b: Uint8Array) => Buffer.from(b).toString('base64'), decode: (t: string) => new Uint8Array(Buffer.from(t, 'base64')) };

describe('A session judged by publish order', () => {
  let session: CaptureSession;

  before(async () => {
    session = (await loadSession([ORDERED], resolveOptions({}))).session;
  });

  /** The one reordered event of key AAA, as the tree and the detail pane get it. */
  function checkReordered(s: CaptureSession): void {
    const aaa = s.keyIndex('AAA');
    assert.equal(s.findingCount(aaa, 'reordered'), 1);
    const [e] = s.findings(aaa, 'reordered', 0, 10);
    assert.deepEqual(
      { kind: e.kind, key: e.key, messageId: e.messageId, behindId: e.behindId, byMs: e.byMs, byPosition: e.byPosition, line: e.line },
      { kind: 'reordered', key: 'AAA', messageId: '1008', behindId: '1018', byMs: 2.5, byPosition: 4, line: 19 },
    );
    assert.equal(s.findingCount(s.keyIndex('BBB'), 'reordered'), 0);
  }

  it('lists the reordered message under its key, with what it came behind and by how much', () => {
    assert.equal(session.summary.reordered, 1);
    checkReordered(session);
  });

  it('marks it in its lane (kind 5, at its message) and in the overview', () => {
    const aaa = session.keyIndex('AAA');
    const { start, end } = session.timeRange;
    const page = queryTimeline(session, { t0: start, t1: end, buckets: 200, lanes: [aaa] });
    const f = page.lanes[0].findings;
    assert.deepEqual(f.kind, [Kind.reordered]);
    const [e] = session.findings(aaa, 'reordered', 0, 1);
    assert.equal(f.id[0], e.id);
    assert.equal(session.event(e.id - 1).kind, 'message', 'heard right after its message');
    assert.equal(session.event(e.id - 1).messageId, '1008');
    assert.equal(
      overview(session, 50).reordered.reduce((a, b) => a + b, 0),
      1,
    );
  });

  it('counts it from its arrival on, and Run to Next Reordered stops just after it', () => {
    const aaa = session.keyIndex('AAA');
    const arrival = session.findings(aaa, 'reordered', 0, 1)[0].arrival as number;
    assert.equal(session.keyCountsAt(aaa, arrival).reordered, 0);
    assert.equal(session.keyCountsAt(aaa, arrival + 1).reordered, 1);
    assert.equal(session.countsAt(session.arrivalCount + 1).reordered, 1);
    assert.equal(session.keyCountsAt(aaa, arrival + 1).delivered, 10, 'delivered too: nothing is held');
    assert.equal(session.nextPositionOf('reordered', 0), arrival + 1);
    assert.equal(session.nextPositionOf('reordered', arrival + 1), undefined);
  });

  it('keeps it through the worker transfer and the standalone snapshot', () => {
    checkReordered(unpackSession(packSession(session).packed));
    checkReordered(restoreSession(JSON.parse(JSON.stringify(snapshotSession(session, nodeB64, {}))), nodeB64));
  });
});
