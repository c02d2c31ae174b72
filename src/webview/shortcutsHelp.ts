/**
 * The shortcuts help (`?` on the timeline, or the toolbar's `?`): the key table of keymap.ts as
 * a modal dialog.
 */
import { textButton } from './controls';
import { el } from './dom';
import { REPLAY_SHORTCUTS, Shortcut, VIEW_SHORTCUTS } from './keymap';

/** The shortcuts help, as a table per group (the `?` dialog). */
function shortcutsTable(withReplay: boolean): HTMLElement {
  const group = (title: string, list: readonly Shortcut[]) => [
    el('h3', { text: title }),
    el('table', { class: 'ss-props ss-keys' }, [
      el(
        'tbody',
        {},
        list.map((s) =>
          el('tr', {}, [
            el(
              'th',
              { attrs: { scope: 'row' } },
              s.label.split(' ').map((k) => el('kbd', { text: k })),
            ),
            el('td', { text: s.does }),
          ]),
        ),
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
    const close = textButton('Close', 'Close the keyboard shortcuts', () => this.root.close());
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
