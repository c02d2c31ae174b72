/**
 * Answers VS Code's dialogs in integration tests as a user would click them: replaces a
 * `vscode.window` function and records how to put it back in `restore` (run in reverse order).
 */
import * as vscode from 'vscode';

export type Restore = (() => unknown)[];

export function stubber(restore: Restore) {
  return function stub<K extends keyof typeof vscode.window>(name: K, fake: (typeof vscode.window)[K]): void {
    const w = vscode.window as unknown as Record<string, unknown>;
    const original = w[name];
    w[name] = fake;
    restore.push(() => void (w[name] = original));
  };
}
