/**
 * The timeline's keys: one table, read by the canvas's key handler, by the shortcuts help (`?`)
 * and by the legend's hint, so the three always agree. Keys act only while the canvas has focus
 * (the app listens on the canvas alone): a key typed into the Command Palette, a view's input or
 * the filter bar never reaches this table, and the extension binds no key of its own.
 *
 */
import type { ReplayAction } from '../shared/protocol';
import { el } from './dom';

/** What a key does in the view (replay actions go to the host as they are). */
export type ViewAction =
  | 'zoomIn'
  | 'zoomOut'
  | 'panBack'
  | 'panForward'
  | 'panBackFar'
  | 'panForwardFar'
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

interface Shortcut {
  /** How the help and the legend show the keys. */
  label: string;
  does: string;
  /** Key specs (see keySpec) and what each does. */
  keys: [spec: string, action: KeyAction][];
}

const view = (a: ViewAction): KeyAction => ({ view: a });

/** Replay keys: none of the webview's own yet (the extension binds them in the workbench). */
export const REPLAY_SHORTCUTS: readonly Shortcut[] = [];

export const VIEW_SHORTCUTS: readonly Shortcut[] = [
  { label: '← →', does: 'Pan back / forward a tenth of the window', keys: [['ArrowLeft', view('panBack')], ['ArrowRight', view('panForward')]] },
  { label: 'Shift+← Shift+→', does: 'Pan back / forward half the window', keys: [['Shift+ArrowLeft', view('panBackFar')], ['Shift+ArrowRight', view('panForwardFar')]] },
  { label: 'Home End', does: "Pan to the session's start / end", keys: [['Home', view('panToStart')], ['End', view('panToEnd')], ['Shift+Home', view('panToStart')], ['Shift+End', view('panToEnd')]] },
  { label: '+ −', does: 'Zoom in / out', keys: [['+', view('zoomIn')], ['=', view('zoomIn')], ['-', view('zoomOut')], ['_', view('zoomOut')]] },
  { label: '0 F', does: 'Fit all: show the whole session', keys: [['0', view('fitAll')], ['f', view('fitAll')]] },
  { label: '↑ ↓', does: 'Previous / next lane', keys: [['ArrowUp', view('laneUp')], ['ArrowDown', view('laneDown')], ['Shift+ArrowUp', view('laneUp')], ['Shift+ArrowDown', view('laneDown')]] },
  { label: 'PageUp PageDown', does: 'A screen of lanes up / down', keys: [['PageUp', view('lanePageUp')], ['PageDown', view('lanePageDown')], ['Shift+PageUp', view('lanePageUp')], ['Shift+PageDown', view('lanePageDown')]] },
  { label: 'N P', does: 'Next / previous finding (Shift+N: previous)', keys: [['n', view('nextFinding')], ['N', view('previousFinding')], ['p', view('previousFinding')]] },
  { label: 'Enter', does: "Open the selection's detail (or the next finding)", keys: [['Enter', view('openDetail')], ['Shift+Enter', view('openDetail')]] },
  { label: 'Escape', does: 'Close the detail, then clear the selection', keys: [['Escape', view('dismiss')], ['Shift+Escape', view('dismiss')]] },
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

/** The shortcuts help, as a table per group (the `?` dialog). */
export function shortcutsTable(withReplay: boolean): HTMLElement {
  const group = (title: string, list: readonly Shortcut[]) => [
    el('h3', { text: title }),
    el('table', { class: 'ss-props ss-keys' }, [
      el(
        'tbody',
        {},
        list.map((s) => el('tr', {}, [el('th', { attrs: { scope: 'row' } }, s.label.split(' ').map((k) => el('kbd', { text: k }))), el('td', { text: s.does })])),
      ),
    ]),
  ];
  return el('div', { class: 'ss-keys-groups' }, [...(withReplay ? group('Replay', REPLAY_SHORTCUTS) : []), ...group('View', VIEW_SHORTCUTS)]);
}

/** The shortcuts help: a modal dialog (Escape or its button closes it; focus goes back to the canvas). */
export class ShortcutsHelp {
  readonly root: HTMLDialogElement;
  private readonly body: HTMLElement;

  constructor(onClose: () => void) {
    this.body = el('div');
    const close = el('button', { class: 'ss-button', text: 'Close', attrs: { type: 'button', 'aria-label': 'Close the keyboard shortcuts' } });
    close.addEventListener('click', () => this.root.close());
    this.root = el('dialog', { class: 'ss-shortcuts', attrs: { 'aria-label': 'Keyboard shortcuts' } }, [
      el('h2', { text: 'Keyboard shortcuts' }),
      el('p', { class: 'ss-muted', text: 'With the timeline focused (click it, or Tab to it).' }),
      this.body,
      close,
    ]);
    this.root.addEventListener('close', onClose);
    // `?` closes it again, as it opened it.
    this.root.addEventListener('keydown', (e) => {
      if (e.key === '?') this.root.close();
    });
  }

  get isOpen(): boolean {
    return this.root.open;
  }

  open(withReplay: boolean): void {
    this.body.replaceChildren(shortcutsTable(withReplay));
    if (!this.root.open) this.root.showModal();
  }
}
