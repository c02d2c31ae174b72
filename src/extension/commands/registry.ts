/**
 * The one way SeqScope registers a command: by a typed id (commandIds.ts), wrapped so that a
 * failure is shown once, as a notification with a next step, and never rethrown to VS Code
 * (errors.ts).
 */
import * as vscode from 'vscode';
import { withErrorHandling } from '../errors';
import { CommandId } from './commandIds';

/** A command's handler: it takes what VS Code or the caller passes (tree nodes, URIs, arguments). */
export type Handler = (...args: never[]) => unknown;

/** The handlers of a group of commands, by id. */
export type Handlers<K extends CommandId> = { readonly [id in K]: Handler };

export function registerCommand(id: CommandId, handler: Handler): vscode.Disposable {
  return vscode.commands.registerCommand(id, withErrorHandling(id, handler as (...args: unknown[]) => unknown));
}

/** Registers every command: `handlers` names each id of COMMAND_IDS (the type says so). */
export function registerCommands(handlers: Handlers<CommandId>): vscode.Disposable[] {
  return (Object.keys(handlers) as CommandId[]).map((id) => registerCommand(id, handlers[id]));
}

/** Runs one of SeqScope's own commands, by its typed id. */
export function runCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}
