import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { captureTitle } from '../timeline/captureSession';
import { inlineScript, inlineStyle, jsonForHtml } from '../timeline/standaloneHtml';
import { PREVIEW_ELEMENT_ID, StandalonePreview } from '../shared/standaloneEmbed';
import type { HostMessage, KeyOrder, PanelRestore, WebviewMessage } from '../shared/protocol';
import { TIMELINE_VIEW_TYPE } from '../shared/protocol';
import { panelRestoreFrom } from '../shared/panelRestore';
import { decompressedName } from './compressedCaptures';
import { Disposable } from './dispose';
import { reportError } from './errors';
import { assertNever } from '../core/util/assertNever';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { setKeyOrderSetting } from './settings';
import { CODICON_CSS, CODICON_DIR, CODICON_STYLESHEET_ID } from '../shared/codicons';

/** Longest the session waits for the webview to paint its first view (showFirstView). */
const PAINT_WAIT_MS = 1000;

/** The user clicked a mark in a timeline: the tree reveals it. */
export type OnSelect = (s: Session, eventId: number) => void;

/**
 * Which timeline a panel is: the window's one panel, which follows the active session and comes
 * back after a window reload (the serializer); or a capture opened as an editor (Open With…),
 * which shows its own session for as long as it is open.
 */
export type PanelRole = 'timeline' | 'editor';

/**
 * The timeline webview panel: one per window, showing the active session. It answers the
 * webview's page / detail / filter requests through the session's TimelineService and forwards
 * replay actions to the session's ReplayController. Strict CSP with a crypto nonce; resources
 * only from dist/ and media/.
 *
 * The script and the stylesheet are inlined (nonce'd), not linked: in a remote or browser
 * workbench each webview resource is a request through its service worker and the window to the
 * server, and those two loads took 0.4–1 s of the time to the first paint.
 */
export class TimelinePanel extends Disposable {
  private static current: TimelinePanel | undefined;
  private session: Session | undefined;
  /** Said in place of a session, when there is none to show (a capture gone since a reload…). */
  private notice: string | undefined;
  private sessionSub: vscode.Disposable | undefined;
  private ready = false;
  private htmlSet = false;
  /** Set while the panel waits for a capture it was opened for (see showLoading). */
  private loadingState: Extract<HostMessage, { type: 'loading' }> | undefined;
  /**
   * The first view of the session being loaded, computed by the loading worker (showFirstView):
   * shown while the session is still being made on this thread; what the webview asks
   * meanwhile waits in `queued` for it.
   */
  private early: { view: StandalonePreview; posted: boolean; queued: WebviewMessage[] } | undefined;
  /** Waiting for the webview to paint a session (showFirstView). */
  private paintWait: { session: string; done: () => void } | undefined;
  private replayTimer: ReturnType<typeof setTimeout> | undefined;
  private liveSub: vscode.Disposable | undefined;
  private viewSub: vscode.Disposable | undefined;
  /** The key order the webview was last told (with `init` or `keyOrder`). */
  private postedKeyOrder: KeyOrder | undefined;
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
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
    p.loadingState = { type: 'loading', title, fraction: 0, detail: 'Starting', sentAt: Date.now() };
    p.setHtml(undefined);
    return p;
  }

  private static create(extensionUri: vscode.Uri, manager: SessionManager, onSelect: OnSelect, title: string): TimelinePanel {
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      ...webviewOptions(extensionUri),
      retainContextWhenHidden: true,
    });
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
    p.restore = restore;
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
      p.say(`${names} ${gone.length === 1 ? 'is' : 'are'} gone (moved or deleted since the timeline showed ${gone.length === 1 ? 'it' : 'them'}): open the capture from where it is now with "SeqScope: Open Capture…".`);
      const pick = await vscode.window.showWarningMessage(`SeqScope: the timeline cannot come back after the reload: ${gone.join(', ')} is gone.`, 'Open Capture…');
      if (pick) await vscode.commands.executeCommand('seqscope.openCapture');
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
  async openCaptures(paths: string[], options: SequencingOptions): Promise<Session | undefined> {
    const same = this.manager.findSame(paths, options);
    if (same) {
      this.notice = undefined;
      if (this.role === 'timeline') this.manager.active = same;
      this.attach(same);
      return same;
    }
    const title = captureTitle(paths.map((f) => decompressedName(f)), false);
    // An editor's tab is its file's.
    if (this.role === 'timeline') this.panel.title = `Timeline: ${title}`;
    this.notice = undefined;
    this.loadingState = { type: 'loading', title, fraction: 0, detail: 'Starting', sentAt: Date.now() };
    if (!this.htmlSet) this.setHtml(undefined);
    else if (this.ready) this.post(this.loadingState);
    let s: Session | undefined;
    try {
      s = await this.manager.open(paths, options, { progress: (fraction, detail) => this.loadingProgress(fraction, detail), firstView: (view) => this.showFirstView(view) });
    } catch (e) {
      this.loadingState = undefined;
      this.early = undefined;
      this.say(`${title} could not be opened: ${(e as Error).message}`);
      void reportError('Open Capture', e);
      return undefined;
    }
    if (!s) {
      this.loadingState = undefined;
      this.early = undefined;
      this.say(`Loading ${title} was cancelled. Reopen it to try again.`);
      return undefined;
    }
    this.finishLoading(s);
    return s;
  }

  /** Says `text` where the session would be (the webview's error bar). */
  say(text: string): void {
    this.notice = text;
    this.sessionSub?.dispose();
    this.session = undefined;
    if (!this.htmlSet) this.setHtml(undefined);
    else if (this.ready) this.postInit();
  }

  /** The restore the webview keeps for a reload (see PanelRestore): the timeline panel's only. */
  private restore: PanelRestore | undefined;

  /** Tells the webview what to keep for a reload (the timeline panel's session, its replay position). */
  private persist(): void {
    if (this.role !== 'timeline' || !this.ready) return;
    const s = this.session;
    if (!s) {
      // A notice (a capture gone, a live session over): what was restored stays, to say it again.
      if (this.restore) this.post({ type: 'persist', restore: this.restore });
      return;
    }
    if (s.live) {
      this.restore = s.live.recording ? { kind: 'live', title: s.title, recording: s.live.recording, options: s.options } : undefined;
    } else {
      this.restore = { kind: 'capture', paths: [...s.sourcePaths], options: s.options, ...(s.replay.active ? { position: s.replay.position } : {}) };
    }
    this.post({ type: 'persist', restore: this.restore });
  }

  /** The load's progress (the session manager reports it at most ten times a second). */
  loadingProgress(fraction: number, detail: string): void {
    if (!this.loadingState || this.early || this.isDisposed) return;
    this.loadingState = { ...this.loadingState, fraction, detail, sentAt: Date.now() };
    if (this.ready) this.post(this.loadingState);
  }

  /**
   * The load ended: shows its session, or — cancelled with nothing read, or failed — whatever
   * session is active, closing the panel when there is none.
   */
  finishLoading(session: Session | undefined): void {
    if (!this.loadingState || this.isDisposed) return;
    this.loadingState = undefined;
    const early = this.early;
    this.early = undefined;
    const next = session ?? this.manager.active;
    if (!next) {
      this.dispose();
      return;
    }
    // The webview may already show this session (its first view came from the worker): then it
    // needs no init, only answers to what it asked meanwhile.
    const shown = !!early?.posted && early.view.init.session.id === next.id;
    this.attach(next, shown);
    if (shown) for (const m of early.queued) void this.onMessage(m);
  }

  /**
   * The loading worker's first view of the session (see LoadWatcher.firstView), shown at once.
   * Resolves when the webview has painted it (at most PAINT_WAIT_MS later; at once when the
   * panel is hidden, which paints nothing): the session is taken in after that.
   */
  showFirstView(view: StandalonePreview): Promise<void> {
    if (!this.loadingState || this.isDisposed) return Promise.resolve();
    this.early = { view, posted: false, queued: [] };
    if (this.ready) this.postInit();
    if (!this.panel.visible) return Promise.resolve();
    this.paintWait?.done();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.paintWait === wait) this.paintWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, PAINT_WAIT_MS);
      const wait = { session: view.init.session.id, done };
      this.paintWait = wait;
    });
  }

  /** Whether the panel is open on `session` (its tab in view). */
  static isShowing(session: Session): boolean {
    const p = TimelinePanel.instance;
    return !!p && p.session === session && p.panel.visible;
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
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.webview.onDidReceiveMessage((m: WebviewMessage) => void this.onMessage(m)));
    if (role === 'editor') {
      // An editor shows its own session: the palette's replay commands act on it while it is the
      // active editor; closing its session closes the editor, as deleting a file closes its tab.
      this._register(panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active && this.session && manager.all.includes(this.session)) manager.active = this.session;
      }));
      this._register(manager.onDidChange(() => {
        if (this.session && !manager.all.includes(this.session)) this.dispose();
      }));
      return;
    }
    this._register(manager.onDidChange(() => {
      // While loading, the panel waits for its capture (finishLoading), whatever else changes.
      if (this.loadingState) return;
      if (this.session && !manager.all.includes(this.session) && !manager.active) {
        // Its session closed and none is left: the panel closes, as an editor of a closed file
        // does. It kept drawing the closed session under an error bar.
        this.dispose();
        return;
      }
      if (manager.active !== this.session) this.attach(manager.active);
    }));
  }

  override dispose(): void {
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    this.paintWait?.done();
    this.sessionSub?.dispose();
    this.liveSub?.dispose();
    this.viewSub?.dispose();
    if (this.replayTimer) clearTimeout(this.replayTimer);
    if (this.liveTimer) clearTimeout(this.liveTimer);
    super.dispose();
    this.panel.dispose();
  }

  /** Shows a session (or the empty state); `shown`: the webview shows it already. */
  attach(session: Session | undefined, shown = false): void {
    if (session === this.session && this.ready) return;
    this.sessionSub?.dispose();
    this.session = session;
    if (this.role === 'timeline') this.panel.title = panelTitle(session);
    this.sessionSub = session?.replay.onDidChange(() => this.scheduleReplayPost());
    this.liveSub?.dispose();
    // A live session grows: the webview gets the new extent and lanes once a second (it keeps
    // the user's zoom, which it saves per session, and re-requests its pages).
    this.liveSub = session?.live ? session.onDidChange(() => this.scheduleLivePost()) : undefined;
    // The filter and the key order change from the webview, the tree's title, the Command Palette
    // and the settings alike: the webview hears of each here, whoever made it.
    this.viewSub?.dispose();
    this.viewSub = session?.onDidChangeView((what) => {
      if (!this.ready || this.session !== session) return;
      if (what === 'filter') this.post({ type: 'filter', filter: session.filter, overview: session.timeline.overview() });
      else this.post({ type: 'keyOrder', order: session.keyOrder });
    });
    if (session) this.notice = undefined;
    if (!this.htmlSet) this.setHtml(session);
    else if (this.ready && !shown) this.postInit();
    else if (this.ready && session && this.postedKeyOrder !== session.keyOrder) this.post({ type: 'keyOrder', order: session.keyOrder });
    this.persist();
  }

  /** The session the panel shows (an editor's, once loaded). */
  get shown(): Session | undefined {
    return this.session;
  }

  /** Once per panel: the page, carrying the session's first view so it paints without asking. */
  private setHtml(session: Session | undefined): void {
    this.htmlSet = true;
    this.panel.webview.html = this.html(this.panel.webview, session);
  }

  /** Centers the timeline on an event and opens its detail. */
  reveal(session: Session, eventId: number): void {
    if (session !== this.session) this.attach(session);
    this.panel.reveal(undefined, true);
    this.post({ type: 'reveal', event: session.data.event(eventId) });
  }

  private post(m: HostMessage): void {
    if (m.type === 'init') this.postedKeyOrder = m.keyOrder;
    else if (m.type === 'keyOrder') this.postedKeyOrder = m.order;
    void this.panel.webview.postMessage(m);
  }

  private postInit(): void {
    const s = this.session;
    if (this.early) {
      this.early.posted = true;
      // The worker computed it in the order the load began with; its page is of those lanes.
      const { init, page } = this.early.view;
      const order = this.manager.keyOrder;
      this.post({ ...init, keyOrder: order, firstPage: init.keyOrder === order ? page : undefined });
      return;
    }
    if (this.loadingState) {
      this.post({ ...this.loadingState, sentAt: Date.now() });
      return;
    }
    if (!s) {
      this.post({ type: 'error', message: this.notice ?? 'No session is open. Run "SeqScope: Open Capture…" or "SeqScope: Open Sample Capture".' });
      return;
    }
    if (s.live) {
      // A live session re-inits every second as it grows: no page ahead, it would be stale.
      this.post(s.timeline.initMessage(s.replay.info()));
      return;
    }
    // With the page the webview asks for first, computed ahead after the load: no round trip.
    const view = s.timeline.firstView(s.replay.info());

    this.post({ ...view.init, firstPage: view.page });

  }

  private scheduleLivePost(): void {
    if (this.liveTimer) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      if (this.session?.live && this.ready) this.postInit();
    }, 1000);
  }

  /** Replay can move 20 times a second; the webview needs at most ~10 updates. */
  private scheduleReplayPost(): void {
    if (this.replayTimer) return;
    this.replayTimer = setTimeout(() => {
      this.replayTimer = undefined;
      if (!this.session) return;
      this.post({ type: 'replay', replay: this.session.replay.info() });
      this.persist();
    }, 100);
  }

  private async onMessage(m: WebviewMessage): Promise<void> {
    if (m.type === 'painted') {
      if (this.paintWait?.session === m.session) this.paintWait.done();
      return;
    }
    if (this.early?.posted && m.type !== 'ready') {
      // About the session shown from the early view, which this thread is still making.
      this.early.queued.push(m);
      return;
    }
    const s = this.session;
    try {
      switch (m.type) {
        case 'ready':
          this.ready = true;
          // Shown from the first view embedded in the page, unless the session changed since.
          if (!m.shown || m.shown !== s?.id) this.postInit();
          this.persist();
          return;
        case 'replay':
          s?.replay.run(m.action);
          return;
        case 'setSpeed':
          s?.replay.setSpeed(m.speed);
          return;
        case 'seek':
          s?.replay.seek(m.position);
          return;
        case 'select':
          if (s) this.selected.fire({ session: s, eventId: m.eventId });
          return;
        case 'setFilter':
          // The webview hears of it through onDidChangeView, as of a filter set anywhere else.
          if (s) await s.setFilter(m.filter);
          return;
        case 'setKeyOrder':
          // The order is a setting, for every session: the tree and every timeline follow it
          // (extension.ts). Said again in case the setting was that already: nothing changes then.
          await setKeyOrderSetting(m.order, (order) => (this.manager.keyOrder = order)).finally(() => {
            if (s) this.post({ type: 'keyOrder', order: s.keyOrder });
          });
          return;
        case 'requestPage':
        case 'requestDetail': {
          if (!s) return;
          const reply = await s.timeline.handle(m);
          if (reply) this.post(reply);
          return;
        }
        default:
          // Every message type is handled above: a new one fails to compile here until it is.
          return assertNever(m, 'message from the timeline');
      }
    } catch (e) {
      log().error(`timeline ${m.type}: ${(e as Error).message}`);
      this.post({ type: 'error', message: (e as Error).message });
      if (m.type === 'setFilter') await reportError('Filter', e);
      if (m.type === 'setKeyOrder') await reportError('Sort Keys', e);
    }
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
    const csp = [`default-src 'none'`, `img-src ${webview.cspSource} data:`, `style-src 'nonce-${nonce}'`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
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
