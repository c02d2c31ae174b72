import { keyLabel } from '../core/trace/keyLabel';

/**
 * Finding keys by part of their name, for pickers over sessions with many keys.
 *
 * Why not hand every key to the picker: a Pub/Sub capture can have 100 000 ordering keys, and
 * VS Code's multi-select quick pick given them all took 1.9 s to open and 2.2 s to narrow to
 * five typed characters (measured in the workbench). The picker lists at most a page of
 * matches, searched again as the user types: 0.17 s and 0.16 s.
 */
export class KeySearch {
  /** The names as shown (the empty key as "(no key)"), in lower case, made once: a search runs on every keystroke. */
  private lower: string[] | undefined;

  /** @param order The keys' indices in the order to list them (default: as they appeared; see keyOrder.ts). */
  constructor(
    private readonly names: readonly string[],
    private readonly order?: readonly number[],
  ) {}

  /**
   * Indices of the keys whose names as shown contain `query` (ignoring case), in the order given,
   * at most `limit`: "no key" finds the empty key, as the picker labels it.
   */
  find(query: string, limit: number): { matches: number[]; more: boolean } {
    const q = query.trim().toLowerCase();
    const lower = (this.lower ??= this.names.map((n) => keyLabel(n).toLowerCase()));
    const order = this.order;
    const matches: number[] = [];
    for (let j = 0; j < lower.length; j++) {
      const i = order ? order[j] : j;
      if (q !== '' && !lower[i].includes(q)) continue;
      if (matches.length === limit) return { matches, more: true };
      matches.push(i);
    }
    return { matches, more: false };
  }
}
