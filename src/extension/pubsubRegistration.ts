import * as vscode from 'vscode';
import { withErrorHandling } from './errors';
import { AttachArgs, PubsubCommands, TapArgs } from './pubsubCommands';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { SessionNode } from './sessionsTree';

/** The `seqscope.pubsub.*` and `seqscope.live.*` commands (see PubsubCommands for what they do). */
export function registerPubsubCommands(pubsub: PubsubCommands, manager: SessionManager): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, withErrorHandling(id, fn as (...args: unknown[]) => unknown));
  /** The live session a command is about: the tree node's, an id, else the active one. */
  const liveSession = (arg: unknown): Session => {
    const s = arg instanceof SessionNode ? arg.session : typeof arg === 'string' ? manager.get(arg) : manager.active;
    if (!s?.live) throw new Error('no live session: attach to a subscription or tap a topic first');
    return s;
  };
  return [
    reg('seqscope.pubsub.attach', (args?: AttachArgs) => pubsub.attach(args)),
    reg('seqscope.pubsub.tapTopic', (args?: TapArgs) => pubsub.tapTopic(args)),
    reg('seqscope.pubsub.deleteLeftoverTaps', (args?: { all?: boolean }) => pubsub.deleteLeftoverTaps(args)),
    reg('seqscope.pubsub.recordings', () => pubsub.recordings()),
    reg('seqscope.pubsub.publishCapture', (args?: { file?: string; topic?: string; pace?: string }) => pubsub.publishCapture(args)),
    reg('seqscope.live.detach', (arg?: unknown) => pubsub.detach(liveSession(arg))),
    reg('seqscope.live.replayFromTime', (arg?: unknown, when?: string) => pubsub.replayFromTime(liveSession(arg), when)),
  ];
}
