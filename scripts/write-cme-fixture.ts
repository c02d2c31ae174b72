/**
 * Writes test/fixtures/cme/smartstream-310.jsonl: a CME Smart Stream-shaped capture (Pub/Sub
 * ReceivedMessages) whose payloads are MDP 3.0 packets, as test/fixtures/cme/NOTICE.md
 * describes. Deterministic: `npx tsx scripts/write-cme-fixture.ts` rewrites the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64, encodeMdp3Packet, MessageSpec } from '../test/support/mdp3Packets';

const out = join(__dirname, '..', 'test', 'fixtures', 'cme', 'smartstream-310.jsonl');
const TOPIC = 'CERT.SSCL.GCP.MD.RT.CMEG.FIXBIN.v01000.INCR.310';
/** The message in CME's tutorial: MsgSeqNum 1539130, SendingTime (attribute, ms) 1578070424712, packet SendingTime (ns). */
const FIRST_SEQ = 1539130;
const SENDING_MS = 1578070424712;
const PACKET_NS = 1578070424698281707n;
const PUBLISH_MS = 1578070424736;
/** As in the tutorial's packet: one MDIncrementalRefreshOrderBook47 (templateId 47, blockLength 11, MsgSize 64), schema 1, version 9. */
const BOOK47: MessageSpec = { templateId: 47, blockLength: 11, size: 64 };

interface Row {
  /** MsgSeqNum attribute. */
  seq: number;
  /** MsgSeqNum in the packet header, when it disagrees. */
  header?: number;
  messages?: MessageSpec[];
  /** Keep only this many bytes of the packet. */
  cut?: number;
  /** A redelivery of the row with this MsgSeqNum (same messageId). */
  redelivers?: number;
}

const ROWS: Row[] = [
  { seq: FIRST_SEQ },
  { seq: FIRST_SEQ + 1 },
  { seq: FIRST_SEQ + 3 },
  { seq: FIRST_SEQ + 2 },
  { seq: FIRST_SEQ + 1, redelivers: FIRST_SEQ + 1 },
  { seq: FIRST_SEQ + 4, messages: [{ templateId: 46, blockLength: 11, size: 40 }, BOOK47, { templateId: 32, blockLength: 11, size: 45 }] },
  // FIRST_SEQ + 5 never sent: a gap.
  { seq: FIRST_SEQ + 6 },
  { seq: FIRST_SEQ + 7 },
  { seq: FIRST_SEQ + 8, header: FIRST_SEQ + 53 },
  { seq: FIRST_SEQ + 9, header: FIRST_SEQ + 63 },
  { seq: FIRST_SEQ + 10, cut: 40 },
  { seq: FIRST_SEQ + 11, cut: 8 },
  { seq: FIRST_SEQ + 12 },
  { seq: FIRST_SEQ + 13, messages: [BOOK47, BOOK47] },
];

function main(): void {
  const ids = new Map<number, string>();
  const payloads = new Map<number, string>();
  const lines = ROWS.map((r, i) => {
    const redelivery = r.redelivers !== undefined;
    // A redelivery is the very message again: Pub/Sub never changes a message's content.
    const step = BigInt(redelivery ? ROWS.findIndex((x) => x.seq === r.redelivers) : i) * 1_000_000n;
    const packet = encodeMdp3Packet({ msgSeqNum: r.header ?? r.seq, sendingTimeNs: PACKET_NS + step, messages: r.messages ?? [BOOK47] });
    const data = redelivery ? payloads.get(r.redelivers!)! : base64(r.cut === undefined ? packet : packet.subarray(0, r.cut));
    payloads.set(r.seq, data);
    const messageId = redelivery ? ids.get(r.redelivers!)! : String(920960344628213n + BigInt(i));
    ids.set(r.seq, messageId);
    const published = PUBLISH_MS + (redelivery ? ROWS.findIndex((x) => x.seq === r.redelivers) : i);
    return JSON.stringify({
      ackId: `projects/seqscope-fixture/subscriptions/MY_${TOPIC}:${i + 1}`,
      message: {
        data,
        attributes: {
          Channel: '310',
          MsgSeqNum: String(r.seq),
          SendingTime: String(SENDING_MS + (redelivery ? ROWS.findIndex((x) => x.seq === r.redelivers) : i)),
        },
        messageId,
        publishTime: new Date(published).toISOString(),
      },
      deliveryAttempt: redelivery ? 2 : 1,
      receivedAt: new Date(PUBLISH_MS + 5 + i).toISOString(),
    });
  });
  writeFileSync(out, lines.join('\n') + '\n');
  console.log(`wrote ${out}: ${lines.length} records`);
}

if (require.main === module) main();
