/**
 * The selected event and its detail pane: selecting tells the host (its tree follows), opening
 * the detail asks the host for the record and shows only the reply to the latest request.
 * Showing an event also puts its lane in focus and in view; revealing one (the host asked)
 * brings its time into view first.
 */
import type { EventView, MessageDetail, WebviewMessage } from '../shared/protocol';
import { DetailPane } from './detailPane';
import type { Selection } from './findingNav';
import type { Viewport } from './viewport';

/** What the selection needs from the timeline around it. */
export interface SelectionHost {
  post(message: WebviewMessage): void;
  /** A request id not used before (detail and page requests share them). */
  nextId(): number;
  viewport(): Viewport | undefined;
  /** Puts the lane of `key` in focus and in view, when it is shown. */
  focusKey(key: number): void;
  /** Draws again (the selection is drawn in the lanes). */
  redraw(): void;
  /** The view moved: redraw, ask for pages once it settles. */
  viewChanged(): void;
  /** Gives the keys back to the canvas (the user closed the detail pane). */
  focusCanvas(): void;
}

export class EventSelection {
  readonly pane: DetailPane;
  /** The selected event, if any. */
  current: Selection | undefined;
  /** The latest detail request: replies to older ones are dropped. */
  private detailRequest = 0;

  constructor(private readonly host: SelectionHost) {
    this.pane = new DetailPane(() => {
      this.pane.hide();
      host.focusCanvas();
      host.redraw();
    });
  }

  select(s: Selection): void {
    this.current = s;
    this.host.post({ type: 'select', eventId: s.id });
    this.host.redraw();
  }

  /** Opens the detail pane on event `id`, reading until the host's reply comes. */
  openDetail(id: number): void {
    this.detailRequest = this.host.nextId();
    this.pane.loading({ id });
    this.host.post({ type: 'requestDetail', requestId: this.detailRequest, eventId: id });
  }

  /** The host's reply to a detail request: shown when it answers the latest one. */
  detailArrived(requestId: number, detail: MessageDetail): void {
    if (requestId === this.detailRequest) this.pane.show(detail);
  }

  /** Selects `s`, shows its lane and opens its detail (the view already shows its time). */
  show(s: Selection): void {
    this.host.focusKey(s.key);
    this.select(s);
    this.openDetail(s.id);
    this.host.viewChanged();
  }

  /** Host asked to show an event: centre it (whole, for a gap), select it, open its detail. */
  reveal(e: EventView): void {
    const vp = this.host.viewport();
    if (!vp) return;
    const band = e.kind === 'gap' || e.kind === 'onlyA' || e.kind === 'onlyB' || e.kind === 'lostBoth';
    const at = band ? (e.t0 + e.t1) / 2 : e.t1;
    const domain = vp.domainT1 - vp.domainT0;
    if (band && e.t1 - e.t0 > vp.span * 0.8) vp.show(e.t0 - (e.t1 - e.t0) * 0.2, e.t1 + (e.t1 - e.t0) * 0.2);
    // Zoomed out over most of the session, centring would be clamped: show a tenth of it around the event.
    else if (vp.span > domain / 2) vp.show(at - domain / 20, at + domain / 20);
    else vp.centerOn(at);
    this.show({ id: e.id, t: e.t1, key: e.keyIndex, kind: e.kind });
  }

  /** Escape: closes the detail pane when it is open, else drops the selection. */
  dismiss(): void {
    if (this.pane.isOpen) this.pane.hide();
    else this.current = undefined;
    this.host.redraw();
  }
}
