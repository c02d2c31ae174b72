/** Sequence resets through the built CLI: the summary, --json, --fail-on reset, the exports, --reset-to and --no-resets. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../support/builtCli';
import { captureText, LineSpec } from '../../support/captureLines';

let cli = '';
const root = join(__dirname, '..', '..', '..');

function seqscope(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The channel: numbered from 1 500 000, then 30 s later from 1 again (a publisher restart). */
const RESTART: LineSpec[] = [
  ...Array.from({ length: 100 }, (_, i) => ({ t: i * 10, channel: '310', seq: 1_500_000 + i })),
  ...Array.from({ length: 100 }, (_, i) => ({ t: 31_000 + i * 10, channel: '310', seq: 1 + i })),
];

describe('seqscope CLI: sequence resets', function () {
  this.timeout(60_000);
  let dir: string;
  let feed: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-resets-'));
    cli = await buildCli(dir);
    feed = join(dir, 'restart.jsonl');
    writeFileSync(feed, captureText(RESTART));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a publisher restart is 1 reset and 200 delivered, not 100 duplicates (--preset cme, and without --reset-to)', () => {
    for (const flags of [
      ['--preset', 'cme'],
      ['--key', 'attribute:Channel', '--seq', 'attribute:MsgSeqNum'],
    ]) {
      const r = seqscope('replay', feed, ...flags, '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.deepEqual([s.received, s.delivered, s.duplicates, s.late, s.gaps, s.resets], [200, 200, 0, 0, 0, 1], flags.join(' '));
      assert.equal(s.byKey[0].resets, 1);
    }
  });

  it('shows a resets column only when there are resets, and --fail-on reset exits 3', () => {
    const r = seqscope('replay', feed, '--preset', 'cme', '--fail-on', 'reset');
    assert.equal(r.code, 3);
    assert.equal(r.stderr, 'seqscope: --fail-on: 1 sequence reset\n');
    assert.match(r.stdout, /late\s+resets\s+max hold/);
    assert.match(r.stdout, /reset to 1/);
    const none = seqscope('replay', feed, '--preset', 'cme', '--no-resets', '--fail-on', 'reset');
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /late\s+max hold/, 'no resets column');
  });

  it('--no-resets: the numbers after the restart are late (below the key’s start), never duplicates', () => {
    const s = JSON.parse(seqscope('replay', feed, '--preset', 'cme', '--no-resets', '--json').stdout);
    assert.deepEqual([s.delivered, s.duplicates, s.late, s.resets], [100, 0, 100, 0]);
    assert.match(s.options, /resets off/);
  });

  it('exports the reset event in JSONL, CSV and the Chrome trace', () => {
    const jsonl = join(dir, 'trace.jsonl');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', jsonl).code, 0);
    const resets = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'reset');
    assert.deepEqual(resets, [
      { type: 'reset', key: '310', from: 1_500_099, to: 1, at: resets[0].at, arrivedAt: resets[0].arrivedAt, released: 0, lost: 0, how: 'resetTo' },
    ]);
    const csv = join(dir, 'trace.csv');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', csv, '--only', 'reset').code, 0);
    const [header, row] = readFileSync(csv, 'utf8').trim().split('\n');
    const cells = Object.fromEntries(header.split(',').map((c, i) => [c, row.split(',')[i]]));
    assert.deepEqual([cells.type, cells.from, cells.to, cells.released, cells.lost, cells.how], ['reset', '1500099', '1', '0', '0', 'resetTo']);
    const chrome = join(dir, 'trace.json');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', chrome, '--format', 'chrome-trace').code, 0);
    const ev = JSON.parse(readFileSync(chrome, 'utf8')).traceEvents.find((e: { cat?: string }) => e.cat === 'reset');
    assert.equal(ev.name, 'reset #1500099 → #1');
  });

  it('a CME channel across a weekly start (test/fixtures/resets): 1 reset from 1539139 to 1, with or without --reset-to, numbers from the attribute or the packet', () => {
    const weekly = join(root, 'test', 'fixtures', 'resets', 'cme-weekly-start-310.jsonl');
    for (const flags of [
      ['--preset', 'cme'],
      ['--preset', 'cme', '--seq', 'mdp3'],
      ['--key', 'attribute:Channel', '--seq', 'attribute:MsgSeqNum'],
    ]) {
      const r = seqscope('replay', weekly, ...flags, '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.deepEqual([s.received, s.delivered, s.duplicates, s.late, s.gaps, s.invalid, s.resets], [20, 20, 0, 0, 0, 0, 1], flags.join(' '));
    }
    const trace = join(dir, 'weekly.jsonl');
    assert.equal(seqscope('replay', weekly, '--preset', 'cme', '--export', trace, '--only', 'reset').code, 0);
    const [ev] = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual([ev.key, ev.from, ev.to, ev.how], ['310', 1539139, 1, 'resetTo']);
  });

  it('a publisher restart after a deploy (test/fixtures/resets): one reset per key, one of them inside the start window', () => {
    const trace = join(dir, 'restart-trace.jsonl');
    const r = seqscope(
      'replay',
      join(root, 'test', 'fixtures', 'resets', 'publisher-restart.jsonl'),
      '--seq',
      'attribute:seq',
      '--export',
      trace,
      '--only',
      'reset,gap,duplicate,late',
    );
    assert.equal(r.code, 0, r.stderr);
    const events = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => [e.type, e.key, e.from, e.to, e.how]),
      [
        ['reset', 'orders-us', 148209, 1, 'next'],
        ['reset', 'orders-eu', 1203312, 1, 'start'],
      ],
    );
    assert.match(r.stdout, /total \(2 keys\)\s+33\s+33\s+0\s+0\s+0\s+0\s+0\s+0\s+0\s+2\s/);
  });

  it('refuses a --reset-to that cannot be a number of the width, and --reset-to with --no-resets', () => {
    const bad = seqscope('replay', feed, '--preset', 'cme', '--reset-to', '-1');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /reset-to "-1" is not valid: use a whole number from 0 to 4294967295/);
    const both = seqscope('replay', feed, '--reset-to', '1', '--no-resets', '--seq', 'attribute:MsgSeqNum');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /contradict/);
  });
});
