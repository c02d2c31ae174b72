/**
 * A tap: a temporary subscription of SeqScope's own on a topic, so watching live traffic takes
 * nothing from the subscriptions real consumers use. It has message ordering on (so per-key
 * order is what a real ordered consumer sees), keeps acked messages for a short window (so "replay
 * from time" can seek back), and an expiration policy so a tap that was never deleted — a crash,
 * a killed window — deletes itself. Taps are named `seqscope-tap-…` and labelled `seqscope=tap`,
 * which is how leftovers are found.
 */
import { randomBytes } from 'node:crypto';
import { checkTopic, deleteSubscription, listSubscriptions, SubscriptionInfo } from './admin';
import { PubsubConnection } from './connection';
import { explainError } from './pubsubErrors';
import { parseResourceName, ResourceName } from './resourceNames';

export const TAP_PREFIX = 'seqscope-tap-';
export const TAP_LABEL = { seqscope: 'tap' } as const;

export interface TapOptions {
  /** How long acked messages stay seekable (minutes, 10 minutes to 7 days on Google Cloud). */
  readonly retainMinutes?: number;
  /** The tap deletes itself after this long without a subscriber (hours; Google's minimum is 24). */
  readonly expireAfterHours?: number;
  /** Seconds a delivered message may stay unacked (a recorder acks after its line is written). */
  readonly ackDeadlineSeconds?: number;
}

export interface Tap {
  readonly subscription: ResourceName;
  readonly topic: ResourceName;
}

/** A tap id for a topic: recognisable, unique, valid (≤ 255 characters). */
export function tapId(topicId: string, now = new Date(), random = randomBytes(3).toString('hex')): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'z').toLowerCase(); // 20261130t093000z
  return `${TAP_PREFIX}${topicId.slice(0, 200)}-${stamp}-${random}`;
}

export async function createTap(conn: PubsubConnection, topic: ResourceName, options: TapOptions = {}): Promise<Tap> {
  await checkTopic(conn, topic);
  const id = tapId(topic.id);
  const subscription = parseResourceName('subscriptions', `projects/${conn.projectId}/subscriptions/${id}`);
  try {
    await conn.client.topic(topic.path).createSubscription(subscription.path, {
      enableMessageOrdering: true,
      retainAckedMessages: true,
      messageRetentionDuration: { seconds: (options.retainMinutes ?? 10) * 60 },
      expirationPolicy: { ttl: { seconds: (options.expireAfterHours ?? 24) * 3600 } },
      ackDeadlineSeconds: options.ackDeadlineSeconds ?? 60,
      labels: { ...TAP_LABEL },
      gaxOpts: conn.adminCall,
    });
  } catch (e) {
    throw explainError(e, { action: `create a tap on ${topic.path}`, resource: `topic ${topic.path}`, emulatorHost: conn.emulatorHost });
  }
  return { subscription, topic };
}

export function isTap(s: SubscriptionInfo): boolean {
  return s.name.id.startsWith(TAP_PREFIX) && s.labels.seqscope === TAP_LABEL.seqscope;
}

/** Taps left in the project (by this or another SeqScope), excluding `keep` (taps in use). */
export async function findLeftoverTaps(conn: PubsubConnection, keep: ReadonlySet<string> = new Set()): Promise<SubscriptionInfo[]> {
  return (await listSubscriptions(conn)).filter((s) => isTap(s) && !keep.has(s.name.path));
}

/** Deletes a tap; one that is already gone (expired, or deleted elsewhere) is not an error. */
export async function deleteTap(conn: PubsubConnection, tap: ResourceName): Promise<void> {
  try {
    await deleteSubscription(conn, tap);
  } catch (e) {
    if ((e as { kind?: string }).kind !== 'not-found') throw e;
  }
}
