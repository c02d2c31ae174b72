/**
 * Showing sessions: in the Sessions view (revealed, selected), in the timeline, and the summary of
 * one just opened. Shared by the capture and session commands.
 */
import * as vscode from 'vscode';
import { noun } from '../../core/util/plural';
import { tooWideMessage } from '../../core/replay/replayEngine';
import { log } from '../log';
import { Session } from '../session';
import { revealEventInTree } from '../sessionsTree';
import { TimelinePanel } from '../timelinePanel';
import { CommandContext } from './context';
import { runCommand } from './registry';
import { barePayloads } from '../../core/replay/barePayloads';
import { BARE_PAYLOADS_FIX } from '../openTargets';

export interface SessionViews {
  /** The timeline, on `s` (made the active session) or on the active one. */
  showTimeline(s?: Session): TimelinePanel;
  /** The timeline while a capture loads, under the title its session will have. */
  showLoading(title: string): TimelinePanel | undefined;
  /** A capture opened again, unchanged and sequenced alike: its session, shown and said so. */
  showOpenAlready(s: Session, withTimeline: boolean): Promise<void>;
  /** A session just opened: shown in the Sessions view, its summary said. */
  revealSession(s: Session): Promise<void>;
  /**
   * A session shown in the Sessions view and selected, the keyboard left where it is (a live
   * session starting while the user types in an editor).
   */
  revealInSessionsView(s: Session, opts?: { keepFocus?: boolean }): Promise<void>;
}

export function sessionViews(ctx: CommandContext): SessionViews {
  const { manager, tree, treeView } = ctx;

  const revealInTree = (s: Session, eventId: number) => revealEventInTree(tree, treeView, s, eventId);

  const showTimeline = (s?: Session) => {
    if (s) manager.active = s;
    return TimelinePanel.show(ctx.extensionUri, manager, (session, eventId) => void revealInTree(session, eventId));
  };

  const showLoading = (title: string) => TimelinePanel.showLoading(ctx.extensionUri, manager, (session, eventId) => void revealInTree(session, eventId), title);

  /** A capture opened again, unchanged and sequenced alike: its session, shown and said so. */
  async function showOpenAlready(s: Session, withTimeline: boolean): Promise<void> {
    manager.active = s;
    await revealInSessionsView(s);
    if (withTimeline) showTimeline(s);
    log().info(`${s.title} is open already (the same files, unchanged, sequenced alike): showing it`);
    vscode.window.setStatusBarMessage(`SeqScope: ${s.title} is open already, unchanged: showing it (close it to load it again)`, 5000);
  }

  /** The Sessions view, shown, with the session selected in it. */
  async function revealInSessionsView(s: Session, opts: { keepFocus?: boolean } = {}): Promise<void> {
    try {
      // The tree view's reveal shows its view without focusing it; the view command focuses it.
      if (!opts.keepFocus) await vscode.commands.executeCommand('workbench.view.extension.seqscope');
      const node = tree.sessionNode(s);
      // VS Code looks for the node among the root items it has: the refresh that lists the new
      // session (throttled, up to 200 ms away) must reach it first, or the reveal fails whenever
      // another session is open.
      tree.flushRefresh();
      await treeView.reveal(node, { select: true, focus: false, expand: true });
    } catch (e) {
      // Showing it is a courtesy, not the open: the view may not be visible yet, or still hold a
      // node of a session closed a moment ago (VS Code then rejects with a TreeError). The session
      // is in the tree all the same.
      log().info(`Sessions view: ${s.title} opened, not shown (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /** A notice's Show Timeline: on its session, or — closed since — said so instead. */
  function showTimelineIfOpen(s: Session): void {
    if (!s.isDisposed) showTimeline(s);
    else
      void vscode.window
        .showInformationMessage(`SeqScope: ${s.title} was closed since: open it again to see its timeline.`, 'Open Again…')
        .then((a) => a && runCommand('seqscope.capture.open', s.data.paths[0] ? vscode.Uri.file(s.data.paths[0]) : undefined));
  }

  /** A session just opened: shown in the Sessions view, its summary said. */
  async function revealSession(s: Session): Promise<void> {
    await revealInSessionsView(s);
    saySummary(s, showTimelineIfOpen);
  }

  return { showTimeline, showLoading, showOpenAlready, revealSession, revealInSessionsView };
}

/**
 * What a session just opened holds, said once: an error with the fix when nothing could be
 * sequenced, a warning for a run too wide, an empty session or skipped records, else the status
 * bar. `showTimeline` answers a notice's Show Timeline.
 */
function saySummary(s: Session, showTimeline: (s: Session) => void): void {
  const sum = s.data.summary;
  const msg = `${s.title}: ${sum.delivered} delivered, ${sum.gaps} ${noun(sum.gaps, 'gap')} (${sum.lost} lost), ${sum.duplicates} ${noun(sum.duplicates, 'duplicate')}, ${sum.late} late${sum.reordered ? `, ${sum.reordered} reordered` : ''}${sum.invalid ? `, ${sum.invalid} invalid` : ''}`;
  // One notification: a damaged gzip capture's cut-off record is also an invalid one.
  const damage = [...(s.damage ?? []), ...(s.notes ?? [])].map((d) => `${d}. `).join('');
  // Records read and none sequenced: the options do not fit the capture. An error, with the fix.
  if (sum.unsequenced) {
    const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
    const fix = barePayloads(sum) ? BARE_PAYLOADS_FIX : sum.unsequenced.fix.setting;
    void vscode.window
      .showErrorMessage(`SeqScope: ${s.title}: ${damage}${sum.unsequenced.reason}. To sequence it, ${fix}.`, ...actions)
      .then((a) => a && showTimeline(s));
  } else if (sum.tooWide) {
    // Once for the run, however many records it was.
    const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
    void vscode.window
      .showWarningMessage(`SeqScope: ${damage}${msg}. ${tooWideMessage(sum.tooWide, 'setting')}.`, ...actions)
      .then((a) => a && showTimeline(s));
  } else if (sum.received + sum.invalid === 0 && !damage) {
    void vscode.window.showWarningMessage(
      `SeqScope: ${s.title} holds no records: the session is empty. Is it the right file? (A recording of a quiet topic is empty too.)`,
    );
  } else if (sum.invalid || damage) {
    // Show Timeline only where it would show something: not when the timeline is on it already.
    const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
    void vscode.window
      .showWarningMessage(`SeqScope: ${damage}${msg}.${sum.invalid ? ' Invalid records were skipped: see the Invalid group.' : ''}`, ...actions)
      .then((a) => a && showTimeline(s));
  } else {
    vscode.window.setStatusBarMessage(`SeqScope: ${msg}`, 5000);
  }
}
