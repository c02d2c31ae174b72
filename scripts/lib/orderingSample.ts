/**
 * The ordering-key sample (media/samples/orders-sample.jsonl): Pub/Sub messages with ordering
 * keys and no sequence numbers, as a subscriber with message ordering receives them. Each key's
 * messages are published in batches (a batch shares one publishTime, ms precision, as the
 * emulator's); a subscriber receives each key in publish order, except one key that moved to
 * another subscriber while a batch was still leased to the first: its next batch arrives before
 * the leased one, which comes back when the lease expires. Another key is redelivered from one
 * of its messages on (an ordered subscription redelivers the rest of the key with it).
 * Deterministic: a seeded generator, so rerunning writes the same bytes.
 */

export interface OrderingSampleTruth {
  lines: number;
  keys: string[];
  /** The key delivered out of order, and how many first copies arrived after a later-published one. */
  movedKey: string;
  reordered: number;
  redeliveries: number;
}

const KEYS = ['customer-1001', 'customer-1002', 'customer-1003', 'customer-1004', 'customer-1005'];
const MOVED = 'customer-1003';
const REDELIVERED = 'customer-1005';
const BATCHES_PER_KEY = 24;
const T0 = Date.parse('2026-11-30T14:00:00.000Z');

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Delivery {
  receivedMs: number;
  id: string;
  key: string;
  publishedMs: number;
  n: number;
  attempt: number;
}

export function orderingSample(seed = 20261130): { lines: string[]; truth: OrderingSampleTruth } {
  const rnd = random(seed);
  const deliveries: Delivery[] = [];
  let nextId = 13_254_667_890_123_000n;
  let reordered = 0;
  let redeliveries = 0;
  for (const [k, key] of KEYS.entries()) {
    let published = T0 + k * 37;
    let n = 0;
    const batches: Delivery[][] = [];
    for (let b = 0; b < BATCHES_PER_KEY; b++) {
      published += 180 + Math.floor(rnd() * 420);
      const size = 1 + Math.floor(rnd() * 4);
      const batch: Delivery[] = [];
      for (let i = 0; i < size; i++) batch.push({ receivedMs: 0, id: String(nextId++), key, publishedMs: published, n: ++n, attempt: 1 });
      batches.push(batch);
    }
    // Received a few ms after publishing, in publish order.
    for (const batch of batches) for (const [i, d] of batch.entries()) d.receivedMs = d.publishedMs + 4 + i + Math.floor(rnd() * 6);
    if (key === MOVED) {
      // Batch 10 was leased to a subscriber that stopped: batches 11 and 12 reach the other one
      // first, and batch 10 comes back when its lease expires, after batch 12.
      const leased = batches[10];
      const after = batches[12][batches[12].length - 1].receivedMs;
      for (const [i, d] of leased.entries()) d.receivedMs = after + 40 + i;
      reordered = leased.length;
    }
    for (const batch of batches) deliveries.push(...batch);
    if (key === REDELIVERED) {
      // Batch 20's first message was not acked in time: it and every later message of the key come again.
      const again = batches.slice(20).flat();
      const last = again[again.length - 1].receivedMs;
      for (const [i, d] of again.entries()) deliveries.push({ ...d, receivedMs: last + 300 + i, attempt: 2 });
      redeliveries = again.length;
    }
  }
  deliveries.sort((a, b) => a.receivedMs - b.receivedMs || Number(BigInt(a.id) - BigInt(b.id)));
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = deliveries.map((d, i) =>
    JSON.stringify({
      ackId: `ack-${i + 1}`,
      message: {
        data: Buffer.from(JSON.stringify({ customer: d.key, event: `update-${d.n}` })).toString('base64'),
        attributes: { source: 'orders-service' },
        messageId: d.id,
        publishTime: iso(d.publishedMs),
        orderingKey: d.key,
      },
      ...(d.attempt > 1 ? { deliveryAttempt: d.attempt } : {}),
      receivedAt: iso(d.receivedMs),
    }),
  );
  return { lines, truth: { lines: lines.length, keys: KEYS, movedKey: MOVED, reordered, redeliveries } };
}

/** The sample README's section on it, with its ground truth. */
export function orderingSampleReadme(t: OrderingSampleTruth): string {
  const delivered = t.lines - t.redeliveries;
  return `
## \`orders-sample.jsonl\`: ordering keys, no sequence numbers

${t.lines} deliveries of ${t.keys.length} ordering keys (\`${t.keys[0]}\` … \`${t.keys[t.keys.length - 1]}\`), published in
batches (a batch shares one \`publishTime\`) and received in publish order, except:

- \`${t.movedKey}\` moved to another subscriber while its batch 10 was leased to the first: batches 11
  and 12 arrive first, batch 10 (${t.reordered} messages) when its lease runs out: **${t.reordered} reordered**.
- \`${REDELIVERED}\` is redelivered from batch 20 on (${t.redeliveries} messages, \`deliveryAttempt\` 2): **${t.redeliveries}
  redeliveries in 1 cascade**.

    seqscope replay media/samples/orders-sample.jsonl

Expected summary (publish order, the default for ordering keys): ${delivered} delivered, ${t.redeliveries} duplicates
(all redeliveries), ${t.reordered} reordered, no gaps.
`;
}
