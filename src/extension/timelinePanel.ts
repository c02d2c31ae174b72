import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { captureTitle } from '../timeline/captureSession';
import { inlineScript, inlineStyle, jsonForHtml } from '../timeline/node/standaloneHtml';
import { PREVIEW_ELEMENT_ID } from '../shared/standaloneEmbed';
import type { WebviewMessage } from '../shared/protocol';
import { TIMELINE_VIEW_TYPE } from '../shared/protocol';
import { panelRestoreFrom } from '../shared/panelRestore';
import { decompressedName } from './compressedCaptures';
import { Disposable } from './dispose';
import { reportError } from './errors';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { setKeyOrderSetting } from './settings';
import { TimelineController } from './timelineController';
import { CODICON_CSS, CODICON_DIR, CODICON_STYLESHEET_ID } from '../shared/codicons';
import { withSchemasFromSettings } from './schemaSettings';

/** The user clicked a mark in a timeline: the tree reveals it. */
export type OnSelect = (s: Session, eventId: number) => void;

/**
 * Which timeline a panel is: the window's one panel, which follows the active session and comes
 * back after a window reload (the serializer); or a capture opened as an editor (Open With…),
 * which shows its own session for as long as it is open.
 */
export type PanelRole = 'timeline' | 'editor';

/**
 * The timeline webview panel: one per window, showing the active session, or a capture opened as
 * an editor. VS Code glue around the TimelineController (timelineController.ts), which holds what
 * the panel shows and answers its webview: this makes the webview panel and its page, follows the
 * session manager and turns failures into notifications. Strict CSP with a crypto nonce;
 * resources only from dist/ and media/.
 *
 * The script and the stylesheet are inlined (nonce'd), not linked: in a remote or browser
 * workbench each webview resource is a request through its service worker and the window to the
 * server, and those two loads took 0.4–1 s of the time to the first paint.
 */
export class TimelinePanel extends Disposable {
  private static current: TimelinePanel | undefined;
  /** What the panel shows and how it answers its webview (no VS Code in it). */
  private readonly controller: TimelineController<Session>;
  private readonly selected = this._register(new vscode.EventEmitter<{ session: Session; eventId: number }>());
  /** The user clicked a mark: the tree reveals it. */
  readonly onDidSelect = this.selected.event;

  static show(extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect): TimelinePanel {
    if (TimelinePanel.current && !TimelinePanel.current.isDisposed) {
      TimelinePanel.current.panel.reveal(undefined, true);
      TimelinePanel.current.attach(manager.active);
      return TimelinePanel.current;
    }
    const p = TimelinePanel.create(extensionUri, manager, onSelect, panelTitle(manager.active));
    p.attach(manager.active);
    return p;
  }

  /**
   * Opens the panel for a capture that is starting to load, when none is open: it shows the
   * load's progress, then the session as soon as `finishLoading` hands it over. The webview
   * starts up meanwhile, so the session paints the moment it is sequenced. Undefined when a
   * panel is open already (it switches to the session when it becomes the active one).
   */
  static showLoading(extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect, title: string): TimelinePanel | undefined {
    if (TimelinePanel.instance) return undefined;
    // Created under its title: a tab that opens as "SeqScope Timeline" and is renamed flickers.
    const p = TimelinePanel.create(extensionUri, manager, onSelect, `Timeline: ${title}`);
    p.controller.load(title);
    return p;
  }

  private static create(extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect, title: string): TimelinePanel {
    const panel = vscode.window.createWebviewPanel(
      TIMELINE_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        ...webviewOptions(extensionUri),
        retainContextWhenHidden: true,
      },
    );
    return TimelinePanel.adopt(panel, extensionUri, manager, onSelect, 'timeline');
  }

  /** A panel VS Code made (a restored one, a custom editor's), shown as a timeline. */
  static adopt(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect, role: PanelRole): TimelinePanel {
    panel.webview.options = webviewOptions(extensionUri);
    const p = new TimelinePanel(panel, extensionUri, manager, role);
    p._register(p.onDidSelect(({ session, eventId }) => onSelect(session, eventId)));
    if (role === 'timeline') {
      // One timeline panel per window: a second one (restored while another opened) gives way.
      TimelinePanel.instance?.dispose();
      TimelinePanel.current = p;
    }
    return p;
  }

  /**
   * The timeline panel VS Code restores after a window reload, with the webview state it saved
   * (see PanelRestore): the capture loads again from its files, at its replay position; a live
   * session says it ended and offers its recording; a capture that is gone says so.
   */
  static async revive(panel: vscode.WebviewPanel, state: unknown, extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect): Promise<void> {
    const restore = panelRestoreFrom(state);
    const p = TimelinePanel.adopt(panel, extensionUri, manager, onSelect, 'timeline');
    if (!restore) {
      p.attach(manager.active);
      return;
    }
    p.controller.restore = restore;
    if (restore.kind === 'live') {
      const recorded = existsSync(restore.recording);
      p.say(
        recorded
          ? `The live session ${restore.title} ended with the window reload. Its recording holds what it received: open it, or attach again.`
          : `The live session ${restore.title} ended with the window reload, and recorded nothing. Attach again to go on.`,
      );
      const action = recorded ? 'Open Recording' : 'Tap Topic…';
      const pick = await vscode.window.showInformationMessage(`SeqScope: the live session ${restore.title} ended with the window reload.`, action);
      if (pick === 'Open Recording') await p.openCaptures([restore.recording], restore.options);
      else if (pick === 'Tap Topic…') await vscode.commands.executeCommand('seqscope.pubsub.tapTopic');
      return;
    }
    const gone = restore.paths.filter((f) => !existsSync(f));
    if (gone.length) {
      const names = gone.map((f) => basename(f)).join(', ');
      p.say(
        `${names} ${gone.length === 1 ? 'is' : 'are'} gone (moved or deleted since the timeline showed ${gone.length === 1 ? 'it' : 'them'}): open the capture from where it is now with "SeqScope: Open Capture…".`,
      );
      const pick = await vscode.window.showWarningMessage(
        `SeqScope: the timeline cannot come back after the reload: ${gone.join(', ')} is gone.`,
        'Open Capture…',
      );
      if (pick) await vscode.commands.executeCommand('seqscope.capture.open');
      return;
    }
    const s = await p.openCaptures(restore.paths, restore.options);
    if (s && restore.position !== undefined && !s.replay.lockedReason) s.replay.seek(restore.position);
  }

  /**
   * Loads captures into a session shown in this panel: the load's progress, then the session.
   * A session of these files open already, unchanged, is shown instead. A failure is said in
   * the panel (and reported); undefined when nothing opened.
   */
  async openCaptures(paths: string[], given: SequencingOptions): Promise<Session | undefined> {
    let options: SequencingOptions;
    try {
      options = await withSchemasFromSettings(given, paths[0]);
    } catch (e) {
      // A bad seqscope.schemas: said here, and the notification offers the setting.
      this.say(`The schemas could not be read: ${(e as Error).message}. Fix seqscope.schemas in the settings, then reopen the capture.`);
      void reportError('Open Capture', e);
      return undefined;
    }
    const same = this.manager.findSame(paths, options);
    if (same) {
      if (this.role === 'timeline') this.manager.active = same;
      this.attach(same);
      return same;
    }
    const title = captureTitle(
      paths.map((f) => decompressedName(f)),
      false,
    );
    // An editor's tab is its file's.
    if (this.role === 'timeline') this.panel.title = `Timeline: ${title}`;
    this.controller.load(title);
    let s: Session | undefined;
    try {
      s = await this.manager.open(paths, options, {
        progress: (fraction, detail) => this.loadingProgress(fraction, detail),
        shown: (session) => this.finishLoading(session),
      });
    } catch (e) {
      this.say(`${title} could not be opened: ${(e as Error).message}`);
      void reportError('Open Capture', e);
      return undefined;
    }
    if (!s) {
      this.say(`Loading ${title} was cancelled. Reopen it to try again.`);
      return undefined;
    }
    this.finishLoading(s);
    return s;
  }

  /** Says `text` where the session would be (the webview's error bar). */
  say(text: string): void {
    this.controller.say(text);
  }

  /** The load's progress (the session manager reports it at most twice a second). */
  loadingProgress(fraction: number, detail: string): void {
    this.controller.progress(fraction, detail);
  }

  /**
   * The load ended: shows its session, or — cancelled with nothing read, or failed — whatever
   * session is active, closing the panel when there is none.
   */
  finishLoading(session: Session | undefined): void {
    this.controller.finish(session);
  }

  /** Whether the panel is open on `session` (its tab in view). */
  static isShowing(session: Session): boolean {
    const p = TimelinePanel.instance;
    return !!p && p.controller.session === session && p.panel.visible;
  }

  static get instance(): TimelinePanel | undefined {
    return TimelinePanel.current && !TimelinePanel.current.isDisposed ? TimelinePanel.current : undefined;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly manager: SessionManager,
    readonly role: PanelRole,
  ) {
    super();
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icons', 'seqscope.svg');
    this.controller = new TimelineController<Session>({
      post: (m) => void panel.webview.postMessage(m),
      setHtml: (session) => (panel.webview.html = this.html(panel.webview, session)),
      visible: () => panel.visible,
      showing: (session) => {
        if (role === 'timeline') panel.title = panelTitle(session);
      },
      select: (session, eventId) => this.selected.fire({ session, eventId }),
      // The order is a setting, for every session: the tree and every timeline follow it (extension.ts).
      setKeyOrder: (order) => setKeyOrderSetting(order, (o) => (manager.keyOrder = o)),
      keyOrder: () => manager.keyOrder,
      active: () => manager.active,
      close: () => this.dispose(),
      failed: (m, e) => {
        log().error(`timeline ${m.type}: ${(e as Error).message}`);
        if (m.type === 'setFilter') void reportError('Filter', e);
        if (m.type === 'setKeyOrder') void reportError('Sort Keys', e);
      },
      persists: role === 'timeline',
      timers: { now: () => Date.now(), setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
    });
    this._register({ dispose: () => this.controller.dispose() });
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.webview.onDidReceiveMessage((m: WebviewMessage) => this.controller.receive(m)));
    if (role === 'editor') {
      // An editor shows its own session: the palette's replay commands act on it while it is the
      // active editor; closing its session closes the editor, as deleting a file closes its tab.
      this._register(
        panel.onDidChangeViewState((e) => {
          const shown = this.controller.session;
          if (e.webviewPanel.active && shown && manager.all.includes(shown)) manager.active = shown;
        }),
      );
      this._register(
        manager.onDidChange(() => {
          const shown = this.controller.session;
          if (shown && !manager.all.includes(shown)) this.dispose();
        }),
      );
      return;
    }
    this._register(
      manager.onDidChange(() => {
        // While loading, the panel waits for its capture (finishLoading), whatever else changes.
        if (this.controller.loading) return;
        const shown = this.controller.session;
        if (shown && !manager.all.includes(shown) && !manager.active) {
          // Its session closed and none is left: the panel closes, as an editor of a closed file
          // does. It kept drawing the closed session under an error bar.
          this.dispose();
          return;
        }
        if (manager.active !== shown) this.attach(manager.active);
      }),
    );
  }

  override dispose(): void {
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    super.dispose();
    this.panel.dispose();
  }

  /** Shows a session (or the empty state). */
  attach(session: Session | undefined): void {
    this.controller.attach(session);
  }

  /** The session the panel shows (an editor's, once loaded). */
  get shown(): Session | undefined {
    return this.controller.session;
  }

  /** Centers the timeline on an event and opens its detail. */
  reveal(session: Session, eventId: number): void {
    this.controller.reveal(session, session.data.event(eventId));
    this.panel.reveal(undefined, true);
  }

  private html(webview: vscode.Webview, session: Session | undefined): string {
    const nonce = randomBytes(16).toString('base64');
    let preview = '';
    if (session) {
      try {
        preview = `<script type="application/json" id="${PREVIEW_ELEMENT_ID}">${jsonForHtml(session.timeline.firstView(session.replay.info()))}</script>\n`;
      } catch (e) {
        // The webview then asks for it, as it would without one.
        log().warn(`timeline first view: ${(e as Error).message}`);
      }
    }
    const { js, css, map } = webviewAssets(this.extensionUri.fsPath);
    // Development builds keep their source map, addressed as a webview resource.
    const sourceMap = map ? `\n//# sourceMappingURL=${webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'timeline.js.map'))}` : '';
    // The codicon stylesheet, linked with the nonce; web components link it again inside their shadow roots (see src/shared/codicons.ts).
    const codicons = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', CODICON_DIR, CODICON_CSS));
    const csp = [
      `default-src 'none'`,
      `img-src ${webview.cspSource} data:`,
      `style-src 'nonce-${nonce}'`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="${CODICON_STYLESHEET_ID}" href="${codicons}" nonce="${nonce}">
<style nonce="${nonce}">${css}</style>
<title>SeqScope Timeline</title>
</head>
<body>
<div id="app" data-host="vscode"></div>
${preview}<script nonce="${nonce}">${js}${sourceMap}</script>
</body>
</html>`;
  }
}

/** Scripts on; resources only from dist/ and media/. */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

let assets: { js: string; css: string; map: boolean } | undefined;

/** The webview bundle and stylesheet, ready to inline (read once per extension host). */
function webviewAssets(extensionPath: string): { js: string; css: string; map: boolean } {
  if (!assets) {
    const bundle = `${extensionPath}/dist/webview/timeline.js`;
    assets = {
      js: inlineScript(readFileSync(bundle, 'utf8')),
      css: inlineStyle(readFileSync(`${extensionPath}/media/timeline.css`, 'utf8')),
      map: existsSync(`${bundle}.map`),
    };
  }
  return assets;
}

/** The tab's title: the session it shows. */
function panelTitle(session: Session | undefined): string {
  return session ? `Timeline: ${session.title}` : 'SeqScope Timeline';
}
