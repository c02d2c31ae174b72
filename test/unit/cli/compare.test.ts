/** `seqscope compare`, run in process as the CLI runs it: output, exit codes, bad input. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { textSink } from '../../support/textSink';
import { scenario } from '../../support/archiveFixtures';
import { writePair, PairFiles } from '../../support/abPairFiles';

const ARCHIVES = join(__dirname, '..', '..', 'fixtures', 'archives');

async function seqscope(...args: string[]) {
  const stdout = textSink();
  const stderr = textSink();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('seqscope compare', function () {
  this.timeout(60_000);
  let dir: string;
  let pair: PairFiles;
  const CME16 = ['--preset', 'cme', '--seq-bits', '16'];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-compare-cli-'));
    pair = writePair({
      stream: { seed: 9, keys: ['310', '311', 'evil\u202e\u001b[2Jkey'], messagesPerKey: 300, seqBits: 16, startSeq: 65_400, redeliveries: 3 },
      dropA: 0.05,
      dropB: 0.05,
      lagMsB: 2,
    });
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
    pair.remove();
  });

  it('prints a table per key with a totals row, hostile key names escaped, exit 0', async () => {
    const r = await seqscope('compare', pair.a, pair.b, ...CME16, '--label-a', 'feed A', '--label-b', 'feed B');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}A {2}feed A$/m);
    assert.match(r.stdout, /^ {2}B {2}feed B$/m);
    assert.match(r.stdout, /evil\\u202e\\u001b\[2Jkey/);
    assert.ok(!r.stdout.includes('\u202e') && !r.stdout.includes('\u001b'), 'no raw control or direction characters');
    const t = pair.pair.truth.totals;
    const total = r.stdout.split('\n').find((l) => l.trim().startsWith('total (3 keys)'))!;
    assert.deepEqual(total.trim().split(/\s+/).slice(3, 7).map(Number), [t.both, t.onlyA, t.onlyB, t.lostBoth]);
  });

  it('--json prints one object in the documented shape', async () => {
    const r = await seqscope('compare', pair.a, pair.b, ...CME16, '--json');
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(j), ['a', 'b', 'options', 'byKey', 'totals']);
    assert.deepEqual(j.a, { label: 'a.jsonl', files: [pair.a] });
    assert.deepEqual(Object.keys(j.byKey[0]), ['key', 'both', 'onlyA', 'onlyB', 'lostBoth', 'firstA', 'firstB', 'deltaMs', 'a', 'b', 'merged']);
    assert.deepEqual(Object.keys(j.byKey[0].a), ['received', 'duplicates', 'missed', 'incidents']);
    assert.deepEqual(Object.keys(j.byKey[0].merged), ['delivered', 'gaps', 'lost', 'late']);
    assert.deepEqual(Object.keys(j.byKey[0].deltaMs), ['p50', 'p90', 'p99', 'max']);
    const t = pair.pair.truth.totals;
    assert.deepEqual(
      [j.totals.both, j.totals.onlyA, j.totals.onlyB, j.totals.lostBoth, j.totals.a.received, j.totals.b.received],
      [t.both, t.onlyA, t.onlyB, t.lostBoth, t.aReceived, t.bReceived],
    );
    assert.equal(j.totals.merged.lost, t.lostBoth);
  });

  it('--export writes a row per key and number (CSV by name, else JSON Lines); one-sided rows say which side', async () => {
    const csv = join(dir, 'diff.csv');
    const r = await seqscope('compare', pair.a, pair.b, ...CME16, '--export', csv);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'key,seq,to,count,inA,inB,arrivedA,arrivedB,deltaMs,messageIdA,messageIdB');
    const t = pair.pair.truth.totals;
    const lostRuns = lines.filter((l) => /,false,false,/.test(l)).length;
    assert.equal(lines.length - 1, t.both + t.onlyA + t.onlyB + lostRuns);
    const jsonl = join(dir, 'diff.jsonl');
    assert.equal((await seqscope('compare', pair.a, pair.b, ...CME16, '--export', jsonl)).code, 0);
    const rows = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.filter((x) => x.inA && !x.inB).length, t.onlyA);
    assert.ok(rows.filter((x) => x.inA && x.inB).every((x) => x.deltaMs === x.arrivedB - x.arrivedA && x.messageIdA === x.messageIdB));
  });

  it('the same file on both sides: everything both, Δt 0', async () => {
    const r = await seqscope('compare', pair.a, pair.a, ...CME16, '--json');
    assert.equal(r.code, 0, r.stderr);
    const { totals } = JSON.parse(r.stdout);
    assert.equal(totals.onlyA + totals.onlyB, 0);
    assert.deepEqual(totals.deltaMs, { p50: 0, p90: 0, p99: 0, max: 0 });
  });

  it('sides with no key in common: said plainly, exit 0 with the table', async () => {
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, readFileSync(pair.b, 'utf8').replaceAll('"Channel":"', '"Channel":"x'));
    const r = await seqscope('compare', pair.a, other, ...CME16);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /no shared key: A and B have no key in common/);
  });

  it('exit 2 naming the side: empty, all invalid, missing', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    let r = await seqscope('compare', pair.a, empty, ...CME16);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /side B \(empty\.jsonl\) holds no records/);
    assert.equal(r.stdout, '');
    const junk = join(dir, 'junk.jsonl');
    writeFileSync(junk, '{"message":{"messageId":"1","data":""}}\nnot json\n');
    r = await seqscope('compare', junk, pair.b, ...CME16);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /side A \(junk\.jsonl\): no record could be sequenced: all 2 records are invalid/);
    r = await seqscope('compare', pair.a, join(dir, 'nope.jsonl'), ...CME16);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /side B/);
  });

  it('--fail-on: exit 3 on a listed finding, 2 for an unknown one', async () => {
    const r = await seqscope('compare', pair.a, pair.b, ...CME16, '--fail-on', 'only-a,lost-both');
    assert.equal(r.code, 3);
    assert.match(r.stderr, /--fail-on: \d+ only-a/);
    assert.equal((await seqscope('compare', pair.a, pair.a, ...CME16, '--fail-on', 'only-a,only-b')).code, 0);
    assert.equal((await seqscope('compare', pair.a, pair.b, '--fail-on', 'gap')).code, 2);
    assert.equal((await seqscope('compare', pair.a, pair.b, '--json', '--export', '-')).code, 2);
  });

  it('across formats: a subscriber recording against the Cloud Storage Avro archive of the same messages', async () => {
    // The recording (receivedAt 3 ms after publish) lost message 2002; the archive has every message, clocked by publishTime.
    const recording = join(dir, 'recording.jsonl');
    const lines = scenario()
      .filter((m) => m.id !== '2002')
      .map((m) =>
        JSON.stringify({
          message: {
            messageId: m.id,
            publishTime: new Date(m.us / 1000).toISOString(),
            orderingKey: m.key,
            attributes: m.attributes,
            data: Buffer.from(m.payload).toString('base64'),
          },
          receivedAt: new Date(m.us / 1000 + 3).toISOString(),
        }),
      );
    writeFileSync(recording, lines.join('\n') + '\n');
    for (const archive of ['gcs-metadata.avro', 'bigquery.avro']) {
      const r = await seqscope('compare', recording, join(ARCHIVES, archive), '--seq', 'attribute:n', '--json');
      assert.equal(r.code, 0, r.stderr);
      const { totals, byKey } = JSON.parse(r.stdout);
      assert.equal(totals.onlyB, 1, archive);
      assert.equal(totals.onlyA, 0, archive);
      assert.equal(totals.lostBoth, 1, `${archive}: acct-1's 4 was never published`);
      assert.equal(byKey.find((k: { key: string }) => k.key === 'acct-2').a.missed, 1);
      // receivedAt is written to the ms, publishTime to the µs.
      assert.equal(Math.round(totals.deltaMs.p50), -3, `${archive}: the archive's clock is publishTime, the recording's receivedAt`);
    }
  });
});
