/**
 * Every command SeqScope contributes, by id (`seqscope.<area>.<verb>`), and the ids it answered
 * to before, kept as aliases: together the one list `package.json` `contributes.commands` must
 * match (test/unit/extension/commands/commandIds.test.ts checks both directions, and that menus
 * and keybindings name only these). No vscode import, so plain Node can read it.
 */
export const COMMAND_IDS = [
  // captureCommands.ts
  'seqscope.capture.open',
  'seqscope.capture.openSample',
  'seqscope.capture.openOrderingSample',
  'seqscope.session.exportTrace',
  // compareCommands.ts
  'seqscope.session.compareWith',
  // sessionCommands.ts
  'seqscope.timeline.show',
  'seqscope.session.close',
  'seqscope.session.closeAll',
  'seqscope.timeline.reveal',
  'seqscope.tree.copyMessage',
  'seqscope.keys.sort',
  'seqscope.tree.loadMore',
  'seqscope.log.show',
  // searchCommands.ts
  'seqscope.search.findMessages',
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

/**
 * Ids from before every command took the `seqscope.<area>.<verb>` form, each with the command it
 * runs now. They stay registered, since a user's key binding or task may name one, and declared
 * (so they activate the extension) but hidden from the Command Palette and left out of the docs.
 */
export const COMMAND_ALIASES = {
  'seqscope.openCapture': 'seqscope.capture.open',
  'seqscope.openSample': 'seqscope.capture.openSample',
  'seqscope.openOrderingSample': 'seqscope.capture.openOrderingSample',
  'seqscope.exportTrace': 'seqscope.session.exportTrace',
  'seqscope.showTimeline': 'seqscope.timeline.show',
  'seqscope.revealInTimeline': 'seqscope.timeline.reveal',
  'seqscope.copyMessage': 'seqscope.tree.copyMessage',
  'seqscope.sortKeys': 'seqscope.keys.sort',
  'seqscope.showLog': 'seqscope.log.show',
  'seqscope.findMessages': 'seqscope.search.findMessages',
} as const satisfies Record<string, CommandId>;

export type CommandAlias = keyof typeof COMMAND_ALIASES;

export function isCommandAlias(id: string): id is CommandAlias {
  return Object.hasOwn(COMMAND_ALIASES, id);
}

/** The command an id runs: itself, or the command an alias stands for. */
export function commandFor(id: CommandId | CommandAlias): CommandId {
  return isCommandAlias(id) ? COMMAND_ALIASES[id] : id;
}

/** `handlers` under every id SeqScope answers to: each alias gets its command's handler. */
export function withAliases<H>(handlers: { readonly [id in CommandId]: H }): { readonly [id in CommandId | CommandAlias]: H } {
  const aliases = Object.keys(COMMAND_ALIASES) as CommandAlias[];
  return { ...handlers, ...Object.fromEntries(aliases.map((alias) => [alias, handlers[COMMAND_ALIASES[alias]]])) } as {
    readonly [id in CommandId | CommandAlias]: H;
  };
}

export function isCommandId(id: string): id is CommandId {
  return (COMMAND_IDS as readonly string[]).includes(id);
}
