import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntry, parseRfc3339 } from '../../../../src/core/capture/captureRecord';
import { ReplayEngine } from '../../../../src/core/replay/replayEngine';
import { TIME_MEASURES, TimeMeasure, TimePercentiles } from '../../../../src/core/replay/timePercentiles';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { MessageEvent } from '../../../../src/core/trace/traceEvents';
import { assertWithinPrecision, sortedPercentiles } from '../../../support/percentiles';

const SAMPLE = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');

/** Each measure's values, from the released messages as the trace gives them. */
function valuesOf(messages: MessageEvent[]): Record<TimeMeasure, number[]> {
  const v: Record<TimeMeasure, number[]> = { hold: [], sendToPublish: [], publishToReceive: [], sendToReceive: [] };
  const µs = (ms: number) => Math.round(ms * 1000) / 1000 + 0;
  // What a key's start window released (at the key's first release, having waited): not holds.
  const firstRelease = new Map<string, number>();
  for (const m of messages) if (!firstRelease.has(m.key)) firstRelease.set(m.key, m.releasedAt);
  for (const m of messages) {
    if (!(m.releasedAt === firstRelease.get(m.key) && m.arrivedAt < m.releasedAt)) v.hold.push(µs(m.heldMs));
    const sent = Number(m.attributes!.SendingTime);
    const pub = parseRfc3339(m.publishTime!);
    const recv = parseRfc3339(m.receivedAt!);
    v.sendToPublish.push(µs(pub - sent));
    v.publishToReceive.push(µs(recv - pub));
    v.sendToReceive.push(µs(recv - sent));
  }
  return v;
}

function assertMatches(got: TimePercentiles, messages: MessageEvent[], what: string): void {
  const want = valuesOf(messages);
  for (const m of TIME_MEASURES) assertWithinPrecision(got[m], sortedPercentiles(want[m]), `${what} ${m}`);
}

describe('Hold and latency percentiles (ReplayEngine)', () => {
  it('match a sort of the sample trace, per key and over the session, within 3 significant digits', () => {
    const messages: MessageEvent[] = [];
    const engine = new ReplayEngine(resolveOptions({ preset: 'cme' }), (e) => {
      if (e.type === 'message') messages.push(e);
    });
    readFileSync(SAMPLE, 'utf8')
      .trimEnd()
      .split('\n')
      .forEach((line, i) => engine.push(parseEntry(line, 0, i + 1)));
    engine.finish();
    const s = engine.summary();
    assert.equal(messages.length, 2996);
    assertMatches(s.percentiles, messages, 'session');
    assert.equal(s.percentiles.hold!.max, s.maxHoldMs, 'the longest hold is the one the summary reports');
    for (const k of s.byKey)
      assertMatches(
        k.percentiles,
        messages.filter((m) => m.key === k.key),
        `key ${k.key}`,
      );
    // The sample's figures, as its README and the docs quote them.
    assert.deepEqual([s.percentiles.hold!.p50, s.percentiles.hold!.max], [0, 10_000], 'most released as they arrive; the gaps waited 10 s');
    assert.ok(s.percentiles.hold!.count < s.delivered, "the start windows' releases are not holds");
  });

  it('leaves out a measure the records lack: no sender time, no receivedAt', () => {
    const engine = new ReplayEngine(resolveOptions({ key: 'orderingKey', seq: 'none' }));
    const line = (id: string, pub: string) => JSON.stringify({ message: { messageId: id, publishTime: pub, orderingKey: 'a' } });
    engine.push(parseEntry(line('1', '2026-11-30T09:30:00.000Z'), 0, 1));
    engine.push(parseEntry(line('2', '2026-11-30T09:30:00.005Z'), 0, 2));
    engine.finish();
    const p = engine.summary().percentiles;
    assert.deepEqual(Object.keys(p), ['hold']);
    assert.equal(p.hold!.count, 2);
  });
});
