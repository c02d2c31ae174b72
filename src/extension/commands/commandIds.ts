/**
 * Every command SeqScope contributes, by id: the one list `package.json` `contributes.commands`
 * must match (test/unit/extension/commands/commandIds.test.ts checks both directions, and that
 * menus and keybindings name only these). No vscode import, so plain Node can read it.
 */
export const COMMAND_IDS = [
  // captureCommands.ts
  'seqscope.openCapture',
  'seqscope.openSample',
  'seqscope.openOrderingSample',
  'seqscope.exportTrace',
  // sessionCommands.ts
  'seqscope.showTimeline',
  'seqscope.session.close',
  'seqscope.session.closeAll',
  'seqscope.revealInTimeline',
  'seqscope.copyMessage',
  'seqscope.sortKeys',
  'seqscope.tree.loadMore',
  'seqscope.showLog',
  // searchCommands.ts
  'seqscope.findMessages',
  // filterCommands.ts
  'seqscope.filter.set',
  'seqscope.filter.clear',
  // replayCommands.ts
  'seqscope.replay.play',
  'seqscope.replay.pause',
  'seqscope.replay.stepForward',
  'seqscope.replay.stepBack',
  'seqscope.replay.toStart',
  'seqscope.replay.toEnd',
  'seqscope.replay.nextGap',
  'seqscope.replay.nextDuplicate',
  'seqscope.replay.nextLate',
  'seqscope.replay.nextReordered',
  'seqscope.replay.nextReset',
  'seqscope.replay.setSpeed',
  // liveCommands.ts
  'seqscope.pubsub.attach',
  'seqscope.pubsub.tapTopic',
  'seqscope.pubsub.deleteLeftoverTaps',
  'seqscope.pubsub.recordings',
  'seqscope.pubsub.publishCapture',
  'seqscope.live.detach',
  'seqscope.live.replayFromTime',
  'seqscope.live.retap',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

export function isCommandId(id: string): id is CommandId {
  return (COMMAND_IDS as readonly string[]).includes(id);
}
