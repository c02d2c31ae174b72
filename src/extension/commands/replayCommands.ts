/** Stepping through the active session: play, pause, steps, the next finding, the speed. */
import * as vscode from 'vscode';
import type { ReplayAction, ReplaySpeed } from '../../shared/protocol';
import { pickSpeed } from '../pickers/speedPicker';
import { CommandContext, sessionFrom } from './context';
import { Handler, Handlers } from './registry';

/** The replay actions, each a command of its own (keybindings in the timeline). */
const REPLAY_ACTIONS = {
  'seqscope.replay.play': 'play',
  'seqscope.replay.pause': 'pause',
  'seqscope.replay.stepForward': 'stepForward',
  'seqscope.replay.stepBack': 'stepBack',
  'seqscope.replay.toStart': 'toStart',
  'seqscope.replay.toEnd': 'toEnd',
  'seqscope.replay.nextGap': 'nextGap',
  'seqscope.replay.nextDuplicate': 'nextDuplicate',
  'seqscope.replay.nextLate': 'nextLate',
  'seqscope.replay.nextReordered': 'nextReordered',
  'seqscope.replay.nextReset': 'nextReset',
} as const satisfies Record<string, ReplayAction>;

type ReplayActionId = keyof typeof REPLAY_ACTIONS;

export function replayCommands(ctx: CommandContext): Handlers<ReplayActionId | 'seqscope.replay.setSpeed'> {
  const { manager } = ctx;
  const step =
    (action: ReplayAction): Handler =>
    () => {
      const s = sessionFrom(manager, undefined);
      const moved = s.replay.run(action);
      if (!moved && action.startsWith('next')) vscode.window.setStatusBarMessage(`SeqScope: no further ${action.slice(4).toLowerCase()} from here`, 3000);
      return s.replay.info();
    };
  const actions = Object.fromEntries(Object.entries(REPLAY_ACTIONS).map(([id, action]) => [id, step(action)])) as Handlers<ReplayActionId>;
  return {
    ...actions,
    'seqscope.replay.setSpeed': async (speed?: ReplaySpeed) => {
      const s = sessionFrom(manager, undefined);
      const v = speed ?? (await pickSpeed());
      if (v === undefined) return;
      s.replay.setSpeed(v);
    },
  };
}
