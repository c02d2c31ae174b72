import * as vscode from 'vscode';

/** The "SeqScope" log channel (a LogOutputChannel, so users can pick the level). */
let channel: vscode.LogOutputChannel | undefined;

export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('SeqScope', { log: true });
  return channel;
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
}
