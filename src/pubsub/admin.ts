/**
 * The admin calls SeqScope makes (list, describe, create and delete subscriptions, seek), each
 * with a short deadline and its failure explained in the user's terms.
 */
import type { CallOptions } from '@google-cloud/pubsub';
import { PubsubConnection } from './connection';
import { explainError } from './pubsubErrors';
import { parseResourceName, ResourceName } from './resourceNames';

export interface SubscriptionInfo {
  readonly name: ResourceName;
  /** Full topic path, or "_deleted-topic_". */
  readonly topic: string;
  readonly messageOrdering: boolean;
  readonly ackDeadlineSeconds: number;
  readonly retainAckedMessages: boolean;
  readonly deadLetterTopic?: string;
  readonly labels: Record<string, string>;
  readonly filter?: string;
}

export interface TopicInfo {
  readonly name: ResourceName;
}

interface RawSubscription {
  name?: string | null;
  topic?: string | null;
  enableMessageOrdering?: boolean | null;
  ackDeadlineSeconds?: number | null;
  retainAckedMessages?: boolean | null;
  deadLetterPolicy?: { deadLetterTopic?: string | null } | null;
  labels?: Record<string, string> | null;
  filter?: string | null;
}

export function describeSubscription(raw: RawSubscription, fallback: ResourceName): SubscriptionInfo {
  return {
    name: raw.name ? parseResourceName('subscriptions', raw.name) : fallback,
    topic: raw.topic ?? '',
    messageOrdering: !!raw.enableMessageOrdering,
    ackDeadlineSeconds: raw.ackDeadlineSeconds ?? 10,
    retainAckedMessages: !!raw.retainAckedMessages,
    deadLetterTopic: raw.deadLetterPolicy?.deadLetterTopic || undefined,
    labels: raw.labels ?? {},
    filter: raw.filter || undefined,
  };
}

/**
 * What a consumer of this subscription should know before trusting the order it sees, one
 * sentence each: said by `seqscope record` on stderr and by a live session in its log.
 */
export function subscriptionCaveats(info: SubscriptionInfo): string[] {
  const path = info.name.path;
  const caveats: string[] = [];
  if (!info.messageOrdering) caveats.push(`${path} does not have message ordering enabled; per-key order is not guaranteed`);
  if (info.deadLetterTopic)
    caveats.push(
      `${path} dead-letters to ${info.deadLetterTopic}: a message its consumers keep failing goes there, out of order, and is missing here (a gap, when numbered)`,
    );
  return caveats;
}

function ctx(conn: PubsubConnection, action: string, resource?: string) {
  return { action, resource, emulatorHost: conn.emulatorHost };
}

/** Subscriptions of the connection's project, sorted by id. */
export async function listSubscriptions(conn: PubsubConnection): Promise<SubscriptionInfo[]> {
  try {
    const [subs] = await conn.client.getSubscriptions({ gaxOpts: conn.adminCall });
    return subs
      .map((s) => describeSubscription((s.metadata ?? {}) as RawSubscription, parseResourceName('subscriptions', s.name)))
      .sort((a, b) => a.name.id.localeCompare(b.name.id));
  } catch (e) {
    throw explainError(e, ctx(conn, `list the subscriptions of project ${conn.projectId}`, `project ${conn.projectId}`));
  }
}

/** Topics of the connection's project, sorted by id. */
export async function listTopics(conn: PubsubConnection): Promise<TopicInfo[]> {
  try {
    const [topics] = await conn.client.getTopics({ gaxOpts: conn.adminCall });
    return topics.map((t) => ({ name: parseResourceName('topics', t.name) })).sort((a, b) => a.name.id.localeCompare(b.name.id));
  } catch (e) {
    throw explainError(e, ctx(conn, `list the topics of project ${conn.projectId}`, `project ${conn.projectId}`));
  }
}

export async function getSubscription(conn: PubsubConnection, name: ResourceName, call: CallOptions = conn.adminCall): Promise<SubscriptionInfo> {
  try {
    const [md] = await conn.client.subscription(name.path).getMetadata(call);
    return describeSubscription(md as RawSubscription, name);
  } catch (e) {
    throw explainError(e, ctx(conn, `open subscription ${name.path}`, `subscription ${name.path}`));
  }
}

/** Throws `not-found` (clearly) when the topic does not exist. */
export async function checkTopic(conn: PubsubConnection, name: ResourceName): Promise<void> {
  try {
    await conn.client.topic(name.path).getMetadata(conn.adminCall);
  } catch (e) {
    throw explainError(e, ctx(conn, `open topic ${name.path}`, `topic ${name.path}`));
  }
}

export async function deleteSubscription(conn: PubsubConnection, name: ResourceName): Promise<void> {
  try {
    await conn.client.subscription(name.path).delete(conn.adminCall);
  } catch (e) {
    throw explainError(e, ctx(conn, `delete subscription ${name.path}`, `subscription ${name.path}`));
  }
}

export type SeekTarget = { readonly time: Date } | { readonly snapshot: ResourceName };

/**
 * Seeks a subscription: the server re-sends what it retained since `time` (needs
 * retainAckedMessages for already-acked messages, which taps set) or what a snapshot holds.
 */
export async function seekSubscription(conn: PubsubConnection, name: ResourceName, target: SeekTarget): Promise<void> {
  const what = 'time' in target ? target.time.toISOString() : `snapshot ${target.snapshot.path}`;
  try {
    await conn.client.subscription(name.path).seek('time' in target ? target.time : target.snapshot.path, conn.adminCall);
  } catch (e) {
    throw explainError(e, {
      ...ctx(conn, `seek ${name.path} to ${what}`, 'time' in target ? `subscription ${name.path}` : `snapshot ${target.snapshot.path}`),
      unsupportedWhy: conn.emulatorHost ? 'the emulator cannot seek subscriptions with message ordering, which taps have' : undefined,
    });
  }
}
