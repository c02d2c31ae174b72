/**
 * Issue 43, item 3: a recorder that stops gives back at once what it received but did not write.
 * Two `seqscope record` processes share one ordered subscription; one is stopped with SIGTERM
 * while the backlog flows. What must hold: the other one records what the stopped one held well
 * before the ack deadline (60 s) would have handed it back — waited for as its file gains the
 * messages, then checked by their receive times — and the two files together hold every
 * published message exactly once (the stopped recorder acked what it wrote; nothing it released
 * was written by it).
 *
 * Prints the takeover (the last message recorded, after the stop) and the reordered count of the
 * merged files by publish order (test/support/publishOrder.ts), which the merged replay must flag
 * key by key. SEQSCOPE_EMULATOR_CLI runs the
 * recorders from another build, to measure the same figures without the release.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reorderedIn } from '../support/publishOrder';
import { CliRun, runCli, startCli, tempDir, uniqueId, useEmulator, waitFor } from './emulatorSupport';

const KEYS = 20;
const PER_KEY = 300;
const DEADLINE_S = 60;

/** Every line's messageId and receive time (ms), of the files written so far. */
function linesOf(paths: string[]): { id: string; at: number }[] {
  const out: { id: string; at: number }[] = [];
  for (const p of paths) {
    let text = '';
    try {
      text = readFileSync(p, 'utf8');
    } catch {
      continue;
    }
    for (const l of text.split('\n')) {
      if (!l) continue;
      try {
        const r = JSON.parse(l) as { receivedAt: string; message: { messageId: string } };
        out.push({ id: r.message.messageId, at: Date.parse(r.receivedAt) });
      } catch {
        // The last line, still being written.
      }
    }
  }
  return out;
}

describe('emulator: a recorder that stops releases what it did not write', function () {
  this.timeout(DEADLINE_S * 1000 + 120_000);
  const env = useEmulator();

  async function recorder(sub: string, out: string): Promise<CliRun> {
    const r = await startCli(env.emu, ['record', '--subscription', sub, '--out', out, '--key', 'orderingKey', '--seq', 'none', '--json', '--no-progress']);
    await waitFor(`the recorder of ${out} to open its stream`, () => /seqscope: recording /.test(r.stderr) || r.child.exitCode !== null, 60_000);
    assert.equal(r.child.exitCode, null, r.stderr);
    return r;
  }

  it('two recorders on one ordered subscription, one stopped (SIGTERM) mid-stream: the other takes over at once, nothing lost or twice', async () => {
    const topic = uniqueId('stop');
    const sub = uniqueId('stop-sub');
    const [t] = await env.conn.client.createTopic(topic);
    await t.createSubscription(sub, { enableMessageOrdering: true, ackDeadlineSeconds: DEADLINE_S });
    const dir = tempDir();
    const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    const a = await recorder(sub, outs[0]);
    const b = await recorder(sub, outs[1]);
    const pub = env.conn.client.topic(topic, { messageOrdering: true, batching: { maxMessages: 100, maxMilliseconds: 10 } });
    const published = Promise.all(
      Array.from({ length: PER_KEY * KEYS }, (_, i) =>
        pub.publishMessage({ data: Buffer.from(`m${i}`), orderingKey: `key-${i % KEYS}`, attributes: { n: String(i) } }),
      ),
    );
    // Stopped while the backlog flows to both: A has written some, and holds more.
    await waitFor('A to record part of the stream', () => linesOf([outs[0]]).length >= 200, 60_000);
    const stoppedAt = Date.now();
    a.child.kill('SIGTERM');
    assert.equal(await a.exited, 0, a.stderr);
    await published;
    const total = PER_KEY * KEYS;
    // Waited for as B's file gains them; the cap is past the deadline, so a figure is printed either way.
    await waitFor('every message recorded by A or B', () => new Set(linesOf(outs).map((l) => l.id)).size === total, (DEADLINE_S + 30) * 1000).catch(
      () => undefined,
    );
    b.child.kill('SIGTERM');
    assert.equal(await b.exited, 0, b.stderr);

    const lines = linesOf(outs);
    const ids = new Set(lines.map((l) => l.id));
    const fromB = linesOf([outs[1]]);
    const last = Math.max(...fromB.map((l) => l.at)) - stoppedAt;
    const released = (JSON.parse(a.stdout) as { recorded: { released?: number } }).recorded.released ?? 0;
    const order = reorderedIn(outs);
    console.log(
      `      stopped recorder: ${linesOf([outs[0]]).length} written by A, ${released} released on its stop; B's last message ${(last / 1000).toFixed(1)} s after the stop ` +
        `(ack deadline ${DEADLINE_S} s); ${order.reordered} reordered by publish order on ${order.keys.length} of ${KEYS} keys`,
    );
    assert.equal(total - ids.size, 0, `${total - ids.size} messages never recorded`);
    assert.equal(lines.length, total, 'every message recorded once: A acked what it wrote, and wrote nothing it released');
    // The merged replay (the default for ordering keys: publish order) flags every misordered key, and only those.
    const replayed = await runCli(env.emu, ['replay', ...outs, '--json']);
    assert.equal(replayed.code, 0, replayed.stderr);
    const summary = JSON.parse(replayed.stdout) as { options: string; reordered: number; byKey: { key: string; reordered: number }[] };
    assert.match(summary.options, /seq publishTime/);
    assert.equal(summary.reordered, order.reordered, 'the replay counts the reorders publish order shows');
    assert.deepEqual(
      summary.byKey
        .filter((k) => k.reordered > 0)
        .map((k) => k.key)
        .sort(),
      order.keys,
    );
    assert.ok(last < (DEADLINE_S * 1000) / 2, `what A held reached B ${(last / 1000).toFixed(1)} s after the stop: well before the ${DEADLINE_S} s deadline`);
  });
});
