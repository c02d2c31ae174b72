/**
 * Filter › Keys…: which keys to show. A session with a few hundred keys lists them all and VS Code
 * filters them as usual. One with more lists the keys already chosen and then a page of the keys
 * whose names contain what is typed, searched again on each keystroke (see KeySearch for why).
 */
import * as vscode from 'vscode';
import { KeySearch } from '../../timeline/keySearch';
import { displayKey } from '../../core/trace/keyLabel';

/** Keys listed at once. */
export const KEY_PAGE = 500;

type KeyItem = vscode.QuickPickItem & { key: string; index: number };

export interface KeyChoice {
  readonly names: readonly string[];
  /** The item's description for key `i` (e.g. how many it received). */
  readonly describe: (i: number) => string;
  /** Keys chosen now (the filter's), or undefined for none. */
  readonly current: readonly string[] | undefined;
  /** The keys' indices in the order to list them (the tree's key order); default: as they appeared. */
  readonly order?: readonly number[];
}

/** The keys picked (in key order), or undefined when the picker was dismissed. */
export async function pickKeys(c: KeyChoice): Promise<string[] | undefined> {
  const item = (i: number): KeyItem => ({ label: displayKey(c.names[i]), key: c.names[i], index: i, description: c.describe(i) });
  if (c.names.length <= KEY_PAGE) {
    const chosen = new Set(c.current);
    const picked = await vscode.window.showQuickPick(
      (c.order ?? c.names.map((_, i) => i)).map((i) => ({ ...item(i), picked: chosen.has(c.names[i]) })),
      { canPickMany: true, title: 'Show these keys' },
    );
    return picked?.map((p) => p.key);
  }
  return searchAndPick(c, item);
}

function searchAndPick(c: KeyChoice, item: (i: number) => KeyItem): Promise<string[] | undefined> {
  const search = new KeySearch(c.names, c.order);
  const indexOf = new Map<string, number>();
  c.names.forEach((n, i) => indexOf.set(n, i));
  const chosen = new Set((c.current ?? []).filter((k) => indexOf.has(k)));
  // Where each key is listed, to list the chosen ones in that order too.
  let rank: Int32Array | undefined;
  if (c.order) {
    rank = new Int32Array(c.names.length);
    for (let at = 0; at < c.order.length; at++) rank[c.order[at]] = at;
  }
  const total = c.names.length.toLocaleString('en-US');
  const qp = vscode.window.createQuickPick<KeyItem>();
  qp.canSelectMany = true;
  qp.matchOnDescription = false;
  qp.placeholder = 'Type part of a key name';
  let shown: KeyItem[] = [];
  // What is typed, as VS Code matches it against the labels (it hides the rows that do not match).
  let query = '';
  const matchesQuery = (it: KeyItem) => it.label.toLowerCase().includes(query);

  const show = (value: string) => {
    query = value.trim().toLowerCase();
    // The chosen keys first, so they can be seen and unticked whatever is typed; then a page
    // of the others.
    const first = [...chosen].map((k) => indexOf.get(k) as number).sort((a, b) => (rank ? rank[a] - rank[b] : a - b));
    const found = search.find(value, KEY_PAGE + first.length);
    const others = found.matches.filter((i) => !chosen.has(c.names[i]));
    const matches = others.slice(0, KEY_PAGE);
    const more = found.more || others.length > KEY_PAGE;
    shown = [...first, ...matches].map(item);
    qp.items = shown;
    qp.selectedItems = shown.filter((it) => chosen.has(it.key));
    qp.title = more
      ? `Show these keys — the first ${KEY_PAGE} of ${total}${value.trim() ? ` containing "${value.trim()}"` : ''}: type to find others`
      : `Show these keys — ${found.matches.length.toLocaleString('en-US')} of ${total}${value.trim() ? ` contain "${value.trim()}"` : ''}`;
  };

  return new Promise((resolve) => {
    let accepted = false;
    const subs: vscode.Disposable[] = [
      qp.onDidChangeValue(show),
      qp.onDidChangeSelection((selected) => {
        const ticked = new Set(selected.map((s) => s.key));
        for (const it of shown) {
          if (ticked.has(it.key)) chosen.add(it.key);
          // A chosen key the typing hides from the list is not in the selection, and stays chosen.
          else if (matchesQuery(it)) chosen.delete(it.key);
        }
      }),
      qp.onDidAccept(() => {
        accepted = true;
        resolve([...chosen].sort((a, b) => (indexOf.get(a) as number) - (indexOf.get(b) as number)));
        qp.hide();
      }),
      qp.onDidHide(() => {
        if (!accepted) resolve(undefined);
        for (const s of subs) s.dispose();
        qp.dispose();
      }),
    ];
    show('');
    qp.show();
  });
}
