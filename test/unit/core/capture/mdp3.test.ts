import assert from 'node:assert/strict';
import { base64Bytes, decodeMdp3, decodeMdp3Base64, isMdp3Error, Mdp3Packet, sendingTimeMs } from '../../../../src/core/capture/mdp3';
import { base64, encodeMdp3Packet } from '../../../support/mdp3Packets';

/** The header of the packet in CME's Smart Stream tutorial (test/fixtures/cme/NOTICE.md). */
const TUTORIAL = { msgSeqNum: 1539130, sendingTimeNs: 1578070424698281707n, messages: [{ templateId: 47, blockLength: 11, size: 64 }] };

function packet(r: ReturnType<typeof decodeMdp3>): Mdp3Packet {
  assert.ok(!isMdp3Error(r), isMdp3Error(r) ? r.error : '');
  return r;
}

describe('MDP 3.0 packet decoder', () => {
  it('reads the binary packet header and the message header, little-endian', () => {
    const bytes = encodeMdp3Packet(TUTORIAL);
    assert.equal(bytes.length, 76);
    // The first bytes as the tutorial prints them: ":|\027\000" is 1539130, "@\000" MsgSize 64.
    assert.deepEqual([...bytes.subarray(0, 4)], [0x3a, 0x7c, 0x17, 0x00]);
    assert.deepEqual(packet(decodeMdp3(bytes)), {
      msgSeqNum: 1539130,
      sendingTimeNs: '1578070424698281707',
      messages: [{ offset: 12, size: 64, blockLength: 11, templateId: 47, schemaId: 1, version: 9 }],
    });
    assert.equal(sendingTimeMs(packet(decodeMdp3(bytes))), 1578070424698.2817);
  });

  it('reads several messages, each at the offset the previous MsgSize gives', () => {
    const bytes = encodeMdp3Packet({
      msgSeqNum: 4294967295,
      sendingTimeNs: 2n ** 64n - 1n,
      messages: [
        { templateId: 46, blockLength: 11, size: 40 },
        { templateId: 47, blockLength: 11, size: 64, schemaId: 2, version: 13 },
        { templateId: 12, blockLength: 0 },
      ],
    });
    const p = packet(decodeMdp3(bytes));
    assert.equal(p.msgSeqNum, 4294967295, 'uInt32, not signed');
    assert.equal(p.sendingTimeNs, '18446744073709551615', 'uInt64, every digit');
    assert.deepEqual(
      p.messages.map((m) => [m.offset, m.size, m.blockLength, m.templateId, m.schemaId, m.version]),
      [
        [12, 40, 11, 46, 1, 9],
        [52, 64, 11, 47, 2, 13],
        [116, 10, 0, 12, 1, 9],
      ],
    );
  });

  it('reads a packet inside a larger buffer (a view with an offset)', () => {
    const bytes = encodeMdp3Packet(TUTORIAL);
    const big = new Uint8Array(bytes.length + 7);
    big.set(bytes, 3);
    assert.equal(packet(decodeMdp3(big.subarray(3, 3 + bytes.length))).msgSeqNum, 1539130);
  });

  it('says why for a packet cut at every byte length, never throws', () => {
    const bytes = encodeMdp3Packet({
      ...TUTORIAL,
      messages: [
        { templateId: 46, blockLength: 11, size: 40 },
        { templateId: 47, blockLength: 11, size: 64 },
      ],
    });
    const whole = [12 + 40, bytes.length];
    for (let n = 0; n < bytes.length; n++) {
      const r = decodeMdp3(bytes.subarray(0, n));
      // Cut exactly after the first message, it is a whole packet of one message.
      if (whole.includes(n)) assert.equal(packet(r).messages.length, 1, `${n} bytes`);
      else assert.ok(isMdp3Error(r) && /truncated\?/.test(r.error), `${n} bytes: ${JSON.stringify(r)}`);
    }
    assert.deepEqual(decodeMdp3(bytes.subarray(0, 5)), { error: 'MDP 3.0 packet of 5 bytes is shorter than its 12-byte header (truncated?)' });
    assert.deepEqual(decodeMdp3(bytes.subarray(0, 12)), { error: 'MDP 3.0 packet has its 12-byte header and no message (truncated?)' });
    assert.deepEqual(decodeMdp3(bytes.subarray(0, 20)), {
      error: 'MDP 3.0 packet is cut short: message 1 at byte 12 has 8 of its 10 header bytes (truncated?)',
    });
    assert.deepEqual(decodeMdp3(bytes.subarray(0, 30)), { error: 'MDP 3.0 message 1 at byte 12 gives MsgSize 40, but 18 bytes are left (truncated?)' });
  });

  it('refuses garbage: sizes that do not frame, text, random bytes', () => {
    const tooSmall = encodeMdp3Packet(TUTORIAL);
    new DataView(tooSmall.buffer).setUint16(12, 4, true);
    assert.match((decodeMdp3(tooSmall) as { error: string }).error, /MsgSize 4, less than its 10-byte header/);
    const block = encodeMdp3Packet({ ...TUTORIAL, messages: [{ templateId: 47, blockLength: 60, size: 64 }] });
    assert.match((decodeMdp3(block) as { error: string }).error, /blockLength 60, more than its 54-byte body/);
    const json = new TextEncoder().encode('{"MsgSeqNum":1539130,"Channel":"310","entries":[]}');
    assert.ok(isMdp3Error(decodeMdp3(json)));
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      const junk = Uint8Array.from({ length: (i % 90) + 1 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
      const r = decodeMdp3(junk);
      if (!isMdp3Error(r))
        assert.equal(
          r.messages.reduce((s, m) => s + m.size, 12),
          junk.length,
          'whatever decodes frames exactly',
        );
    }
    assert.deepEqual(decodeMdp3Base64('not base64!'), { error: 'the payload (data) is not base64, so not an MDP 3.0 packet' });
    assert.deepEqual(decodeMdp3Base64(Buffer.from('{"MsgSeqNum":1}').toString('base64')), { error: 'the payload is JSON text, not an MDP 3.0 packet' });
    assert.deepEqual(decodeMdp3Base64(undefined), { error: 'the message has no payload (data) to read an MDP 3.0 packet from' });
  });

  it('decodes base64 as Node does, padded, unpadded and URL-safe', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const b64 = base64(bytes);
      assert.deepEqual(base64Bytes(b64), bytes, b64);
      assert.deepEqual(base64Bytes(b64.replace(/=+$/, '')), bytes);
      assert.deepEqual(base64Bytes(Buffer.from(bytes).toString('base64url')), bytes);
    }
    assert.equal(base64Bytes('A'), undefined);
    assert.equal(base64Bytes('AB=C'), undefined);
    assert.equal(packet(decodeMdp3Base64(base64(encodeMdp3Packet(TUTORIAL)))).msgSeqNum, 1539130);
  });
});
