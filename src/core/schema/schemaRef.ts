/**
 * Which schema a Pub/Sub message says it was written with. A topic bound to a schema stamps three
 * attributes on every message it delivers: the schema's full name, the encoding (`JSON` or
 * `BINARY`) and the revision the message was validated against. When the schema or that revision
 * has since been deleted, the name or the revision reads as a marker instead.
 */

export const SCHEMA_NAME_ATTRIBUTE = 'googclient_schemaname';
export const SCHEMA_ENCODING_ATTRIBUTE = 'googclient_schemaencoding';
export const SCHEMA_REVISION_ATTRIBUTE = 'googclient_schemarevisionid';
/** The schema name Pub/Sub stamps once the message's schema has been deleted. */
export const DELETED_SCHEMA = '_deleted-schema_';
/** The revision id Pub/Sub stamps once the message's revision has been deleted. */
export const DELETED_REVISION = '_deleted-schema-revision_';

export type SchemaEncoding = 'BINARY' | 'JSON';

/** A message's schema, as its attributes name it. */
export interface SchemaRef {
  /** `projects/P/schemas/S`. */
  readonly name: string;
  readonly encoding: SchemaEncoding;
  /** The revision the message was validated against; absent on messages from before revisions. */
  readonly revisionId?: string;
}

/** What a message's attributes say about its schema. */
export type SchemaRefReading =
  | { readonly kind: 'none' }
  | { readonly kind: 'schema'; readonly ref: SchemaRef }
  /** The schema, or the revision the message was written with, no longer exists. */
  | { readonly kind: 'deleted'; readonly what: 'schema' | 'revision'; readonly name?: string; readonly encoding: SchemaEncoding };

const NONE: SchemaRefReading = { kind: 'none' };

/** Reads the schema attributes; a message without them (or with an unknown encoding) has none. */
export function readSchemaRef(attributes: Readonly<Record<string, string>> | undefined): SchemaRefReading {
  const name = attributes?.[SCHEMA_NAME_ATTRIBUTE];
  const encoding = attributes?.[SCHEMA_ENCODING_ATTRIBUTE];
  if (name === undefined || (encoding !== 'JSON' && encoding !== 'BINARY')) return NONE;
  if (name === DELETED_SCHEMA) return { kind: 'deleted', what: 'schema', encoding };
  const revisionId = attributes?.[SCHEMA_REVISION_ATTRIBUTE];
  if (revisionId === DELETED_REVISION) return { kind: 'deleted', what: 'revision', name, encoding };
  return { kind: 'schema', ref: revisionId ? { name, encoding, revisionId } : { name, encoding } };
}

/** The cache key of a schema revision (`name@revision`, or the name alone). */
export function revisionKey(ref: Pick<SchemaRef, 'name' | 'revisionId'>): string {
  return ref.revisionId ? `${ref.name}@${ref.revisionId}` : ref.name;
}

/** The short name of `projects/P/schemas/S`: `S`. */
export function schemaShortName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}
