/**
 * Pointer and wheel input on the timeline canvas, turned into view operations: wheel zooms
 * around the pointer (plain or with Ctrl, as in most timeline tools), Shift+wheel and the gutter
 * scroll lanes, a horizontal wheel pans; dragging the plot pans (both axes), dragging the
 * overview's window rectangle moves the window, dragging the scrollbar scrolls lanes; a click
 * that did not move selects the mark under it, a double click zooms in there.
 */
import { inside, Layout, scrollThumb } from './layout';
import type { LaneScroll, Viewport } from './viewport';

export interface CanvasTarget {
  layout(): Layout | undefined;
  viewport(): Viewport | undefined;
  scroll(): LaneScroll;
  /** The view moved: redraw, and ask for pages when it settles. */
  changed(): void;
  click(x: number, y: number): void;
  /** Whether a mark is under (x, y), for the pointer cursor. */
  overMark(x: number, y: number): boolean;
}

/** Pixels a pointer may move and still count as a click. */
const CLICK_SLOP = 4;

export function attachCanvasInput(canvas: HTMLCanvasElement, t: CanvasTarget): void {
  canvas.addEventListener('wheel', (e) => wheel(canvas, t, e), { passive: false });
  attachDrag(canvas, t);
  canvas.addEventListener('dblclick', (e) => {
    const L = t.layout();
    const vp = t.viewport();
    if (!L || !vp) return;
    const { x, y } = local(canvas, e);
    if (y < L.lanes.y - (L.invalidLane ? L.invalidLane.h : 0) || x < L.plotX) return;
    vp.zoomAt(e.shiftKey ? 0.5 : 2, x - L.plotX);
    t.changed();
  });
}

/** Where a pointer event is, in CSS px from the canvas's top left. */
function local(canvas: HTMLCanvasElement, e: MouseEvent): { x: number; y: number } {
  const r = canvas.getBoundingClientRect();
  return { x: e.clientX - r.left, y: e.clientY - r.top };
}

/** A wheel turn: scrolls lanes, pans or zooms (see the header). */
function wheel(canvas: HTMLCanvasElement, t: CanvasTarget, e: WheelEvent): void {
  const L = t.layout();
  const vp = t.viewport();
  if (!L || !vp) return;
  e.preventDefault();
  const { x, y } = local(canvas, e);
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? canvas.clientHeight : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  const overLanes = y >= L.lanes.y;
  if (e.shiftKey || (overLanes && x < L.plotX) || inside(L.scrollbar, x, y)) {
    // Vertical lane scrolling (Shift+wheel, or over the names / scrollbar).
    t.scroll().scrollBy(dy || dx);
  } else if (Math.abs(dx) > Math.abs(dy) && !e.ctrlKey) {
    vp.panPx(dx);
  } else {
    // Plain wheel or Ctrl+wheel (a trackpad pinch) zooms around the pointer.
    const px = Math.max(0, Math.min(L.plotW, x - L.plotX));
    vp.zoomAt(Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.0025)), px);
  }
  t.changed();
}

/** What a drag moves: the view (the plot), the overview's window rectangle, or the lanes (the scrollbar). */
type DragMode = 'plot' | 'overview' | 'scrollbar';

interface Drag {
  mode: DragMode;
  startX: number;
  startY: number;
  lastX: number;
  lastY: number;
  moved: boolean;
  id: number;
}

/** Dragging with the primary button, and the pointer cursor while no drag is under way; a press on the plot that did not move is a click. */
function attachDrag(canvas: HTMLCanvasElement, t: CanvasTarget): void {
  let drag: Drag | undefined;

  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const L = t.layout();
    const vp = t.viewport();
    if (!L || !vp) return;
    const { x, y } = local(canvas, e);
    const mode = press(t, L, vp, x, y);
    if (!mode) return;
    drag = { mode, startX: x, startY: y, lastX: x, lastY: y, moved: false, id: e.pointerId };
    canvas.setPointerCapture(e.pointerId);
  });

  canvas.addEventListener('pointermove', (e) => {
    const { x, y } = local(canvas, e);
    const L = t.layout();
    const vp = t.viewport();
    if (!drag) {
      if (L) canvas.style.cursor = inside(L.overview, x, y) ? 'ew-resize' : t.overMark(x, y) ? 'pointer' : y >= L.lanes.y && x >= L.plotX ? 'grab' : 'default';
      return;
    }
    if (!L || !vp || e.pointerId !== drag.id) return;
    const dx = x - drag.lastX;
    const dy = y - drag.lastY;
    drag.lastX = x;
    drag.lastY = y;
    if (!drag.moved && Math.hypot(x - drag.startX, y - drag.startY) < CLICK_SLOP) return;
    drag.moved = true;
    if (drag.mode === 'plot') canvas.style.cursor = 'grabbing';
    dragBy(t, L, vp, drag.mode, dx, dy);
  });

  const end = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = undefined;
    canvas.releasePointerCapture(e.pointerId);
    canvas.style.cursor = '';
    if (!d.moved && d.mode === 'plot' && e.type === 'pointerup') {
      const { x, y } = local(canvas, e);
      t.click(x, y);
    }
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
}

/**
 * A press at (x, y): what it starts dragging, or undefined (over the axis). Pressing the overview
 * outside the window rectangle first centres the window there; pressing the scrollbar off its
 * thumb first scrolls the lanes there.
 */
function press(t: CanvasTarget, L: Layout, vp: Viewport, x: number, y: number): DragMode | undefined {
  if (inside(L.overview, x, y)) {
    const ot = overviewTime(L, vp, x);
    if (ot < vp.t0 || ot > vp.t1) {
      vp.centerOn(ot);
      t.changed();
    }
    return 'overview';
  }
  if (inside(L.scrollbar, x, y)) {
    const thumb = scrollThumb(L.scrollbar, t.scroll().contentHeight, t.scroll().scrollY);
    if (thumb && (y < thumb.y || y > thumb.y + thumb.h)) {
      const s = t.scroll();
      s.scrollTo(((y - L.scrollbar.y) / L.scrollbar.h) * s.contentHeight - s.viewHeight / 2);
      t.changed();
    }
    return 'scrollbar';
  }
  return y < L.axis.y + L.axis.h ? undefined : 'plot';
}

/** A drag moved the pointer by (dx, dy) px: pans the view, moves the overview's window, or scrolls the lanes. */
function dragBy(t: CanvasTarget, L: Layout, vp: Viewport, mode: DragMode, dx: number, dy: number): void {
  if (mode === 'plot') {
    vp.panPx(-dx);
    t.scroll().scrollBy(-dy);
  } else if (mode === 'overview') {
    // The rectangle follows the pointer: overview pixels → session time.
    vp.panTime((dx / L.overview.w) * (vp.domainT1 - vp.domainT0));
  } else {
    const s = t.scroll();
    s.scrollBy((dy / Math.max(1, L.scrollbar.h)) * s.contentHeight);
  }
  t.changed();
}

/** Session time under x in the overview strip (it spans the overview's range, not the view). */
function overviewTime(L: Layout, vp: Viewport, x: number): number {
  return vp.domainT0 + ((x - L.overview.x) / L.overview.w) * (vp.domainT1 - vp.domainT0);
}
