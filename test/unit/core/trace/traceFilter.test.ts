import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { SessionFiles } from '../../../../src/timeline/node/sessionFiles';
import { unpackPage } from '../../../../src/shared/pageWire';
import { TimelineService } from '../../../../src/timeline/timelineService';
import fc from 'fast-check';
import {
  describeFilter,
  findingKindsOnly,
  isFilterActive,
  keyListing,
  overlapsNumberRange,
  traceEventMatcher,
  TraceFilterSpec,
} from '../../../../src/core/trace/traceFilter';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';

const msg = (key: string, seq: number): TraceEvent => ({
  type: 'message',
  key,
  seq,
  messageId: `${key}-${seq}`,
  arrivedAt: 0,
  releasedAt: 0,
  heldMs: 0,
  line: 1,
});
const gap = (key: string, from: number, to: number): TraceEvent => ({
  type: 'gap',
  key,
  from,
  to,
  count: 1,
  openedAt: 0,
  declaredAt: 0,
  waitedMs: 0,
  reason: 'timeout',
});

describe('traceFilter', () => {
  it('keeps everything without a filter', () => {
    assert.equal(isFilterActive({}), false);
    assert.equal(traceEventMatcher(undefined)(msg('a', 1)), true);
  });

  it('filters by key, kind and number range; a gap matches by overlap, also across the wrap', () => {
    const m = traceEventMatcher({ keys: ['a'], kinds: ['message', 'gap'], seqFrom: 10, seqTo: 20 });
    assert.equal(m(msg('a', 15)), true);
    assert.equal(m(msg('b', 15)), false);
    assert.equal(m(msg('a', 25)), false);
    assert.equal(m(gap('a', 18, 30)), true);
    assert.equal(m(gap('a', 21, 30)), false);
    const wrap = traceEventMatcher({ seqFrom: 0, seqTo: 5 });
    assert.equal(wrap(gap('a', 65530, 2)), true, 'a gap 65530–2 covers 0–2');
    assert.equal(traceEventMatcher({ seqFrom: 100, seqTo: 200 })(gap('a', 65530, 2)), false);
  });

  it('takes a range through the wrap (from above to): its start to the top, then 0 to its end', () => {
    const m = traceEventMatcher({ seqFrom: 65530, seqTo: 5 });
    assert.deepEqual(
      [65529, 65530, 65535, 0, 5, 6, 100].map((n) => m(msg('a', n))),
      [false, true, true, true, true, false, false],
    );
    assert.equal(m(gap('a', 65520, 65525)), false);
    assert.equal(m(gap('a', 65528, 65531)), true);
    assert.equal(m(gap('a', 65534, 1)), true, 'a gap through the wrap meets a range through it');
    assert.equal(m(gap('a', 6, 65529)), false, 'a gap of everything outside the range');
  });

  it('matches a range exactly when the numbers share one, whatever wraps (against enumeration)', () => {
    // A 16-number space stands in for 2^16: what matters is which ranges wrap.
    const M = 16;
    const walk = (from: number, to: number) => {
      const out = new Set<number>();
      for (let n = from; ; n = (n + 1) % M) {
        out.add(n);
        if (n === to) return out;
      }
    };
    const end = fc.option(fc.nat(M - 1), { nil: undefined });
    fc.assert(
      fc.property(fc.nat(M - 1), fc.nat(M - 1), end, end, (from, to, lo, hi) => {
        const event = walk(from, to);
        const filter = walk(lo ?? 0, hi ?? M - 1);
        const want = [...event].some((n) => filter.has(n));
        assert.equal(overlapsNumberRange(from, to, lo, hi), want);
      }),
      { numRuns: 2000 },
    );
  });

  it('filters by attribute value on the record', () => {
    const m = traceEventMatcher({ attribute: { name: 'Channel', value: '310' } });
    const entry = (v: string) => ({ file: 0, line: 1, time: 0, record: { message: { messageId: 'x', attributes: { Channel: v } } } });
    assert.equal(m(msg('310', 1), entry('310')), true);
    assert.equal(m(msg('310', 1), entry('312')), false);
    assert.equal(m(gap('310', 1, 2)), true, 'gaps have no record: they pass');
  });

  it('describes itself', () => {
    assert.equal(describeFilter({ keys: ['a'], kinds: ['gap'], seqFrom: 1, attribute: { name: 'n', value: 'v' } }), 'key a · gap · #1–… · n=v');
  });
});

describe('SessionFiles (reading records back for the detail pane)', function () {
  this.timeout(20_000);
  it('reads a record by its byte range and builds an attribute mask in arrival order', async () => {
    const sample = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
    const { session } = await loadSession([sample], resolveOptions({ preset: 'cme' }));
    const files = new SessionFiles(session);
    try {
      for (const a of [0, 1, 500, session.arrivalCount - 1]) {
        const rm = await files.read(a);
        assert.equal(rm?.message.messageId, session.log.messageId.get(a));
      }
      const mask = await files.attributeMask('Channel', '312');
      let n = 0;
      for (let a = 0; a < mask.length; a++) {
        if (mask[a]) {
          n++;
          assert.equal(session.keyNames[session.log.key.get(a)], '312');
        }
      }
      assert.equal(n, session.summary.byKey.find((k) => k.key === '312')!.received);

      const svc = new TimelineService(
        session,
        { id: 's', title: 't', options: '' },
        (a) => files.read(a),
        (name, value) => files.attributeMask(name, value),
      );
      const dupId = session.store.keys[0].duplicate.get(0);
      const d = await svc.detail(dupId);
      assert.equal(d.event.kind, 'duplicate');
      assert.ok(d.attributes?.MsgSeqNum);
      assert.ok(d.latency?.publishToReceiveMs !== undefined && d.latency.publishToReceiveMs >= 0);
      await svc.setFilter({ attribute: { name: 'Channel', value: '318' } });
      const { start, end } = session.timeRange;
      const page = await svc.handle({ type: 'requestPage', requestId: 1, t0: start, t1: end, buckets: 100000, lanes: [0, 1, 2] });
      assert.ok(page?.type === 'page');
      for (const lane of unpackPage(page.page).lanes) {
        const ids = [...(lane.marks?.id ?? []), ...lane.findings.id.filter((_, i) => lane.findings.kind[i] !== 1)];
        for (const id of ids) assert.equal(session.event(id).key, '318');
      }
    } finally {
      await files.close();
    }
  });

  it('refuses to read back a record that was too long to sequence, with the line and a next step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seqscope-files-'));
    const path = join(dir, 'huge.jsonl');
    const sample = readFileSync(join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl'), 'utf8').split('\n');
    writeFileSync(path, [sample[0], sample[1], 'x'.repeat(65 * 1024 * 1024), sample[2]].join('\n'));
    const { session } = await loadSession([path], resolveOptions({ preset: 'cme' }));
    const files = new SessionFiles(session);
    try {
      assert.deepEqual([session.summary.received, session.summary.invalid], [3, 1]);
      assert.equal(session.log.line.get(2), 3);
      await assert.rejects(files.readText(2), {
        message: `line 3 of ${path} is 65 MiB, too long to read back: open the file in an editor that handles large files`,
      });
      assert.equal((await files.read(3))?.message.messageId, session.log.messageId.get(3), 'the records after it read back');
    } finally {
      await files.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('keyListing: which keys the tree and the timeline list under a filter', () => {
  const keys: [string, { gaps: number; duplicates: number; late: number; reordered: number; resets: number }][] = [
    ['310', { gaps: 1, duplicates: 0, late: 0, reordered: 0, resets: 0 }],
    ['312', { gaps: 0, duplicates: 2, late: 0, reordered: 0, resets: 0 }],
    ['318', { gaps: 0, duplicates: 0, late: 1, reordered: 0, resets: 0 }],
    ['320', { gaps: 0, duplicates: 0, late: 0, reordered: 0, resets: 0 }],
    ['322', { gaps: 0, duplicates: 0, late: 0, reordered: 3, resets: 0 }],
  ];
  const listedBy = (f: TraceFilterSpec) => {
    const listed = keyListing(f);
    return listed && keys.filter(([name, c]) => listed(name, c)).map(([name]) => name);
  };

  it('lists every key (undefined) when the filter names no keys and shows messages or names no kinds', () => {
    assert.equal(listedBy({}), undefined);
    assert.equal(listedBy({ kinds: ['message', 'gap'] }), undefined);
    assert.equal(listedBy({ seqFrom: 3 }), undefined);
    assert.equal(findingKindsOnly({ kinds: ['message'] }), undefined);
  });

  it('lists the keys with a finding of the kinds shown when it shows findings only', () => {
    assert.deepEqual(listedBy({ kinds: ['gap'] }), ['310']);
    assert.deepEqual(listedBy({ kinds: ['duplicate', 'late'] }), ['312', '318']);
    assert.deepEqual(listedBy({ kinds: ['reordered'] }), ['322']);
    assert.deepEqual(listedBy({ kinds: ['invalid'] }), [], 'invalid records belong to no key');
    assert.deepEqual(findingKindsOnly({ kinds: ['late', 'invalid', 'gap'] }), ['gap', 'late']);
  });

  it('lists the keys it names, and of those the ones with such findings', () => {
    assert.deepEqual(listedBy({ keys: ['320', '310', 'nope'] }), ['310', '320']);
    assert.deepEqual(listedBy({ keys: ['320', '312'], kinds: ['duplicate'] }), ['312']);
  });
});
