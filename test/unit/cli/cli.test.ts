/** The built `seqscope` CLI (dist/cli.js), run as a user would: a process, its output, its exit code. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildCli } from '../../support/builtCli';
import { captureText, LineSpec, writeKeyPerMessageCapture } from '../../support/captureLines';
import { orderingSample } from '../../../scripts/lib/orderingSample';

const root = join(__dirname, '..', '..', '..');
// Built from the same esbuild target as dist/cli.js, into a folder of the test's own, so a
// concurrent `npm run build` (or a half-written webview) cannot change the binary under test.
let cli = '';

function seqscope(...args: string[]) {
  return seqscopeWithInput(undefined, ...args);
}

/** The CLI with `input` piped to its standard input. */
function seqscopeWithInput(input: Buffer | undefined, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root, input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Channel 310: 1..6 with 4 missing (a gap), 2 redelivered, 5 published twice. */
const FEED: LineSpec[] = [
  { t: 0, channel: '310', seq: 1 },
  { t: 10, channel: '310', seq: 3 },
  { t: 20, channel: '310', seq: 2 },
  { t: 30, channel: '310', seq: 2 },
  { t: 11_000, channel: '310', seq: 5 },
  { t: 11_010, channel: '310', seq: 5, id: 'second-publish' },
  { t: 30_000, channel: '310', seq: 6 },
];

describe('seqscope CLI', function () {
  this.timeout(60_000);
  let dir: string;
  let feed: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-cli-'));
    cli = await buildCli(dir);
    feed = join(dir, 'feed.jsonl');
    writeFileSync(feed, captureText(FEED));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exit 0 and a readable summary per key', () => {
    const r = seqscope('replay', feed, '--preset', 'cme');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /key\s+received\s+delivered\s+gaps\s+lost\s+duplicates/);
    const row = r.stdout.split('\n').find((l) => l.trim().startsWith('310'))!;
    assert.deepEqual(row.trim().split(/\s+/).slice(0, 9), ['310', '7', '5', '1', '1', '2', '1', '1', '0']);
  });

  it('names the empty key "(no key)" in the summary, as the editor does (--key none: every message)', () => {
    const r = seqscope('replay', feed, '--preset', 'cme', '--key', 'none');
    assert.equal(r.code, 0, r.stderr);
    const row = r.stdout.split('\n').find((l) => l.trim().startsWith('(no key)'));
    assert.ok(row, r.stdout);
    assert.deepEqual(row.trim().split(/\s+/).slice(2, 4), ['7', '5'], 'its received and delivered');
  });

  it('--json prints exactly one JSON object with the counts', () => {
    const r = seqscope('replay', feed, '--preset', 'cme', '--json');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const s = JSON.parse(lines[0]);
    for (const f of ['received', 'delivered', 'duplicates', 'gaps', 'lost', 'late', 'invalid', 'keys']) assert.equal(typeof s[f], 'number', f);
    assert.deepEqual(
      { received: s.received, delivered: s.delivered, duplicates: s.duplicates, gaps: s.gaps, lost: s.lost, late: s.late, invalid: s.invalid, keys: s.keys },
      { received: 7, delivered: 5, duplicates: 2, gaps: 1, lost: 1, late: 0, invalid: 0, keys: 1 },
    );
  });

  it('exit 3 when --fail-on names a finding that occurred, 0 when it did not', () => {
    const hit = seqscope('replay', feed, '--preset', 'cme', '--fail-on', 'gap,late');
    assert.equal(hit.code, 3);
    assert.equal(hit.stderr, 'seqscope: --fail-on: 1 gap\n');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--fail-on', 'late,invalid').code, 0);
    // Several findings, in the words a reader expects ("2 duplicates", "1 late message").
    const lateFeed = join(dir, 'late.jsonl');
    writeFileSync(lateFeed, captureText([...FEED, { t: 30_010, channel: '310', seq: 4 }]) + '{oops\n{oops\n');
    const all = seqscope('replay', lateFeed, '--preset', 'cme', '--fail-on', 'gap,duplicate,late,invalid');
    assert.equal(all.code, 3);
    assert.equal(all.stderr, 'seqscope: --fail-on: 1 gap, 2 duplicates, 1 late message, 2 invalid records\n');
  });

  describe('--seq publishTime: a key judged by its publish order', () => {
    const ordered = join(root, 'test', 'fixtures', 'publish-order', 'ordered-keys.jsonl');

    it('--json counts the reordered message per key and in total, with the largest displacement', () => {
      const r = seqscope('replay', ordered, '--seq', 'publishTime', '--json');
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.reordered, 1);
      assert.equal(json.gaps + json.lost + json.late, 0);
      assert.deepEqual(json.maxReorder, { byMs: 2.5, byPosition: 4 });
      const aaa = json.byKey.find((k: { key: string }) => k.key === 'AAA');
      const bbb = json.byKey.find((k: { key: string }) => k.key === 'BBB');
      assert.deepEqual([aaa.reordered, aaa.delivered, aaa.maxReorder], [1, 12, { byMs: 2.5, byPosition: 4 }]);
      assert.deepEqual([bbb.reordered, bbb.maxReorder], [0, undefined]);
      assert.match(json.options, /seq publishTime \(publish order\)/);
    });

    it('the table has a reordered column and says how far out of place; --fail-on reordered exits 3', () => {
      const r = seqscope('replay', ordered, '--seq', 'publishTime');
      assert.equal(r.code, 0, r.stderr);
      const header = r.stdout
        .split('\n')
        .find((l) => /^\s*key\s+received/.test(l))!
        .trim()
        .split(/\s{2,}/);
      const row = r.stdout
        .split('\n')
        .find((l) => l.trim().startsWith('AAA'))!
        .trim()
        .split(/\s+/);
      assert.equal(row[header.indexOf('reordered')], '1');
      assert.match(r.stdout, /reordered: 1 message arrived after a later-published message of the same key; farthest out of place 2\.5ms, 4 positions/);
      const fail = seqscope('replay', ordered, '--seq', 'publishTime', '--fail-on', 'reordered');
      assert.equal(fail.code, 3);
      assert.equal(fail.stderr, 'seqscope: --fail-on: 1 reordered message\n');
      // Arrival order only: nothing judged, no column.
      const none = seqscope('replay', ordered, '--seq', 'none', '--fail-on', 'reordered');
      assert.equal(none.code, 0, none.stderr);
      assert.doesNotMatch(none.stdout, /reordered/);
    });

    it('exports the reordered event after its message: what it came behind, and by how much', () => {
      const r = seqscope('replay', ordered, '--seq', 'publishTime', '--export', '-', '--only', 'reordered');
      assert.equal(r.code, 0, r.stderr);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(events, [
        {
          type: 'reordered',
          key: 'AAA',
          messageId: '1008',
          publishTime: '2026-12-01T09:30:00.001250Z',
          behindPublishTime: '2026-12-01T09:30:00.003750Z',
          behindMessageId: '1018',
          byMs: 2.5,
          byPosition: 4,
          receivedAt: '2026-12-01T09:30:00.056000Z',
          at: Date.parse('2026-12-01T09:30:00.056Z'),
          line: 19,
        },
      ]);
      const all = seqscope('replay', ordered, '--seq', 'publishTime', '--export', '-')
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const at = all.findIndex((e) => e.type === 'reordered');
      assert.deepEqual([all[at - 1].type, all[at - 1].messageId], ['message', '1008']);
    });
  });

  it('counts a copy with other content under the same messageId as a conflict: table, --json, --fail-on conflict', () => {
    const conflicting = join(dir, 'conflict.jsonl');
    writeFileSync(conflicting, captureText([...FEED, { t: 30_010, channel: '310', seq: 3, data: 'not what was sent' }]));
    const table = seqscope('replay', conflicting, '--preset', 'cme');
    assert.equal(table.code, 0, table.stderr);
    const header = table.stdout
      .split('\n')
      .find((l) => /^\s*key\s+received/.test(l))!
      .trim()
      .split(/\s{2,}/);
    const row = table.stdout
      .split('\n')
      .find((l) => l.trim().startsWith('310'))!
      .trim()
      .split(/\s+/);
    assert.equal(row[header.indexOf('conflicts')], '1');
    assert.equal(row[header.indexOf('duplicates')], '3');
    const json = JSON.parse(seqscope('replay', conflicting, '--preset', 'cme', '--json').stdout);
    assert.deepEqual([json.conflicts, json.duplicates, json.redeliveries, json.byKey[0].conflicts], [1, 3, 1, 1]);
    const hit = seqscope('replay', conflicting, '--preset', 'cme', '--fail-on', 'conflict');
    assert.equal(hit.code, 3);
    assert.equal(hit.stderr, 'seqscope: --fail-on: 1 conflicting copy\n');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--fail-on', 'conflict').code, 0, 'redeliveries and second publishes are not conflicts');
  });

  it('shows hostile key names inert in the table (cut, escaped) and exact in --json', () => {
    const long = 'k'.repeat(2000);
    const trojan = 'admin\u202e\u2066 // evil\u001b[2J';
    const hostile = join(dir, 'hostile.jsonl');
    writeFileSync(
      hostile,
      captureText([
        { t: 0, orderingKey: long, id: 'a' },
        { t: 1, orderingKey: trojan, id: 'b' },
      ]),
    );
    const table = seqscope('replay', hostile);
    assert.equal(table.code, 0, table.stderr);
    assert.ok(!/[\u202e\u2066]/.test(table.stdout) && !table.stdout.includes('\u001b'), 'no raw control or bidi character reaches the terminal');
    assert.ok(table.stdout.includes('admin\\u202e\\u2066 // evil\\u001b[2J'), table.stdout);
    const widest = Math.max(...table.stdout.split('\n').map((l) => l.length));
    assert.ok(widest < 200, `rows stay narrow: ${widest} columns`);
    assert.ok(table.stdout.includes('k'.repeat(39) + '…'));
    const json = JSON.parse(seqscope('replay', hostile, '--json').stdout);
    assert.deepEqual(
      json.byKey.map((k: { key: string }) => k.key),
      [long, trojan],
    );
  });

  it("exit 2, a partial summary and what to do when the keys fill the heap (not V8's fatal error)", () => {
    // 200 000 keys in a 64 MiB heap (a small young generation, so the limit is mostly old space): it
    // stops near 100 000.
    const orders = join(dir, 'orders.jsonl');
    writeKeyPerMessageCapture(orders, 200_000);
    const small = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['--max-old-space-size=64', '--max-semi-space-size=1', cli, ...args], {
        encoding: 'utf8',
        cwd: root,
        maxBuffer: 256 << 20,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const r = small('replay', orders, '--export', join(dir, 'orders-trace.jsonl'));
    assert.equal(r.code, 2, r.stderr.slice(0, 2000));
    const line = Number(/stopped reading after line (\d+) of .*orders\.jsonl \(\d+ % read\)/.exec(r.stderr)?.[1]);
    assert.ok(line > 0 && line < 200_000, r.stderr);
    assert.match(r.stderr, /: its \d+ keys fill the memory Node allows the replay \(\d+ MiB in use and some \d+ MiB to summarise them, of \d+ MiB; /);
    assert.match(
      r.stderr,
      /The summary and the exported trace cover what was read\. To read it all, give Node more memory \(NODE_OPTIONS=--max-old-space-size=\d+ seqscope replay …\) or sequence by a coarser key/,
    );
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    assert.doesNotMatch(r.stderr, /FATAL|heap out of memory/);
    assert.match(r.stdout, /\(STOPPED, memory full: partial result\)/);
    // The trace holds what was read: one message event per line read.
    const trace = readFileSync(join(dir, 'orders-trace.jsonl'), 'utf8').trim().split('\n');
    assert.equal(trace.length, line);

    const j = small('replay', orders, '--json');
    assert.equal(j.code, 2);
    const summary = JSON.parse(j.stdout);
    assert.equal(summary.stopped, 'memory');
    assert.equal(summary.cancelled, true);
    assert.equal(summary.byKey.length, summary.keys, 'every key read is listed (written in pieces)');
    assert.equal(summary.received, summary.keys);
    assert.ok(summary.heapMiB > 0 && summary.heapMiB < summary.heapLimitMiB);
  });

  it('exit 2 with a one-line message for a missing file, naming it', () => {
    const r = seqscope('replay', join(dir, 'nope.jsonl'));
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /nope\.jsonl: no such file/);
    assert.doesNotMatch(r.stderr, /\bat .*\.js:\d+/, 'no stack trace');
  });

  it('exit 2 for a file that is not a capture, and for bad flags', () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello world\n');
    const r = seqscope('replay', text);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /notes\.txt is not a capture/);
    for (const args of [
      ['replay', feed, '--bogus'],
      ['replay', feed, '--seq-bits', '12'],
      ['replay', feed, '--gap-timeout', 'soon'],
      ['replay', feed, '--key', 'channel'],
      ['replay', feed, '--fail-on', 'weird'],
      ['replay', feed, '--format', 'csv'],
      ['replay'],
    ]) {
      const b = seqscope(...args);
      assert.equal(b.code, 2, `${args.join(' ')}: ${b.stderr}`);
      assert.match(b.stderr, /^seqscope: /, args.join(' '));
      assert.equal(b.stderr.trim().split('\n').length, 1, `one line for ${args.join(' ')}: ${b.stderr}`);
    }
  });

  it('with no arguments: the usage on stderr, exit 2 (--help stays exit 0 on stdout)', () => {
    const r = seqscope();
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^Usage: seqscope \[options\] \[command\]/);
    assert.match(r.stderr, /replay \[options\] <capture\.\.\.>/);
    const help = seqscope('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: seqscope/);
  });

  it('says once that numbers do not fit the width, with the fix; the records still count invalid (exit 0 when some were sequenced)', () => {
    const wide = join(dir, 'wide.jsonl');
    // CME's MsgSeqNum is a uInt32 (1539130 in CME's tutorial); one small number fits 16 bits.
    writeFileSync(
      wide,
      captureText([...[1539130, 1539131, 1539132, 1539133, 1539134].map((seq, i) => ({ t: i, channel: '310', seq })), { t: 9, channel: '312', seq: 7 }]),
    );
    const r = seqscope('replay', wide, '--preset', 'cme', '--seq-bits', '16');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      'seqscope: 5 records have MsgSeqNum too wide for 16-bit numbers (largest 1539134, first at line 1): counted invalid; use --seq-bits 32\n',
    );
    assert.match(r.stdout, /invalid records: 5 \(skipped\)\n {2}5 with MsgSeqNum too wide for 16-bit numbers \(largest 1539134, first at line 1\)\n/);
    assert.doesNotMatch(r.stdout, /line 2:/, 'no line per record');
    const json = JSON.parse(seqscope('replay', wide, '--preset', 'cme', '--seq-bits', '16', '--json').stdout);
    assert.deepEqual([json.invalid, json.received, json.tooWide.count, json.invalidSamples.length], [5, 1, 5, 0]);
    const fixed = seqscope('replay', wide, '--preset', 'cme', '--json');
    assert.deepEqual([fixed.code, fixed.stderr, JSON.parse(fixed.stdout).invalid], [0, '', 0], 'the cme preset is 32-bit');
  });

  it('a capture in which no record could be sequenced is a failed run: exit 2, the reason and the fix, once', () => {
    const wide = join(dir, 'all-wide.jsonl');
    writeFileSync(wide, captureText([1539130, 1539131, 1539132].map((seq, i) => ({ t: i, channel: '310', seq }))));
    const r = seqscope('replay', wide, '--preset', 'cme', '--seq-bits', '16');
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'seqscope: no record could be sequenced: all 3 records have MsgSeqNum too wide for 16-bit numbers (largest 1539132): use --seq-bits 32\n',
    );
    assert.match(r.stdout, /total \(0 keys\)/, 'the summary is still printed');
    const noKey = seqscope('replay', feed, '--key', 'attribute:Nope', '--json');
    assert.equal(noKey.code, 2);
    assert.equal(noKey.stderr.trim().split('\n').length, 1, noKey.stderr);
    assert.match(
      noKey.stderr,
      /^seqscope: no record could be sequenced: all 7 records are invalid \(the first: key attribute "Nope" is missing\): .*--key attribute:<name>/,
    );
    assert.ok(JSON.parse(noKey.stdout).unsequenced.reason, '--json carries it too');
  });

  it('reports invalid lines with their line number and still replays the rest (exit 0)', () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, captureText(FEED.slice(0, 2)) + '{oops\n' + captureText(FEED.slice(2)));
    const r = seqscope('replay', bad, '--preset', 'cme', '--json');
    assert.equal(r.code, 0);
    const s = JSON.parse(r.stdout);
    assert.equal(s.invalid, 1);
    assert.equal(s.received, 7);
    assert.equal(s.invalidSamples[0].line, 3);
    const human = seqscope('replay', bad, '--preset', 'cme');
    assert.match(human.stdout, /invalid records: 1/);
    assert.match(human.stdout, /line 3: not valid JSON/);
  });

  it('skips a line too long to be a record without holding it, plain and gzip, and sequences the rest', () => {
    // 65 MiB with no newline: a file that lost its newlines, or is not a capture after line 2.
    const huge = join(dir, 'huge.jsonl');
    const lines = captureText(FEED).split('\n');
    const text = [lines[0], lines[1], 'x'.repeat(65 * 1024 * 1024), ...lines.slice(2)].join('\n');
    writeFileSync(huge, text);
    writeFileSync(huge + '.gz', gzipSync(text, { level: 1 }));
    for (const f of [huge, huge + '.gz']) {
      const r = seqscope('replay', f, '--preset', 'cme', '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.deepEqual([s.received, s.invalid, s.delivered], [7, 1, 5], f);
      assert.deepEqual(s.invalidSamples, [
        {
          line: 3,
          reason: 'the record is 65 MiB, longer than SeqScope reads (64 MiB; a Pub/Sub message is at most 10 MB): skipped unread — is a newline missing?',
        },
      ]);
    }
  });

  it('refuses to export over a capture it reads, by any name (exit 2), and leaves it as it was', () => {
    const own = join(dir, 'own.jsonl');
    writeFileSync(own, captureText(FEED));
    const before = readFileSync(own);
    const link = join(dir, 'own-link.jsonl');
    symlinkSync(own, link);
    for (const [target, why] of [
      [own, ''],
      [link, ` (the same file as ${own})`],
      [relative(root, own), ` (the same file as ${own})`],
    ]) {
      const r = seqscope('replay', feed, own, '--preset', 'cme', '--export', target);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `seqscope: --export ${target} would overwrite a capture being read${why}: export to another file\n`);
      assert.deepEqual(readFileSync(own), before, target);
    }
  });

  it('refuses a capture named twice, by any name (exit 2): read twice, it would merge with itself', () => {
    const own = join(dir, 'twice.jsonl');
    writeFileSync(own, captureText(FEED));
    const link = join(dir, 'twice-link.jsonl');
    symlinkSync(own, link);
    const tail = ': name each capture once (read twice, it would merge with itself and every message would count as a duplicate)\n';
    for (const [args, said] of [
      [[own, own], `${own} is named twice`],
      [[feed, own, link], `${own} and ${link} are the same file`],
      [[own, relative(root, own)], `${own} and ${relative(root, own)} are the same file`],
    ] as const) {
      const r = seqscope('replay', ...args, '--preset', 'cme', '--json');
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `seqscope: ${said}${tail}`);
    }
    // Two files with the same content are two captures (two recorders on one subscription).
    const copy = join(dir, 'twice-copy.jsonl');
    writeFileSync(copy, captureText(FEED));
    const r = seqscope('replay', own, copy, '--preset', 'cme', '--json');
    assert.equal(r.code, 0, r.stderr);
  });

  it('a capture it cannot read leaves the previous export as it was (exit 2); an export it cannot write says what to do', () => {
    const out = join(dir, 'previous.jsonl');
    writeFileSync(out, 'the previous export\n');
    const listing = () =>
      readdirSync(dir)
        .filter((n) => n.includes('previous'))
        .sort();
    for (const args of [[join(dir, 'typo.jsonl')], [feed, join(dir, 'typo.jsonl')]]) {
      const r = seqscope('replay', ...args, '--preset', 'cme', '--export', out);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `seqscope: cannot read ${join(dir, 'typo.jsonl')}: no such file\n`);
      assert.equal(readFileSync(out, 'utf8'), 'the previous export\n');
      assert.deepEqual(listing(), ['previous.jsonl'], 'no partial file beside it');
    }
    const nowhere = join(dir, 'no-such-folder', 'trace.jsonl');
    const r = seqscope('replay', feed, '--preset', 'cme', '--export', nowhere);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `seqscope: cannot write ${nowhere}: the folder ${join(dir, 'no-such-folder')} does not exist: create it, or export to a folder that exists\n`,
    );
  });

  it('seek refuses a time in the future (it would acknowledge the backlog) and one it cannot read, before connecting', () => {
    // Nothing listens on port 1: these must be refused before any connection is tried.
    const conn = ['--emulator-host', '127.0.0.1:1', '--project', 'seqscope-test', '--subscription', 'orders'];
    const future = seqscope('seek', ...conn, '--time', '2999-01-01T00:00:00Z');
    assert.equal(future.code, 2);
    assert.equal(
      future.stderr,
      'seqscope: --time: 2999-01-01T00:00:00.000Z is in the future: seeking there acknowledges every message published before it, including those not yet received: give a time in the past, or add --force to acknowledge the backlog on purpose\n',
    );
    for (const bad of ['5', 'yesterday', '2026-13-45T00:00:00Z']) {
      const r = seqscope('seek', ...conn, '--time', bad);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /is not a time: write how long ago \(5m, 30s, 1h\) or a date-time/, bad);
    }
  });

  it('exports the ordered trace as JSONL, CSV and Chrome trace', () => {
    const jsonl = join(dir, 'out.jsonl');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', jsonl).code, 0);
    const events = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Duplicates are reported when they arrive (both copies of 2 and of 5 arrive while the first
    // is held); messages when released; the gap when declared.
    assert.deepEqual(
      events.map((e) => [e.type, e.seq ?? `${e.from}-${e.to}`]),
      [
        ['duplicate', 2],
        ['message', 1],
        ['message', 2],
        ['message', 3],
        ['duplicate', 5],
        ['gap', '4-4'],
        ['message', 5],
        ['message', 6],
      ],
    );
    assert.equal(events[0].redelivery, true);
    assert.equal(events[4].redelivery, false);
    assert.equal(events[4].messageId, 'second-publish');

    const csv = join(dir, 'out.csv');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', csv).code, 0);
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    assert.match(rows[0], /^type,key,seq,/);
    assert.equal(rows.length, 1 + events.length);

    const trace = join(dir, 'out.trace');
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', trace, '--format', 'chrome-trace').code, 0);
    const t = JSON.parse(readFileSync(trace, 'utf8'));
    assert.ok(Array.isArray(t.traceEvents));
    assert.ok(t.traceEvents.some((e: { name: string; args?: { name?: string } }) => e.name === 'process_name' && e.args?.name === 'key 310'));
    assert.ok(t.traceEvents.some((e: { cat?: string; ph: string }) => e.cat === 'gap' && e.ph === 'b'));
  });

  it('writes the trace to stdout with --export - and the summary to stderr', () => {
    const r = seqscope('replay', feed, '--preset', 'cme', '--export', '-');
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim().split('\n').length, 8);
    assert.match(r.stderr, /SeqScope replay/);
  });

  it('merges several captures by their clock', () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(
      a,
      captureText([
        { t: 0, orderingKey: 'x', seq: 1 },
        { t: 20, orderingKey: 'x', seq: 3 },
      ]),
    );
    writeFileSync(
      b,
      captureText([
        { t: 10, orderingKey: 'x', seq: 2 },
        { t: 30, orderingKey: 'x', seq: 4 },
      ]),
    );
    const out = join(dir, 'merged.jsonl');
    const r = seqscope('replay', a, b, '--seq', 'attribute:MsgSeqNum', '--gap-timeout', '0', '--export', out, '--json');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.gaps, 0, 'merged by time, 1 2 3 4 arrive in order');
    assert.deepEqual(s.files, [a, b]);
    const events = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => [e.seq, e.file]),
      [
        [1, a],
        [2, b],
        [3, a],
        [4, b],
      ],
    );
  });

  it('documents everything in --help', () => {
    const top = seqscope('--help');
    assert.equal(top.code, 0);
    assert.match(top.stdout, /replay/);
    const help = seqscope('replay', '--help');
    assert.equal(help.code, 0);
    for (const flag of [
      '--key',
      '--seq',
      '--seq-bits',
      '--gap-timeout',
      '--capacity',
      '--preset',
      '--export',
      '--format',
      '--json',
      '--fail-on',
      'Exit codes',
    ]) {
      assert.ok(help.stdout.includes(flag), flag);
    }
  });

  it('--sort-keys lists the keys by name or by findings, in the table and in --json; over 40 keys the table keeps those with most findings', () => {
    // Four keys in the order they appear: k-10 (2 duplicates), k-9 (clean), k-100 (1 lost), k-2 (clean).
    const spec: LineSpec[] = [];
    const channels = ['k-10', 'k-9', 'k-100', 'k-2'];
    for (let n = 1; n <= 6; n++) {
      for (const [c, channel] of channels.entries()) {
        if (channel === 'k-100' && n === 3) continue;
        spec.push({ t: n * 100 + c, channel, seq: n });
        if (channel === 'k-10' && n >= 5) spec.push({ t: n * 100 + c + 1, channel, seq: n });
      }
    }
    const sortable = join(dir, 'sortable.jsonl');
    writeFileSync(sortable, captureText(spec));
    // The counts table, and the percentiles table under it: the same keys in the same order.
    const tableKeys = (r: { stdout: string }, prefix = 'k-') => {
      const [counts, percentiles] = r.stdout
        .split('\n\n')
        .slice(1, 3)
        .map((t) =>
          t
            .split('\n')
            .filter((l) => l.startsWith(`  ${prefix}`))
            .map((l) => l.trim().split(/\s+/)[0]),
        );
      assert.deepEqual(percentiles, counts, 'the percentiles table lists the keys of the counts table');
      return counts;
    };
    const jsonKeys = (r: { stdout: string }) => (JSON.parse(r.stdout) as { byKey: { key: string }[] }).byKey.map((k) => k.key);
    const run = (...extra: string[]) => seqscope('replay', sortable, '--preset', 'cme', ...extra);
    assert.deepEqual(tableKeys(run()), ['k-10', 'k-9', 'k-100', 'k-2'], 'first seen by default');
    assert.deepEqual(tableKeys(run('--sort-keys', 'name')), ['k-2', 'k-9', 'k-10', 'k-100']);
    assert.deepEqual(tableKeys(run('--sort-keys', 'findings')), ['k-100', 'k-10', 'k-9', 'k-2']);
    assert.deepEqual(jsonKeys(run('--json', '--sort-keys', 'name')), ['k-2', 'k-9', 'k-10', 'k-100']);
    assert.deepEqual(jsonKeys(run('--json')), ['k-10', 'k-9', 'k-100', 'k-2']);
    // A Chrome trace's tracks follow the order too.
    const trace = join(dir, 'sorted.json');
    assert.equal(run('--sort-keys', 'name', '--export', trace).code, 0);
    const doc = JSON.parse(readFileSync(trace, 'utf8')) as {
      traceEvents: { ph: string; name: string; pid: number; args: { name?: string; sort_index?: number } }[];
    };
    const names = new Map(doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
    const tracks = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_sort_index').sort((a, b) => a.args.sort_index! - b.args.sort_index!);
    assert.deepEqual(
      tracks.map((e) => names.get(e.pid)),
      ['key k-2', 'key k-9', 'key k-10', 'key k-100'],
    );
    const bad = run('--sort-keys', 'size');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--sort-keys.*Allowed choices are arrival, name, findings/);

    // 60 keys, one with a gap, one with a duplicate: the table shows 40, both of those among them, by name.
    const many: LineSpec[] = [];
    for (let c = 0; c < 60; c++) {
      for (let n = 1; n <= 3; n++) if (!(c === 50 && n === 2)) many.push({ t: n * 100 + c, channel: `ch-${c}`, seq: n });
    }
    many.push({ t: 400, channel: 'ch-45', seq: 1 });
    const manyPath = join(dir, 'many-keys.jsonl');
    writeFileSync(manyPath, captureText(many));
    const r = seqscope('replay', manyPath, '--preset', 'cme', '--sort-keys', 'name');
    const shown = tableKeys(r, 'ch-');
    assert.equal(shown.length, 40);
    assert.ok(shown.includes('ch-50') && shown.includes('ch-45'), 'the keys with findings are shown');
    assert.deepEqual(
      shown,
      [...shown].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))),
      'in name order',
    );
    assert.match(r.stdout, /… 20 more keys, none with more findings than those shown/);
  });

  describe('CME Smart Stream JSON payloads (test/fixtures/cme-json) and user presets', () => {
    const JSON_CAPTURE = 'test/fixtures/cme-json/smartstream-json.jsonl';
    const counts = (s: Record<string, unknown>) => ({
      received: s.received,
      delivered: s.delivered,
      gaps: s.gaps,
      lost: s.lost,
      duplicates: s.duplicates,
      redeliveries: s.redeliveries,
      conflicts: s.conflicts,
      late: s.late,
      invalid: s.invalid,
      keys: s.keys,
    });
    const INVALID = [
      { line: 8, reason: 'the payload is not JSON' },
      { line: 9, reason: 'payload field header.sequenceNumber is missing' },
      { line: 10, reason: 'payload field header.sentTime "yesterday" is not a time: use ISO 8601 (2026-12-01T09:30:00.123456789Z) or ms/ns since the epoch' },
    ];

    it('--preset cme-json: one sequence per topic from header.sequenceNumber, latency from header.sentTime', () => {
      const r = seqscope('replay', JSON_CAPTURE, '--preset', 'cme-json', '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.deepEqual(counts(s), { received: 9, delivered: 8, gaps: 1, lost: 1, duplicates: 1, redeliveries: 1, conflicts: 0, late: 0, invalid: 3, keys: 1 });
      assert.equal(s.options, 'key none, seq json:header.sequenceNumber (64-bit), time json:header.sentTime, gap timeout 10s, capacity 10000');
      assert.deepEqual(s.invalidSamples, INVALID);
      // Every line arrives 25 ms after its sentTime (ISO 8601 with nanoseconds and Z, as CME writes it).
      assert.deepEqual(
        s.byKey.map((k: { latency: unknown }) => k.latency),
        [{ count: 8, meanMs: 25, maxMs: 25 }],
      );
    });

    it('--preset-file: a user preset by name, with flags beside it overriding', () => {
      const file = join(dir, 'presets.json');
      writeFileSync(
        file,
        JSON.stringify({ 'by-symbol': { key: 'json:payload[0].instrument.symbol', seq: 'none', time: 'json:header.sentTime', gapTimeout: '2s' } }),
      );
      const r = seqscope('replay', JSON_CAPTURE, '--preset-file', file, '--preset', 'by-symbol', '--capacity', '50', '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.equal(s.options, 'key json:payload[0].instrument.symbol, seq none, time json:header.sentTime, gap timeout 2s, capacity 50');
      assert.deepEqual(counts(s), { received: 10, delivered: 9, gaps: 0, lost: 0, duplicates: 1, redeliveries: 1, conflicts: 0, late: 0, invalid: 2, keys: 2 });
      assert.deepEqual(
        s.byKey.map((k: { key: string; received: number }) => [k.key, k.received]),
        [
          ['ESZ6', 7],
          ['NQZ6', 3],
        ],
      );
      assert.deepEqual(s.invalidSamples, [INVALID[0], INVALID[2]], 'without a json seq, the line without sequenceNumber is valid');
    });

    it('a bad --preset-file is an input error naming the file and the field', () => {
      const file = join(dir, 'bad-presets.json');
      writeFileSync(file, JSON.stringify({ mine: { key: 'attribute:Channel', seq: 'MsgSeqNum' } }));
      const r = seqscope('replay', JSON_CAPTURE, '--preset-file', file, '--preset', 'mine');
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        new RegExp(
          `--preset-file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: preset "mine": field "seq": seq "MsgSeqNum" is not valid: use attribute:<name>`,
        ),
      );
      writeFileSync(file, '{"mine": ');
      const notJson = seqscope('replay', JSON_CAPTURE, '--preset-file', file);
      assert.equal(notJson.code, 2);
      assert.match(notJson.stderr, /bad-presets\.json: not JSON/);
      const missing = seqscope('replay', JSON_CAPTURE, '--preset-file', join(dir, 'none.json'));
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /none\.json: cannot be read \(ENOENT\)/);
      const unknown = seqscope('replay', JSON_CAPTURE, '--preset', 'nyse');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /preset "nyse" is unknown: use cme, cme-json/);
    });
  });

  describe('a CME Smart Stream capture with MDP 3.0 payloads (test/fixtures/cme)', () => {
    const CME = 'test/fixtures/cme/smartstream-310.jsonl';
    const counts = (s: Record<string, unknown>) => ({
      received: s.received,
      delivered: s.delivered,
      gaps: s.gaps,
      lost: s.lost,
      duplicates: s.duplicates,
      redeliveries: s.redeliveries,
      late: s.late,
      invalid: s.invalid,
      keys: s.keys,
    });

    it('--preset cme: sequenced by the MsgSeqNum attribute, 32-bit', () => {
      const r = seqscope('replay', CME, '--preset', 'cme', '--json');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      const s = JSON.parse(r.stdout);
      assert.deepEqual(counts(s), { received: 14, delivered: 13, gaps: 1, lost: 1, duplicates: 1, redeliveries: 1, late: 0, invalid: 0, keys: 1 });
      assert.equal(s.options, 'key attribute:Channel, seq attribute:MsgSeqNum (32-bit), gap timeout 10s, capacity 10000, reset to 1');
    });

    it('--seq mdp3: numbers from the packet header; disagreeing and truncated packets are invalid with the reason; --time mdp3 latency from the packet', () => {
      const r = seqscope('replay', CME, '--preset', 'cme', '--seq', 'mdp3', '--time', 'mdp3', '--json');
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.deepEqual(counts(s), { received: 10, delivered: 9, gaps: 2, lost: 5, duplicates: 1, redeliveries: 1, late: 0, invalid: 4, keys: 1 });
      assert.equal(s.options, 'key attribute:Channel, seq mdp3 (32-bit), time mdp3, gap timeout 10s, capacity 10000, reset to 1');
      assert.deepEqual(s.invalidSamples, [
        { line: 9, reason: 'MDP packet MsgSeqNum 1539183 disagrees with attribute 1539138' },
        { line: 10, reason: 'MDP packet MsgSeqNum 1539193 disagrees with attribute 1539139' },
        { line: 11, reason: 'MDP 3.0 message 1 at byte 12 gives MsgSize 64, but 28 bytes are left (truncated?)' },
        { line: 12, reason: 'MDP 3.0 packet of 8 bytes is shorter than its 12-byte header (truncated?)' },
      ]);
      // receivedAt − packet SendingTime: 1578070424741 − 1578070424698.281707 on every line the fixture writes (ms
      // since the epoch as a double: exact to about 0.25 µs).
      assert.equal(s.byKey[0].latency.count, 9);
      assert.ok(Math.abs(s.byKey[0].latency.meanMs - 42.718293) < 1e-3, String(s.byKey[0].latency.meanMs));
      const byAttr = JSON.parse(seqscope('replay', CME, '--preset', 'cme', '--json').stdout);
      assert.ok(Math.abs(byAttr.byKey[0].latency.meanMs - 29) < 1e-9, 'the cme preset: latency from the SendingTime attribute (ms)');
    });

    it('--seq mdp3 on JSON payloads: no record sequenced, exit 2 with the reason and the fix', () => {
      const r = seqscope('replay', 'media/samples/cme-sample.jsonl', '--preset', 'cme', '--seq', 'mdp3');
      assert.equal(r.code, 2);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(
        r.stderr,
        /^seqscope: no record could be sequenced: all 3006 records are invalid \(the first: the payload is JSON text, not an MDP 3\.0 packet\): .*use --seq attribute:MsgSeqNum/,
      );
    });

    it('exports the decoded packet header with each message in JSONL', () => {
      const out = join(dir, 'cme-trace.jsonl');
      assert.equal(seqscope('replay', CME, '--preset', 'cme', '--export', out).code, 0);
      const events = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const first = events.find((e) => e.type === 'message' && e.seq === 1539134);
      assert.deepEqual(first.mdp3, {
        msgSeqNum: 1539134,
        sendingTimeNs: '1578070424703281707',
        messages: [
          { offset: 12, size: 40, blockLength: 11, templateId: 46, schemaId: 1, version: 9 },
          { offset: 52, size: 64, blockLength: 11, templateId: 47, schemaId: 1, version: 9 },
          { offset: 116, size: 45, blockLength: 11, templateId: 32, schemaId: 1, version: 9 },
        ],
      });
      const cut = events.find((e) => e.type === 'message' && e.seq === 1539141);
      assert.equal(cut.mdp3, undefined, 'a truncated packet has nothing decoded to show');
      const plain = join(dir, 'plain-trace.jsonl');
      assert.equal(seqscope('replay', CME, '--key', 'attribute:Channel', '--seq', 'attribute:MsgSeqNum', '--export', plain).code, 0);
      assert.ok(!readFileSync(plain, 'utf8').includes('"mdp3"'), 'only when the session reads MDP 3.0 (cme preset or mdp3)');
    });
  });

  it('replays the bundled sample capture', () => {
    const r = seqscope('replay', 'media/samples/cme-sample.jsonl', '--preset', 'cme', '--json');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.keys, 3);
    assert.equal(s.gaps, 2, 'the sample has two real gaps');
    assert.ok(s.redeliveries > 0 && s.duplicates > s.redeliveries, 'both kinds of duplicate');
    assert.equal(s.invalid, 0);
  });

  it('replays the bundled ordering key sample to its ground truth: one key delivered out of publish order, one redelivered', () => {
    const truth = orderingSample().truth;
    const r = seqscope('replay', 'media/samples/orders-sample.jsonl', '--json', '--fail-on', 'reordered');
    assert.equal(r.code, 3, 'reordered messages fail the run with --fail-on reordered');
    const s = JSON.parse(r.stdout);
    assert.match(s.options, /seq publishTime \(publish order\)/);
    assert.deepEqual(
      [s.keys, s.received, s.gaps, s.reordered, s.redeliveries, s.duplicates],
      [5, truth.lines, 0, truth.reordered, truth.redeliveries, truth.redeliveries],
    );
    assert.deepEqual(
      s.byKey.filter((k: { reordered: number }) => k.reordered > 0).map((k: { key: string }) => k.key),
      [truth.movedKey],
    );
    assert.equal(
      readFileSync(join(root, 'media', 'samples', 'orders-sample.jsonl'), 'utf8'),
      orderingSample().lines.join('\n') + '\n',
      'the checked-in sample is what the generator writes',
    );
  });

  it('says on stderr when a capture holds no records (exit 0: a quiet recording is empty too); not when it holds some', () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const blank = join(dir, 'blank.jsonl');
    writeFileSync(blank, '\n\n');
    const one = seqscope('replay', empty, '--json');
    assert.equal(one.code, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).received, 0);
    assert.equal(one.stderr, `seqscope: note: ${empty} holds no records: nothing was sequenced\n`);
    const piped = seqscopeWithInput(Buffer.alloc(0), 'replay', '-');
    assert.equal(piped.stderr, 'seqscope: note: standard input holds no records: nothing was sequenced\n');
    assert.equal(seqscope('replay', empty, blank).stderr, `seqscope: note: ${empty}, ${blank} hold no records: nothing was sequenced\n`);
    assert.equal(seqscope('replay', empty, feed).stderr, '', 'one of them holds records');
  });

  it('says on stderr that a --gap-timeout without a unit is milliseconds, and still runs with it', () => {
    const bare = seqscope('replay', feed, '--preset', 'cme', '--gap-timeout', '10', '--json');
    assert.equal(bare.code, 0, bare.stderr);
    assert.equal(bare.stderr, 'seqscope: --gap-timeout 10 has no unit, so it is 10ms; write 10s for seconds (or 10ms to say so)\n');
    assert.match(JSON.parse(bare.stdout).options, /gap timeout 10ms/);
    for (const quiet of ['10s', '10ms', '0']) assert.equal(seqscope('replay', feed, '--preset', 'cme', '--gap-timeout', quiet, '--json').stderr, '', quiet);
  });

  it('stops quietly with 141 when standard output closes early (| head), help included', async () => {
    const sample = join(root, 'media', 'samples', 'cme-sample.jsonl');
    // The trace of the sample is far more than a pipe holds: writes go on after the reader left.
    for (const [args, closeAt] of [
      [['replay', sample, '--preset', 'cme', '--export', '-'], 'first output'],
      [['replay', '--help'], 'start'],
    ] as const) {
      const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      if (closeAt === 'start') child.stdout.destroy();
      else child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 141, `${args.join(' ')}: ${stderr}`);
      assert.equal(stderr, '', 'no stack trace, no "cannot write"');
    }
  });

  it('says once that stdout cannot be written (a full disk) and exits 2', function () {
    if (!existsSync('/dev/full')) this.skip();
    for (const args of [
      ['replay', feed, '--preset', 'cme'],
      ['replay', feed, '--preset', 'cme', '--export', '-'],
    ]) {
      const full = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
        assert.equal(r.status, 2, args.join(' '));
        // The same words whether the summary or an exported trace filled it.
        assert.equal(r.stderr, 'seqscope: cannot write stdout: the disk is full: free some space, or export to another disk\n', args.join(' '));
      } finally {
        closeSync(full);
      }
    }
  });

  it('reads gzip captures and standard input ("-") as the plain file, and writes .gz exports compressed', () => {
    const counts = (stdout: string) => ({ ...JSON.parse(stdout), files: undefined });
    const want = seqscope('replay', feed, '--preset', 'cme', '--json');
    const gz = join(dir, 'feed.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(feed)));
    const fromGz = seqscope('replay', gz, '--preset', 'cme', '--json');
    assert.equal(fromGz.code, 0, fromGz.stderr);
    assert.deepEqual(counts(fromGz.stdout), counts(want.stdout));
    const fromStdin = seqscopeWithInput(readFileSync(gz), 'replay', '-', '--preset', 'cme', '--json');
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.deepEqual(counts(fromStdin.stdout), counts(want.stdout));
    assert.match(seqscopeWithInput(readFileSync(feed), 'replay', '-', '--preset', 'cme').stdout, /^SeqScope replay of standard input/);

    const plainOut = join(dir, 'gz-trace.jsonl');
    const gzOut = join(dir, 'gz-trace.jsonl.gz');
    assert.equal(seqscope('replay', gz, '--preset', 'cme', '--export', plainOut).code, 0);
    assert.equal(seqscope('replay', gz, '--preset', 'cme', '--export', gzOut).code, 0);
    assert.equal(gunzipSync(readFileSync(gzOut)).toString('utf8'), readFileSync(plainOut, 'utf8'));

    const twice = seqscopeWithInput(Buffer.alloc(0), 'replay', '-', '-');
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /^seqscope: "-" \(standard input\) can be named once\n$/);
  });

  it('a truncated gzip capture: what was read is replayed, the cut is one invalid record (exit 3 with --fail-on invalid)', () => {
    const big = join(dir, 'big.jsonl');
    const specs: LineSpec[] = [];
    for (let i = 0; i < 3000; i++) specs.push({ t: i * 3, channel: '310', seq: i + 1 });
    writeFileSync(big, captureText(specs));
    const z = gzipSync(readFileSync(big));
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, z.subarray(0, Math.floor(z.length / 2)));
    const r = seqscope('replay', cut, '--preset', 'cme', '--json');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.invalid, 1);
    assert.ok(s.delivered > 500 && s.delivered < 3000, String(s.delivered));
    assert.equal(s.gaps, 0, 'a cut is not a gap');
    assert.equal(s.invalidSamples[0].line, s.received + 1);
    assert.match(s.invalidSamples[0].reason, /gzip data ends early/);
    assert.equal(seqscope('replay', cut, '--preset', 'cme', '--fail-on', 'invalid').code, 3);
  });

  it('--only, --only-key, --numbers and --where choose what --export writes; the summary still counts everything', () => {
    const all = seqscope('replay', feed, '--preset', 'cme', '--export', '-');
    const events = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const findings = seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--only', 'gaps,duplicate');
    assert.equal(findings.code, 0, findings.stderr);
    assert.deepEqual(
      findings.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
      events.filter((e) => e.type === 'gap' || e.type === 'duplicate'),
    );
    assert.match(findings.stderr, /ordered trace written to stdout \(filter gap, duplicate: 3 events\)/);
    assert.match(findings.stderr, /^\s+310\s+7\s+5\s+1\s+1\s+2/m, 'the summary counts every event');

    const out = join(dir, 'filtered.jsonl');
    const ranged = seqscope('replay', feed, '--preset', 'cme', '--export', out, '--numbers', '2-4', '--only-key', '310', '--json');
    assert.equal(ranged.code, 0, ranged.stderr);
    const s = JSON.parse(ranged.stdout);
    assert.equal(s.received, 7);
    assert.deepEqual(s.exported, { filter: 'key 310 · #2–4', events: 4 });
    assert.deepEqual(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((e) => [e.type, e.seq ?? `${e.from}-${e.to}`]),
      [
        ['duplicate', 2],
        ['message', 2],
        ['message', 3],
        ['gap', '4-4'],
      ],
    );
    assert.equal(seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--only-key', 'nope').stdout, '');
    const where = seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--where', 'MsgSeqNum=5');
    // Gaps have no record to match: they are kept, as in the extension's filter.
    assert.deepEqual(
      where.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((e) => [e.type, e.messageId ?? `${e.from}-${e.to}`]),
      [
        ['duplicate', 'second-publish'],
        ['gap', '4-4'],
        ['message', '310-5'],
      ],
    );

    // 16-bit numbers: FROM above TO runs through the wrap, 6…65535 then 0…2.
    const wrapped = seqscope('replay', feed, '--preset', 'cme', '--seq-bits', '16', '--export', '-', '--numbers', '6-2', '--only-key', '310');
    assert.equal(wrapped.code, 0, wrapped.stderr);
    const wrappedSeqs = wrapped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).seq);
    assert.deepEqual(
      wrappedSeqs,
      events.filter((e) => e.key === '310' && e.type !== 'gap' && (e.seq >= 6 || e.seq <= 2)).map((e) => e.seq),
    );
    assert.ok(wrappedSeqs.some((n) => n >= 6) && wrappedSeqs.some((n) => n <= 2), 'both sides of the wrap');
    const unwrapped = seqscope('replay', feed, '--export', '-', '--numbers', '9-3');
    assert.equal(unwrapped.code, 2);
    assert.match(unwrapped.stderr, /64-bit numbers do not wrap: write the lower number first/);

    for (const args of [
      ['--only', 'gap'],
      ['--export', '-', '--only', 'gapz'],
      ['--export', '-', '--numbers', '9-4294967296'],
      ['--export', '-', '--where', 'x'],
    ]) {
      const r = seqscope('replay', feed, '--preset', 'cme', ...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  it('--grep and --message-id export the messages whose payload matches or whose id is named (gaps kept); a bad pattern is a usage error naming it', () => {
    const events = seqscope('replay', feed, '--preset', 'cme', '--export', '-')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The payloads are {"seq":N}.
    const grep = seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--grep', '"seq":[25]\\b');
    assert.equal(grep.code, 0, grep.stderr);
    const grepped = grep.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      grepped,
      events.filter((e) => e.type === 'gap' || e.seq === 2 || e.seq === 5),
    );
    assert.equal(grepped.filter((e) => e.type !== 'gap').length, 4, 'seq 2 and 5, twice each');
    assert.match(grep.stderr, /ordered trace written to stdout \(filter payload \/"seq":\[25\]\\b\/: 5 events\)/);

    const out = join(dir, 'by-id.jsonl');
    const byId = seqscope(
      'replay',
      feed,
      '--preset',
      'cme',
      '--export',
      out,
      '--message-id',
      'second-publish',
      '--message-id',
      '310-1',
      '--only',
      'message,duplicate',
      '--json',
    );
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(JSON.parse(byId.stdout).exported, { filter: 'message, duplicate · messageId second-publish, 310-1', events: 2 });
    assert.deepEqual(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).messageId),
      ['310-1', 'second-publish'],
    );

    // A backtracking engine would take minutes here; RE2 is linear.
    const slow = seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--grep', '(\\{+)+x$');
    assert.equal(slow.code, 0, slow.stderr);
    assert.deepEqual(
      slow.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type),
      ['gap'],
    );

    const bad = seqscope('replay', feed, '--preset', 'cme', '--export', '-', '--grep', '(a');
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'seqscope: the regular expression /(a/ is not valid: missing closing ): `(a`\n');
    const noExport = seqscope('replay', feed, '--grep', 'a');
    assert.equal(noExport.code, 2);
    assert.match(noExport.stderr, /--grep and --message-id choose what --export writes: add --export FILE/);
  });

  it('--grep passes over binary payloads and says how many', () => {
    const bin = join(dir, 'binary.jsonl');
    writeFileSync(
      bin,
      captureText([
        { t: 0, channel: '1', seq: 1, data: '\u0000\u0001\u0002 packet' },
        { t: 1, channel: '1', seq: 2, data: 'text packet' },
      ]),
    );
    const r = seqscope('replay', bin, '--preset', 'cme', '--export', '-', '--grep', 'packet');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
      [2],
    );
    assert.match(r.stderr, /seqscope: note: --grep passed over 1 record whose payload is binary, not UTF-8 text .*--message-id or --where finds them/);
  });
});
