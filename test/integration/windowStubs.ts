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

/** An item button pressed, as VS Code reports it. */
interface ItemButtonEvent {
  readonly item: PickItem;
  readonly button: vscode.QuickInputButton;
}

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
  matchOnDetail = false;
  buttons: readonly vscode.QuickInputButton[] = [];
  busy = false;
  ignoreFocusOut = false;
  disposed = false;
  private readonly value$ = new vscode.EventEmitter<string>();
  private readonly selection$ = new vscode.EventEmitter<readonly PickItem[]>();
  private readonly accept$ = new vscode.EventEmitter<void>();
  private readonly hide$ = new vscode.EventEmitter<void>();
  private readonly button$ = new vscode.EventEmitter<vscode.QuickInputButton>();
  private readonly itemButton$ = new vscode.EventEmitter<ItemButtonEvent>();
  readonly onDidChangeValue = this.value$.event;
  readonly onDidChangeSelection = this.selection$.event;
  readonly onDidAccept = this.accept$.event;
  readonly onDidHide = this.hide$.event;
  readonly onDidTriggerButton = this.button$.event;
  readonly onDidTriggerItemButton = this.itemButton$.event;

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
  /** A button in the title bar, found by its tooltip. */
  pressButton(tooltip: string): void {
    const b = this.buttons.find((x) => x.tooltip === tooltip);
    if (!b) throw new Error(`no title button "${tooltip}" (there are: ${this.buttons.map((x) => x.tooltip).join(', ')})`);
    this.button$.fire(b);
  }
  /** One of an item's buttons, found by its tooltip. */
  pressItemButton(item: PickItem, tooltip: string): void {
    const b = item.buttons?.find((x) => x.tooltip === tooltip);
    if (!b) throw new Error(`"${item.label}" has no button "${tooltip}"`);
    this.itemButton$.fire({ item, button: b });
  }
}
