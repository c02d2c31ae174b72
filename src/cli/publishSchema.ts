/**
 * `seqscope publish` into a topic bound to a schema: the capture is read once to check every
 * message against the topic's schema (refused, with lines and fields, before anything is sent),
 * then again to publish. Standard input cannot be read twice, so it is first kept in a temporary
 * file, deleted when the run ends.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type * as PubsubLayer from '../pubsub';
import type { SchemaSet } from '../core/schema/schemaSet';

/** Where the publishing read comes from, and the encoding for a schema topic (none for a topic without one). */
export interface PublishInput {
  /** The capture's path; a temporary copy of standard input for a schema topic. */
  readonly path: string;
  /** Standard input, read once, for a topic without a schema. */
  readonly stream?: NodeJS.ReadableStream;
  /** The topic's schema, which `encode` writes with. */
  readonly schema?: PubsubLayer.TopicSchema;
  readonly encode?: PubsubLayer.MessageEncoding;
  /** Deletes the temporary copy. */
  dispose(): Promise<void>;
}

export async function publishInput(
  layer: typeof PubsubLayer,
  conn: PubsubLayer.PubsubConnection,
  topic: PubsubLayer.ResourceName,
  path: string,
  stdin: NodeJS.ReadableStream | undefined,
  sources: SchemaSet | undefined,
  options: { signal?: AbortSignal; warn: (line: string) => void; progress?: (line: string) => void },
): Promise<PublishInput> {
  const schema = await layer.topicSchema(conn, topic);
  const fromStdin = path === '-';
  if (!schema) return { path, stream: fromStdin ? stdin : undefined, dispose: async () => undefined };
  let copy: string | undefined;
  const dispose = async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  };
  try {
    if (fromStdin) {
      copy = await mkdtemp(join(tmpdir(), 'seqscope-publish-'));
      await pipeline(stdin!, createWriteStream(join(copy, 'capture')));
    }
    const readPath = copy ? join(copy, 'capture') : path;
    options.progress?.(`checking ${fromStdin ? 'standard input' : path} against ${schema.definition.source} (${schema.encoding})`);
    const encode = await layer.prepareSchemaPublish(conn, topic, schema, sources, readPath, {
      signal: options.signal,
      warn: (line) => options.warn(`seqscope: ${line}\n`),
    });
    return { path: readPath, schema, encode, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
