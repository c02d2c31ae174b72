/**
 * The record scanner against the full parse, field by field: for random, real-shaped and hostile
 * records (escapes, unicode, surrogates, fields twice or in any order, whitespace, numbers in
 * every form, values of the wrong type, huge payloads, broken bytes) and every kind of option,
 * whatever the scanner reads equals what parseEntry, readFields and contentHash give, and it
 * reads nothing from a record the full parse finds invalid. Records it cannot read with
 * certainty are left to the full parse: both paths are exercised by construction.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseEntry, publishedAt, receivedAtMs } from '../../../../src/core/capture/captureRecord';
import { contentHash } from '../../../../src/core/capture/contentHash';
import { scanLines } from '../../../../src/core/capture/lineScan';
import { RecordScanner } from '../../../../src/core/capture/recordScan';
import { newRecordFields, readFields } from '../../../../src/core/capture/recordFields';
import { DEFAULT_OPTIONS, PRESETS, resolveOptions, SequencingOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { SerialSpace } from '../../../../src/core/sequencer/serial';
import { damage, damageArb, recordArb, seeded, writeJson } from '../../../support/hostileRecords';

const OPTIONS: readonly SequencingOptions[] = [
  { ...DEFAULT_OPTIONS, ...PRESETS.cme, seqBits: 16 },
  { ...DEFAULT_OPTIONS, ...PRESETS.cme },
  DEFAULT_OPTIONS,
  resolveOptions({ key: 'orderingKey', seq: 'attribute:MsgSeqNum', seqBits: '64' }),
  resolveOptions({ key: 'none', seq: 'attribute:MsgSeqNum', time: 'attribute:SendingTime' }),
  resolveOptions({ key: 'attribute:constructor', seq: 'none' }),
  resolveOptions({ key: 'attribute:é', seq: 'attribute:MsgSeqNum' }),
  resolveOptions({ key: 'json:payload[0].instrument.symbol', seq: 'json:header.sequenceNumber', time: 'json:header.sentTime' }),
  resolveOptions({ preset: 'cme-json' }),
  resolveOptions({ key: 'attribute:Channel', seq: 'mdp3', time: 'mdp3' }),
];

/** What the full parse reads from a line: the scanner's fields, or undefined for an invalid record. */
function fullParse(line: Buffer, o: SequencingOptions): Record<string, unknown> | undefined {
  const e = parseEntry(line.toString('utf8'), 0, 0);
  if (e.record === undefined) return undefined;
  const f = newRecordFields();
  if (!readFields(e.record, o, new SerialSpace(o.seqBits), f)) return undefined;
  const rm = e.record;
  return {
    time: e.time,
    published: publishedAt(rm, e.time),
    received: receivedAtMs(rm, e.time),
    key: f.key,
    seq: f.seq,
    sent: f.sent,
    messageId: rm.message.messageId,
    hash: contentHash(rm.message),
  };
}

function scanned(s: RecordScanner): Record<string, unknown> {
  return { time: s.time, published: s.published, received: s.received, key: s.key, seq: s.seq, sent: s.sent, messageId: s.messageId, hash: s.hash };
}

/** Scans `line` (placed between other bytes, as in a range) and compares with the full parse; says which path it took. */
function check(line: Buffer, o: SequencingOptions): 'scanned' | 'parsed' {
  const s = new RecordScanner(o, new SerialSpace(o.seqBits));
  const range = Buffer.concat([Buffer.from('{"x":1}\n '), line, Buffer.from('\n{"message":{}}')]);
  const ok = s.scan(range, 9, 9 + line.length);
  const want = fullParse(line, o);
  if (!ok) return 'parsed';
  assert.notEqual(want, undefined, `the scanner read a record the full parse finds invalid: ${line.toString()}`);
  assert.deepEqual(scanned(s), want, line.toString());
  return 'scanned';
}

describe('RecordScanner', () => {
  it('reads what the full parse reads from random, real-shaped and hostile records, or leaves them to it', () => {
    const paths = { scanned: 0, parsed: 0 };
    fc.assert(
      fc.property(recordArb, fc.integer(), damageArb, fc.nat(OPTIONS.length - 1), ({ record, hostile }, seed, damages, which) => {
        const line = damage(Buffer.from(writeJson(record, seeded(seed), hostile)), hostile ? damages : []);
        paths[check(line, OPTIONS[which])]++;
      }),
      { numRuns: 2000 },
    );
    // Both paths taken, each on many records.
    assert.ok(paths.scanned > 300 && paths.parsed > 300, JSON.stringify(paths));
  });

  it('reads the common layouts without the full parse', () => {
    const cme = OPTIONS[0];
    const line =
      '{"ackId":"a","message":{"data":"eyJ9","attributes":{"Channel":"310","MsgSeqNum":"7","SendingTime":"1796031000001"},"messageId":"m1","publishTime":"2026-11-30T09:30:00.001512Z","orderingKey":"310"},"deliveryAttempt":1,"receivedAt":"2026-11-30T09:30:00.008Z"}';
    for (const text of [
      line,
      // Another order, whitespace, unknown fields of every kind, a topic, unicode in skipped and read fields.
      ' { "receivedAt" : "2026-11-30T09:30:00.008Z" ,\t"message":{"orderingKey":"é310","messageId":"m1","extra":[1,{"a":[true,false,null,-0.5e-3]}],"attributes":{"SendingTime":"1796031000001","MsgSeqNum":"7","Channel":"310€"},"publishTime":"2026-11-30T09:30:00Z","data":"€"},"ackId":"\\u0041\\n","topic":"projects/p/topics/md"}\r',
      // publishTime only; no attributes at all.
      '{"message":{"messageId":"m","publishTime":"2026-11-30T09:30:00.5Z","attributes":{"Channel":"1","MsgSeqNum":"1"}}}',
    ]) {
      assert.equal(check(Buffer.from(text), cme), 'scanned', text);
    }
    assert.equal(check(Buffer.from('{"message":{"messageId":"m","publishTime":"2026-11-30T09:30:00Z"}}'), DEFAULT_OPTIONS), 'scanned');
  });

  it('leaves to the full parse what it cannot read with certainty', () => {
    const cme = OPTIONS[0];
    const base = (message: string, rest = ''): string => `{"message":{${message}},"receivedAt":"2026-11-30T09:30:00.008Z"${rest}}`;
    const attrs = '"attributes":{"Channel":"310","MsgSeqNum":"7"}';
    for (const text of [
      // An escape in a field it reads.
      base(`"messageId":"m\\u0031",${attrs}`),
      base(`"messageId":"m",${attrs}`, ',"receivedAt":"2026-11-30T09:30:00.009Z"'),
      base(`"messageId":"m","attributes":{"Channel":"310","MsgSeqNum":"7","Channel":"311"}`),
      base(`"messageId":"m","attributes":{"Chann\\u0065l":"310","MsgSeqNum":"7"}`),
      base(`"messageId":"m","attributes":{"Channel":310,"MsgSeqNum":"7"}`),
      base(`"messageId":"m","attributes":{"Channel":"310","MsgSeqNum":"1234567890123456"}`),
      base(`"messageId":"m","data":null,${attrs}`),
      base(`"messageId":"m","data":"a\\nb",${attrs}`),
      base(
        `"messageId":"m",${attrs}`,
        ',"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      ),
      // Not a ReceivedMessage the scanner knows: a bare message, a BigQuery row.
      '{"messageId":"m","publishTime":"2026-11-30T09:30:00Z","attributes":{"Channel":"310","MsgSeqNum":"7"}}',
      '{"message_id":"m","publish_time":"2026-11-30 09:30:00 UTC","attributes":"{\\"Channel\\":\\"310\\",\\"MsgSeqNum\\":\\"7\\"}"}',
    ]) {
      assert.equal(check(Buffer.from(text), cme), 'parsed', text);
    }
  });

  it('gives scanLines the columns the full parse gives, the records it left counted', () => {
    const o = OPTIONS[0];
    fc.assert(
      fc.property(fc.array(fc.tuple(recordArb, fc.integer()), { maxLength: 12 }), (records) => {
        const lines = records.map(([r, seed]) => writeJson(r.record, seeded(seed), r.hostile));
        const c = scanLines(Buffer.from(lines.join('\n')), o, 1 << 20);
        let valid = 0;
        for (let i = 0; i < c.count; i++) {
          const want = fullParse(Buffer.from(lines[c.line[i]]), o);
          assert.equal(c.kind[i] === 0, want !== undefined);
          if (want === undefined) continue;
          valid++;
          const { messageId, ...rest } = want;
          assert.deepEqual(
            { time: c.time[i], published: c.published[i], received: c.received[i], key: c.keys[c.key[i]], seq: c.seq[i], sent: c.sent[i], hash: c.hash[i] },
            rest,
          );
          assert.equal(typeof messageId, 'string');
        }
        assert.ok(c.parsed <= c.count && c.count - c.parsed <= valid);
      }),
      { numRuns: 300 },
    );
  });
});
