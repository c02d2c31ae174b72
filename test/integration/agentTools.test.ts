/**
 * The language model tools in the real extension host, invoked as Copilot agent mode invokes them
 * (`vscode.lm.invokeTool`): registered as the manifest declares; listing and summarising sessions
 * with exact counts; findings filtered by kind, key, numbers and time, paged, with the times read
 * back from the records; messages found by id and payload text, payloads only when asked; a
 * capture opened and two compared behind a confirmation. Bad input (no session, an unknown session or key, a bad
 * argument) answers with a message, never a throw.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { OpenResult } from '../../src/extension/commands';
import { writePair } from '../support/abPairFiles';
import { invokeTool as invoke } from './hostProbes';

const TOOLS = [
  'seqscope_compare_captures',
  'seqscope_find_messages',
  'seqscope_list_findings',
  'seqscope_list_sessions',
  'seqscope_open_capture',
  'seqscope_summarize_session',
];

describe('Language model tools', function () {
  this.timeout(60_000);
  let api: SeqScopeApi;
  let cme: string;
  let orders: string;

  before(async () => {
    const ext = vscode.extensions.getExtension<SeqScopeApi>('seqscope.seqscope');
    assert.ok(ext);
    api = await ext.activate();
    cme = join(ext.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
    orders = join(ext.extensionPath, 'media', 'samples', 'orders-sample.jsonl');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  const open = async (path: string, options: Record<string, string>) =>
    (await vscode.commands.executeCommand<OpenResult>('seqscope.capture.open', vscode.Uri.file(path), options)).id;

  it('are registered with VS Code as the manifest declares them', async () => {
    const manifest = vscode.extensions.getExtension('seqscope.seqscope')!.packageJSON as {
      contributes: { languageModelTools: { name: string; inputSchema: unknown; tags: string[] }[] };
    };
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('seqscope_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), TOOLS);
    for (const t of ours) {
      const declared = manifest.contributes.languageModelTools.find((d) => d.name === t.name)!;
      assert.deepEqual(t.inputSchema, declared.inputSchema, `${t.name}: the schema VS Code offers models`);
      assert.deepEqual([...t.tags], declared.tags);
      assert.ok(t.description.length > 100, `${t.name}: the model description`);
    }
  });

  it('say when no session is open, and how to open one', async () => {
    assert.match(await invoke('seqscope_list_sessions'), /^no session is open in SeqScope \(seqscope_open_capture opens a capture\)$/);
    for (const name of ['seqscope_summarize_session', 'seqscope_list_findings']) {
      assert.equal(
        await invoke(name),
        `${name}: no session is open in SeqScope: open a capture first (seqscope_open_capture, or the command SeqScope: Open Capture…)`,
      );
    }
    assert.match(await invoke('seqscope_find_messages', { text: 'x' }), /no session is open/);
  });

  it('list the open sessions and summarise one or one key, with exact counts', async () => {
    const id = await open(cme, { preset: 'cme' });
    const ordersId = await open(orders, {});
    const list = await invoke('seqscope_list_sessions');
    assert.match(list, /^2 sessions open:\n/);
    assert.ok(
      list.includes(
        `session ${id}: "cme-sample.jsonl"\n  source: ${cme}\n  options: key attribute:Channel, seq attribute:MsgSeqNum (32-bit), gap timeout 10s, capacity 10000, reset to 1\n`,
      ),
      list,
    );
    assert.ok(
      list.includes(
        '  total, 3 keys: received 3006, delivered 2996, gaps 2 (lost 4), duplicates 10 (redelivered 5, republished 5, conflicting 0; cascades 5), late 0, invalid 0\n',
      ),
      list,
    );
    assert.ok(
      list.includes(
        '  key "318": received 1001, delivered 999, gaps 1 (lost 1), duplicates 2 (redelivered 1, republished 1, conflicting 0; cascades 1), late 0',
      ),
      list,
    );
    assert.ok(list.includes(`session ${ordersId} (active): "orders-sample.jsonl"`), 'the session opened last is the active one');
    assert.match(list, / {2}total, 5 keys: received 301, .*reordered 4/);

    // By title; the default is the active session.
    const summary = await invoke('seqscope_summarize_session', { session: 'cme-sample.jsonl' });
    assert.ok(summary.startsWith(`session ${id} "cme-sample.jsonl": key attribute:Channel`), summary);
    assert.match(summary, /\nclock 2026-11-30T09:30:00\.105Z → 2026-11-30T09:32:04\.392Z \(2\.1m\)\n/);
    assert.match(summary, /\n {2}hold \(arrival → release\) p50\/p90\/p99\/max: 0ms \/ 0ms \/ 8\.4s \/ 10s\n/);
    assert.match(await invoke('seqscope_summarize_session'), /^session \S+ "orders-sample\.jsonl"/);
    const key = await invoke('seqscope_summarize_session', { session: id, forKey: '310' });
    assert.match(
      key,
      /\nkey "310": received 1001, delivered 997, gaps 1 \(lost 3\), duplicates 4 \(redelivered 2, republished 2, conflicting 0; cascades 2\), late 0; max hold 10s\n/,
    );

    // Bad input: named, with what would do.
    assert.equal(
      await invoke('seqscope_summarize_session', { session: 'nope' }),
      `seqscope_summarize_session: no open session is "nope": give one of ${id} ("cme-sample.jsonl"), ${ordersId} ("orders-sample.jsonl")`,
    );
    assert.match(
      await invoke('seqscope_summarize_session', { session: id, forKey: '999' }),
      /^seqscope_summarize_session: key "999" is not in this capture: it has 3 keys, e\.g\. "31\d", "31\d", "31\d"$/,
    );
    assert.equal(await invoke('seqscope_summarize_session', { session: 7 }), 'seqscope_summarize_session: argument "session" must be a string (not empty)');
  });

  it('list findings by kind, key, numbers and time, paged, with the times of their records', async () => {
    const id = await open(cme, { preset: 'cme' });
    const gaps = await invoke('seqscope_list_findings', { kinds: ['gap'] });
    assert.equal(
      gaps,
      `session ${id} "cme-sample.jsonl": 2 findings match; 1–2 shown\n` +
        'gap key "310" 41517–41519 (3 lost, timeout) opened 2026-11-30T09:30:40.688Z declared 2026-11-30T09:30:50.688Z\n' +
        'gap key "318" 7777–7777 (1 lost, timeout) opened 2026-11-30T09:31:24.675Z declared 2026-11-30T09:31:34.675Z',
    );
    // Paged: the count on every page, the next offset while there is more.
    const first = (await invoke('seqscope_list_findings', { kinds: ['duplicate'], limit: 3 })).split('\n');
    assert.match(first[0], /: 10 findings match; 1–3 shown \(next: offset 3\)$/);
    assert.equal(first.length, 4);
    for (const l of first.slice(1))
      assert.match(
        l,
        /^duplicate key "\d+" seq \d+ (redelivery|republish) messageId "\d+".* publishTime 2026-11-30T09:3\d:\d\d\.\d+Z line \d+$/,
        'publish times read back from the records',
      );
    const last = (await invoke('seqscope_list_findings', { kinds: ['duplicate'], limit: 3, offset: 9 })).split('\n');
    assert.match(last[0], /: 10 findings match; 10–10 shown$/);
    assert.match(await invoke('seqscope_list_findings', { kinds: ['duplicate'], offset: 10 }), /: 10 findings match; offset 10 is past the last$/);
    // By key, by numbers (a gap overlapping the range counts), by time.
    assert.match(await invoke('seqscope_list_findings', { forKey: '310', kinds: ['duplicate'] }), /: 4 findings match; 1–4 shown\n/);
    assert.match(await invoke('seqscope_list_findings', { fromSeq: 41518, toSeq: 41518 }), /: 1 findings match; 1–1 shown\ngap key "310" 41517–41519/);
    assert.match(await invoke('seqscope_list_findings', { since: '2026-11-30T09:31:00Z', kinds: ['gap'] }), /: 1 findings match; 1–1 shown\ngap key "318"/);
    assert.match(await invoke('seqscope_list_findings', { until: '2026-11-30T09:30:00Z' }), /: no findings match$/);
    // Bad arguments.
    assert.equal(
      await invoke('seqscope_list_findings', { kinds: ['lost'] }),
      'seqscope_list_findings: argument "kinds" must be a list of gap, duplicate, late, reordered, reset, invalid',
    );
    assert.match(await invoke('seqscope_list_findings', { since: 'yesterday' }), /^seqscope_list_findings: argument "since": /);
    assert.match(await invoke('seqscope_list_findings', { forKey: 'nope' }), /^seqscope_list_findings: key "nope" is not in this capture/);
  });

  it('list a reordered delivery with both publish times, as seqscope mcp does', async () => {
    await open(orders, {});
    const text = await invoke('seqscope_list_findings', { kinds: ['reordered'], limit: 1 });
    assert.equal(
      text.split('\n')[1],
      'reordered key "customer-1003" messageId "13254667890123139" publishTime 2026-11-30T14:00:04.190Z after "13254667890123146" published 2026-11-30T14:00:05.139Z (949ms, 5 back) at 2026-11-30T14:00:05.187Z line 150',
    );
    assert.match(text, /: 4 findings match; 1–1 shown \(next: offset 1\)/);
  });

  it('find messages by messageId and by payload text; payloads only when asked', async () => {
    const id = await open(cme, { preset: 'cme' });
    const records = readFileSync(cme, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).message as { messageId: string; data: string });
    const target = records[40];
    const byId = await invoke('seqscope_find_messages', { session: id, messageId: target.messageId });
    assert.match(
      byId,
      new RegExp(
        `^1 records in "cme-sample.jsonl" match\\nmessage key "\\d+" seq \\d+ messageId "${target.messageId}" publishTime \\S+ arrived \\S+ released \\S+ \\(held \\S+\\) attributes \\{.*"MsgSeqNum".*\\} line 41$`,
      ),
    );
    assert.ok(!byId.includes('payload'), 'no payload unless asked');
    const withPayload = await invoke('seqscope_find_messages', { messageId: target.messageId, includePayload: true });
    assert.equal(withPayload.split('\n')[2], `  payload: ${JSON.stringify(Buffer.from(target.data, 'base64').toString('utf8'))}`);

    // A redelivered message: the copy released and the duplicate, each said for what it is.
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.messageId, (counts.get(r.messageId) ?? 0) + 1);
    const twice = [...counts].find(([, n]) => n === 2)![0];
    const both = (await invoke('seqscope_find_messages', { messageId: twice })).split('\n');
    assert.equal(both[0], '2 records in "cme-sample.jsonl" match');
    assert.match(both[1], new RegExp(`^message key .* messageId "${twice}"`));
    assert.match(both[2], new RegExp(`^duplicate key .* redelivery messageId "${twice}" .* publishTime 2026-`));

    // By payload text, on the search worker: every record whose payload has it.
    const expected = records.filter((r) => Buffer.from(r.data, 'base64').toString('utf8').includes('"px":4593.25')).length;
    assert.ok(expected > 3);
    const byText = await invoke('seqscope_find_messages', { text: '"px":4593.25', limit: 2 });
    assert.match(byText, new RegExp(`^${expected} records in "cme-sample.jsonl" match; the first 2 shown\\n`));
    assert.equal(byText.split('\n').length, 3);

    // Bad input.
    assert.equal(await invoke('seqscope_find_messages', {}), 'seqscope_find_messages: give "messageId", "text" or "regex": what to find');
    assert.match(await invoke('seqscope_find_messages', { regex: '(' }), /^seqscope_find_messages: .*(regular expression|missing|\))/i);
    assert.equal(await invoke('seqscope_find_messages', { messageId: 'no-such-id' }), 'no messages in "cme-sample.jsonl" match');
  });

  it('open a capture only behind a confirmation, then answer with the new session', async () => {
    const tool = api.agentTools.find((t) => t.name === 'seqscope_open_capture')!;
    const ask = tool.confirm?.({ paths: [cme], preset: 'cme' });
    assert.deepEqual(ask, { title: 'Open a capture in SeqScope?', message: `Read and sequence \`${cme}\` with preset cme, and show it in the Sessions view.` });
    // The tools that only read open sessions ask nothing; those that read files the model names ask.
    assert.deepEqual(
      api.agentTools.filter((t) => t.confirm).map((t) => t.name),
      ['seqscope_open_capture', 'seqscope_compare_captures'],
    );

    // (This tier's workbench answers confirmations itself: the e2e-modal tier shows the dialog.)
    const text = await invoke('seqscope_open_capture', { paths: [cme], preset: 'cme' });
    const s = api.manager.all[0];
    assert.equal(api.manager.all.length, 1);
    assert.ok(text.startsWith(`opened as session ${s.id} "cme-sample.jsonl": key attribute:Channel`), text);
    assert.match(text, /\ntotal, 3 keys: received 3006, delivered 2996, gaps 2 \(lost 4\)/);
    // Opened again, unchanged: the same session.
    assert.ok((await invoke('seqscope_open_capture', { paths: [cme], preset: 'cme' })).startsWith(`opened as session ${s.id} `));
    assert.equal(api.manager.all.length, 1);

    // Bad input: nothing opened, the reason said.
    assert.match(
      await invoke('seqscope_open_capture', { paths: ['/no/such/capture.jsonl'] }),
      /^seqscope_open_capture: "\/no\/such\/capture\.jsonl" cannot be read: give the path of an existing capture file/,
    );
    assert.match(await invoke('seqscope_open_capture', { paths: [cme], preset: 'nasdaq' }), /^seqscope_open_capture: preset "nasdaq" is unknown: use /);
    assert.equal(
      await invoke('seqscope_open_capture', { paths: [] }),
      'seqscope_open_capture: argument "paths" must be a list of one or more capture file paths',
    );
    assert.equal(api.manager.all.length, 1);
  });

  it('compare two captures behind a confirmation, with the counts the generator planted', async () => {
    const pair = writePair({
      stream: { seed: 7, keys: ['310', '311'], messagesPerKey: 300, seqBits: 32, startSeq: 3_100_000, redeliveries: 1 },
      dropA: 0.04,
      dropB: 0.03,
      lagMsB: 2,
    });
    try {
      const tool = api.agentTools.find((t) => t.name === 'seqscope_compare_captures')!;
      assert.deepEqual(tool.confirm?.({ a: [pair.a], b: [pair.b], preset: 'cme' }), {
        title: 'Compare two captures in SeqScope?',
        message: `Read and compare A \`${pair.a}\` with B \`${pair.b}\`, sequenced with preset cme.`,
      });
      const t = pair.pair.truth.totals;
      const text = await invoke('seqscope_compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme' });
      assert.match(text, new RegExp(`\\ntotal, 2 keys \\(2 in both\\): both ${t.both}, only A ${t.onlyA}, only B ${t.onlyB}, lost in both ${t.lostBoth}; `));
      assert.match(text, /\nnote: clocks: median Δt 2ms: b\.jsonl lagged a\.jsonl by a median 2ms$/);
      const key = await invoke('seqscope_compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme', forKey: '310' });
      const k = pair.pair.truth.byKey.get('310')!;
      assert.match(key, new RegExp(`\\nkey "310": both ${k.both}, only A ${k.onlyA}, only B ${k.onlyB}, lost in both ${k.lostBoth}; `));
      assert.match(key, /\n {2}B missed: #31\d{5}/);
      assert.equal(api.manager.all.length, 0, 'a comparison opens no session');
      assert.match(
        await invoke('seqscope_compare_captures', { a: [pair.a], b: [pair.b], preset: 'cme', forKey: 'x' }),
        /^seqscope_compare_captures: key "x" is in neither capture/,
      );
      assert.equal(
        await invoke('seqscope_compare_captures', { a: [pair.a] }),
        'seqscope_compare_captures: argument "b" must be a list of one or more capture file paths',
      );
    } finally {
      pair.remove();
    }
  });
});
