/** The detail pane's data for a session whose payloads are MDP 3.0 packets (test/fixtures/cme). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { SessionFiles } from '../../../src/timeline/node/sessionFiles';
import { TimelineService } from '../../../src/timeline/timelineService';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'cme', 'smartstream-310.jsonl');

describe('message detail of MDP 3.0 payloads', () => {
  it('decodes the packet and SBE headers when the session reads MDP 3.0, says why when it cannot, and not otherwise', async () => {
    const options = resolveOptions({ preset: 'cme' });
    const { session } = await loadSession([FIXTURE], options);
    const files = new SessionFiles(session);
    try {
      const detailOf = async (payload: 'mdp3' | undefined, seq: number) => {
        const svc = new TimelineService(
          session,
          { id: 's', title: 't', options: '', ...(payload ? { payload } : {}) },
          (a) => files.read(a),
          (n, v) => files.attributeMask(n, v),
        );
        const all = session.store.keys[0].all;
        for (let i = 0; i < all.length; i++) {
          const d = await svc.detail(all.get(i));
          if (d.event.kind === 'message' && d.attributes?.MsgSeqNum === String(seq)) return d;
        }
        throw new Error(`no message ${seq}`);
      };
      const d = await detailOf(options.payload, 1539134);
      assert.deepEqual(d.mdp3, {
        msgSeqNum: 1539134,
        sendingTimeNs: '1578070424703281707',
        messages: [
          { offset: 12, size: 40, blockLength: 11, templateId: 46, schemaId: 1, version: 9 },
          { offset: 52, size: 64, blockLength: 11, templateId: 47, schemaId: 1, version: 9 },
          { offset: 116, size: 45, blockLength: 11, templateId: 32, schemaId: 1, version: 9 },
        ],
      });
      assert.ok(d.data, 'the payload (hex) is still there');
      // The detail carries the session's hold and latency percentiles: the key's and all keys'.
      assert.deepEqual(d.percentiles, { key: session.summary.byKey[d.event.keyIndex].percentiles, all: session.summary.percentiles });
      assert.ok(d.percentiles?.all.hold && d.percentiles.all.publishToReceive, Object.keys(d.percentiles?.all ?? {}).join());
      const cut = await detailOf('mdp3', 1539141);
      assert.equal(cut.mdp3, undefined);
      assert.equal(cut.mdp3Error, 'MDP 3.0 packet of 8 bytes is shorter than its 12-byte header (truncated?)');
      const plain = await detailOf(undefined, 1539134);
      assert.deepEqual([plain.mdp3, plain.mdp3Error], [undefined, undefined], 'a session that does not read MDP 3.0 decodes nothing');
    } finally {
      await files.close?.();
    }
  });
});
