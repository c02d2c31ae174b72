/**
 * The timeline's keys: one table, read by the canvas's key handler, by the shortcuts help (`?`,
 * shortcutsHelp.ts) and by the legend's hint, so the three always agree. DOM-free. Keys act only
 * while the canvas has focus (the app listens on the canvas alone): a key typed into the Command
 * Palette, a view's input or the filter bar never reaches this table, and the extension binds
 * no key of its own.
 *
 * A key does one thing: ← → and Home / End drive the replay (where there is one: VS Code);
 * Shift with them pans the view.
 */
import type { ReplayAction } from '../shared/protocol';

/** What a key does in the view (replay actions go to the host as they are). */
export type ViewAction =
  | 'zoomIn'
  | 'zoomOut'
  | 'panBack'
  | 'panForward'
  | 'panToStart'
  | 'panToEnd'
  | 'fitAll'
  | 'laneUp'
  | 'laneDown'
  | 'lanePageUp'
  | 'lanePageDown'
  | 'nextFinding'
  | 'previousFinding'
  | 'openDetail'
  | 'dismiss'
  | 'help';

export type KeyAction = { view: ViewAction } | { replay: ReplayAction | 'playPause' };

export interface Shortcut {
  /** How the help and the legend show the keys. */
  label: string;
  does: string;
  /** Key specs (see keySpec) and what each does. */
  keys: [spec: string, action: KeyAction][];
}

const view = (a: ViewAction): KeyAction => ({ view: a });
const replay = (a: ReplayAction | 'playPause'): KeyAction => ({ replay: a });

/** Replay keys: VS Code only (a standalone export has no sequencer to drive). */
export const REPLAY_SHORTCUTS: readonly Shortcut[] = [
  {
    label: '← →',
    does: 'Replay: step back / forward one arrival',
    keys: [
      ['ArrowLeft', replay('stepBack')],
      ['ArrowRight', replay('stepForward')],
    ],
  },
  {
    label: 'Home End',
    does: 'Replay: go to the start / the end',
    keys: [
      ['Home', replay('toStart')],
      ['End', replay('toEnd')],
    ],
  },
  { label: 'Space', does: 'Replay: play / pause', keys: [[' ', replay('playPause')]] },
  {
    label: 'G D L O R',
    does: 'Replay: run to the next gap / duplicate / late / reordered message / reset',
    keys: [
      ['g', replay('nextGap')],
      ['G', replay('nextGap')],
      ['d', replay('nextDuplicate')],
      ['D', replay('nextDuplicate')],
      ['l', replay('nextLate')],
      ['L', replay('nextLate')],
      ['o', replay('nextReordered')],
      ['O', replay('nextReordered')],
      ['r', replay('nextReset')],
      ['R', replay('nextReset')],
    ],
  },
];

export const VIEW_SHORTCUTS: readonly Shortcut[] = [
  {
    label: 'Shift+← Shift+→',
    does: 'Pan back / forward a tenth of the window',
    keys: [
      ['Shift+ArrowLeft', view('panBack')],
      ['Shift+ArrowRight', view('panForward')],
    ],
  },
  {
    label: 'Shift+Home Shift+End',
    does: "Pan to the session's start / end",
    keys: [
      ['Shift+Home', view('panToStart')],
      ['Shift+End', view('panToEnd')],
    ],
  },
  {
    label: '+ −',
    does: 'Zoom in / out',
    keys: [
      ['+', view('zoomIn')],
      ['=', view('zoomIn')],
      ['-', view('zoomOut')],
      ['_', view('zoomOut')],
    ],
  },
  {
    label: '0 F',
    does: 'Fit all: show the whole session',
    keys: [
      ['0', view('fitAll')],
      ['f', view('fitAll')],
    ],
  },
  {
    label: '↑ ↓',
    does: 'Previous / next lane',
    keys: [
      ['ArrowUp', view('laneUp')],
      ['ArrowDown', view('laneDown')],
    ],
  },
  {
    label: 'PageUp PageDown',
    does: 'A screen of lanes up / down',
    keys: [
      ['PageUp', view('lanePageUp')],
      ['PageDown', view('lanePageDown')],
    ],
  },
  {
    label: 'N P',
    does: 'Next / previous finding (Shift+N: previous)',
    keys: [
      ['n', view('nextFinding')],
      ['N', view('previousFinding')],
      ['p', view('previousFinding')],
    ],
  },
  { label: 'Enter', does: "Open the selection's detail (or the next finding)", keys: [['Enter', view('openDetail')]] },
  { label: 'Escape', does: 'Close the detail, then clear the selection', keys: [['Escape', view('dismiss')]] },
  { label: '?', does: 'Show these keys', keys: [['?', view('help')]] },
];

/** The keys the table matches: what a key event carries. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** A printable key as it is (its Shift is in the character: `?`, `N`); a named one with its Shift. */
function keySpec(e: KeyPress): string {
  return e.key.length === 1 || !e.shiftKey ? e.key : `Shift+${e.key}`;
}

const table = (shortcuts: readonly Shortcut[]) => new Map(shortcuts.flatMap((s) => s.keys));
const VIEW_KEYS = table(VIEW_SHORTCUTS);
const ALL_KEYS = new Map([...VIEW_KEYS, ...table(REPLAY_SHORTCUTS)]);

/**
 * What a key pressed on the canvas does; undefined leaves it alone (Ctrl, Alt and Meta
 * combinations are the browser's and the workbench's, except Ctrl+0, which fits all as 0 does).
 */
export function keyAction(e: KeyPress, withReplay: boolean): KeyAction | undefined {
  if (e.altKey || e.metaKey || (e.ctrlKey && e.key !== '0')) return undefined;
  return (withReplay ? ALL_KEYS : VIEW_KEYS).get(keySpec(e));
}

/** The legend's one-line reminder. */
export function keyHint(withReplay: boolean): string {
  return withReplay ? '← → step · Shift+← → pan · ? keys' : 'Shift+← → pan · + − zoom · ? keys';
}
