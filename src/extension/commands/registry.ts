/**
 * The one way SeqScope registers a command: by a typed id (commandIds.ts), wrapped so that a
 * failure is shown once, as a notification with a next step that names the command by its title,
 * and never rethrown to VS Code (errors.ts).
 */
import * as vscode from 'vscode';
import { withErrorHandling } from '../errors';
import { CommandAlias, CommandId, commandFor, withAliases } from './commandIds';

/** A command's handler: it takes what VS Code or the caller passes (tree nodes, URIs, arguments). */
export type Handler = (...args: never[]) => unknown;

/** The handlers of a group of commands, by id. */
export type Handlers<K extends CommandId> = { readonly [id in K]: Handler };

/** Registers `handler` under `id`; its failures are reported under `title` (the command's, as the palette shows it). */
export function registerCommand(id: CommandId | CommandAlias, title: string, handler: Handler): vscode.Disposable {
  return vscode.commands.registerCommand(id, withErrorHandling(title, handler as (...args: unknown[]) => unknown));
}

/**
 * Registers every command: `handlers` names each id of COMMAND_IDS (the type says so); `title`
 * gives each one's title. Each alias runs its command's handler, its failures titled alike.
 */
export function registerCommands(handlers: Handlers<CommandId>, title: (id: CommandId) => string): vscode.Disposable[] {
  const all = withAliases(handlers);
  return (Object.keys(all) as (CommandId | CommandAlias)[]).map((id) => registerCommand(id, title(commandFor(id)), all[id]));
}

/** Runs one of SeqScope's own commands, by its typed id. */
export function runCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}
