/**
 * The timeline's toolbar: the session's title and options, zoom, fit all, finding navigation,
 * the lanes' order, the filter bar's toggle and summary, and the keyboard shortcuts. It only
 * shows state and reports clicks; the app decides.
 */
import { KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, isKeyOrder, KeyOrder } from '../core/trace/keyOrder';
import type { SessionInfo, TimelineFilter } from '../shared/protocol';
import { iconButton, relabel, singleSelect, toggleButton, VscodeSingleSelect, VscodeToolbarButton } from './controls';
import { el } from './dom';
import { FilterBar } from './filterBar';

export interface ToolbarActions {
  zoom(factor: number): void;
  fitAll(): void;
  /** "Follow live" pressed: on when off, off when on. */
  toggleFollow(): void;
  navigate(dir: 1 | -1): void;
  /** The user picked an order (shown once the host answers: setKeyOrder). */
  keyOrder(order: KeyOrder): void;
  toggleFilter(): void;
  shortcuts(): void;
}

export const ZOOM_STEP = 1.5;

export class Toolbar {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly options: HTMLElement;
  private readonly filterToggle: VscodeToolbarButton;
  private readonly filterSummary: HTMLElement;
  private readonly keyOrderSelect: VscodeSingleSelect;
  /** A live session's "Follow live" toggle (hidden for a capture). */
  private readonly followButton: VscodeToolbarButton;
  /** The order drawn (the select says it until the host answers another). */
  private order: KeyOrder = 'arrival';

  constructor(act: ToolbarActions) {
    this.title = el('h1', { class: 'ss-title', text: 'SeqScope timeline' });
    this.options = el('span', { class: 'ss-options ss-muted' });
    this.filterToggle = iconButton('filter', 'Show the filter bar', () => act.toggleFilter());
    this.filterSummary = el('span', { class: 'ss-filter-summary ss-muted' });
    this.keyOrderSelect = singleSelect(
      'Order of the lanes',
      KEY_ORDERS.map((o) => ({ value: o, text: `Keys: ${KEY_ORDER_LABELS[o]}`, description: KEY_ORDER_DETAILS[o] })),
    );
    this.keyOrderSelect.classList.add('ss-key-order');
    this.keyOrderSelect.addEventListener('change', () => {
      const order = this.keyOrderSelect.value;
      // Shown once the host answers (`keyOrder`): until then the select says what is drawn.
      this.keyOrderSelect.value = this.order;
      if (isKeyOrder(order)) act.keyOrder(order);
    });
    this.followButton = toggleButton('pulse', 'Follow live: the view keeps showing what arrives last (panning turns it off)', () => act.toggleFollow());
    this.followButton.hidden = true;
    this.root = el('div', { class: 'ss-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [
      this.title,
      this.options,
      el('span', { class: 'ss-spacer' }),
      iconButton('zoom-out', 'Zoom out', () => act.zoom(1 / ZOOM_STEP)),
      iconButton('zoom-in', 'Zoom in', () => act.zoom(ZOOM_STEP)),
      iconButton('screen-normal', 'Fit all: show the whole session', () => act.fitAll()),
      this.followButton,
      el('span', { class: 'ss-sep', attrs: { role: 'separator' } }),
      iconButton('arrow-up', 'Previous finding', () => act.navigate(-1)),
      iconButton('arrow-down', 'Next finding', () => act.navigate(1)),
      el('span', { class: 'ss-sep', attrs: { role: 'separator' } }),
      this.keyOrderSelect,
      this.filterToggle,
      this.filterSummary,
      iconButton('keyboard', 'Keyboard shortcuts', () => act.shortcuts()),
    ]);
  }

  /** Shows "Follow live" for a live session, pressed while the view follows the data. */
  follow(live: boolean, following: boolean): void {
    this.followButton.hidden = !live;
    const on = live && following;
    if (this.followButton.checked !== on) this.followButton.checked = on;
  }

  /** A capture is loading for this panel. */
  loading(title: string, fraction: number): void {
    this.title.textContent = `Loading ${title}… ${Math.floor(fraction * 100)} %`;
  }

  session(session: SessionInfo, order: KeyOrder, filter: TimelineFilter): void {
    // In VS Code the order is a setting the Sessions tree follows too; a standalone page has only itself.
    this.keyOrderSelect.title = session.standalone ? 'Order of the lanes' : 'Order of the lanes, and of the keys in the Sessions tree (seqscope.keyOrder)';
    this.title.textContent = session.title;
    this.options.textContent = session.options;
    this.keyOrder(order);
    this.filter(filter);
  }

  keyOrder(order: KeyOrder): void {
    this.order = order;
    this.keyOrderSelect.value = order;
  }

  filter(filter: TimelineFilter): void {
    this.filterSummary.textContent = FilterBar.describe(filter);
  }

  filterShown(visible: boolean): void {
    relabel(this.filterToggle, visible ? 'filter-filled' : 'filter', visible ? 'Hide the filter bar' : 'Show the filter bar');
  }
}
