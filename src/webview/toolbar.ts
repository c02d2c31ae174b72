/**
 * The timeline's toolbar: the session's title and options, zoom, fit all, finding navigation,
 * the lanes' order, the filter bar's toggle and summary, and the keyboard shortcuts. It only
 * shows state and reports clicks; the app decides.
 */
import { KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, isKeyOrder, KeyOrder } from '../core/trace/keyOrder';
import type { SessionInfo, TimelineFilter } from '../shared/protocol';
import { iconButton, relabel, singleSelect, textButton, toggleButton, VscodeButton, VscodeSingleSelect, VscodeToolbarButton } from './controls';
import { el, setText } from './dom';
import { FilterBar } from './filterBar';
import { ZOOM_STEP } from './timeWindow';
import type { FollowState, FollowWindow } from './viewport';

/** What "Follow live" can keep in view: the select's values are these keys. */
export const FOLLOW_WINDOWS: readonly { value: string; window: FollowWindow; text: string }[] = [
  { value: 'all', window: 'all', text: 'Whole session' },
  { value: '10000', window: 10_000, text: 'Last 10 s' },
  { value: '60000', window: 60_000, text: 'Last minute' },
  { value: '300000', window: 300_000, text: 'Last 5 minutes' },
];

export interface ToolbarActions {
  zoom(factor: number): void;
  fitAll(): void;
  /** "Follow live" pressed: on when off, off when on. */
  toggleFollow(): void;
  /** The user picked what following keeps in view (following resumes with it). */
  followWindow(window: FollowWindow): void;
  navigate(dir: 1 | -1): void;
  /** The user picked an order (shown once the host answers: setKeyOrder). */
  keyOrder(order: KeyOrder): void;
  toggleFilter(): void;
  shortcuts(): void;
}

export class Toolbar {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly options: HTMLElement;
  /** A live session's recording and subscriptions, under the title. */
  private readonly source: HTMLElement;
  /** A live session that is not receiving: why and what comes next. */
  private readonly connection: HTMLElement;
  private readonly filterToggle: VscodeToolbarButton;
  private readonly filterSummary: HTMLElement;
  private readonly keyOrderSelect: VscodeSingleSelect;
  /** A live session's "Follow live" toggle (hidden for a capture). */
  private readonly followButton: VscodeToolbarButton;
  /** What following keeps in view (a live session). */
  private readonly followSelect: VscodeSingleSelect;
  /** Shown while the user's own move has paused following: one click resumes it. */
  private readonly followPaused: HTMLElement;
  private readonly resumeButton: VscodeButton;
  /** The order drawn (the select says it until the host answers another). */
  private order: KeyOrder = 'arrival';

  constructor(act: ToolbarActions) {
    this.title = el('h1', { class: 'ss-title', text: 'SeqScope timeline' });
    this.options = el('span', { class: 'ss-options ss-muted' });
    this.source = el('span', { class: 'ss-source ss-muted' });
    this.source.hidden = true;
    this.connection = el('span', { class: 'ss-connection', attrs: { role: 'status' } });
    this.connection.hidden = true;
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
    this.followButton = toggleButton('pulse', 'Follow live: the view keeps the stream in sight as it grows (zooming or panning pauses it)', () =>
      act.toggleFollow(),
    );
    this.followButton.hidden = true;
    this.followSelect = singleSelect(
      'What following live keeps in view',
      FOLLOW_WINDOWS.map((w) => ({ value: w.value, text: w.text })),
    );
    this.followSelect.classList.add('ss-follow-window');
    this.followSelect.hidden = true;
    this.followSelect.addEventListener('change', () => {
      const picked = FOLLOW_WINDOWS.find((w) => w.value === this.followSelect.value);
      if (picked) act.followWindow(picked.window);
    });
    this.resumeButton = textButton('Resume', 'Resume following live', () => act.toggleFollow(), { icon: 'debug-continue', secondary: true });
    this.followPaused = el('span', { class: 'ss-follow-paused', attrs: { role: 'status' } }, [
      el('span', { class: 'ss-muted', text: 'Following paused' }),
      this.resumeButton,
    ]);
    this.followPaused.hidden = true;
    this.root = el('div', { class: 'ss-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [
      el('div', { class: 'ss-heading' }, [el('div', { class: 'ss-heading-line' }, [this.title, this.connection, this.options]), this.source]),
      el('span', { class: 'ss-spacer' }),
      iconButton('zoom-out', 'Zoom out', () => act.zoom(1 / ZOOM_STEP)),
      iconButton('zoom-in', 'Zoom in', () => act.zoom(ZOOM_STEP)),
      iconButton('screen-normal', 'Fit all: show the whole session', () => act.fitAll()),
      this.followButton,
      this.followSelect,
      this.followPaused,
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

  /**
   * A live session's following: the toggle (pressed while following), what it keeps in view, and
   * "Following paused · Resume" once the user's own move paused it; all hidden for a capture.
   */
  follow(live: boolean, state: FollowState, window: FollowWindow): void {
    this.followButton.hidden = !live;
    this.followSelect.hidden = !live;
    const on = state === 'following';
    if (this.followButton.checked !== on) this.followButton.checked = on;
    const value = FOLLOW_WINDOWS.find((w) => w.window === window)?.value ?? 'all';
    if (this.followSelect.value !== value) this.followSelect.value = value;
    this.followPaused.hidden = !live || state !== 'paused';
  }

  /** A capture is loading for this panel. */
  loading(title: string, fraction: number): void {
    setText(this.title, `Loading ${title}… ${Math.floor(fraction * 100)} %`);
  }

  session(session: SessionInfo, order: KeyOrder, filter: TimelineFilter): void {
    // In VS Code the order is a setting the Sessions tree follows too; a standalone page has only itself.
    this.keyOrderSelect.title = session.standalone ? 'Order of the lanes' : 'Order of the lanes, and of the keys in the Sessions tree (seqscope.keyOrder)';
    setText(this.title, session.title);
    setText(this.options, session.options);
    setText(this.source, session.source ?? '');
    this.source.title = session.source ?? '';
    this.source.hidden = !session.source;
    const c = session.connection;
    this.connection.hidden = !c;
    this.connection.className = `ss-connection ss-connection-${c?.state ?? 'live'}`;
    setText(
      this.connection,
      c ? `${c.state === 'connecting' ? 'Connecting' : c.state === 'stopped' ? 'Stopped' : 'Disconnected'}: ${c.reason} — ${c.next}` : '',
    );
    // Whole on hover where the header cuts it.
    this.connection.title = this.connection.textContent ?? '';
    this.keyOrder(order);
    this.filter(filter);
  }

  keyOrder(order: KeyOrder): void {
    this.order = order;
    // Only when it changes: the select draws itself again when told its value (and measures the page).
    if (this.keyOrderSelect.value !== order) this.keyOrderSelect.value = order;
  }

  filter(filter: TimelineFilter): void {
    setText(this.filterSummary, FilterBar.describe(filter));
  }

  filterShown(visible: boolean): void {
    relabel(this.filterToggle, visible ? 'filter-filled' : 'filter', visible ? 'Hide the filter bar' : 'Show the filter bar');
  }
}
