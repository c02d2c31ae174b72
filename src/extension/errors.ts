import * as vscode from 'vscode';
import { CaptureError } from '../core/capture/captureReader';
import { sniffGzip } from '../core/capture/captureSource';
import { ExportError } from '../core/export/outputFile';
import { CompressedCaptureError } from './compressedCaptures';
import { log } from './log';

/**
 * Wraps a command so that a failure becomes a message with a next step instead of a silent
 * rejection (after vscode-kafka's handleErrors): a capture problem offers to open the file at
 * the line (a damaged gzip capture, the command that decompresses what can be read), a bad
 * setting offers the settings, anything else offers the log.
 */
export function withErrorHandling<A extends unknown[]>(name: string, fn: (...args: A) => unknown): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      // Not awaited: the notification stays until the user answers it, the command must not.
      void reportError(name, e);
      // Re-throw for `executeCommand` callers (tests, automation), who would otherwise see success.
      throw e;
    }
  };
}

export async function reportError(context: string, e: unknown): Promise<void> {
  if (e instanceof vscode.CancellationError) return;
  const err = e instanceof Error ? e : new Error(String(e));
  log().error(`${context}: ${err.message}`);
  if (err.stack) log().debug(err.stack);
  if (err instanceof CaptureError) {
    // The editor cannot show a gzip capture's lines (the core reads them decompressed).
    const actions = (await sniffGzip(err.path).catch(() => false)) ? [] : ['Open File'];
    const pick = await vscode.window.showErrorMessage(`SeqScope: ${err.message}`, ...actions);
    if (pick === 'Open File') await openAt(err.path, err.line);
    return;
  }
  if (err instanceof CompressedCaptureError) {
    // Not "Open File": the editor cannot show gzip data. The command gets what can be read.
    const pick = await vscode.window.showErrorMessage(`SeqScope: ${err.message}. ${err.nextStep}.`, ...(err.command ? ['Copy Command'] : []), 'Show Log');
    if (pick === 'Copy Command' && err.command) {
      await vscode.env.clipboard.writeText(err.command);
      vscode.window.setStatusBarMessage(`SeqScope: copied ${err.command}`, 5000);
    } else if (pick === 'Show Log') log().show();
    return;
  }
  if (err instanceof ExportError) {
    void vscode.window.showErrorMessage(`SeqScope: ${err.message}. Next: ${err.nextStep}.`);
    return;
  }
  // From the separately bundled Pub/Sub layer (dist/pubsub.js): matched by name, not class.
  if (err.name === 'PubsubError') {
    const { kind, nextStep } = err as Error & { kind: string; nextStep: string };
    const settingsFix = ['no-project', 'emulator-down', 'invalid-name', 'unauthenticated'].includes(kind);
    const pick = await vscode.window.showErrorMessage(`SeqScope: ${err.message}. Next: ${nextStep}.`, ...(settingsFix ? ['Open Settings'] : []), 'Show Log');
    if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope.pubsub');
    else if (pick === 'Show Log') log().show();
    return;
  }
  if (err instanceof RangeError) {
    const pick = await vscode.window.showErrorMessage(`SeqScope: ${err.message}`, 'Open Settings');
    if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope');
    return;
  }
  const pick = await vscode.window.showErrorMessage(`SeqScope: ${context} failed: ${err.message}`, 'Show Log');
  if (pick === 'Show Log') log().show();
}

/** Opens a file with the cursor on a 1-based line. */
export async function openAt(path: string, line?: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
}
