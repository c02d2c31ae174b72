import * as vscode from 'vscode';
import { Disposable } from './dispose';
import { SessionManager } from './sessionManager';

/** The active session's verdict at a glance; click opens the timeline. */
export class SessionStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('seqscope.session', vscode.StatusBarAlignment.Left, 50));

  constructor(private readonly manager: SessionManager) {
    super();
    this.item.name = 'SeqScope Session';
    this.item.command = 'seqscope.showTimeline';
    this._register(manager.onDidChange(() => this.update()));
    this.update();
  }

  private update(): void {
    const s = this.manager.active;
    if (!s) {
      this.item.hide();
      return;
    }
    const c = s.data.countsAt(s.position);
    const problems = c.gaps + c.late;
    this.item.text = `$(${problems ? 'warning' : 'pulse'}) ${s.title}: ${c.gaps} gap${c.gaps === 1 ? '' : 's'} · ${c.duplicates} dup · ${c.late} late${s.replay.active ? ` · step ${s.replay.position}/${s.replay.end}` : ''}`;
    this.item.tooltip = `SeqScope: ${s.data.summary.options}\nDelivered ${c.delivered}, lost ${c.lost}, invalid ${c.invalid}. Click to show the timeline.`;
    this.item.backgroundColor = problems ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }
}
