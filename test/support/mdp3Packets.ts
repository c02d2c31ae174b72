/**
 * Writes MDP 3.0 packets (binary packet header, then messages with MsgSize and an SBE header;
 * all little-endian) for tests and fixtures. The bodies are zeros: SeqScope decodes the framing
 * only. See test/fixtures/cme/NOTICE.md for where each fact comes from.
 */
export interface MessageSpec {
  templateId: number;
  blockLength: number;
  /** MsgSize; default: header + blockLength. */
  size?: number;
  schemaId?: number;
  version?: number;
}

export interface PacketSpec {
  msgSeqNum: number;
  sendingTimeNs: bigint;
  messages: MessageSpec[];
}

export function encodeMdp3Packet(p: PacketSpec): Uint8Array {
  const sizes = p.messages.map((m) => m.size ?? 10 + m.blockLength);
  const out = new Uint8Array(12 + sizes.reduce((s, n) => s + n, 0));
  const v = new DataView(out.buffer);
  v.setUint32(0, p.msgSeqNum, true);
  v.setBigUint64(4, p.sendingTimeNs, true);
  let at = 12;
  p.messages.forEach((m, i) => {
    v.setUint16(at, sizes[i], true);
    v.setUint16(at + 2, m.blockLength, true);
    v.setUint16(at + 4, m.templateId, true);
    v.setUint16(at + 6, m.schemaId ?? 1, true);
    v.setUint16(at + 8, m.version ?? 9, true);
    at += sizes[i];
  });
  return out;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}
