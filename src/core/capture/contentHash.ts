/**
 * What makes two copies of one messageId the same message: its data, its attributes and its
 * ordering key. A Pub/Sub redelivery never changes them, so a copy that differs is a conflict
 * (a corrupt capture, a bad merge, a faulty publisher), not a redelivery. See
 * docs/sequencing-rules.md, "Conflict".
 *
 * The sequencer remembers a 32-bit hash per recent delivery (in its history arena and id memory),
 * not the content: two different contents with equal hashes would pass as the same, about one in
 * four billion.
 */
import { PubsubMessage } from './captureRecord';

/** FNV-1a over a string's UTF-16 units, continuing from `h`. */
export function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** FNV-1a's offset basis, where every hash here starts. */
export const SEED = 0x811c9dc5 | 0;
/** FNV-1a's 32-bit prime. */
export const FNV_PRIME = 0x01000193;

/**
 * The data's hash: FNV-1a's step over its UTF-16 units four at a time (one 32-bit word, the first
 * unit lowest), then over the last one to three one at a time. A step a word makes the chain of
 * multiplies a quarter as long as a step a unit; base64 text is ASCII, so a reader of its bytes
 * makes the same words from them (`dataHashBytes`).
 */
export function dataHash(s: string): number {
  let h = SEED;
  const n = s.length;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    h = Math.imul(h ^ (s.charCodeAt(i) ^ (s.charCodeAt(i + 1) << 8) ^ (s.charCodeAt(i + 2) << 16) ^ (s.charCodeAt(i + 3) << 24)), FNV_PRIME);
  }
  for (; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** `dataHash` of the text of ASCII bytes b[s, e) (each byte its own UTF-16 unit). */
export function dataHashBytes(b: Uint8Array, s: number, e: number): number {
  let h = SEED;
  let i = s;
  for (; i + 4 <= e; i += 4) h = Math.imul(h ^ (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)), FNV_PRIME);
  for (; i < e; i++) h = Math.imul(h ^ b[i], FNV_PRIME);
  return h;
}

/**
 * A hash of the message's data, attributes and ordering key. Attributes are combined in an
 * order-independent way (a sum of one hash per pair), so a capture that re-serialised them in
 * another order is not a conflict; an absent field and an empty one hash alike.
 */
export function contentHash(m: PubsubMessage): number {
  return contentHashAfterData(dataHash(m.data ?? ''), m.orderingKey, m.attributes);
}

/** contentHash, given the hash of the data's base64 text (`dataHash(data)`), for readers that hash it in place. */
export function contentHashAfterData(dataHash: number, ok: string | undefined, attrs: Record<string, string> | undefined): number {
  let h = Math.imul(dataHash ^ 0xff, 0x01000193);
  if (ok !== undefined && ok !== '') h = fnv(h, ok);
  if (attrs !== undefined) {
    let sum = 0;
    for (const name in attrs) {
      // A separator no key or value can hold between them, so ("ab","c") ≠ ("a","bc").
      sum = (sum + fnv(Math.imul(fnv(SEED, name) ^ 0x10000, 0x01000193), String(attrs[name]))) | 0;
    }
    h = Math.imul(h ^ sum, 0x01000193);
  }
  return h;
}

/**
 * Which of data, attributes and ordering key differ between two copies, for the reason of a
 * conflict found while both copies are at hand.
 */
export function contentDifferences(a: PubsubMessage, b: PubsubMessage): string[] {
  const out: string[] = [];
  if ((a.data ?? '') !== (b.data ?? '')) out.push('data');
  if (!sameAttributes(a.attributes, b.attributes)) out.push('attributes');
  if ((a.orderingKey ?? '') !== (b.orderingKey ?? '')) out.push('ordering key');
  return out;
}

function sameAttributes(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = a === undefined ? [] : Object.keys(a);
  const kb = b === undefined ? [] : Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const name of ka) if (!Object.prototype.hasOwnProperty.call(b, name) || a![name] !== b![name]) return false;
  return true;
}

/** The reason of a conflict: what differs, or that the content does (first copy no longer at hand). */
export function conflictReason(differences: readonly string[] | undefined): string {
  if (differences === undefined || differences.length === 0) return 'data, attributes or ordering key differ from the first copy';
  return `${differences.join(', ')} ${differences.length === 1 ? 'differs' : 'differ'} from the first copy`;
}
