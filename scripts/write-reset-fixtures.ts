/**
 * Writes the sequence-reset fixtures in test/fixtures/resets/ (see its NOTICE.md): a CME Smart
 * Stream-shaped channel across a weekly start, and a publisher whose per-key counters restart
 * after a deploy. Deterministic: `npx tsx scripts/write-reset-fixtures.ts` rewrites the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64, encodeMdp3Packet } from '../test/support/mdp3Packets';

const dir = join(__dirname, '..', 'test', 'fixtures', 'resets');

/** Friday 2020-01-03, the time of the message in CME's tutorial, and the following Sunday's open (17:00 CT = 23:00 UTC). */
const FRIDAY_MS = 1578070424712;
const SUNDAY_MS = Date.parse('2020-01-05T23:00:00.000Z');
const FIRST_SEQ = 1539130;

function cmeRecord(i: number, seq: number, sentMs: number): string {
  const packet = encodeMdp3Packet({ msgSeqNum: seq, sendingTimeNs: BigInt(sentMs) * 1_000_000n, messages: [{ templateId: 47, blockLength: 11, size: 64 }] });
  return JSON.stringify({
    ackId: `projects/seqscope-fixture/subscriptions/MY_CERT.SSCL.GCP.MD.RT.CMEG.FIXBIN.v01000.INCR.310:${i + 1}`,
    message: {
      data: base64(packet),
      attributes: { Channel: '310', MsgSeqNum: String(seq), SendingTime: String(sentMs) },
      messageId: String(920960344628213n + BigInt(i)),
      publishTime: new Date(sentMs + 24).toISOString(),
    },
    deliveryAttempt: 1,
    receivedAt: new Date(sentMs + 30).toISOString(),
  });
}

function weeklyStart(): string[] {
  const lines: string[] = [];
  // The week's last ten packets, 100 ms apart; then the next week's first ten, from 1.
  for (let i = 0; i < 10; i++) lines.push(cmeRecord(lines.length, FIRST_SEQ + i, FRIDAY_MS + i * 100));
  for (let i = 0; i < 10; i++) lines.push(cmeRecord(lines.length, 1 + i, SUNDAY_MS + i * 100));
  return lines;
}

const T0 = Date.parse('2026-11-30T09:30:00.000Z');

function orderRecord(i: number, key: string, seq: number, atMs: number): string {
  return JSON.stringify({
    ackId: `ack-${i + 1}`,
    message: {
      data: Buffer.from(JSON.stringify({ order: `${key}-${seq}` })).toString('base64'),
      attributes: { seq: String(seq) },
      messageId: String(17000000000000000n + BigInt(i)),
      publishTime: new Date(atMs).toISOString(),
      orderingKey: key,
    },
    receivedAt: new Date(atMs + 5).toISOString(),
  });
}

/**
 * Two ordering keys whose counters restart at 1 after a deploy at T0 + 20 s: orders-us has been
 * numbering for a while (its start window is long over), orders-eu's first message in the
 * capture comes 5 s before the deploy (the restart falls inside its start window).
 */
function publisherRestart(): string[] {
  const rows: { key: string; seq: number; at: number }[] = [];
  for (let i = 0; i < 10; i++) rows.push({ key: 'orders-us', seq: 148_200 + i, at: T0 + i * 1000 });
  for (let i = 0; i < 3; i++) rows.push({ key: 'orders-eu', seq: 1_203_310 + i, at: T0 + 15_000 + i * 1000 });
  for (let i = 0; i < 10; i++) {
    rows.push({ key: 'orders-us', seq: 1 + i, at: T0 + 20_000 + i * 200 });
    rows.push({ key: 'orders-eu', seq: 1 + i, at: T0 + 20_100 + i * 200 });
  }
  rows.sort((a, b) => a.at - b.at);
  return rows.map((r, i) => orderRecord(i, r.key, r.seq, r.at));
}

function main(): void {
  for (const [name, lines] of [
    ['cme-weekly-start-310.jsonl', weeklyStart()],
    ['publisher-restart.jsonl', publisherRestart()],
  ] as const) {
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    console.log(`wrote ${name}: ${lines.length} records`);
  }
}

if (require.main === module) main();
