/** Find Messages' two pickers: what to find (checked as it is typed), and the messages found. */
import * as vscode from 'vscode';
import { parseSearchInput } from '../../core/trace/messageMatch';
import { displayKey } from '../../core/trace/keyLabel';
import { isInputError } from '../../core/util/inputError';
import type { SearchResult } from '../../timeline/node/sessionSearch';
import { reportError } from '../errors';
import type { Session } from '../session';

/** One message found, as the picker lists it. */
export interface FoundMessage {
  readonly arrival: number;
  /** The event that shows it (a message, duplicate, late or invalid record). */
  readonly eventId: number;
  readonly byId: boolean;
  readonly preview: string;
  readonly messageId: string;
}

/** The search box; a regular expression that is not valid is named under it as it is typed. */
export function askSearchText(title: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `Find Messages in ${title}`,
    prompt: 'A messageId, text in the payloads, or /a regular expression/ (RE2 syntax; /…/i ignores case)',
    placeHolder: 'e.g. 2070443600000002, "px":4593.25 or /"qty":4\\d/',
    ignoreFocusOut: true,
    validateInput: (text) => {
      if (text.trim() === '') return undefined;
      try {
        parseSearchInput(text);
        return undefined;
      } catch (e) {
        if (isInputError(e)) return e.message;
        throw e;
      }
    },
  });
}

interface FoundItem extends vscode.QuickPickItem {
  readonly found: FoundMessage;
}

/** The messages found, in arrival order; picking one reveals it (`onReveal`). */
export function showSearchResults(
  s: Session,
  what: string,
  result: SearchResult,
  found: readonly FoundMessage[],
  onReveal: (m: FoundMessage) => Promise<void>,
): void {
  const pick = vscode.window.createQuickPick<FoundItem>();
  const listed = found.length < result.matched ? ` (the first ${found.length.toLocaleString('en-US')} listed)` : '';
  const cancelled = result.cancelled ? ', search cancelled' : '';
  const binary = result.binary ? `; ${result.binary.toLocaleString('en-US')} binary ${result.binary === 1 ? 'payload' : 'payloads'} not searched as text` : '';
  pick.title = `${result.matched.toLocaleString('en-US')} ${result.matched === 1 ? 'message' : 'messages'} with ${what}${listed}${cancelled}${binary}`;
  pick.placeholder = 'Pick a message to reveal it in the timeline and the Sessions view; type to narrow the list';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = found.map((f) => {
    const ev = s.data.event(f.eventId);
    const key = ev.kind === 'invalid' ? 'invalid record' : `key ${displayKey(ev.key)}`;
    const seq = ev.seq === undefined ? '' : ` #${ev.seq}`;
    const kind = ev.kind === 'message' ? '' : ` · ${ev.kind}`;
    return {
      label: `${f.byId ? '$(symbol-key)' : '$(search)'} ${f.messageId}`,
      description: `${key}${seq}${kind} · arrival ${f.arrival + 1}`,
      detail: f.preview || (f.byId ? '(binary payload)' : undefined),
      found: f,
    };
  });
  pick.onDidAccept(() => {
    const item = pick.selectedItems[0];
    pick.hide();
    if (item) void onReveal(item.found).catch((e: unknown) => reportError('Find Messages', e));
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
