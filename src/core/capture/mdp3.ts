/**
 * CME MDP 3.0 packets, as CME Smart Stream on GCP carries them in a Pub/Sub message's `data`:
 * a binary packet header (MsgSeqNum uInt32, SendingTime uInt64 ns since the epoch), then one or
 * more messages, each a MsgSize uInt16 (the whole message, these 2 bytes included) and an SBE
 * message header (blockLength, templateId, schemaId, version: uInt16 each), then the body. All
 * little-endian. Only the framing is decoded, not the templates' fields.
 *
 * Pure: Uint8Array and DataView only, so the webview and the host can both use it. Never throws
 * on input: a packet that is cut short or not MDP 3.0 yields `{ error }`.
 */

export interface Mdp3Message {
  /** Byte offset of the message (its MsgSize) in the packet. */
  readonly offset: number;
  /** MsgSize: bytes of the whole message, MsgSize and SBE header included. */
  readonly size: number;
  readonly blockLength: number;
  readonly templateId: number;
  readonly schemaId: number;
  readonly version: number;
}

export interface Mdp3Packet {
  readonly msgSeqNum: number;
  /** Nanoseconds since the epoch, in decimal: more digits than a JavaScript number holds exactly. */
  readonly sendingTimeNs: string;
  readonly messages: Mdp3Message[];
}

export type Mdp3Result = Mdp3Packet | { readonly error: string };

/** Binary packet header: MsgSeqNum (4) + SendingTime (8). */
export const PACKET_HEADER_BYTES = 12;
/** MsgSize (2) + SBE message header (8). */
export const MESSAGE_HEADER_BYTES = 10;

export function isMdp3Error(r: Mdp3Result): r is { readonly error: string } {
  return 'error' in r;
}

/** Decodes one packet's framing, or says why it is not a whole MDP 3.0 packet. */
export function decodeMdp3(bytes: Uint8Array): Mdp3Result {
  const n = bytes.length;
  if (n < PACKET_HEADER_BYTES)
    return { error: `MDP 3.0 packet of ${n} ${n === 1 ? 'byte' : 'bytes'} is shorter than its ${PACKET_HEADER_BYTES}-byte header (truncated?)` };
  const v = new DataView(bytes.buffer, bytes.byteOffset, n);
  const msgSeqNum = v.getUint32(0, true);
  const sendingTimeNs = v.getBigUint64(4, true).toString();
  const messages: Mdp3Message[] = [];
  let at = PACKET_HEADER_BYTES;
  while (at < n) {
    const left = n - at;
    if (left < MESSAGE_HEADER_BYTES)
      return {
        error: `MDP 3.0 packet is cut short: message ${messages.length + 1} at byte ${at} has ${left} of its ${MESSAGE_HEADER_BYTES} header bytes (truncated?)`,
      };
    const size = v.getUint16(at, true);
    if (size < MESSAGE_HEADER_BYTES)
      return {
        error: `MDP 3.0 message ${messages.length + 1} at byte ${at} gives MsgSize ${size}, less than its ${MESSAGE_HEADER_BYTES}-byte header (not an MDP 3.0 packet?)`,
      };
    if (size > left) return { error: `MDP 3.0 message ${messages.length + 1} at byte ${at} gives MsgSize ${size}, but ${left} bytes are left (truncated?)` };
    const blockLength = v.getUint16(at + 2, true);
    if (blockLength > size - MESSAGE_HEADER_BYTES)
      return {
        error: `MDP 3.0 message ${messages.length + 1} at byte ${at} gives blockLength ${blockLength}, more than its ${size - MESSAGE_HEADER_BYTES}-byte body (not an MDP 3.0 packet?)`,
      };
    messages.push({
      offset: at,
      size,
      blockLength,
      templateId: v.getUint16(at + 4, true),
      schemaId: v.getUint16(at + 6, true),
      version: v.getUint16(at + 8, true),
    });
    at += size;
  }
  if (messages.length === 0) return { error: `MDP 3.0 packet has its ${PACKET_HEADER_BYTES}-byte header and no message (truncated?)` };
  return { msgSeqNum, sendingTimeNs, messages };
}

/** Decodes a Pub/Sub `data` field (base64) holding one packet. */
export function decodeMdp3Base64(data: string | undefined): Mdp3Result {
  if (typeof data !== 'string' || data === '') return { error: 'the message has no payload (data) to read an MDP 3.0 packet from' };
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { error: 'the payload (data) is not base64, so not an MDP 3.0 packet' };
  // A JSON payload (CME's JSON topics, a hand-made capture) would fail as a packet with sizes that
  // say nothing: name it. No MDP 3.0 packet starts with '{' and ends with '}' by design.
  if (bytes.length > 1 && bytes[0] === 0x7b && bytes[bytes.length - 1] === 0x7d) return { error: 'the payload is JSON text, not an MDP 3.0 packet' };
  return decodeMdp3(bytes);
}

/** SendingTime as ms since the epoch (sub-ms as a fraction; exact to the microsecond or so). */
export function sendingTimeMs(p: Mdp3Packet): number {
  const ns = BigInt(p.sendingTimeNs);
  return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
// base64url, which some clients write.
VALUE[45] = 62; // -
VALUE[95] = 63; // _

/** Standard or URL-safe base64, padded or not; undefined for anything else. */
export function base64Bytes(s: string): Uint8Array | undefined {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 61 /* = */) end--;
  if (s.length - end > 2 || end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? VALUE[c] : -1;
    if (d < 0) return undefined;
    acc = ((acc << 6) | d) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
