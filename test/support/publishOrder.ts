/**
 * Counts reordered deliveries in recordings by publish order, the rule of issue 43 (item 1): per
 * ordering key, a message's first copy is reordered when it arrives after the first copy of a
 * message of its key with a strictly later publishTime. Equal publish times (one publish batch)
 * are never reordered; later copies of a messageId (redeliveries) are not judged. The files are
 * merged by receivedAt, as `seqscope replay` merges them. For the emulator tests, until the
 * replay's own rule can be asked.
 */
import { readFileSync } from 'node:fs';

interface Line {
  receivedAt: string;
  message: { messageId: string; orderingKey?: string; publishTime?: string };
}

/** An RFC 3339 UTC time as nanoseconds since the epoch (the fraction has up to 9 digits). */
export function timeNs(iso: string): bigint {
  const m = /^(.*?)(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!m) throw new Error(`not an RFC 3339 UTC time: ${iso}`);
  return BigInt(Date.parse(`${m[1]}Z`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

export interface ReorderCount {
  /** First copies that arrived after a later-published message of their key. */
  reordered: number;
  /** Keys with at least one reordered message. */
  keys: string[];
  /** First copies judged (distinct messageIds). */
  distinct: number;
}

export function reorderedIn(paths: string[]): ReorderCount {
  const lines: Line[] = [];
  for (const p of paths) for (const l of readFileSync(p, 'utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Line);
  // Stable: lines of one file with the same receivedAt keep their file order.
  lines.sort((a, b) => Date.parse(a.receivedAt) - Date.parse(b.receivedAt));
  const seen = new Set<string>();
  const latest = new Map<string, bigint>();
  const keys = new Set<string>();
  let reordered = 0;
  for (const { message: m } of lines) {
    if (seen.has(m.messageId)) continue;
    seen.add(m.messageId);
    if (!m.publishTime) continue;
    const key = m.orderingKey ?? '';
    const t = timeNs(m.publishTime);
    const before = latest.get(key);
    if (before !== undefined && t < before) {
      reordered++;
      keys.add(key);
    } else {
      latest.set(key, t);
    }
  }
  return { reordered, keys: [...keys].sort(), distinct: seen.size };
}
