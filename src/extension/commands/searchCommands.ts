/**
 * Find Messages: by messageId and by payload text or regular expression, over the whole session,
 * on a worker (the records are read back from the captures), with progress and Cancel; the
 * matches in a quick pick that reveals each in the timeline and in the Sessions view.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describePattern, parseSearchInput, SearchInput } from '../../core/trace/messageMatch';
import { noun } from '../../core/util/plural';
import { searchInWorker } from '../../timeline/node/searchInWorker';
import type { SearchResult } from '../../timeline/node/sessionSearch';
import { log } from '../log';
import { askSearchText, FoundMessage, showSearchResults } from '../pickers/searchPicker';
import { Session } from '../session';
import { revealMessageInTree } from '../sessionsTree';
import { CommandContext, sessionFrom } from './context';
import { Handlers } from './registry';
import { SessionViews } from './sessionViews';

/** What the command gives `executeCommand` callers (automation, tests). */
export interface FindResult {
  readonly session: string;
  readonly matched: number;
  readonly binary: number;
  readonly cancelled: boolean;
  readonly found: readonly FoundMessage[];
}

export function searchCommands(ctx: CommandContext, views: SessionViews): Handlers<'seqscope.search.findMessages'> {
  const { manager } = ctx;

  /** Shows a found message in the timeline and in the Sessions view. */
  const reveal = async (s: Session, m: FoundMessage): Promise<void> => {
    views.showTimeline(s).reveal(s, m.eventId);
    await revealMessageInTree(ctx.tree, ctx.treeView, s, m.eventId);
  };

  return {
    /**
     * `arg`: a session (tree node or id), else the active one. `text`: what to find, as typed in
     * the search box; asked for when absent.
     */
    'seqscope.search.findMessages': async (arg?: unknown, text?: unknown): Promise<FindResult | undefined> => {
      const s = sessionFrom(manager, arg);
      const typed = typeof text === 'string' ? text : await askSearchText(s.title);
      if (typed === undefined) return undefined;
      const input = parseSearchInput(typed);
      const result = await search(ctx, s, input);
      const found = foundMessages(s, result);
      const what = describeSearch(input);
      log().info(
        `find ${what} in ${s.title}: ${result.matched} of ${result.searched} records${result.binary ? `, ${result.binary} binary payloads passed over` : ''}${result.cancelled ? ' (cancelled)' : ''}`,
      );
      if (result.matched === 0) {
        const binary = result.binary
          ? ` ${result.binary} binary ${noun(result.binary, 'payload')} (not UTF-8 text) could not be searched: a messageId finds those.`
          : '';
        void vscode.window.showInformationMessage(
          `SeqScope: no message in ${s.title} ${result.cancelled ? 'found before the search was cancelled' : 'has'} ${what}.${binary}`,
        );
      } else {
        showSearchResults(s, what, result, found, (m) => reveal(s, m));
      }
      return { session: s.id, matched: result.matched, binary: result.binary, cancelled: result.cancelled, found };
    },
  };
}

function describeSearch(input: SearchInput): string {
  // Quoted as typed (JSON.stringify would escape the quotes a JSON payload search has).
  return input.messageId !== undefined ? `messageId or payload text “${input.messageId}”` : `a payload matching ${describePattern(input.payload)}`;
}

/** Runs the search on the worker under a progress notification with Cancel. */
function search(ctx: CommandContext, s: Session, input: SearchInput): Thenable<SearchResult> {
  const total = s.data.arrivalCount;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SeqScope: finding messages in ${s.title}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let shown = 0;
      try {
        return await searchInWorker(path.join(ctx.extensionUri.fsPath, 'dist', 'searchWorker.js'), s.data, input, {
          signal: abort.signal,
          schemas: s.options.schemas,
          onProgress: (searched, _total, matched) => {
            const share = total > 0 ? (searched / total) * 100 : 100;
            progress.report({
              increment: share - shown,
              message: `${searched.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records, ${matched.toLocaleString('en-US')} found`,
            });
            shown = share;
          },
        });
      } finally {
        sub.dispose();
      }
    },
  );
}

/** The hits as the picker lists them: each with the event that shows it. */
function foundMessages(s: Session, result: SearchResult): FoundMessage[] {
  // Arrival → its event (a message, duplicate, late or invalid record): one pass over the store.
  const wanted = new Map<number, number>(result.hits.map((h) => [h.arrival, -1]));
  const arrivals = s.data.store.arrival.data;
  for (let id = 0; id < s.data.store.count; id++) {
    const a = arrivals[id];
    if (a >= 0 && wanted.get(a) === -1) wanted.set(a, id);
  }
  return result.hits.flatMap((h) => {
    const eventId = wanted.get(h.arrival) ?? -1;
    // An arrival the sequencer never emitted an event for (a load cut short) cannot be shown.
    return eventId < 0 ? [] : [{ arrival: h.arrival, eventId, byId: h.byId, preview: h.preview, messageId: s.data.log.messageId.get(h.arrival) }];
  });
}
