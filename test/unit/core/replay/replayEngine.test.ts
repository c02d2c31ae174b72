import assert from 'node:assert/strict';
import { CaptureEntry, parseEntry, topicKey } from '../../../../src/core/capture/captureRecord';
import { ReplayEngine, tooWideMessage } from '../../../../src/core/replay/replayEngine';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceEvent } from '../../../../src/core/trace/traceEvents';
import { LineSpec, receivedMessage, T0 } from '../../../support/captureLines';
import { base64, encodeMdp3Packet } from '../../../support/mdp3Packets';

function entries(specs: LineSpec[]): CaptureEntry[] {
  return specs.map((s, i) => parseEntry(JSON.stringify(receivedMessage(s)), 0, i + 1));
}

function replay(specs: LineSpec[], opts = resolveOptions({ preset: 'cme' }), extra: CaptureEntry[] = []) {
  const events: TraceEvent[] = [];
  const engine = new ReplayEngine(opts, (e) => events.push(e), ['c.jsonl']);
  engine.pushAll([...entries(specs), ...extra]);
  engine.finish();
  return { events, summary: engine.summary() };
}

describe('ReplayEngine', () => {
  it('sequences by Channel and MsgSeqNum with the cme preset (--seq-bits 16 wraps 65535 → 0), and reports latency from SendingTime', () => {
    const { events, summary } = replay(
      [
        { t: 0, channel: '310', seq: 65535, sendingTime: -10 },
        { t: 1, channel: '312', seq: 7, sendingTime: -2 },
        { t: 2, channel: '310', seq: 0, sendingTime: -8 },
      ],
      resolveOptions({ preset: 'cme', seqBits: 16 }),
    );
    const msgs = events.filter((e) => e.type === 'message');
    assert.deepEqual(
      msgs.map((m) => [m.key, m.seq]),
      [
        ['310', 65535],
        ['310', 0],
        ['312', 7],
      ],
    );
    assert.equal(summary.keys, 2);
    assert.equal(summary.gaps, 0);
    const k310 = summary.byKey.find((k) => k.key === '310')!;
    assert.deepEqual(k310.latency, { count: 2, meanMs: 10, maxMs: 10 });
    const first = msgs[0];
    assert.ok(first.type === 'message');
    assert.equal(first.latencyMs, 10);
    assert.equal(first.heldMs, 2, 'held in the start window until the end of input, 2 ms later');
    assert.equal(first.arrivedAt, T0);
    assert.equal(first.receivedAt, new Date(T0).toISOString());
    assert.equal(first.messageId, '310-65535');
  });

  it('gives message events their fields in the order of the documented JSONL trace (docs/capture-formats.md), type first', () => {
    // JSONL export is JSON.stringify of the event: its key order is what users read and diff.
    const order = [
      'type',
      'key',
      'seq',
      'messageId',
      'publishTime',
      'receivedAt',
      'orderingKey',
      'attributes',
      'data',
      'deliveryAttempt',
      'arrivedAt',
      'releasedAt',
      'heldMs',
      'latencyMs',
      'file',
      'line',
    ];
    const { events } = replay([{ t: 0, channel: '310', seq: 1, sendingTime: -1 }]);
    const keys = Object.keys(JSON.parse(JSON.stringify(events.find((e) => e.type === 'message'))));
    assert.equal(keys[0], 'type');
    assert.ok(keys.length >= 12, `most fields present: ${keys.join(', ')}`);
    // Fields the record lacks are absent; those present keep the order.
    assert.deepEqual(
      keys,
      order.filter((k) => keys.includes(k)),
    );
  });

  it('gives gap, duplicate, late and invalid events their fields in the order of the documented JSONL trace (docs/capture-formats.md), type first', () => {
    const order: Record<string, string[]> = {
      gap: ['type', 'key', 'from', 'to', 'count', 'openedAt', 'declaredAt', 'waitedMs', 'reason'],
      duplicate: [
        'type',
        'key',
        'seq',
        'messageId',
        'redelivery',
        'firstMessageId',
        'cascade',
        'conflict',
        'conflictReason',
        'deliveryAttempt',
        'publishTime',
        'receivedAt',
        'at',
        'file',
        'line',
      ],
      late: ['type', 'key', 'seq', 'messageId', 'lostAt', 'publishTime', 'receivedAt', 'at', 'file', 'line'],
      invalid: ['type', 'line', 'reason', 'at', 'file'],
    };
    // 2 is redelivered, 3 goes missing (a gap) and then arrives late, and one line is invalid.
    const { events } = replay([
      { t: 0, channel: '310', seq: 1 },
      { t: 1, channel: '310', seq: 2 },
      { t: 2, channel: '310', seq: 2, deliveryAttempt: 2 },
      { t: 3, channel: '310', seq: 4 },
      { t: 3, channel: '310', seq: 'x' },
      { t: 30_000, channel: '310', seq: 3 },
    ]);
    const seen = new Set<string>();
    for (const e of events) {
      if (e.type === 'message') continue;
      seen.add(e.type);
      const keys = Object.keys(JSON.parse(JSON.stringify(e)));
      // Fields an event lacks (file: one capture; cascade: not a redelivery; conflict and its
      // reason: not a conflict) are absent.
      assert.deepEqual(
        keys,
        order[e.type].filter((k) => keys.includes(k)),
        e.type,
      );
      assert.ok(keys.length >= order[e.type].length - (e.type === 'duplicate' ? 4 : 2), `${e.type}: most fields present: ${keys.join(', ')}`);
    }
    assert.deepEqual([...seen].sort(), ['duplicate', 'gap', 'invalid', 'late']);
  });

  describe('conflicting copies (same messageId, different content)', () => {
    const dups = (events: TraceEvent[]) => events.filter((e) => e.type === 'duplicate');

    it('reports a delivered message sent again with other data as a conflict, not a redelivery', () => {
      const { events, summary } = replay([
        { t: 0, channel: '310', seq: 1 },
        { t: 1, channel: '310', seq: 2 },
        { t: 20_000, channel: '310', seq: 2, data: 'tampered' },
        { t: 20_001, channel: '310', seq: 2 },
      ]);
      const [conflict, redelivery] = dups(events);
      assert.ok(conflict.type === 'duplicate' && redelivery.type === 'duplicate');
      assert.equal(conflict.conflict, true);
      assert.equal(conflict.redelivery, false);
      assert.equal(conflict.firstMessageId, '310-2');
      assert.equal(conflict.conflictReason, 'data, attributes or ordering key differ from the first copy');
      assert.equal(redelivery.conflict, undefined, 'the same content again is a redelivery');
      assert.equal(redelivery.redelivery, true);
      assert.equal(summary.conflicts, 1);
      assert.equal(summary.duplicates, 2);
      assert.equal(summary.redeliveries, 1);
      assert.equal(summary.byKey[0].conflicts, 1);
      assert.equal(summary.delivered, 2, 'the first copy is the one delivered');
    });

    it('names what differs when the first copy is still held', () => {
      const base = receivedMessage({ t: 0, channel: '310', seq: 5 });
      const other = structuredClone(base) as { message: { attributes: Record<string, string> } };
      other.message.attributes.Extra = 'x';
      const extra = [parseEntry(JSON.stringify(other), 0, 9)];
      const { events, summary } = replay([{ t: 0, channel: '310', seq: 5 }], resolveOptions({ preset: 'cme' }), extra);
      const [d] = dups(events);
      assert.ok(d.type === 'duplicate');
      assert.equal(d.conflict, true);
      assert.equal(d.conflictReason, 'attributes differs from the first copy');
      assert.equal(summary.conflicts, 1);
    });

    it("is not a conflict when only the attributes' order differs", () => {
      const base = receivedMessage({ t: 0, channel: '310', seq: 1, sendingTime: -1 });
      const m = (base as { message: { attributes: Record<string, string> } }).message;
      const reordered = structuredClone(base) as typeof base & { message: { attributes: Record<string, string> } };
      reordered.message.attributes = Object.fromEntries(Object.entries(m.attributes).reverse());
      const { summary } = replay([], resolveOptions({ preset: 'cme' }), [parseEntry(JSON.stringify(base), 0, 1), parseEntry(JSON.stringify(reordered), 0, 2)]);
      assert.equal(summary.duplicates, 1);
      assert.equal(summary.conflicts, 0);
      assert.equal(summary.redeliveries, 1);
    });

    it('finds conflicts without sequence numbers (by messageId) and among late copies', () => {
      const none = replay(
        [
          { t: 0, orderingKey: 'a', id: 'm1' },
          { t: 1, orderingKey: 'a', id: 'm1', data: 'other' },
        ],
        resolveOptions({}),
      );
      assert.equal(none.summary.conflicts, 1);
      assert.equal(none.summary.redeliveries, 0);
      const late = replay([
        { t: 0, channel: '310', seq: 1 },
        { t: 1, channel: '310', seq: 3 },
        { t: 30_000, channel: '310', seq: 2 },
        { t: 30_001, channel: '310', seq: 2, data: 'other' },
      ]);
      assert.equal(late.summary.late, 1);
      assert.equal(late.summary.conflicts, 1);
    });
  });

  it('orders by orderingKey by default and keeps arrival order without a sequence', () => {
    const { events, summary } = replay(
      [
        { t: 0, orderingKey: 'a', id: 'm1' },
        { t: 1, orderingKey: 'b', id: 'm2' },
        { t: 2, orderingKey: 'a', id: 'm3' },
        { t: 3, orderingKey: 'a', id: 'm1' },
      ],
      resolveOptions({}),
    );
    assert.deepEqual(
      events.map((e) => [e.type, 'messageId' in e ? e.messageId : '']),
      [
        ['message', 'm1'],
        ['message', 'm2'],
        ['message', 'm3'],
        ['duplicate', 'm1'],
      ],
    );
    assert.equal(summary.redeliveries, 1);
    const m = events[0];
    assert.ok(m.type === 'message');
    assert.equal(m.seq, undefined);
    assert.equal(m.orderingKey, 'a');
  });

  it('keys a record that carries its topic (a recording of several topics) per topic: keys of two topics never meet', () => {
    const line = (topic: string, key: string, n: number, id: string) =>
      parseEntry(JSON.stringify({ ...receivedMessage({ t: n, orderingKey: key, id, seq: n }), topic }), 0, n + 1);
    const a = 'projects/cme-smartstream/topics/md-310';
    const b = 'projects/cme-smartstream/topics/md-318';
    // The same ordering key and numbers on both topics, and a message without an ordering key.
    const events: TraceEvent[] = [];
    const engine = new ReplayEngine(resolveOptions({ seq: 'attribute:MsgSeqNum' }), (e) => events.push(e));
    engine.pushAll([line(a, 'ES', 1, 'a1'), line(b, 'ES', 1, 'b1'), line(a, 'ES', 2, 'a2'), line(b, 'ES', 2, 'b2'), line(b, '', 3, 'b3')]);
    engine.finish();
    const summary = engine.summary();
    assert.deepEqual(
      summary.byKey.map((k) => [k.key, k.delivered]),
      [
        ['md-310/ES', 2],
        ['md-318/ES', 2],
        ['md-318', 1],
      ],
    );
    assert.equal(summary.duplicates, 0, "numbers of one topic are no duplicates of the other's");
    assert.equal(summary.gaps, 0);
    assert.equal(topicKey(undefined, 'ES'), 'ES', 'a record without a topic keeps its key');
  });

  it('reports records it cannot sequence as invalid, with their line, and keeps going', () => {
    const opts = resolveOptions({ preset: 'cme', seqBits: 16 });
    const { events, summary } = replay(
      [
        { t: 0, channel: '1', seq: 1 },
        { t: 1, channel: '1' },
        { t: 2, channel: '1', seq: 'abc' },
        { t: 3, channel: '1', seq: -4 },
        { t: 4, channel: '1', seq: 65536 },
        { t: 5, seq: 2 },
        { t: 6, channel: '1', seq: '1.5' },
        { t: 7, channel: '1', seq: 2 },
        { t: 8, channel: '1', seq: '-0' },
        { t: 9, channel: '1', seq: '+3' },
      ],
      opts,
      [parseEntry('{not json', 0, 11)],
    );
    const invalid = events.filter((e) => e.type === 'invalid');
    assert.deepEqual(
      invalid.map((e) => (e.type === 'invalid' ? [e.line, e.reason] : [])),
      [
        [2, 'sequence attribute "MsgSeqNum" is missing'],
        [3, 'MsgSeqNum "abc" is not an integer'],
        [4, 'MsgSeqNum "-4" is negative'],
        [5, 'MsgSeqNum "65536" is out of range for 16-bit numbers (max 65535)'],
        [6, 'key attribute "Channel" is missing'],
        [7, 'MsgSeqNum "1.5" is not an integer'],
        [9, 'MsgSeqNum "-0" is negative'],
        [10, 'MsgSeqNum "+3" is not an integer'],
        [11, invalid[8]?.type === 'invalid' ? invalid[8].reason : ''],
      ],
    );
    assert.match((invalid[8] as { reason: string }).reason, /^not valid JSON/);
    assert.equal(summary.invalid, 9);
    assert.equal(summary.invalidSamples.length, 8, 'the number too wide is summed up in tooWide instead');
    assert.deepEqual(summary.tooWide, { count: 1, source: 'MsgSeqNum', bits: 16, largest: 65536, first: { line: 5 }, fitsIn: 32 });
    assert.equal(summary.delivered, 2);
    assert.equal(summary.received, 2);
    assert.equal(summary.unsequenced, undefined, 'some records were sequenced');
  });

  it('sums up numbers too wide for the width once, with the width that fits them all', () => {
    const specs = [1539130, 1539131, 7, 2 ** 32 + 5, 1539132].map((seq, i) => ({ t: i, channel: '310', seq }));
    const { events, summary } = replay(specs, resolveOptions({ preset: 'cme', seqBits: 16 }));
    assert.equal(events.filter((e) => e.type === 'invalid').length, 4, 'each record is still an invalid event');
    assert.equal(summary.invalid, 4);
    assert.deepEqual(summary.invalidSamples, []);
    assert.deepEqual(summary.tooWide, { count: 4, source: 'MsgSeqNum', bits: 16, largest: 2 ** 32 + 5, first: { line: 1 }, fitsIn: 64 });
    assert.equal(
      tooWideMessage(summary.tooWide!, 'flag'),
      '4 records have MsgSeqNum too wide for 16-bit numbers (largest 4294967301, first at line 1): counted invalid; use --seq-bits 64',
    );
    assert.equal(replay(specs.slice(0, 2)).summary.invalid, 0, 'the cme preset is 32-bit');
  });

  it('says why and what to change when no record could be sequenced', () => {
    const wide = replay(
      [
        { t: 0, channel: '310', seq: 1539130 },
        { t: 1, channel: '310', seq: 1539131 },
      ],
      resolveOptions({ preset: 'cme', seqBits: 16 }),
    ).summary;
    assert.deepEqual(wide.unsequenced, {
      reason: 'no record could be sequenced: all 2 records have MsgSeqNum too wide for 16-bit numbers (largest 1539131)',
      fix: { flag: 'use --seq-bits 32', setting: 'open it with sequence width 32 (Open Capture… › Customize…, or the seqscope.seqBits setting)' },
    });
    const noKey = replay([{ t: 0, seq: 1 }]).summary.unsequenced!;
    assert.equal(noKey.reason, 'no record could be sequenced: its one record is invalid (the first: key attribute "Channel" is missing)');
    assert.match(noKey.fix.flag, /--key attribute:<name>/);
    assert.match(noKey.fix.setting, /seqscope\.key/);
    assert.match(replay([{ t: 0, channel: '1' }]).summary.unsequenced!.fix.flag, /--seq attribute:<name>/);
    assert.equal(replay([]).summary.unsequenced, undefined, 'an empty capture is not a failed run');
  });

  it('summarises counts per key and in total', () => {
    const { summary } = replay([
      { t: 0, channel: 'A', seq: 1 },
      { t: 1, channel: 'A', seq: 3 },
      { t: 2, channel: 'A', seq: 3 },
      { t: 3, channel: 'A', seq: 3, id: 'again' },
      { t: 4, channel: 'B', seq: 10 },
    ]);
    assert.equal(summary.received, 5);
    assert.equal(summary.delivered, 3);
    assert.equal(summary.duplicates, 2);
    assert.equal(summary.redeliveries, 1);
    assert.equal(summary.cascades, 1);
    assert.equal(summary.gaps, 1);
    assert.equal(summary.lost, 1);
    assert.equal(summary.firstTime, T0);
    assert.equal(summary.lastTime, T0 + 4);
    assert.deepEqual(
      summary.byKey.map((k) => [k.key, k.received, k.delivered, k.gaps]),
      [
        ['A', 4, 2, 1],
        ['B', 1, 1, 0],
      ],
    );
  });

  it('with --seq mdp3 takes the number from the packet header; a disagreeing attribute or a bad packet makes the record invalid', () => {
    const packet = (n: number, attr = n, cut?: number) => {
      const bytes = encodeMdp3Packet({ msgSeqNum: n, sendingTimeNs: BigInt(T0 - 7) * 1_000_000n, messages: [{ templateId: 47, blockLength: 11 }] });
      return {
        ...receivedMessage({ t: n, channel: '310', seq: attr }),
        message: {
          ...(receivedMessage({ t: n, channel: '310', seq: attr }).message as object),
          data: base64(cut === undefined ? bytes : bytes.subarray(0, cut)),
        },
      };
    };
    const lines = [packet(1), packet(2), packet(3, 30), packet(4, 4, 15), packet(5)].map((r, i) => parseEntry(JSON.stringify(r), 0, i + 1));
    const { events, summary } = replay([], resolveOptions({ preset: 'cme', seq: 'mdp3', time: 'mdp3' }), lines);
    assert.deepEqual(
      events.filter((e) => e.type === 'message').map((e) => e.type === 'message' && e.seq),
      [1, 2, 5],
    );
    assert.deepEqual(
      summary.invalidSamples.map((i) => i.reason),
      ['MDP packet MsgSeqNum 3 disagrees with attribute 30', 'MDP 3.0 packet is cut short: message 1 at byte 12 has 3 of its 10 header bytes (truncated?)'],
    );
    // receivedAt is T0 + n; the packet was sent at T0 − 7 ms.
    assert.deepEqual(summary.byKey[0].latency, { count: 3, meanMs: 7 + 8 / 3, maxMs: 12 });
  });

  it('does not read payloads unless asked: garbage data sequences by attribute', () => {
    const { summary } = replay([{ t: 0, channel: '310', seq: 1539130, data: 'not a packet' }]);
    assert.deepEqual([summary.received, summary.invalid], [1, 0]);
  });
});
