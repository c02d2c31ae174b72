import * as vscode from 'vscode';
import { Disposable } from './dispose';
import { reportError } from './errors';
import { SessionManager } from './sessionManager';
import { optionsFromSettings } from './settings';
import { OnSelect, TimelinePanel } from './timelinePanel';

/** The custom editor's view type (package.json `customEditors`). */
export const CAPTURE_EDITOR_VIEW_TYPE = 'seqscope.captureEditor';

/**
 * A capture opened as an editor (Explorer: Open With… → SeqScope Timeline; "Reopen Editor
 * With…"): the timeline of that capture, sequenced by the settings, read-only. Its session is in
 * the Sessions tree while the editor is open; closing the editor closes it (unless it was open
 * already, from Open Capture…). `priority: "option"`: JSON files still open as text by default.
 * VS Code reopens it after a window reload by itself (onCustomEditor activation).
 */
export class CaptureEditorProvider extends Disposable implements vscode.CustomReadonlyEditorProvider {
  static register(extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect): vscode.Disposable {
    const provider = new CaptureEditorProvider(extensionUri, manager, onSelect);
    return vscode.Disposable.from(
      provider,
      vscode.window.registerCustomEditorProvider(CAPTURE_EDITOR_VIEW_TYPE, provider, {
        webviewOptions: { retainContextWhenHidden: true },
        supportsMultipleEditorsPerDocument: false,
      }),
    );
  }

  private constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly manager: SessionManager,
    private readonly onSelect: OnSelect,
  ) {
    super();
    this._register({ dispose: () => [...this.panels].forEach((p) => p.dispose()) });
  }

  private readonly panels = new Set<TimelinePanel>();

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, webviewPanel: vscode.WebviewPanel): Promise<void> {
    const panel = TimelinePanel.adopt(webviewPanel, this.extensionUri, this.manager, this.onSelect, 'editor');
    this.panels.add(panel);
    webviewPanel.onDidDispose(() => this.panels.delete(panel));
    const uri = document.uri;
    if (uri.scheme !== 'file') {
      panel.say(`SeqScope reads captures from the file system; ${uri.toString(true)} is not a file there. Save a copy to disk and open that.`);
      return;
    }
    let options;
    try {
      options = optionsFromSettings();
    } catch (e) {
      // A bad seqscope.* setting: said in the editor, and the notification offers the settings.
      panel.say(`The sequencing settings are not valid: ${(e as Error).message}. Fix them in the settings (seqscope.*), then reopen the capture.`);
      void reportError('Open Capture', e);
      return;
    }
    const before = new Set(this.manager.all);
    const session = await panel.openCaptures([uri.fsPath], options);
    // Its own session closes with the editor (closed during the load: at once); one that was
    // open already stays.
    if (!session || before.has(session)) return;
    const close = () => {
      if (this.manager.all.includes(session)) this.manager.close(session);
    };
    if (panel.isDisposed) close();
    else webviewPanel.onDidDispose(close);
  }
}
