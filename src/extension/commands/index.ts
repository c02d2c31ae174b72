/**
 * Every SeqScope command and language model tool. Commands are registered one way (registry.ts)
 * from their area's file. The handler table must name each id of COMMAND_IDS and only those: a command declared in package.json but not
 * registered, or registered but not declared, fails to compile (and the unit test checks
 * package.json against COMMAND_IDS).
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { registerSessionTools, SessionTool, sessionTools } from '../agentTools/sessionTools';
import { PubsubFlows } from '../pubsubFlows';
import { captureCommands } from './captureCommands';
import { compareCommands } from './compareCommands';
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
import { withSchemasFromSettings } from '../schemaSettings';

export type { CommandContext, OpenResult } from './context';

export function registerAllCommands(ctx: CommandContext, pubsub: PubsubFlows): { disposables: vscode.Disposable[]; agentTools: readonly SessionTool[] } {
  const views = sessionViews(ctx);
  const handlers = {
    ...captureCommands(ctx, views),
    ...compareCommands(ctx, views),
    ...sessionCommands(ctx, views),
    ...searchCommands(ctx, views),
    ...filterCommands(ctx),
    ...replayCommands(ctx),
    ...liveCommands(pubsub, ctx.manager, views),
  } satisfies Handlers<CommandId>;
  const agentTools = sessionTools({
    manager: ctx.manager,
    searchWorker: path.join(ctx.extensionUri.fsPath, 'dist', 'searchWorker.js'),
    get cwd() {
      return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    },
    open: async (paths, given) => {
      const options = await withSchemasFromSettings(given, paths[0]);
      const same = ctx.manager.findSame(paths, options);
      if (same) {
        await views.showOpenAlready(same, false);
        return same;
      }
      const s = await ctx.manager.open(paths, options);
      if (s) await views.revealSession(s);
      return s;
    },
  });
  return { disposables: [...registerCommands(handlers, commandTitles(ctx.packageJSON)), ...registerSessionTools(agentTools)], agentTools };
}
