/**
 * Waiting for the extension host, and reading what it shows, for the integration tests: one
 * poll loop and one list of timeline tabs instead of a copy in each test file.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CommandId } from '../../src/extension/commands/commandIds';

/**
 * Polls `probe` until it gives something (not undefined or false) and returns that; fails,
 * naming `what`, after `ms`.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Titles of the open timeline tabs (webview tabs of SeqScope's view type). */
export function timelineTabs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('seqscope.timeline'))
    .map((t) => t.label);
}

/**
 * Runs a SeqScope command that fails, as the Command Palette would, and returns the one error
 * notification it showed. Asserts what the user sees: exactly one notification (the handler's,
 * with its next step), and a command that resolves — a rejection would make VS Code follow the
 * notification with its own "Command … resulted in an error". The notification is counted as it
 * is shown (what a test stubbed `showErrorMessage` with still gets it): the command's wrapper
 * shows it before it resolves.
 */
export async function failingCommand(id: CommandId, ...args: unknown[]): Promise<string> {
  const w = vscode.window as unknown as { showErrorMessage: (message: string, ...rest: unknown[]) => unknown };
  const through = w.showErrorMessage;
  const shown: string[] = [];
  w.showErrorMessage = (message: string, ...rest: unknown[]) => {
    shown.push(message);
    return through.call(vscode.window, message, ...rest);
  };
  let result: unknown;
  try {
    // A rejection fails the test here.
    result = await vscode.commands.executeCommand(id, ...args);
  } finally {
    w.showErrorMessage = through;
  }
  assert.equal(result, undefined, `${id} failed, so it returns nothing`);
  assert.equal(shown.length, 1, `${id}: one error notification, not ${JSON.stringify(shown)}`);
  return shown[0];
}

/** Invokes a language model tool as a chat would (no chat request: the read-only tools ask nothing); its text. */
export async function invokeTool(name: string, input: Record<string, unknown> = {}): Promise<string> {
  const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `[${typeof p}]`)).join('');
}
