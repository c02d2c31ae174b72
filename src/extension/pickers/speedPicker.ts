/** Replay › Set Speed…: capture pacing, ten times faster, or as fast as the views keep up. */
import * as vscode from 'vscode';
import type { ReplaySpeed } from '../../shared/protocol';

export async function pickSpeed(): Promise<ReplaySpeed | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: '×1', description: 'capture pacing', speed: 1 as ReplaySpeed },
      { label: '×10', description: 'ten times faster', speed: 10 as ReplaySpeed },
      { label: 'max', description: 'as fast as the views keep up', speed: 'max' as ReplaySpeed },
    ],
    { title: 'Replay speed' },
  );
  return pick?.speed;
}
