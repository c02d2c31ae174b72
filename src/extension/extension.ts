/**
 * SeqScope's VS Code entry point. Activation only registers the view, commands and status bar;
 * nothing is read or sequenced until a command runs (activation events are the commands and
 * the view, which VS Code derives from package.json).
 */
import * as vscode from 'vscode';
import { CaptureEditorProvider } from './captureEditor';
import { registerAllCommands } from './commands';
import type { SessionTool } from './agentTools/sessionTools';
import { DecompressedCaptures } from './compressedCaptures';
import { PubsubFlows, showNotice } from './pubsubFlows';
import { PubsubService } from './pubsubService';
import { disposeLog, log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { SessionNotices } from './sessionNotices';
import { keyOrderSetting } from './settings';
import { revealEventInTree, SessionsTreeProvider, TreeNode } from './sessionsTree';
import { TIMELINE_VIEW_TYPE } from '../shared/protocol';
import { SessionStatusBar } from './statusBar';
import { TimelinePanel } from './timelinePanel';

/** What `activate` returns: for automation and the integration tests. */
export interface SeqScopeApi {
  readonly manager: SessionManager;
  readonly tree: SessionsTreeProvider;
  /** The Sessions view (what it has selected, for tests). */
  readonly treeView: vscode.TreeView<TreeNode>;
  /** The live Pub/Sub service: connections and live sessions. */
  readonly pubsub: PubsubService;
  /** The language model tools as registered (their confirmations, for tests). */
  readonly agentTools: readonly SessionTool[];
}

let pubsubRef: PubsubService | undefined;
let decompressedRef: DecompressedCaptures | undefined;

export function activate(context: vscode.ExtensionContext): SeqScopeApi {
  const decompressed = new DecompressedCaptures(context.globalStorageUri);
  decompressedRef = decompressed;
  // Copies of gzip captures a crashed window left behind; not awaited (activation stays quick).
  void decompressed.removeLeftovers();
  const manager = new SessionManager(decompressed);
  manager.keyOrder = keyOrderSetting();
  const tree = new SessionsTreeProvider(manager);
  const treeView = vscode.window.createTreeView<TreeNode>('seqscope.sessions', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: false });
  const statusBar = new SessionStatusBar(manager);
  // Live sessions' notifications (a gone tap's Re-tap), settled as the sessions move on.
  const liveNotices = new SessionNotices(showNotice, Date.now, (m) => log().warn(m));
  const pubsub = new PubsubService(manager, context.globalStorageUri, liveNotices);
  pubsubRef = pubsub;

  const revealInTree = (s: Session, eventId: number) => void revealEventInTree(tree, treeView, s, eventId);

  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', 'seqscope.hasSessions', manager.all.length > 0);
    void vscode.commands.executeCommand('setContext', 'seqscope.filterActive', manager.active?.filterActive ?? false);
    void vscode.commands.executeCommand(
      'setContext',
      'seqscope.hasLiveSessions',
      manager.all.some((s) => s.live),
    );
  };
  updateContext();
  const commands = registerAllCommands(
    { extensionUri: context.extensionUri, manager, tree, treeView, packageJSON: context.extension.packageJSON },
    new PubsubFlows(pubsub, manager, context.workspaceState),
  );

  context.subscriptions.push(
    manager,
    // After the manager: its sessions close first, then what copies remain are deleted.
    decompressed,
    tree,
    treeView,
    statusBar,
    manager.onDidChange(updateContext),
    // The key order is the user's, for every session: the tree and every timeline follow it.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('seqscope.keyOrder')) manager.keyOrder = keyOrderSetting();
    }),
    // Selecting a session in the tree makes it the active one (status bar, timeline, commands).
    treeView.onDidChangeSelection((e) => {
      const n = e.selection[0];
      if (n && 'session' in n && n.session) manager.active = n.session;
    }),
    ...commands.disposables,
    pubsub,
    // After a window reload VS Code hands back the timeline panel with its webview's state: the
    // session comes back (activation event onWebviewPanel:seqscope.timeline).
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => TimelinePanel.revive(panel, state, context.extensionUri, manager, revealInTree),
    }),
    // A capture opened as an editor (Open With…).
    CaptureEditorProvider.register(context.extensionUri, manager, revealInTree),
    { dispose: () => TimelinePanel.instance?.dispose() },
    { dispose: disposeLog },
  );
  log().info(`SeqScope ${context.extension.packageJSON.version as string} activated`);
  return { manager, tree, treeView, pubsub, agentTools: commands.agentTools };
}

/**
 * Live sessions stop and their taps are deleted, and decompressed copies of gzip captures are
 * deleted, before the window goes (VS Code waits for this).
 */
export async function deactivate(): Promise<void> {
  await Promise.all([pubsubRef?.shutdown(), decompressedRef?.removeAll()]);
  pubsubRef = undefined;
  decompressedRef = undefined;
}
