/**
 * Recordings of several recorders on one ordered subscription, replayed together (docs/cli.md,
 * "Spreading recorders"): when a key moves from one recorder to another, the second gets the
 * key's messages from the first one the other had not acked — some it had already written — so
 * the merge by receive time sees those again with the same messageId. They must be redeliveries:
 * no gap, no second publish, no conflict, and the verdict that one recorder's file gives. The
 * emulator test (test/emulator/scale-out.test.ts) moves keys for real; there the stopped
 * recorder acked all it wrote, so this is the case it could not provoke.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';

const T0 = Date.parse('2026-12-02T09:30:00Z');

/** A CME-style line: channel `key`, number `seq`, received `t` ms after T0. */
function line(key: string, seq: number, t: number, attempt = 1): string {
  return JSON.stringify({
    message: {
      data: Buffer.from(`${key}:${seq}`).toString('base64'),
      attributes: { Channel: key, MsgSeqNum: String(seq) },
      messageId: `${key}-${seq}`,
      publishTime: new Date(T0).toISOString(),
      orderingKey: key,
    },
    deliveryAttempt: attempt,
    receivedAt: new Date(T0 + t).toISOString(),
  });
}

describe('runReplay of spread recorders: a key that moves', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-spread-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function replay(files: string[][]): Promise<{ summary: Awaited<ReturnType<typeof runReplay>>['summary']; order: Map<string, string[]> }> {
    const paths = files.map((lines, i) => {
      const p = join(dir, `${Math.random().toString(36).slice(2)}-${i}.jsonl`);
      writeFileSync(p, lines.join('\n') + '\n');
      return p;
    });
    const order = new Map<string, string[]>();
    const note = (e: TraceEvent) => {
      if (e.type !== 'message' && e.type !== 'gap') return;
      const list = order.get(e.key) ?? [];
      list.push(e.type === 'message' ? String(e.seq) : `gap ${e.from}-${e.to}`);
      order.set(e.key, list);
    };
    const { summary } = await runReplay({ paths, options: resolveOptions({ preset: 'cme' }), listener: note });
    return { summary, order };
  }

  it("what the first recorder wrote but had not acked comes again to the second: redeliveries, and one recorder's verdict", async () => {
    // One recorder's view: 310 numbers 1–8 with 6 missing (a gap), 311 numbers 1–4.
    const one = [
      line('310', 1, 0),
      line('311', 1, 1),
      line('310', 2, 2),
      line('311', 2, 3),
      line('310', 3, 4),
      line('310', 4, 5),
      line('311', 3, 6),
      line('310', 5, 7),
      line('311', 4, 8),
      line('310', 7, 9),
      line('310', 8, 10),
    ];
    // Spread: A holds 310 until it stops after writing 1–5, having acked only 1–3; B, which had
    // 311, then gets 310 from 4 on (4 and 5 again, attempt 2). A's clock and B's agree.
    const a = [line('310', 1, 0), line('310', 2, 2), line('310', 3, 4), line('310', 4, 5), line('310', 5, 7)];
    const b = [
      line('311', 1, 1),
      line('311', 2, 3),
      line('311', 3, 6),
      line('311', 4, 8),
      line('310', 4, 8.5, 2),
      line('310', 5, 8.7, 2),
      line('310', 7, 9),
      line('310', 8, 10),
    ];
    const lone = await replay([one]);
    const merged = await replay([a, b]);
    const verdict = (s: typeof lone.summary) => ({
      delivered: s.delivered,
      gaps: s.gaps,
      lost: s.lost,
      late: s.late,
      invalid: s.invalid,
      conflicts: s.conflicts,
      republished: s.duplicates - s.redeliveries,
      keys: s.keys,
    });
    assert.deepEqual(verdict(merged.summary), verdict(lone.summary));
    assert.deepEqual(verdict(lone.summary), { delivered: 11, gaps: 1, lost: 1, late: 0, invalid: 0, conflicts: 0, republished: 0, keys: 2 });
    assert.equal(merged.summary.redeliveries, 2, '310 numbers 4 and 5, the second time');
    assert.equal(merged.summary.duplicates, 2);
    assert.deepEqual(merged.order, lone.order);
    assert.deepEqual(merged.order.get('310'), ['1', '2', '3', '4', '5', 'gap 6-6', '7', '8']);
  });
});
