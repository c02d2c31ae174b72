/**
 * A capture re-encoded for a topic bound to a schema. Each message's payload is read as a record —
 * decoded by its own schema when its attributes name one (the revision recorded with the capture,
 * fetched from the Schema service, or a local file), else by the capture's `--schema`, else as
 * the JSON text it is — and written with the topic's schema, in the topic's encoding. The source's
 * `googclient_*` attributes stay behind: Pub/Sub stamps the topic's own.
 *
 * The whole capture is checked before anything is published (the Pub/Sub layer's
 * prepareSchemaPublish), so a message that does not fit refuses the run with its line and field,
 * and nothing is half published.
 */
import { parse as parseLossless } from 'lossless-json';
import { avroEncoder } from './avroEncoder';
import { losslessNumber } from './avroPayload';
import { type EncodedPayload, type PayloadEncoder, setOwn } from './payloadEncoder';
import { protobufEncoder } from './protobufEncoder';
import type { SchemaDefinition } from './schemaDefinition';
import { readSchemaRef, revisionKey, type SchemaEncoding, schemaShortName } from './schemaRef';
import type { SchemaFetch } from './schemaRevisions';
import { readPayload, type SchemaSet } from './schemaSet';

/** The schema a topic validates what is published to it against, at the revision to write. */
export interface TopicSchema {
  /** `projects/P/schemas/S`. */
  readonly name: string;
  readonly encoding: SchemaEncoding;
  /** The definition, from the Schema service (`source` is `name@revision`). */
  readonly definition: SchemaDefinition;
}

/** A message as it goes out: the payload in the topic's schema and the attributes to publish. */
export type Reencoded = { readonly data: Uint8Array; readonly attributes?: Record<string, string> } | { readonly invalid: string };

/** The encoder for a schema definition; throws SchemaDefinitionError when it does not compile. */
export function compileEncoder(def: SchemaDefinition): PayloadEncoder {
  return def.type === 'AVRO' ? avroEncoder(def) : protobufEncoder(def);
}

const SCHEMA_ATTRIBUTE = /^googclient_/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export class Reencoder {
  private readonly encoder: PayloadEncoder;
  private sources: SchemaSet;
  private readonly asked = new Set<string>();
  private readonly notices: string[] = [];

  /**
   * @param sources the capture's own schemas (`--schema`, the setting, recorded revisions)
   * @param fetch asks the Schema service for a revision a message names that `sources` lacks
   */
  constructor(
    readonly target: TopicSchema,
    sources: SchemaSet | undefined,
    private readonly fetch?: SchemaFetch,
  ) {
    this.encoder = compileEncoder(target.definition);
    this.sources = sources ?? {};
  }

  /** What could not be fetched, once per revision (the messages it names then read by a local file, or not at all). */
  get fetchNotices(): readonly string[] {
    return this.notices;
  }

  /** Fetches the revision the attributes name, if it is not known yet (once per revision). */
  async learn(attributes: Readonly<Record<string, string>> | undefined): Promise<void> {
    const ref = readSchemaRef(attributes);
    if (ref.kind !== 'schema' || !this.fetch) return;
    const key = revisionKey(ref.ref);
    if (this.asked.has(key) || this.sources.recorded?.[key]) return;
    this.asked.add(key);
    const answer = await this.fetch(ref.ref);
    if ('definition' in answer) {
      // A new set: a set is compiled once and never changed (schemaSet.ts).
      this.sources = { ...this.sources, recorded: { ...this.sources.recorded, [key]: answer.definition } };
      return;
    }
    const why = 'missing' in answer ? `no longer exists (${answer.missing})` : `could not be fetched (${answer.unreachable})`;
    this.notices.push(
      `schema ${key} ${why}: give it as a file: --schema ${schemaShortName(ref.ref.name)}=FILE.avsc (or FILE.proto), or in the seqscope.schemas setting`,
    );
  }

  /**
   * A message (its payload, attributes and the topic it was recorded from) re-encoded for the
   * topic, or why it does not fit (synchronous: `learn` its revision first).
   */
  reencode(bytes: Uint8Array | undefined, attributes: Readonly<Record<string, string>> | undefined, topic: string | undefined): Reencoded {
    if (!bytes || bytes.length === 0) return { invalid: 'the message has no payload to write with the schema' };
    const reading = readPayload(this.sources, attributes, topic, bytes);
    let encoded: EncodedPayload;
    if (reading.kind === 'invalid') return { invalid: reading.reason };
    if (reading.kind === 'decoded') encoded = this.encoder.encode(reading.record, this.target.encoding, 'record');
    else {
      const json = jsonOf(bytes);
      if ('invalid' in json) return json;
      encoded = this.encoder.encode(json.value, this.target.encoding, readSchemaRef(attributes).kind === 'none' ? 'json' : 'schema-json');
    }
    if ('invalid' in encoded) return encoded;
    return { data: encoded.bytes, attributes: withoutSchemaAttributes(attributes) };
  }
}

function jsonOf(bytes: Uint8Array): { value: unknown } | { invalid: string } {
  const next = 'the payload carries no schema of its own and is not JSON text: give its schema with --schema FILE (or the seqscope.schemas setting)';
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { invalid: next };
  }
  try {
    return { value: parseLossless(text, undefined, losslessNumber) };
  } catch {
    return { invalid: next };
  }
}

function withoutSchemaAttributes(attributes: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (!attributes) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const [k, v] of Object.entries(attributes)) {
    if (SCHEMA_ATTRIBUTE.test(k)) continue;
    setOwn(out, k, v);
    any = true;
  }
  return any ? out : undefined;
}

/** What checking a capture against the topic's schema found. */
export interface CaptureCheck {
  /** Messages read (invalid lines are not messages, and the publisher skips them). */
  readonly read: number;
  /** Messages that do not fit. */
  readonly failed: number;
  /** The first few of them, in capture order. */
  readonly failures: readonly { readonly line: number; readonly reason: string }[];
}

/** Why nothing was published: how many messages do not fit, and the first few by line. */
export function refusal(check: CaptureCheck, topic: string, target: TopicSchema): string {
  const lines = check.failures.map((f) => `  line ${f.line}: ${f.reason}`);
  const more = check.failed - check.failures.length;
  return (
    `nothing published: ${check.failed} of ${check.read} message(s) do not fit the schema of ${topic} (${target.definition.source}, ${target.encoding}):\n` +
    lines.join('\n') +
    (more > 0 ? `\n  … and ${more} more` : '') +
    `\nFix the capture, or publish into a topic whose schema its messages fit.`
  );
}
