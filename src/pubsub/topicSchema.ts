/**
 * Publishing into a topic bound to a schema. The topic's schema settings name the schema, the
 * encoding and the revisions it accepts; its current revision (the last one the topic accepts,
 * else the schema's newest) is what a capture is re-encoded with. The whole capture is checked
 * first: one message that does not fit refuses the run, and nothing is published.
 */
import type { CaptureEntry, PubsubMessage } from '../core/capture/captureRecord';
import { SchemaDefinitionError } from '../core/schema/payloadDecoder';
import { base64Bytes } from '../core/capture/mdp3';
import { CaptureReader } from '../core/capture/captureReader';
import { type CaptureCheck, Reencoder, refusal, type TopicSchema } from '../core/schema/republish';
import { DELETED_SCHEMA } from '../core/schema/schemaRef';
import type { SchemaSet } from '../core/schema/schemaSet';
import { InputError } from '../core/util/inputError';
import type { PubsubConnection } from './connection';
import { explainError } from './pubsubErrors';
import type { ResourceName } from './resourceNames';
import { definitionOf, schemaFetch } from './schemaService';

export type { TopicSchema };

interface RawSchemaSettings {
  schema?: string | null;
  encoding?: string | number | null;
  firstRevisionId?: string | null;
  lastRevisionId?: string | null;
}

/**
 * The schema a topic validates against, with its current definition; undefined for a topic
 * without one. Throws `not-found` (clearly) when the topic does not exist.
 */
export async function topicSchema(conn: PubsubConnection, topic: ResourceName): Promise<TopicSchema | undefined> {
  let settings: RawSchemaSettings | null | undefined;
  try {
    const [md] = await conn.client.topic(topic.path).getMetadata(conn.adminCall);
    settings = (md as { schemaSettings?: RawSchemaSettings | null }).schemaSettings;
  } catch (e) {
    throw explainError(e, { action: `open topic ${topic.path}`, resource: `topic ${topic.path}`, emulatorHost: conn.emulatorHost });
  }
  const name = settings?.schema;
  if (!name) return undefined;
  if (name === DELETED_SCHEMA)
    throw new InputError(`topic ${topic.path} is bound to a schema that has been deleted, so Pub/Sub refuses every message: publish into another topic`);
  // JSON is Pub/Sub's encoding when none is set.
  const encoding = settings?.encoding === 'BINARY' || settings?.encoding === 2 ? 'BINARY' : 'JSON';
  const wanted = settings?.lastRevisionId ? `${name}@${settings.lastRevisionId}` : name;
  let raw: { type?: string | number | null; definition?: string | null; revisionId?: string | null };
  try {
    const client = await conn.client.getSchemaClient();
    [raw] = await client.getSchema({ name: wanted, view: 'FULL' }, conn.adminCall);
  } catch (e) {
    throw explainError(e, { action: `read schema ${wanted} of topic ${topic.path}`, resource: `schema ${wanted}`, emulatorHost: conn.emulatorHost });
  }
  const definition = definitionOf(raw, raw.revisionId ? `${name}@${raw.revisionId}` : wanted);
  if (!definition)
    throw new InputError(`topic ${topic.path}'s schema ${wanted} is of type ${String(raw.type)}, which SeqScope cannot write (Avro, Protocol Buffers)`);
  return { name, encoding, definition };
}

/** What the publisher calls to write each message for the topic. */
export type MessageEncoding = (message: PubsubMessage, topic: string | undefined) => { data: Uint8Array; attributes?: Record<string, string> };

/**
 * Checks the whole capture at `path` against the topic's schema (a read of its own) and returns
 * the encoding for the publishing read. Throws an InputError naming the first messages that do
 * not fit, by line and field, before anything is published.
 */
export async function prepareSchemaPublish(
  conn: PubsubConnection,
  topic: ResourceName,
  schema: TopicSchema,
  sources: SchemaSet | undefined,
  path: string,
  options: { readonly signal?: AbortSignal; readonly warn?: (line: string) => void } = {},
): Promise<MessageEncoding> {
  let reencoder: Reencoder;
  try {
    reencoder = new Reencoder(schema, sources, schemaFetch(conn));
  } catch (e) {
    if (e instanceof SchemaDefinitionError) throw new InputError(`topic ${topic.path}'s schema ${e.source} cannot be compiled: ${e.message}`);
    throw e;
  }
  const reader = new CaptureReader(path);
  let check: CaptureCheck;
  try {
    await reader.open();
    check = await checkCapture(reader.batches({ signal: options.signal }), reencoder, { signal: options.signal });
  } finally {
    await reader.close();
  }
  for (const notice of reencoder.fetchNotices) options.warn?.(notice);
  if (check.failed > 0) throw new InputError(refusal(check, topic.path, schema));
  return (message, from) => {
    const r = reencoder.reencode(payloadOf(message), message.attributes, from);
    // Checked before publishing: only a capture changed since then gets here.
    if ('invalid' in r)
      throw new InputError(
        `message ${message.messageId} no longer fits the schema it was checked against (${r.invalid}): was the capture changed while publishing?`,
      );
    return r;
  };
}

function payloadOf(message: PubsubMessage): Uint8Array | undefined {
  return typeof message.data === 'string' ? base64Bytes(message.data) : undefined;
}

/** Reads the whole capture and re-encodes every message, keeping the first `keep` failures. */
export async function checkCapture(
  batches: AsyncIterable<readonly CaptureEntry[]>,
  reencoder: Reencoder,
  options: { readonly keep?: number; readonly signal?: AbortSignal } = {},
): Promise<CaptureCheck> {
  const keep = options.keep ?? 5;
  let read = 0;
  let failed = 0;
  const failures: { line: number; reason: string }[] = [];
  for await (const batch of batches) {
    if (options.signal?.aborted) break;
    for (const e of batch) {
      const rm = e.record;
      if (!rm) continue;
      read++;
      await reencoder.learn(rm.message.attributes);
      const r = reencoder.reencode(payloadOf(rm.message), rm.message.attributes, rm.topic);
      if (!('invalid' in r)) continue;
      failed++;
      if (failures.length < keep) failures.push({ line: e.line, reason: r.invalid });
    }
  }
  return { read, failed, failures };
}
