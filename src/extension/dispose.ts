import * as vscode from 'vscode';

/**
 * Owns disposables and releases them together (after vscode-hexeditor's `Disposable`). Every
 * listener, panel, timer and child object a class creates is `_register`ed, so disposing the
 * owner — a session, a panel, the extension — leaves nothing behind.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposedFlag = false;

  get isDisposed(): boolean {
    return this.disposedFlag;
  }

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this.disposedFlag) {
      d.dispose();
    } else {
      this.owned.push(d);
    }
    return d;
  }

  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    // Newest first: children go before what they depend on.
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the rest alive.
      }
    }
  }
}

/** A disposable that runs a function once. */
export function toDisposable(fn: () => void): vscode.Disposable {
  let done = false;
  return { dispose: () => (done ? undefined : ((done = true), fn())) };
}
