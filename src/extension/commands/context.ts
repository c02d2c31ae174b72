/** What every group of commands is given, and how a command finds the session it is about. */
import * as vscode from 'vscode';
import { NoSessionError } from '../errors';
import { Session } from '../session';
import { SessionManager } from '../sessionManager';
import { EventNode, SessionNode, SessionsTreeProvider, TreeNode } from '../sessionsTree';

export interface CommandContext {
  readonly extensionUri: vscode.Uri;
  readonly manager: SessionManager;
  readonly tree: SessionsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** The extension's package.json (the commands' titles). */
  readonly packageJSON: unknown;
}

/** What "Open Capture" returns to `executeCommand` callers (automation, tests). */
export interface OpenResult {
  id: string;
  title: string;
}

/** The session a command is about: from a tree node or id argument, else the active one (NoSessionError without one). */
export function sessionFrom(manager: SessionManager, arg: unknown): Session {
  if (arg instanceof SessionNode) return arg.session;
  if (arg instanceof EventNode) return arg.session;
  if (typeof arg === 'string') {
    const s = manager.get(arg);
    if (s) return s;
  }
  const active = manager.active;
  if (!active) throw new NoSessionError();
  return active;
}

/** The live session a command is about: the tree node's, an id, else the active one. */
export function liveSessionFrom(manager: SessionManager, arg: unknown): Session {
  const s = arg instanceof SessionNode ? arg.session : typeof arg === 'string' ? manager.get(arg) : manager.active;
  if (!s?.live) throw new NoSessionError(true);
  return s;
}
