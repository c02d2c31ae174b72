/**
 * The schema revisions live sources meet (a message's `googclient_*` attributes name one): each
 * is fetched once from the Schema service of the schema's own project, through the live
 * connection, written into the recording as a schema line before the first message that names
 * it (so the recording stays readable after the revision is deleted), and handed to `learned`
 * (the session's set decodes by it from then on). One per recording: the sources of several
 * taps into one file share it. A Schema service that cannot be reached is said once; the
 * messages are recorded and sequenced all the same.
 */
import type { SchemaDefinition } from '../core/schema/schemaDefinition';
import { schemaLine } from '../core/schema/schemaLine';
import { readSchemaRef, revisionKey, type SchemaRef, schemaShortName } from '../core/schema/schemaRef';
import type { SchemaFetch } from '../core/schema/schemaRevisions';

export interface LiveSchemaEvents {
  /** A revision's definition, fetched, as its schema line is written (before the first message that names it): the messages that name it decode by it from now on. */
  learned?(key: string, definition: SchemaDefinition): void;
  /** Why a revision cannot be fetched, with the next step: said once per revision, and once in all when the service is unreachable. */
  unavailable?(message: string): void;
}

/** A revision looked up: its definition, or none (missing or unreachable), while the answer is awaited a promise. */
type Lookup = { readonly definition: SchemaDefinition | undefined; written: boolean } | Promise<void>;

export class LiveSchemas {
  private readonly revisions = new Map<string, Lookup>();
  private saidUnreachable = false;

  constructor(
    private readonly fetch: SchemaFetch,
    private readonly events: LiveSchemaEvents = {},
  ) {}

  /**
   * Starts looking up the revisions `attributes` name that are not known yet; resolves once all
   * of them are answered (undefined when none is waited for: the messages can go on at once).
   */
  lookUp(attributes: readonly (Readonly<Record<string, string>> | null | undefined)[]): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const a of attributes) {
      const r = a ? readSchemaRef(a) : undefined;
      if (r?.kind !== 'schema') continue;
      const key = revisionKey(r.ref);
      let known = this.revisions.get(key);
      if (known === undefined) {
        known = this.fetchOnce(r.ref, key);
        this.revisions.set(key, known);
      }
      if (known instanceof Promise) (waits ??= []).push(known);
    }
    return waits && Promise.all(waits).then(() => undefined);
  }

  /**
   * The schema line to write before a message with `attributes` (its revision's definition, the
   * first time it is asked for; `learned` is told then), else undefined.
   */
  lineFor(attributes: Readonly<Record<string, string>> | null | undefined): string | undefined {
    const r = attributes ? readSchemaRef(attributes) : undefined;
    if (r?.kind !== 'schema') return undefined;
    const known = this.revisions.get(revisionKey(r.ref));
    if (known === undefined || known instanceof Promise || known.written || known.definition === undefined) return undefined;
    known.written = true;
    this.events.learned?.(revisionKey(r.ref), known.definition);
    return schemaLine(r.ref, known.definition);
  }

  private async fetchOnce(ref: SchemaRef, key: string): Promise<void> {
    let definition: SchemaDefinition | undefined;
    try {
      const answer = await this.fetch(ref);
      if ('definition' in answer) definition = answer.definition;
      else this.say(ref, key, answer);
    } catch (e) {
      this.say(ref, key, { unreachable: e instanceof Error ? e.message : String(e) });
    }
    this.revisions.set(key, { definition, written: false });
  }

  private say(ref: SchemaRef, key: string, answer: { missing: string } | { unreachable: string }): void {
    const step = `give it as a file: --schema ${schemaShortName(ref.name)}=FILE.avsc (or FILE.proto), or "${schemaShortName(ref.name)}": "FILE.avsc" in the seqscope.schemas setting`;
    if ('missing' in answer) {
      this.events.unavailable?.(`schema ${key} no longer exists (${answer.missing}): its messages are recorded as they are; to decode them, ${step}`);
      return;
    }
    if (this.saidUnreachable) return;
    this.saidUnreachable = true;
    this.events.unavailable?.(
      `the Schema service could not be reached for ${key} (${answer.unreachable}): messages are recorded and sequenced, but not decoded by their schemas; to decode them, ${step}`,
    );
  }
}
