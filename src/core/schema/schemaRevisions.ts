/**
 * The decoders of one session's schemas. A message naming its schema revision is decoded by that
 * revision: recorded with the capture when it was, else fetched once from the Schema service
 * (then kept), else by a local file mapped to the schema's name. A message without one is decoded
 * by a local file mapped to its topic, else by the default schema (`--schema`), else not at all.
 */
import { compileSchema } from './compileSchema';
import { type PayloadDecoder, SchemaDefinitionError } from './payloadDecoder';
import type { SchemaDefinition } from './schemaDefinition';
import { revisionKey, type SchemaRef, schemaShortName } from './schemaRef';

/** What the Schema service answered for a revision. */
export type FetchedSchema =
  | { readonly definition: SchemaDefinition }
  /** The schema or revision does not exist (deleted since the message was published). */
  | { readonly missing: string }
  /** The service could not be asked (offline, no credentials, no permission). */
  | { readonly unreachable: string };

export type SchemaFetch = (ref: SchemaRef) => Promise<FetchedSchema>;

/** A decoder, or why there is none (said once per session by the caller). */
export type DecoderLookup = { readonly decoder: PayloadDecoder } | { readonly unavailable: string };

export interface SchemaSources {
  /** Asks the Schema service; absent when the session has none (a file opened offline). */
  readonly fetch?: SchemaFetch;
  /** Local definitions by schema name (full or short) or topic (full or short). */
  readonly byName?: ReadonlyMap<string, SchemaDefinition>;
  /** The definition for payloads that carry no schema of their own (`--schema`). */
  readonly fallback?: SchemaDefinition;
  /** Definitions recorded with the capture, by revision key (`name@revision`). */
  readonly recorded?: ReadonlyMap<string, SchemaDefinition>;
}

const NEXT_STEP = 'give the schema as a file: --schema FILE, or the seqscope.schemas setting';

export class SchemaRevisions {
  private readonly decoders = new Map<string, DecoderLookup>();
  private readonly pending = new Map<string, Promise<DecoderLookup>>();
  private readonly met = new Map<string, SchemaDefinition>();
  private readonly learned = new Map<string, SchemaDefinition>();
  private fallbackLookup: DecoderLookup | undefined;

  constructor(private readonly sources: SchemaSources) {}

  /** The decoder for `ref` if it has been looked up (or needs no fetch), else undefined: call `resolve`. */
  cached(ref: SchemaRef): DecoderLookup | undefined {
    const key = revisionKey(ref);
    const known = this.decoders.get(key);
    if (known) return known;
    const recorded = this.learned.get(key) ?? this.sources.recorded?.get(key);
    if (recorded) return this.remember(key, recorded);
    if (!this.sources.fetch) return this.remember(key, this.local(ref.name), `no Schema service to ask for ${key}`);
    return undefined;
  }

  /** The decoder for `ref`, asking the Schema service at most once per revision. */
  resolve(ref: SchemaRef): Promise<DecoderLookup> {
    const known = this.cached(ref);
    if (known) return Promise.resolve(known);
    const key = revisionKey(ref);
    let p = this.pending.get(key);
    if (!p) {
      p = this.fetchOnce(ref, key);
      this.pending.set(key, p);
    }
    return p;
  }

  /** The decoder for a payload with no schema of its own, published to `topic` if known. */
  withoutRef(topic?: string): DecoderLookup | undefined {
    const local = topic ? this.local(topic) : undefined;
    if (local) return this.remember(`topic:${topic}`, local);
    if (!this.sources.fallback) return undefined;
    this.fallbackLookup ??= this.compiled(this.sources.fallback);
    return this.fallbackLookup;
  }

  /** A definition met in the capture being read (a recorded schema line): it decodes that revision from now on. */
  learn(key: string, def: SchemaDefinition): void {
    this.learned.set(key, def);
    this.decoders.delete(key);
  }

  /** Every definition a message was decoded with, by revision key: what a recording keeps. */
  definitionsMet(): ReadonlyMap<string, SchemaDefinition> {
    return this.met;
  }

  private async fetchOnce(ref: SchemaRef, key: string): Promise<DecoderLookup> {
    let answer: FetchedSchema;
    try {
      answer = await this.sources.fetch!(ref);
    } catch (e) {
      answer = { unreachable: e instanceof Error ? e.message : String(e) };
    }
    this.pending.delete(key);
    if ('definition' in answer) return this.remember(key, answer.definition);
    const why =
      'missing' in answer ? `${key} no longer exists (${answer.missing})` : `the Schema service could not be reached for ${key}: ${answer.unreachable}`;
    return this.remember(key, this.local(ref.name), why);
  }

  private local(name: string): SchemaDefinition | undefined {
    return this.sources.byName?.get(name) ?? this.sources.byName?.get(schemaShortName(name));
  }

  private remember(key: string, def: SchemaDefinition | undefined, why?: string): DecoderLookup {
    const lookup: DecoderLookup = def ? this.compiled(def) : { unavailable: `${why}: ${NEXT_STEP}` };
    if (def && 'decoder' in lookup) this.met.set(key, def);
    this.decoders.set(key, lookup);
    return lookup;
  }

  private compiled(def: SchemaDefinition): DecoderLookup {
    try {
      return { decoder: compileSchema(def) };
    } catch (e) {
      if (e instanceof SchemaDefinitionError) return { unavailable: `the schema from ${e.source} does not compile: ${e.message}` };
      throw e;
    }
  }
}
