/** The hashes a sequencer's history keeps of a delivery: its messageId's and its content's. */

/** A hash of an item's content (data, attributes, ordering key), to find conflicts; see contentHash.ts. */
export type ContentHash<T> = (item: T) => number;
/** Without a content hash every copy has the same content: no conflicts. */
export const NO_CONTENT: ContentHash<unknown> = () => 0;

/** FNV-1a of a messageId, never 0 (0 marks an unknown slot). */
export function hashId(id: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}
