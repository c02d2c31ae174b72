/**
 * Sequence resets in a session: the reset event in the store (numbers before and after, how,
 * released, lost), the gaps it declared with reason `reset`, the key's findings and counts, a
 * lane's page, Run to Next Reset, and through the worker transfer and the standalone snapshot.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { Kind } from '../../../src/shared/timelineModel';
import { CaptureSession } from '../../../src/timeline/captureSession';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { restoreSession, snapshotSession } from '../../../src/timeline/sessionSnapshot';
import { packSession, unpackSession } from '../../../src/timeline/sessionTransfer';
import { queryTimeline } from '../../../src/timeline/timelineQuery';
import { captureText } from '../../support/captureLines';

const RESTART = join(__dirname, '..', '..', 'fixtures', 'resets', 'publisher-restart.jsonl');
const nodeB64 = { encode: (b: Uint8Array) => Buffer.from(b).toString('base64'), decode: (t: string) => new Uint8Array(Buffer.from(t, 'base64')) };

/** Channel 310 numbered from 1 500 000 with 1 500 015 missing, a stray 1 499 990, then from 1 again: one reset that releases and declares lost. */
const CHANNEL = [
  ...Array.from({ length: 20 }, (_, i) => ({ t: 1000 + i * 10, channel: '310', seq: 1_500_000 + i })).filter((l) => l.seq !== 1_500_015),
  { t: 1300, channel: '310', seq: 1_499_990 },
  ...Array.from({ length: 5 }, (_, i) => ({ t: 1400 + i * 10, channel: '310', seq: 1 + i })),
];

describe('A session with sequence resets', () => {
  let dir: string;
  let restart: CaptureSession;
  let channel: CaptureSession;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-reset-session-'));
    const file = join(dir, 'channel.jsonl');
    writeFileSync(file, captureText(CHANNEL));
    restart = (await loadSession([RESTART], resolveOptions({ seq: 'attribute:seq' }))).session;
    channel = (await loadSession([file], resolveOptions({ preset: 'cme' }))).session;
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The publisher restart's two resets, one under each key, as the tree and the detail pane get them. */
  function checkRestart(s: CaptureSession): void {
    const view = (key: string) =>
      s.findings(s.keyIndex(key), 'reset', 0, 10).map((e) => ({ kind: e.kind, key: e.key, from: e.resetFrom, to: e.seq, how: e.how }));
    assert.deepEqual(view('orders-us'), [{ kind: 'reset', key: 'orders-us', from: 148209, to: 1, how: 'next' }]);
    assert.deepEqual(view('orders-eu'), [{ kind: 'reset', key: 'orders-eu', from: 1203312, to: 1, how: 'start' }]);
  }

  it('lists each reset under its key, with the numbers before and after and how it was decided', () => {
    assert.equal(restart.summary.resets, 2);
    checkRestart(restart);
    const all = restart.countsAt(restart.arrivalCount + 1);
    assert.deepEqual([all.resets, all.duplicates, all.late, all.gaps, all.delivered], [2, 0, 0, 0, 33]);
    assert.equal(restart.keyCountsAt(restart.keyIndex('orders-us'), restart.arrivalCount + 1).resets, 1);
  });

  it('keeps what a reset released and declared lost, and its gaps keep the reason reset', () => {
    const key = channel.keyIndex('310');
    const [r] = channel.findings(key, 'reset', 0, 10);
    assert.deepEqual(
      { from: r.resetFrom, to: r.seq, how: r.how, released: r.released, lost: r.lost },
      { from: 1_500_019, to: 1, how: 'start', released: 19, lost: 10 },
    );
    const gaps = channel.findings(key, 'gap', 0, 10);
    assert.deepEqual(
      gaps.map((g) => [g.seq, g.seqTo, g.reason]),
      [
        [1_499_991, 1_499_999, 'reset'],
        [1_500_015, 1_500_015, 'reset'],
      ],
    );
    const c = channel.keyCountsAt(key, channel.arrivalCount + 1);
    assert.deepEqual([c.resets, c.gaps, c.lost, c.delivered], [1, 2, 10, 25], 'the reset is not counted as delivered');
  });

  it('marks the reset in its lane (kind 6) and Run to Next Reset stops just after it', () => {
    const key = restart.keyIndex('orders-us');
    const { start, end } = restart.timeRange;
    const page = queryTimeline(restart, { t0: start, t1: end, buckets: 200, lanes: [key] });
    const [r] = restart.findings(key, 'reset', 0, 1);
    const f = page.lanes[0].findings;
    assert.deepEqual(f.kind, [Kind.reset]);
    assert.equal(f.id[0], r.id);
    const at = restart.nextPositionOf('reset', 0, key);
    assert.ok(at !== undefined);
    assert.equal(restart.keyCountsAt(key, at - 1).resets, 0);
    assert.equal(restart.keyCountsAt(key, at).resets, 1);
    assert.equal(restart.nextPositionOf('reset', at, key), undefined);
  });

  it('keeps resets through the worker transfer and the standalone snapshot', () => {
    checkRestart(unpackSession(packSession(restart).packed));
    checkRestart(restoreSession(JSON.parse(JSON.stringify(snapshotSession(restart, nodeB64, {}))), nodeB64));
    for (const s of [unpackSession(packSession(channel).packed), restoreSession(JSON.parse(JSON.stringify(snapshotSession(channel, nodeB64, {}))), nodeB64)]) {
      const [r] = s.findings(s.keyIndex('310'), 'reset', 0, 1);
      assert.deepEqual([r.released, r.lost, r.how], [19, 10, 'start']);
      assert.equal(s.findings(s.keyIndex('310'), 'gap', 0, 1)[0].reason, 'reset');
    }
  });
});
