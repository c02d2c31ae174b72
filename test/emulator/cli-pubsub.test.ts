/**
 * `seqscope publish` and `seqscope record` against the emulator: a CME-style stream with injected
 * loss, duplicates and reordering goes out and comes back through a tap with exactly the injected
 * findings; and every bad input fails fast with a clear message.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { GapEvent, TraceEvent } from '../../src/core/trace/traceEvents';
import { getSubscription } from '../../src/pubsub/admin';
import { connect } from '../../src/pubsub/connection';
import { PubsubError } from '../../src/pubsub/pubsubErrors';
import { parseResourceName } from '../../src/pubsub/resourceNames';
import { main } from '../../src/cli/main';
import { freePort } from '../support/pubsubEmulator';
import { textSink } from '../support/textSink';
import { useEmulator, PROJECT, runCli, startCli, tempDir, uniqueId, waitFor } from './emulatorSupport';

const SAMPLE = join(__dirname, '../../media/samples/cme-sample.jsonl');

describe('emulator: seqscope publish and record', function () {
  const env = useEmulator();

  it('a CME-style stream published and read back through a tap shows exactly the injected gaps and duplicates', async () => {
    const { emu, conn } = env;
    const topic = uniqueId('cme');
    await conn.client.createTopic(topic);
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n').length;
    const out = join(tempDir(), 'cme.jsonl');
    const rec = await startCli(emu, [
      'record',
      '--topic',
      topic,
      '--out',
      out,
      '--max-messages',
      String(lines),
      '--duration',
      '60s',
      '--preset',
      'cme',
      '--json',
    ]);
    await waitFor('the tap', () => /tapping/.test(rec.stderr) || rec.child.exitCode !== null);
    const pub = await runCli(emu, ['publish', SAMPLE, '--topic', `projects/${PROJECT}/topics/${topic}`, '--pace', 'max', '--json']);
    assert.equal(pub.code, 0, pub.stderr);
    assert.equal(JSON.parse(pub.stdout).published, lines);
    assert.equal(await rec.exited, 0, rec.stderr);
    const { summary } = JSON.parse(rec.stdout);
    // The sample's ground truth (media/samples/README.md): 2 gaps (4 numbers), 10 duplicates.
    // Republished, every duplicate is a second publish (a new messageId), so none is a redelivery.
    assert.equal(summary.received, 3006);
    assert.equal(summary.delivered, 2996);
    assert.equal(summary.gaps, 2);
    assert.equal(summary.lost, 4);
    assert.equal(summary.duplicates, 10);
    assert.equal(summary.redeliveries, 0);
    assert.equal(summary.late, 0);
    assert.equal(summary.invalid, 0);
    const events: TraceEvent[] = [];
    await runReplay({ paths: [out], options: resolveOptions({ preset: 'cme' }), listener: (e) => events.push(e) });
    const gaps = events
      .filter((e): e is GapEvent => e.type === 'gap')
      .map((g) => `${g.key}:${g.from}-${g.to}`)
      .sort();
    assert.deepEqual(gaps, ['310:41517-41519', '318:7777-7777']);
  });

  it("publish - takes a gzip capture from standard input; recorded back to a .gz file, gzip-compressed, it has the sample's findings", async () => {
    const { emu, conn } = env;
    const topic = uniqueId('stdin');
    const sub = uniqueId('stdin-sub');
    const [t] = await conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true });
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n').length;
    const pub = await runCli(emu, ['publish', '-', '--topic', topic], gzipSync(readFileSync(SAMPLE)));
    assert.equal(pub.code, 0, pub.stderr);
    assert.match(
      pub.stdout,
      new RegExp(`^Published ${lines} of ${lines} messages \\(3 keys\\) from standard input to projects/${PROJECT}/topics/${topic} in `),
    );
    const out = join(tempDir(), 'stdin.jsonl.gz');
    const rec = await runCli(emu, [
      'record',
      '--subscription',
      sub,
      '--out',
      out,
      '--max-messages',
      String(lines),
      '--duration',
      '60s',
      '--preset',
      'cme',
      '--json',
    ]);
    assert.equal(rec.code, 0, rec.stderr);
    const { summary, recorded } = JSON.parse(rec.stdout);
    assert.equal(recorded.gzip, true);
    const file = readFileSync(out);
    assert.equal(gunzipSync(file).toString().trim().split('\n').length, lines, 'gunzip reads every recorded line');
    assert.ok(file.length < statSync(SAMPLE).size / 2, `compressed: ${file.length} bytes`);
    // As in the first test: every number, gap and second publish made it through the pipe.
    assert.deepEqual([summary.received, summary.delivered, summary.gaps, summary.lost, summary.duplicates, summary.invalid], [3006, 2996, 2, 4, 10, 0]);
  });

  it('on a terminal, publish and record show a progress line, redrawn in place and erased before the result', async () => {
    const { emu, conn } = env;
    const ERASE = '\r\x1b[K';
    const topic = uniqueId('progress');
    const sub = uniqueId('progress-sub');
    const [t] = await conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true });
    const where = ['--emulator-host', emu.host, '--project', PROJECT];
    const terminal = () => ({ stdout: textSink(false), stderr: textSink(true) });
    const pub = terminal();
    assert.equal(await main(['publish', SAMPLE, '--topic', topic, '--pace', 'x100', ...where], pub), 0, pub.stderr.text);
    assert.match(pub.stdout.text, /^Published 3006 of 3006 messages/);
    const lines = pub.stderr.text.split(ERASE).filter(Boolean);
    assert.ok(lines.length >= 2, `redrawn as it goes: ${JSON.stringify(pub.stderr.text)}`);
    for (const l of lines) assert.match(l, /^seqscope: publishing \S*cme-sample\.jsonl: read \d+% \([\d.]+ of [\d.]+ MiB\) · \d+ published · \d+\/s$/);
    assert.ok(pub.stderr.text.endsWith(ERASE), 'erased before the result');
    const quiet = terminal();
    assert.equal(await main(['publish', SAMPLE, '--topic', topic, '--no-progress', ...where], quiet), 0);
    assert.equal(quiet.stderr.text, '', '--no-progress');

    // A quiet subscription: the line ticks every second all the same, then goes before the result.
    const [quietTopic] = await conn.client.createTopic(uniqueId('quiet'));
    const quietSub = uniqueId('quiet-sub');
    await quietTopic.createSubscription(quietSub);
    const rec = terminal();
    const out = join(tempDir(), 'progress.jsonl');
    assert.equal(await main(['record', '--subscription', quietSub, '--out', out, '--duration', '2500ms', ...where], rec), 0, rec.stderr.text);
    assert.match(rec.stdout.text, /^Recorded 0 messages .*\(2500ms elapsed; 0 acked\)/);
    const ticks = rec.stderr.text.split(ERASE);
    // The subscription has no message ordering: that note comes first, on a line of its own, then
    // the line that says the stream is open.
    assert.match(
      ticks.shift() ?? '',
      /^seqscope: note: \S+ does not have message ordering enabled; per-key order is not guaranteed\nseqscope: recording \S+ to \S+progress\.jsonl\n$/,
    );
    assert.equal(ticks.pop(), '', 'erased before the result');
    assert.ok(ticks.length >= 1 && ticks.length <= 3, `a line a second: ${JSON.stringify(ticks)}`);
    for (const l of ticks) assert.match(l, /^seqscope: recording 0 messages · 0\/s · [12](\.\d)?s$/);
  });

  it('record notes a subscription that dead-letters (what goes there is missing from the recording)', async () => {
    const { emu, conn } = env;
    const [t] = await conn.client.createTopic(uniqueId('dl'));
    const [dlq] = await conn.client.createTopic(uniqueId('dlq'));
    const sub = uniqueId('dl-sub');
    await t.createSubscription(sub, { enableMessageOrdering: true, deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
    const io = { stdout: textSink(false), stderr: textSink(false) };
    const out = join(tempDir(), 'dl.jsonl');
    assert.equal(
      await main(['record', '--subscription', sub, '--out', out, '--duration', '1s', '--emulator-host', emu.host, '--project', PROJECT], io),
      0,
      io.stderr.text,
    );
    assert.equal(
      io.stderr.text,
      `seqscope: note: projects/${PROJECT}/subscriptions/${sub} dead-letters to ${dlq.name}: a message its consumers keep failing goes there, out of order, and is missing here (a gap, when numbered)\n` +
        `seqscope: recording projects/${PROJECT}/subscriptions/${sub} to ${out}\n`,
    );
  });

  it('seek goes back by a duration; forward past now only with --force, which then acknowledges the backlog', async () => {
    const { emu, conn } = env;
    const [t] = await conn.client.createTopic(uniqueId('seek-cli'));
    // Unordered: the emulator cannot seek a subscription with message ordering.
    const sub = uniqueId('seek-cli-sub');
    await t.createSubscription(sub);
    await Promise.all([1, 2, 3].map((n) => t.publishMessage({ data: Buffer.from(`m${n}`) })));
    const run = async (...args: string[]) => {
      const io = { stdout: textSink(false), stderr: textSink(false) };
      const code = await main(['seek', '--subscription', sub, ...args, '--emulator-host', emu.host, '--project', PROJECT], io);
      return { code, out: io.stdout.text, err: io.stderr.text };
    };
    const back = await run('--time', '5m');
    assert.equal(back.code, 0, back.err);
    assert.match(
      back.out,
      new RegExp(
        `^Seeked projects/${PROJECT}/subscriptions/${sub} to \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: the server re-delivers what it retained from there\\.\n$`,
      ),
    );
    const refused = await run('--time', '2999-01-01T00:00:00Z');
    assert.equal(refused.code, 2);
    assert.match(refused.err, /is in the future: .* add --force to acknowledge the backlog on purpose/);
    const forced = await run('--time', '2999-01-01T00:00:00Z', '--force');
    assert.equal(forced.code, 0, forced.err);
  });

  it('record with its stdout closed early (| head) still deletes its tap, and exits 141 quietly', async () => {
    const { emu, conn } = env;
    const topic = uniqueId('pipe');
    const [t] = await conn.client.createTopic(topic);
    const out = join(tempDir(), 'pipe.jsonl');
    const rec = await startCli(emu, ['record', '--topic', topic, '--out', out, '--max-messages', '1', '--duration', '30s']);
    // What would read the summary is gone before it is written.
    rec.child.stdout!.destroy();
    await waitFor('the tap', () => /tapping/.test(rec.stderr) || rec.child.exitCode !== null);
    await t.publishMessage({ data: Buffer.from('m1') });
    assert.equal(await rec.exited, 141, rec.stderr);
    assert.doesNotMatch(rec.stderr, /cannot write|Error|could not delete/);
    const [subs] = await t.getSubscriptions();
    assert.deepEqual(
      subs.map((s) => s.name),
      [],
      'the tap is deleted',
    );
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 1, 'the message is in the capture');
  });

  it('two recorders on one subscription give captures that replay merges into one complete, ordered session', async () => {
    const { emu, conn } = env;
    const topic = uniqueId('scale');
    const sub = uniqueId('scale-sub');
    const [t] = await conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true });
    const dir = tempDir();
    const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    const recs = await Promise.all(outs.map((out) => startCli(emu, ['record', '--subscription', sub, '--out', out, '--duration', '12s', '--json'])));
    // Both streams open before anything is published (each says so on stderr), so keys can go to either.
    for (const [i, r] of recs.entries())
      await waitFor(`recorder ${i + 1} to open its stream`, () => /seqscope: recording /.test(r.stderr) || r.child.exitCode !== null);
    for (const r of recs) assert.equal(r.child.exitCode, null, r.stderr);
    const pt = conn.client.topic(topic, { messageOrdering: true });
    const keys = ['acct-1', 'acct-2', 'acct-3', 'acct-4'];
    await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        pt.publishMessage({ data: Buffer.from(`m${i}`), orderingKey: keys[i % 4], attributes: { n: String(Math.floor(i / 4)) } }),
      ),
    );
    for (const r of recs) assert.equal(await r.exited, 0, r.stderr);
    const counts = recs.map((r) => JSON.parse(r.stdout).recorded.received as number);
    assert.equal(counts[0] + counts[1], 2000, `split ${counts.join(' + ')}: every message recorded once across the two`);
    const merged = await runCli(emu, ['replay', ...outs, '--seq', 'attribute:n', '--json']);
    assert.equal(merged.code, 0, merged.stderr);
    const summary = JSON.parse(merged.stdout);
    assert.equal(summary.delivered, 2000);
    assert.equal(summary.keys, 4);
    assert.equal(summary.gaps, 0);
    assert.equal(summary.duplicates, 0);
  });

  describe('bad input: a clear error in under 2 s', () => {
    /** Runs `fn`, expects a PubsubError of `kind`, and checks how long it took. */
    async function fastError(kind: string, re: RegExp, fn: () => Promise<unknown>): Promise<void> {
      const started = Date.now();
      await assert.rejects(fn(), (e: PubsubError) => {
        assert.equal(e.name, 'PubsubError', String(e));
        assert.equal(e.kind, kind, e.message);
        assert.match(e.message, re);
        assert.ok(e.nextStep.length > 0);
        return true;
      });
      const ms = Date.now() - started;
      assert.ok(ms < 2000, `${kind} took ${ms} ms`);
    }

    it('missing subscription, missing topic, wrong project, invalid names, emulator not running', async () => {
      const { emu, conn } = env;
      await fastError('not-found', /subscription projects\/seqscope-test\/subscriptions\/no-such-sub does not exist/, () =>
        getSubscription(conn, parseResourceName('subscriptions', 'no-such-sub', PROJECT)),
      );
      await fastError('not-found', /does not exist/, () =>
        getSubscription(conn, parseResourceName('subscriptions', 'projects/other-project/subscriptions/md-310')),
      );
      await fastError('invalid-name', /not a valid subscription id/, async () => parseResourceName('subscriptions', 'projects/seqscope-test/subscriptions/x'));
      await fastError('invalid-name', /not a valid project id/, () => connect({ emulatorHost: emu.host, projectId: 'Bad_Project', env: {} }));
      const nobody = `127.0.0.1:${await freePort()}`;
      await fastError('emulator-down', /emulator at 127\.0\.0\.1:\d+ is not running/, () => connect({ emulatorHost: nobody, projectId: PROJECT, env: {} }));
    });

    it('the CLI prints each as one line and exits 2', async () => {
      const { emu } = env;
      const dir = tempDir();
      const torn = join(dir, 'torn.jsonl.gz');
      writeFileSync(torn, gzipSync(readFileSync(SAMPLE)).subarray(0, 5000));
      // Yesterday's recording: its messages were acked, the subscription will not send them again.
      const kept = join(dir, 'yesterday.jsonl');
      writeFileSync(kept, readFileSync(SAMPLE).subarray(0, 300));
      const cases: [string[], RegExp][] = [
        [
          ['record', '--topic', 'no-such-topic', '--out', kept],
          /--out: .*yesterday\.jsonl already holds a recording \(300 B\) whose messages were acked: add --append to continue it, --overwrite to replace it, or name a new file\n/,
        ],
        [['record', '--topic', 'feed', '--out', kept, '--append', '--overwrite'], /--append continues the file and --overwrite replaces it: give one of them/],
        // Told to replace it, the command goes on, and here fails on the topic before writing.
        [['record', '--topic', 'no-such-topic', '--out', kept, '--overwrite'], /topic projects\/seqscope-test\/topics\/no-such-topic does not exist/],
        // --out is checked before connecting: these name a topic that does not exist either.
        [['record', '--topic', 'no-such-topic', '--out', join(dir, 'no-folder', 'x.jsonl')], /--out: the folder .*no-folder does not exist: create it first/],
        [['record', '--topic', 'no-such-topic', '--out', dir], /--out: .* is a folder: name a file in it/],
        [
          ['record', '--topic', 'no-such-topic', '--out', torn, '--append'],
          /--out: cannot append to .*torn\.jsonl\.gz: the gzip data ends early .* record to a new file instead/,
        ],
        [
          ['record', '--subscription', 'no-such-sub', '--out', join(dir, 'a.jsonl')],
          /subscription projects\/seqscope-test\/subscriptions\/no-such-sub does not exist: check the name/,
        ],
        [['record', '--topic', 'no-such-topic', '--out', join(dir, 'b.jsonl')], /topic projects\/seqscope-test\/topics\/no-such-topic does not exist/],
        [['publish', SAMPLE, '--topic', 'no-such-topic'], /topic projects\/seqscope-test\/topics\/no-such-topic does not exist/],
        [['record', '--subscription', 'projects/seqscope-test/topics/feed', '--out', join(dir, 'c.jsonl')], /names a topic, not a subscription/],
        [['record', '--subscription', 's-1', '--topic', 't-1', '--out', join(dir, 'd.jsonl')], /give one of --subscription .* or --topic/],
        [['publish', SAMPLE, '--topic', 'feed', '--pace', 'fast'], /pace "fast" is not original, max or xN/],
        [
          ['record', '--subscription', 'md-310', '--out', join(dir, 'e.jsonl'), '--emulator-host', `127.0.0.1:${await freePort()}`],
          /emulator at .* is not running: start it/,
        ],
      ];
      for (const [args, re] of cases) {
        const r = await runCli(emu, args);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, re, args.join(' '));
        assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
      }
      assert.deepEqual(readFileSync(kept), readFileSync(SAMPLE).subarray(0, 300), 'the recording is as it was');
    });
  });
});
