/**
 * A loaded session's findings, read back from its columns, are the findings sequencing the files
 * gives (what `seqscope mcp` lists): every kind, in the same order, with the same keys, numbers,
 * messageIds, times and reasons. Only what the columns do not keep (publish and receive times,
 * the first copy's id, a conflict's reason) is left out of the comparison.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCaptures } from '../../../src/core/inspect/captureInspection';
import { FindingEvent } from '../../../src/core/inspect/findingKinds';
import { resolveOptions, OptionText } from '../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { sessionFindings } from '../../../src/timeline/sessionFindings';
import { captureText } from '../../support/captureLines';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const MEDIA = join(__dirname, '..', '..', '..', 'media', 'samples');

const NOT_KEPT = ['publishTime', 'receivedAt', 'behindPublishTime', 'firstMessageId', 'conflictReason', 'deliveryAttempt'];

function comparable(ev: FindingEvent): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ev).filter(([k, v]) => v !== undefined && !NOT_KEPT.includes(k)));
}

const CASES: { name: string; paths: string[]; options: OptionText; kinds: FindingEvent['type'][] }[] = [
  { name: 'the CME sample (gaps, duplicates)', paths: [join(MEDIA, 'cme-sample.jsonl')], options: { preset: 'cme' }, kinds: ['gap', 'duplicate'] },
  {
    name: 'the ordering key sample (reordered, a redelivery cascade)',
    paths: [join(MEDIA, 'orders-sample.jsonl')],
    options: {},
    kinds: ['reordered', 'duplicate'],
  },
  {
    name: 'a publisher restart (resets, gaps declared by a reset)',
    paths: [join(FIXTURES, 'resets', 'publisher-restart.jsonl')],
    options: { seq: 'attribute:seq' },
    kinds: ['reset'],
  },
  { name: 'a capture with invalid records', paths: [join(FIXTURES, 'captures', 'with-invalid.jsonl')], options: {}, kinds: ['invalid'] },
];

/** Channel 310: 3 lost after the 1 s wait and then late; 1 below the first number (late, never expected). */
const LATE = [
  { t: 0, channel: '310', seq: 2 },
  { t: 10, channel: '310', seq: 4 },
  { t: 2000, channel: '310', seq: 5 },
  { t: 2100, channel: '310', seq: 3 },
  { t: 2200, channel: '310', seq: 1 },
  { t: 2300, channel: '310', seq: 6 },
];

describe('sessionFindings', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-session-findings-'));
    writeFileSync(join(dir, 'late.jsonl'), captureText(LATE));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the findings sequencing the files gives: late messages, one declared lost and one below the start', async () => {
    const paths = [join(dir, 'late.jsonl')];
    const options = resolveOptions({ preset: 'cme', gapTimeout: '1s' });
    const files = (await inspectCaptures(paths, options)).findings;
    const read = sessionFindings((await loadSession(paths, options)).session).findings;
    const late = read.filter((f) => f.type === 'late');
    assert.deepEqual(
      late.map((f) => [f.seq, f.beforeStart === true, Number.isFinite(f.lostAt)]),
      [
        [3, false, true],
        [1, true, true],
      ],
    );
    assert.deepEqual(read.map(comparable), files.map(comparable));
  });

  for (const c of CASES) {
    it(`gives the findings sequencing the files gives: ${c.name}`, async () => {
      const options = resolveOptions(c.options);
      const files = await inspectCaptures(c.paths, options);
      const { session } = await loadSession(c.paths, options);
      const read = sessionFindings(session);
      assert.equal(read.dropped, 0);
      for (const k of c.kinds)
        assert.ok(
          files.findings.some((f) => f.type === k),
          `the case has ${k} findings`,
        );
      assert.deepEqual(read.findings.map(comparable), files.findings.map(comparable));
    });
  }

  it('lists the first `max` findings and counts the rest', async () => {
    const paths = [join(MEDIA, 'cme-sample.jsonl')];
    const { session } = await loadSession(paths, resolveOptions({ preset: 'cme' }));
    const all = sessionFindings(session).findings;
    const cut = sessionFindings(session, session.paths, 3);
    assert.deepEqual(cut.findings, all.slice(0, 3));
    assert.equal(cut.dropped, all.length - 3);
  });

  it('cites the names it is given for the capture files, when there are several', async () => {
    const paths = [join(FIXTURES, 'captures', 'with-invalid.jsonl'), join(FIXTURES, 'captures', 'basic.jsonl')];
    const options = resolveOptions({});
    const { session } = await loadSession(paths, options);
    const invalid = sessionFindings(session, ['shown-a.jsonl.gz', 'shown-b.jsonl']).findings.filter((f) => f.type === 'invalid');
    assert.ok(invalid.length > 0);
    for (const f of invalid) assert.equal(f.file, 'shown-a.jsonl.gz');
    assert.deepEqual(sessionFindings(session).findings.map(comparable), (await inspectCaptures(paths, options)).findings.map(comparable));
  });
});
