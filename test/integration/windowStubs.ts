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

type PickItem = vscode.QuickPickItem & { key?: string };

/**
 * A quick pick the test drives as a user would: types, ticks, accepts or dismisses. What VS Code
 * reports back is imitated at its narrowest: a tick change reports only the items given.
 */
export class FakeQuickPick {
  items: readonly PickItem[] = [];
  selectedItems: readonly PickItem[] = [];
  value = '';
  title: string | undefined;
  placeholder: string | undefined;
  canSelectMany = false;
  matchOnDescription = false;
  disposed = false;
  private readonly value$ = new vscode.EventEmitter<string>();
  private readonly selection$ = new vscode.EventEmitter<readonly PickItem[]>();
  private readonly accept$ = new vscode.EventEmitter<void>();
  private readonly hide$ = new vscode.EventEmitter<void>();
  readonly onDidChangeValue = this.value$.event;
  readonly onDidChangeSelection = this.selection$.event;
  readonly onDidAccept = this.accept$.event;
  readonly onDidHide = this.hide$.event;

  constructor(private readonly onShow: () => void) {}

  show(): void {
    this.onShow();
  }
  hide(): void {
    this.hide$.fire();
  }
  dispose(): void {
    this.disposed = true;
  }
  type(value: string): void {
    this.value = value;
    this.value$.fire(value);
  }
  tick(items: readonly PickItem[]): void {
    this.selectedItems = items;
    this.selection$.fire(items);
  }
  accept(): void {
    this.accept$.fire();
  }
}
