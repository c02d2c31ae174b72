/** `seqscope mcp` as an MCP client meets it: the SDK's client starts the built CLI over stdio. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildCli } from '../../support/builtCli';
import { PairFiles, writePair } from '../../support/abPairFiles';

const root = join(__dirname, '..', '..', '..');
const SAMPLE = join(root, 'media', 'samples', 'cme-sample.jsonl');
const WITH_INVALID = join(root, 'test', 'fixtures', 'captures', 'with-invalid.jsonl');

describe('seqscope mcp', function () {
  this.timeout(60_000);
  let dir: string;
  let client: Client;
  let pair: PairFiles;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-mcp-'));
    pair = writePair({
      stream: { seed: 4, keys: ['310', '311'], messagesPerKey: 400, seqBits: 32, startSeq: 1_200_000, redeliveries: 2 },
      dropA: 0.03,
      dropB: 0.04,
      lagMsB: 3,
    });
    const cli = await buildCli(dir);
    client = new Client({ name: 'seqscope-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: root, stderr: 'pipe' }));
  });
  after(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
    pair?.remove();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.equal(r.content.length, 1);
    return { text: r.content[0].text, isError: r.isError === true };
  }

  it('lists its tools, each with a description and an object schema that takes paths', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['summarize_capture', 'list_findings', 'find_messages', 'compare_captures'],
    );
    for (const t of tools) {
      assert.ok((t.description ?? '').length > 80, t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.deepEqual(t.inputSchema.required, t.name === 'compare_captures' ? ['a', 'b'] : ['paths']);
      assert.ok(t.inputSchema.properties && 'preset' in t.inputSchema.properties && 'gapTimeout' in t.inputSchema.properties);
    }
  });

  it('summarize_capture: the totals and every key of the sample, exactly', async () => {
    const r = await call('summarize_capture', { paths: ['media/samples/cme-sample.jsonl'], preset: 'cme' });
    assert.equal(r.isError, false);
    assert.match(
      r.text,
      /total, 3 keys: received 3006, delivered 2996, gaps 2 \(lost 4\), duplicates 10 \(redelivered 5, republished 5, conflicting 0; cascades 5\), late 0, invalid 0/,
    );
    assert.match(r.text, /"310": received 1001, delivered 997, gaps 1 \(lost 3\)/);
    assert.match(r.text, /"318": received 1001, delivered 999, gaps 1 \(lost 1\)/);
    assert.match(r.text, /hold \(arrival → release\) p50\/p90\/p99\/max: /);
    const one = await call('summarize_capture', { paths: [SAMPLE], preset: 'cme', forKey: '312' });
    assert.match(one.text, /key "312": received 1004, delivered 1000, gaps 0 \(lost 0\), duplicates 4 /);
    assert.doesNotMatch(one.text, /"310"/);
  });

  it('list_findings: filters by kind, key, numbers and time, and pages', async () => {
    const all = await call('list_findings', { paths: [SAMPLE], preset: 'cme', limit: 5 });
    assert.match(all.text, /^12 findings match; 1–5 shown \(next: offset 5\)/);
    assert.equal(all.text.split('\n').length, 6);
    const last = await call('list_findings', { paths: [SAMPLE], preset: 'cme', offset: 10, limit: 5 });
    assert.match(last.text, /^12 findings match; 11–12 shown\n/);
    const gaps = await call('list_findings', { paths: [SAMPLE], preset: 'cme', kinds: ['gap'] });
    const gapLines = gaps.text.split('\n').slice(1);
    assert.equal(gapLines.length, 2);
    assert.ok(
      gapLines.every((l) => /^gap key "31[08]" \d+–\d+ \(\d lost, timeout\) opened \S+Z declared \S+Z$/.test(l)),
      gaps.text,
    );
    const key310 = await call('list_findings', { paths: [SAMPLE], preset: 'cme', forKey: '310', kinds: ['duplicate'] });
    assert.match(key310.text, /^4 findings match/);
    assert.ok(
      key310.text
        .split('\n')
        .slice(1)
        .every((l) => l.startsWith('duplicate key "310" seq ') && /messageId "\d+"/.test(l)),
    );
    const gap = /gap key "310" (\d+)–(\d+)/.exec(gaps.text)!;
    const inRange = await call('list_findings', { paths: [SAMPLE], preset: 'cme', fromSeq: Number(gap[2]), toSeq: Number(gap[2]) });
    assert.match(inRange.text, /^1 findings match/);
    const none = await call('list_findings', { paths: [SAMPLE], preset: 'cme', until: '2026-11-30T09:30:00Z' });
    assert.equal(none.text, 'no findings match');
    const early = await call('list_findings', { paths: [SAMPLE], preset: 'cme', until: '2026-11-30T09:30:05Z' });
    assert.match(early.text, /^1 findings match/);
  });

  it('list_findings: invalid records of a capture with them (as many as `replay --json` counts)', async () => {
    const r = await call('list_findings', { paths: [WITH_INVALID], preset: 'cme', kinds: ['invalid'], limit: 3 });
    assert.match(r.text, /^11 findings match; 1–3 shown \(next: offset 3\)\ninvalid line 2 at 2024-03-07T14:00:01\.000Z: "not valid JSON /);
    const summary = await call('summarize_capture', { paths: [WITH_INVALID], preset: 'cme' });
    assert.match(summary.text, /invalid 11; /);
  });

  it('find_messages: by messageId, by text, by regex; payloads only when asked', async () => {
    const byId = await call('find_messages', { paths: [SAMPLE], preset: 'cme', messageId: '2070443600000019' });
    assert.match(byId.text, /^1 messages match\nmessage key "318" seq 7107 messageId "2070443600000019" /);
    assert.doesNotMatch(byId.text, /payload/);
    const withPayload = await call('find_messages', { paths: [SAMPLE], preset: 'cme', messageId: '2070443600000019', includePayload: true });
    assert.match(withPayload.text, /\n {2}payload: "\{.*MsgSeqNum.*7107/);
    const text = await call('find_messages', { paths: [SAMPLE], preset: 'cme', text: '4593', limit: 2 });
    assert.match(text.text, /^90 messages match; the first 2 shown\n/);
    assert.equal(text.text.split('\n').length, 3);
    const regex = await call('find_messages', { paths: [SAMPLE], preset: 'cme', regex: '"MsgSeqNum":7107\\b' });
    assert.match(regex.text, /^1 messages match/);
  });

  it('compare_captures: two feeds of one stream, per key, as the generator planted their misses', async () => {
    const t = pair.pair.truth;
    const r = await call('compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme' });
    assert.equal(r.isError, false, r.text);
    const lines = r.text.split('\n');
    assert.match(lines[0], /^A "a\.jsonl" \(\d+ records\) ⇄ B "b\.jsonl" \(\d+ records\): key attribute:Channel, seq attribute:MsgSeqNum/);
    assert.match(
      lines[1],
      new RegExp(
        `^total, 2 keys \\(2 in both\\): both ${t.totals.both}, only A ${t.totals.onlyA}, only B ${t.totals.onlyB}, lost in both ${t.totals.lostBoth}; first A \\d+, first B \\d+; Δt B−A p50/p90/p99/max `,
      ),
    );
    assert.match(lines[2], new RegExp(`^  A: received ${t.totals.aReceived}, duplicates ${t.totals.aDuplicates}, missed ${t.totals.onlyB} in \\d+ incidents`));
    for (const [key, k] of t.byKey) {
      assert.ok(
        lines.includes(
          `  "${key}": both ${k.both}, only A ${k.onlyA}, only B ${k.onlyB}, lost in both ${k.lostBoth}; A missed ${k.onlyB} (${lines.find((l) => l.startsWith(`  "${key}"`))!.match(/A missed \d+ \((\d+) incidents/)![1]} incidents), B missed ${k.onlyA} (${lines.find((l) => l.startsWith(`  "${key}"`))!.match(/B missed \d+ \((\d+) incidents/)![1]} incidents)`,
        ),
        r.text,
      );
    }
    const one = await call('compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme', forKey: '311' });
    assert.match(one.text, /\nkey "311": both \d+/);
    assert.match(one.text, /\n {2}A missed: #\d+/);
    const missedA = [...one.text.matchAll(/#(\d+)(?:–(\d+) \((\d+)\))?/g)].length;
    assert.ok(missedA > 0);
    // Bad input: said, the server keeps serving.
    const nokey = await call('compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme', forKey: '999' });
    assert.equal(nokey.isError, true);
    assert.match(nokey.text, /^key "999" is in neither capture: they have 2 keys/);
    // One file on both sides: everything in both, Δt 0. Twice on one side: refused.
    const same = await call('compare_captures', { a: [pair.a], b: [pair.a], preset: 'cme' });
    assert.equal(same.isError, false, same.text);
    assert.match(
      same.text,
      new RegExp(
        `\\ntotal, 2 keys \\(2 in both\\): both ${t.totals.both + t.totals.onlyA}, only A 0, only B 0, lost in both ${t.totals.lostBoth + t.totals.onlyB}; first A 0, first B 0; Δt B−A p50/p90/p99/max 0ms / 0ms / 0ms / 0ms\\n`,
      ),
    );
    const twice = await call('compare_captures', { a: [pair.a, pair.a], b: [pair.b], preset: 'cme' });
    assert.equal(twice.isError, true);
    assert.match(twice.text, /^side A: .* is named twice: name each capture once/);
    const missing = await call('compare_captures', { a: [pair.a], b: ['no-such-b.jsonl'], preset: 'cme' });
    assert.match(missing.text, /"[^"]*no-such-b\.jsonl" cannot be read: give the path of an existing capture file/);
    const notCapture = join(dir, 'not-a-capture.jsonl');
    writeFileSync(notCapture, 'not json\n');
    const wrong = await call('compare_captures', { a: [pair.a], b: [notCapture], preset: 'cme' });
    assert.equal(wrong.isError, true);
    assert.match(wrong.text, /^side B: \S+not-a-capture\.jsonl is not a capture: it starts with "not json"/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"message":{"messageId":"1","publishTime":"2026-11-30T09:30:00Z","attributes":{}},"receivedAt":"2026-11-30T09:30:00Z"}\n');
    const nothing = await call('compare_captures', { a: [pair.a], b: [bad], preset: 'cme' });
    assert.equal(nothing.isError, true);
    assert.match(nothing.text, /^side B \(bad\.jsonl\): no record could be sequenced: .*check the sequencing options \(preset, key, seq\) or the file$/);
  });

  it('bad input is a tool error that says what to fix, and the server keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['summarize_capture', { paths: ['no-such-capture.jsonl'] }, /no-such-capture\.jsonl" cannot be read: give the path of an existing capture file/],
      ['summarize_capture', {}, /argument "paths" must be a list/],
      ['summarize_capture', { paths: [SAMPLE], preset: 'nope' }, /preset "nope" is unknown/],
      ['summarize_capture', { paths: [SAMPLE], preset: 'cme', forKey: '999' }, /key "999" is not in this capture: it has 3 keys/],
      ['summarize_capture', { paths: [SAMPLE, SAMPLE] }, /named twice/],
      [
        'list_findings',
        { paths: [SAMPLE], preset: 'cme', kinds: ['lost'] },
        /argument "kinds" must be a list of gap, duplicate, late, reordered, reset, invalid/,
      ],
      ['list_findings', { paths: [SAMPLE], preset: 'cme', limit: 0 }, /argument "limit" must be a whole number from 1 to 500/],
      ['list_findings', { paths: [SAMPLE], preset: 'cme', since: 'yesterday' }, /argument "since": "yesterday" is not a time/],
      ['find_messages', { paths: [SAMPLE], preset: 'cme' }, /give "messageId", "text" or "regex"/],
      ['find_messages', { paths: [SAMPLE], preset: 'cme', regex: '(a' }, /missing closing \)/],
      ['no_such_tool', {}, /unknown tool "no_such_tool"/],
    ];
    for (const [tool, args, want] of cases) {
      const r = await call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.text}`);
      assert.match(r.text, want);
    }
    assert.match((await call('summarize_capture', { paths: [SAMPLE], preset: 'cme' })).text, /received 3006/);
  });
});
