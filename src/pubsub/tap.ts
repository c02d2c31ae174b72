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
import { explainError, PubsubError } from './pubsubErrors';
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
  /** What the caller should pass on (once, as a note): the topic could not be read, the tap was made anyway. */
  readonly notes?: readonly string[];
}

/** A tap id for a topic: recognisable, unique, valid (≤ 255 characters). */
export function tapId(topicId: string, now = new Date(), random = randomBytes(3).toString('hex')): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'z')
    .toLowerCase(); // 20261130t093000z
  return `${TAP_PREFIX}${topicId.slice(0, 200)}-${stamp}-${random}`;
}

/**
 * Makes a tap in the connection's project on `topic`, which may be in another project (CME Smart
 * Stream: the topic is CME's, the subscription yours). Creating a subscription needs
 * pubsub.subscriptions.create on the subscription's project and pubsub.topics.attachSubscription
 * on the topic (Google's access-control reference); reading the topic needs pubsub.topics.get,
 * which a publisher granting roles/pubsub.subscriber on its topic does not give. So a topic that
 * may not be read is no reason to stop: the tap is attempted, and only a refused create is an
 * error, naming the roles it needs.
 */
export async function createTap(conn: PubsubConnection, topic: ResourceName, options: TapOptions = {}): Promise<Tap> {
  const notes: string[] = [];
  try {
    await checkTopic(conn, topic);
  } catch (e) {
    if ((e as PubsubError).kind !== 'permission-denied') throw e;
    notes.push(`topic ${topic.path} cannot be read (permission denied on its metadata); tapping it anyway: a tap needs only to attach a subscription to it`);
  }
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
    const err = explainError(e, { action: `create a tap on ${topic.path}`, resource: `topic ${topic.path}`, emulatorHost: conn.emulatorHost });
    if (err.kind === 'permission-denied') throw tapDenied(conn, topic, err);
    throw err;
  }
  return notes.length ? { subscription, topic, notes } : { subscription, topic };
}

/** A refused tap, with the two roles it needs and who grants each. */
export function tapDenied(conn: PubsubConnection, topic: ResourceName, err: PubsubError): PubsubError {
  const owner = topic.project === conn.projectId ? `on project ${topic.project}` : `granted by project ${topic.project}, which owns the topic`;
  return new PubsubError(
    'permission-denied',
    err.message,
    `a tap needs roles/pubsub.subscriber on topic ${topic.path} (${owner}; it holds pubsub.topics.attachSubscription) and roles/pubsub.editor on project ${conn.projectId}, where the tap subscription is made (pubsub.subscriptions.create)`,
    err.grpcCode,
  );
}

/**
 * Taps on several topics (CME publishes one topic per channel), all or none: when one cannot be
 * made, those made before it are deleted and the error is passed on. Topics with one id in two
 * projects are refused: a session keys its messages by topic id (see ReceivedMessage.topic).
 */
export async function createTaps(conn: PubsubConnection, topics: readonly ResourceName[], options: TapOptions = {}): Promise<Tap[]> {
  const unique = [...new Map(topics.map((t) => [t.path, t])).values()];
  const byId = new Map<string, ResourceName>();
  for (const t of unique) {
    const other = byId.get(t.id);
    if (other)
      throw new PubsubError(
        'invalid-name',
        `topics ${other.path} and ${t.path} have the same id`,
        'tap them in separate sessions: one session keys its messages by topic id',
      );
    byId.set(t.id, t);
  }
  const made: Tap[] = [];
  try {
    for (const t of unique) made.push(await createTap(conn, t, options));
  } catch (e) {
    await Promise.all(made.map((m) => deleteTap(conn, m.subscription).catch(() => undefined)));
    throw e;
  }
  return made;
}

/** Topic names as users write them: repeated, and/or comma-separated; bare ids are in `project`. */
export function parseTopicList(texts: readonly string[], project: string | undefined): ResourceName[] {
  const names = texts
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  if (!names.length)
    throw new PubsubError('invalid-name', 'no topic given', 'give a topic id, or projects/PROJECT/topics/TOPIC for a topic in another project');
  return names.map((n) => parseResourceName('topics', n, project));
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
