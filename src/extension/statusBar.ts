import * as vscode from 'vscode';
import { noun } from '../core/util/plural';
import { positionWords } from '../timeline/replayCursor';
import { Disposable } from './dispose';
import { emulatorHostInUse } from './pubsubService';
import { SessionManager } from './sessionManager';
import { judgesPublishOrder, unseenFindings } from '../core/sequencer/sequencingOptions';
import { openStateWords } from '../core/sequencer/openState';

/** The active session's verdict at a glance; click opens the timeline. */
export class SessionStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('seqscope.session', vscode.StatusBarAlignment.Left, 50));
  /** Says when SeqScope talks to the Pub/Sub emulator rather than Google Cloud. */
  private readonly emulator = this._register(vscode.window.createStatusBarItem('seqscope.emulator', vscode.StatusBarAlignment.Left, 49));

  constructor(private readonly manager: SessionManager) {
    super();
    this.item.name = 'SeqScope Session';
    this.item.command = 'seqscope.timeline.show';
    this.emulator.name = 'SeqScope Pub/Sub Emulator';
    this.emulator.command = { command: 'workbench.action.openSettings', title: 'Pub/Sub settings', arguments: ['seqscope.pubsub'] };
    this._register(manager.onDidChange(() => this.update()));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('seqscope.pubsub') && this.update()));
    this.update();
  }

  private update(): void {
    const host = emulatorHostInUse();
    if (host) {
      this.emulator.text = '$(beaker) Pub/Sub emulator';
      this.emulator.tooltip = `SeqScope talks to the Pub/Sub emulator at ${host} (seqscope.pubsub.emulatorHost or PUBSUB_EMULATOR_HOST), not Google Cloud. Click for the settings.`;
      this.emulator.show();
    } else {
      this.emulator.hide();
    }
    const s = this.manager.active;
    if (!s) {
      this.item.hide();
      return;
    }
    const c = s.data.countsAt(s.position);
    const problems = c.gaps + c.late + c.reordered;
    const live = s.live;
    const unseen = unseenFindings(s.options);
    // Compact, so the counts and the replay position fit beside other items at 1 280 px: a long
    // title is shortened (the tooltip has it whole), the words are few.
    const parts = [shorten(s.title, 28)];
    if (s.loadingWords) parts.push(s.loadingWords);
    if (live) parts.push(live.tapGone ? 'TAP GONE' : live.state === 'live' ? `${Math.round(live.rate)}/s` : live.state.toUpperCase());
    parts.push(
      unseen
        ? `${c.duplicates} dup${judgesPublishOrder(s.options) ? ` · ${c.reordered} reordered` : ' · no seq numbers'}`
        : `${c.gaps} ${noun(c.gaps, 'gap')} · ${c.duplicates} dup · ${c.late} late`,
    );
    const open = live?.longestOpen;
    if (open)
      parts.push(
        openStateWords(open.state).replace(/ · \d+ held$/, '') + (live.openKeys > 1 ? ` (+${live.openKeys - 1} ${noun(live.openKeys - 1, 'key')})` : ''),
      );
    if (s.replay.active) parts.push(s.replay.position > s.data.arrivalCount ? 'end' : `${s.replay.position}/${s.data.arrivalCount}`);
    this.item.text = `$(${live?.state === 'disconnected' ? 'debug-disconnect' : problems ? 'warning' : live ? 'radio-tower' : s.loading !== undefined ? 'loading~spin' : 'pulse'}) ${parts.join(' · ')}`;
    this.item.tooltip = `SeqScope: ${s.title}\n${s.data.summary.options}${unseen ? `\n${unseen}` : ''}\nDelivered ${c.delivered}, lost ${c.lost}, invalid ${c.invalid}.${s.replay.active ? ` Replay: ${positionWords(s.replay.position, s.data.arrivalCount)}.` : ''} Click to show the timeline.`;
    if (live) this.item.tooltip += `\n${live.detail}`;
    if (open) this.item.tooltip += `\nKey ${s.data.keyNames[open.key]}: ${openStateWords(open.state)}`;
    // A colour only for an error (VS Code's guidance): a live session that lost its connection.
    // Gaps in a capture are what SeqScope is for, not a fault: the icon and the words say them.
    this.item.backgroundColor = live?.state === 'disconnected' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }
}

/** A title cut to `max` characters, keeping its start and its end ("md-feed-2026-…-49-56Z.jsonl"). */
function shorten(title: string, max: number): string {
  if (title.length <= max) return title;
  const tail = Math.floor((max - 1) / 2);
  return `${title.slice(0, max - 1 - tail)}…${title.slice(title.length - tail)}`;
}
