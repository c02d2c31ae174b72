/**
 * The timeline's toolbar: the session's title and options, zoom, fit all, finding navigation,
 * the lanes' order, the filter bar's toggle and summary, and the keyboard shortcuts. It only
 * shows state and reports clicks; the app decides.
 */
import { KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, isKeyOrder, KeyOrder } from '../core/trace/keyOrder';
import type { SessionInfo, TimelineFilter } from '../shared/protocol';
import { button, el } from './dom';
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
  private readonly filterToggle: HTMLButtonElement;
  private readonly filterSummary: HTMLElement;
  private readonly keyOrderSelect: HTMLSelectElement;
  /** A live session's "Follow live" toggle (hidden for a capture). */
  private readonly followButton: HTMLButtonElement;
  /** The order drawn (the select says it until the host answers another). */
  private order: KeyOrder = 'arrival';

  constructor(act: ToolbarActions) {
    this.title = el('h1', { class: 'ss-title', text: 'SeqScope timeline' });
    this.options = el('span', { class: 'ss-options ss-muted' });
    this.filterToggle = button('Filter', 'Show the filter bar', () => act.toggleFilter());
    this.filterToggle.setAttribute('aria-expanded', 'false');
    this.filterSummary = el('span', { class: 'ss-filter-summary ss-muted' });
    this.keyOrderSelect = el(
      'select',
      { class: 'ss-select', attrs: { 'aria-label': 'Order of the lanes' }, title: 'Order of the lanes' },
      KEY_ORDERS.map((o) => el('option', { text: `Keys: ${KEY_ORDER_LABELS[o]}`, title: KEY_ORDER_DETAILS[o], attrs: { value: o } })),
    );
    this.keyOrderSelect.addEventListener('change', () => {
      const order = this.keyOrderSelect.value;
      // Shown once the host answers (`keyOrder`): until then the select says what is drawn.
      this.keyOrderSelect.value = this.order;
      if (isKeyOrder(order)) act.keyOrder(order);
    });
    this.followButton = button('Follow live', 'Follow live: the view keeps showing what arrives last (panning turns it off)', () => act.toggleFollow());
    this.followButton.hidden = true;
    this.root = el('div', { class: 'ss-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [
      this.title,
      this.options,
      el('span', { class: 'ss-spacer' }),
      button('−', 'Zoom out', () => act.zoom(1 / ZOOM_STEP)),
      button('+', 'Zoom in', () => act.zoom(ZOOM_STEP)),
      button('Fit all', 'Fit all: show the whole session', () => act.fitAll()),
      this.followButton,
      button('◀ Finding', 'Previous finding', () => act.navigate(-1)),
      button('Finding ▶', 'Next finding', () => act.navigate(1)),
      this.keyOrderSelect,
      this.filterToggle,
      this.filterSummary,
      button('?', 'Keyboard shortcuts', () => act.shortcuts()),
    ]);
  }

  /** Shows "Follow live" for a live session, pressed while the view follows the data. */
  follow(live: boolean, following: boolean): void {
    this.followButton.hidden = !live;
    const pressed = String(live && following);
    if (this.followButton.getAttribute('aria-pressed') !== pressed) this.followButton.setAttribute('aria-pressed', pressed);
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
    this.filterToggle.setAttribute('aria-expanded', String(visible));
    this.filterToggle.setAttribute('aria-label', visible ? 'Hide the filter bar' : 'Show the filter bar');
  }
}
