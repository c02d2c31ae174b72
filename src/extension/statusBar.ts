import * as vscode from 'vscode';
import { noun } from '../core/util/plural';
import { positionWords } from '../timeline/replayCursor';
import { Disposable } from './dispose';
import { emulatorHostInUse } from './pubsubCommands';
import { SessionManager } from './sessionManager';

/** The active session's verdict at a glance; click opens the timeline. */
export class SessionStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('seqscope.session', vscode.StatusBarAlignment.Left, 50));
  /** Says when SeqScope talks to the Pub/Sub emulator rather than Google Cloud. */
  private readonly emulator = this._register(vscode.window.createStatusBarItem('seqscope.emulator', vscode.StatusBarAlignment.Left, 49));

  constructor(private readonly manager: SessionManager) {
    super();
    this.item.name = 'SeqScope Session';
    this.item.command = 'seqscope.showTimeline';
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
    const problems = c.gaps + c.late;
    const live = s.live;
    const liveText = live ? (live.state === 'live' ? ` · live ${Math.round(live.rate)}/s` : ` · ${live.state.toUpperCase()}`) : '';
    this.item.text = `$(${live?.state === 'disconnected' ? 'debug-disconnect' : problems ? 'warning' : live ? 'radio-tower' : 'pulse'}) ${s.title}${liveText}: ${c.gaps} ${noun(c.gaps, 'gap')} · ${c.duplicates} dup · ${c.late} late${s.replay.active ? ` · ${positionWords(s.replay.position, s.data.arrivalCount)}` : ''}`;
    this.item.tooltip = `SeqScope: ${s.data.summary.options}\nDelivered ${c.delivered}, lost ${c.lost}, invalid ${c.invalid}. Click to show the timeline.`;
    if (live) this.item.tooltip += `\n${live.detail}`;
    this.item.backgroundColor =
      live?.state === 'disconnected' ? new vscode.ThemeColor('statusBarItem.errorBackground') : problems ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }
}
