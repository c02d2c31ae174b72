/**
 * Issue 30, item 3: scale out on Pub/Sub itself. Several `seqscope record` processes (the built
 * CLI) on one ordered subscription share its keys — Pub/Sub's key affinity — and `seqscope replay`
 * of their recordings together gives the verdict one recorder gives: here a recorder on a second
 * subscription of the same topic, receiving the very same messages. Also when a key moves from
 * one client to another mid-stream (a recorder stops, another starts), which Pub/Sub's docs call
 * possible: the merge by receive time absorbs it, a message the stopped recorder wrote but had
 * not acked coming back as a redelivery (same messageId), never a gap or a conflict.
 *
 * The stream is CME-style (a channel per ordering key, 32-bit MsgSeqNum), written by our
 * generator with known skipped numbers and second publishes, and sent by `seqscope publish`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture, GroundTruth } from '../../scripts/lib/captureGenerator';
import { CliRun, runCli, startCli, tempDir, uniqueId, useEmulator, waitFor } from './emulatorSupport';

const CHANNELS = 8;
const PER_CHANNEL = 250;
/** Real MsgSeqNum values do not fit 16 bits (CME's tutorial shows 1539130). */
const FIRST = 1_539_000;

/** A capture to publish, and what any correct replay of what was published must say. */
function stream(dir: string): { path: string; truth: GroundTruth } {
  const start = (k: number) => FIRST + k * 10_000;
  const { lines, truth } = generateCapture({
    seed: 30,
    keys: CHANNELS,
    messagesPerKey: PER_CHANNEL,
    startSeq: start,
    seqBits: 32,
    // Published again by `seqscope publish`, a redelivery would be a second publish: none here.
    redeliveryFraction: 0,
    republishes: 12,
    reorderFraction: 0,
    losses: [
      { key: '311', from: start(1) + 40, to: start(1) + 42 },
      { key: '314', from: start(4) + 120, to: start(4) + 120 },
      { key: '317', from: start(7) + 200, to: start(7) + 204 },
    ],
  });
  const path = join(dir, 'stream.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, truth };
}

interface Summary {
  received: number;
  delivered: number;
  duplicates: number;
  redeliveries: number;
  conflicts?: number;
  gaps: number;
  lost: number;
  late: number;
  invalid: number;
  keys: number;
}

/** The verdict: what must not depend on how the messages were spread over recorders. */
function verdict(s: Summary): Record<string, number> {
  return {
    delivered: s.delivered,
    republished: s.duplicates - s.redeliveries,
    gaps: s.gaps,
    lost: s.lost,
    late: s.late,
    invalid: s.invalid,
    keys: s.keys,
    conflicts: s.conflicts ?? 0,
  };
}

/** Per key, the numbers the replay delivered, in order, and the gaps it reported. */
function orderByKey(trace: string): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const l of readFileSync(trace, 'utf8').split('\n').filter(Boolean)) {
    const ev = JSON.parse(l) as { type: string; key: string; seq?: number; from?: number; to?: number };
    const list = byKey.get(ev.key) ?? [];
    if (ev.type === 'message') list.push(String(ev.seq));
    else if (ev.type === 'gap') list.push(`gap ${ev.from}-${ev.to}`);
    else continue;
    byKey.set(ev.key, list);
  }
  return byKey;
}

/** What each recording holds per ordering key: the Channel attribute of every line, counted. */
function keysIn(path: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const k = (JSON.parse(l) as { message: { orderingKey?: string } }).message.orderingKey ?? '';
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Distinct messageIds in the recordings. */
function idsIn(paths: string[]): number {
  const ids = new Set<string>();
  for (const p of paths) {
    try {
      for (const l of readFileSync(p, 'utf8').split('\n').filter(Boolean)) ids.add((JSON.parse(l) as { message: { messageId: string } }).message.messageId);
    } catch {
      // Not written yet.
    }
  }
  return ids.size;
}

function lineCount(paths: string[]): number {
  return paths.reduce((n, p) => {
    try {
      return n + readFileSync(p, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return n;
    }
  }, 0);
}

describe('emulator: several recorders on one ordered subscription (scale-out)', function () {
  this.timeout(300_000);
  const env = useEmulator();

  /** A topic with two ordered subscriptions: one for the spread recorders, one for a lone recorder. */
  async function setUp(): Promise<{ dir: string; topic: string; spread: string; solo: string }> {
    const topic = uniqueId('spread');
    const [t] = await env.conn.client.createTopic(topic);
    const spread = uniqueId('spread-sub');
    const solo = uniqueId('solo-sub');
    // Generous deadlines: on a loaded machine a recorder may be starved for seconds, and a
    // redelivery it caused is not what these tests are about (the second one provokes its own).
    for (const s of [spread, solo]) await t.createSubscription(s, { enableMessageOrdering: true, ackDeadlineSeconds: 30 });
    return { dir: tempDir(), topic, spread, solo };
  }

  /** `seqscope record` on `sub`, resolved once its stream is open (it says so on stderr). */
  async function recorder(sub: string, out: string, extra: string[]): Promise<CliRun> {
    const r = await startCli(env.emu, ['record', '--subscription', sub, '--out', out, '--preset', 'cme', '--json', ...extra]);
    await waitFor(`the recorder of ${out} to open its stream`, () => /seqscope: recording /.test(r.stderr) || r.child.exitCode !== null, 60_000);
    assert.equal(r.child.exitCode, null, r.stderr);
    return r;
  }

  async function publish(capture: string, topic: string): Promise<void> {
    const pub = await runCli(env.emu, ['publish', capture, '--topic', topic, '--pace', 'max', '--json']);
    assert.equal(pub.code, 0, pub.stderr);
  }

  async function replay(paths: string[], trace: string): Promise<Summary> {
    const r = await runCli(env.emu, ['replay', ...paths, '--preset', 'cme', '--json', '--export', trace, '--no-progress']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Summary;
  }

  /** The lone recorder's verdict and order must be the generator's truth; the merged ones, the lone recorder's. */
  async function compare(dir: string, truth: GroundTruth, solo: string, spread: string[]): Promise<Summary> {
    const one = await replay([solo], join(dir, 'solo.trace.jsonl'));
    assert.deepEqual(
      verdict(one),
      {
        delivered: truth.distinct,
        republished: truth.duplicates,
        gaps: truth.gaps,
        lost: truth.lost,
        late: truth.late,
        invalid: 0,
        keys: CHANNELS,
        conflicts: 0,
      },
      'the lone recorder saw what was published',
    );
    assert.equal(one.redeliveries, 0);
    const merged = await replay(spread, join(dir, 'merged.trace.jsonl'));
    assert.deepEqual(verdict(merged), verdict(one), "merged recordings give the lone recorder's verdict");
    const want = orderByKey(join(dir, 'solo.trace.jsonl'));
    const got = orderByKey(join(dir, 'merged.trace.jsonl'));
    assert.equal(got.size, CHANNELS);
    for (const [key, order] of want) assert.deepEqual(got.get(key), order, `channel ${key}: the same numbers and gaps in the same order`);
    return merged;
  }

  it("two recorders share the keys, each key with one of them; replayed together they give one recorder's verdict", async () => {
    const { dir, topic, spread, solo } = await setUp();
    const { path, truth } = stream(dir);
    const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    const soloOut = join(dir, 'solo.jsonl');
    const recs = [...(await Promise.all(outs.map((o) => recorder(spread, o, [])))), await recorder(solo, soloOut, [])];
    await publish(path, topic);
    await waitFor(
      'every message recorded by the two and by the lone recorder',
      () => idsIn(outs) === truth.deliveries && idsIn([soloOut]) === truth.deliveries,
      120_000,
    );
    // Stopped as Ctrl-C or a deploy stops them.
    for (const r of recs) r.child.kill('SIGTERM');
    for (const r of recs) assert.equal(await r.exited, 0, r.stderr);
    const perRecorder = outs.map(keysIn);
    const split = perRecorder.map((m) => [...m.keys()].sort());
    assert.ok(
      split.every((keys) => keys.length > 0),
      `each recorder got keys: ${JSON.stringify(split)}`,
    );
    // Key affinity, as a rule: a key's messages all went to one recorder.
    const shared = split[0].filter((k) => split[1].includes(k));
    assert.deepEqual(shared, [], `no key split between the recorders: ${JSON.stringify(perRecorder.map((m) => Object.fromEntries(m)))}`);
    assert.equal(lineCount(outs), truth.deliveries, 'every message recorded once');
    const merged = await compare(dir, truth, soloOut, outs);
    assert.equal(merged.redeliveries, 0);
  });

  it('a key that moves to another recorder mid-stream (one stops, a third starts) is absorbed by the merge', async () => {
    const { dir, topic, spread, solo } = await setUp();
    const { path, truth } = stream(dir);
    const all = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const half = Math.floor(all.length / 2);
    writeFileSync(join(dir, 'first.jsonl'), all.slice(0, half).join('\n') + '\n');
    writeFileSync(join(dir, 'second.jsonl'), all.slice(half).join('\n') + '\n');
    const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), join(dir, 'c.jsonl')];
    const soloOut = join(dir, 'solo.jsonl');
    const lone = await recorder(solo, soloOut, []);
    const a = await recorder(spread, outs[0], []);
    const b = await recorder(spread, outs[1], []);
    await publish(join(dir, 'first.jsonl'), topic);
    // A holds some keys now (or will get them all; affinity decides which).
    await waitFor('A and B to record the first half', () => idsIn(outs.slice(0, 2)) >= half, 120_000);
    const aKeys = [...keysIn(outs[0]).keys()];
    // A stops as Ctrl-C or a deploy would stop it (SIGTERM): what it wrote is acked on the way
    // out, what it held unwritten goes back; its keys move to B, or to C, started now.
    a.child.kill('SIGTERM');
    assert.equal(await a.exited, 0, a.stderr);
    const c = await recorder(spread, outs[2], []);
    await publish(join(dir, 'second.jsonl'), topic);
    await waitFor(
      "every message recorded by B and C (A's included) and by the lone recorder",
      () => idsIn(outs) === truth.deliveries && idsIn([soloOut]) === truth.deliveries,
      120_000,
    );
    for (const r of [b, c, lone]) r.child.kill('SIGTERM');
    for (const r of [b, c, lone]) assert.equal(await r.exited, 0, r.stderr);
    const later = [keysIn(outs[1]), keysIn(outs[2])];
    const moved = aKeys.filter((k) => later.some((m) => m.has(k)));
    assert.ok(aKeys.length > 0 && moved.length > 0, `A's keys (${aKeys.join(', ')}) went on with B or C: ${JSON.stringify(later.map((m) => [...m.keys()]))}`);
    const merged = await compare(dir, truth, soloOut, outs);
    // Whatever came twice came as a redelivery: the merged count of copies is what was recorded
    // beyond the stream, and no copy was taken for a second publish or a conflict.
    assert.equal(merged.received, lineCount(outs));
    assert.equal(merged.redeliveries, lineCount(outs) - truth.deliveries);
  });
});
