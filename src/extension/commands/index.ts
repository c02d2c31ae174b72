/**
 * Every SeqScope command, registered one way (registry.ts) from its area's file. The handler table
 * must name each id of COMMAND_IDS and only those: a command declared in package.json but not
 * registered, or registered but not declared, fails to compile (and the unit test checks
 * package.json against COMMAND_IDS).
 */
import * as vscode from 'vscode';
import { PubsubCommands } from '../pubsubCommands';
import { captureCommands } from './captureCommands';
import { CommandId } from './commandIds';
import { commandTitles } from './commandTitles';
import { CommandContext } from './context';
import { filterCommands } from './filterCommands';
import { liveCommands } from './liveCommands';
import { Handlers, registerCommands } from './registry';
import { replayCommands } from './replayCommands';
import { searchCommands } from './searchCommands';
import { sessionCommands } from './sessionCommands';
import { sessionViews } from './sessionViews';

export type { CommandContext, OpenResult } from './context';

export function registerAllCommands(ctx: CommandContext, pubsub: PubsubCommands): vscode.Disposable[] {
  const views = sessionViews(ctx);
  const handlers = {
    ...captureCommands(ctx, views),
    ...sessionCommands(ctx, views),
    ...searchCommands(ctx, views),
    ...filterCommands(ctx),
    ...replayCommands(ctx),
    ...liveCommands(pubsub, ctx.manager),
  } satisfies Handlers<CommandId>;
  return registerCommands(handlers, commandTitles(ctx.packageJSON));
}
