/**
 * Waiting for the extension host, and reading what it shows, for the integration tests: one
 * poll loop and one list of timeline tabs instead of a copy in each test file.
 */
import * as vscode from 'vscode';

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
