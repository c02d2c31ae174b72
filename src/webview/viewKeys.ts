/**
 * What each view key does (keymap.ts says which key is which action): one handler per
 * ViewAction, so an action added there fails to compile here until it does something.
 */
import type { ViewAction } from './keymap';
import { TimeWindow, ZOOM_STEP } from './timeWindow';
import type { Viewport } from './viewport';

/** What the view keys act on, as the timeline is at the key press. */
export interface ViewKeyTarget {
  time: TimeWindow;
  viewport: Viewport;
  live: boolean;
  /** The focused lane's index, and how many lanes a page up / down moves it by. */
  focusedLane: number;
  lanesPerScreen: number;
  focusLane(index: number): void;
  navigate(direction: 1 | -1): void;
  /** Opens the selected event's detail, or selects the next finding when none is selected. */
  openDetail(): void;
  dismiss(): void;
  help(): void;
}

export function runViewKey(action: ViewAction, k: ViewKeyTarget): void {
  const { time, viewport: vp } = k;
  const act: Record<ViewAction, () => void> = {
    zoomIn: () => time.zoom(ZOOM_STEP),
    zoomOut: () => time.zoom(1 / ZOOM_STEP),
    panBack: () => time.pan(-vp.span * 0.1),
    panForward: () => time.pan(vp.span * 0.1),
    panToStart: () => time.pan(vp.domainT0 - vp.t1),
    panToEnd: () => time.pan(vp.domainT1 - vp.t0),
    fitAll: () => time.fitAll(k.live),
    laneUp: () => k.focusLane(k.focusedLane - 1),
    laneDown: () => k.focusLane(k.focusedLane + 1),
    lanePageUp: () => k.focusLane(k.focusedLane - k.lanesPerScreen),
    lanePageDown: () => k.focusLane(k.focusedLane + k.lanesPerScreen),
    nextFinding: () => k.navigate(1),
    previousFinding: () => k.navigate(-1),
    openDetail: () => k.openDetail(),
    dismiss: () => k.dismiss(),
    help: () => k.help(),
  };
  act[action]();
}
