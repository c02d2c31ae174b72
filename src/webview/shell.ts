/**
 * The app's page: the canvas, the status line, the error bar and the legend, assembled with the
 * parts the app passes in (toolbar, replay bar, filter bar, detail pane, shortcuts help). It
 * shows what it is told; the app decides.
 */
import { noun } from '../core/util/plural';
import { displayKey } from '../core/trace/keyLabel';
import type { LaneCounts, LaneInfo, SessionInfo } from '../shared/protocol';
import { iconButton } from './controls';
import { el, setText } from './dom';
import { clockTime, count, duration } from './format';
import { legend } from './legend';
import type { Viewport } from './viewport';

export interface ShellParts {
  toolbar: HTMLElement;
  replayBar: HTMLElement;
  filterBar: HTMLElement;
  detail: HTMLElement;
  statePanel: HTMLElement;
  dialogs: HTMLElement[];
}

export class Shell {
  readonly canvas: HTMLCanvasElement;
  readonly canvasWrap: HTMLElement;
  private readonly legendBox = el('div', { class: 'ss-legend-box' });
  private readonly status = el('div', { class: 'ss-status', attrs: { id: 'ss-status', role: 'status', 'aria-live': 'polite' }, text: 'Loading the session…' });
  private readonly errorText = el('span', { class: 'ss-error-text' });
  private readonly errorBar: HTMLElement;
  /** The error shown, until dismissed (the test hook reports it). */
  error: string | undefined;

  constructor(container: HTMLElement, p: ShellParts) {
    this.canvas = el('canvas', {
      class: 'ss-canvas',
      attrs: {
        tabindex: 0,
        role: 'application',
        'aria-roledescription': 'timeline',
        'aria-label':
          'Timeline. Question mark lists the keys: arrow keys step the replay, Shift with them pans, plus and minus zoom, up and down move between lanes, N and P go to the next and previous finding, Enter opens its detail, Escape closes it.',
        'aria-describedby': 'ss-status',
      },
    });
    this.canvasWrap = el('div', { class: 'ss-canvas-wrap' }, [this.canvas]);
    this.errorBar = el('div', { class: 'ss-error', attrs: { role: 'alert', hidden: true } }, [
      this.errorText,
      iconButton('close', 'Dismiss the error', () => {
        this.errorBar.hidden = true;
        this.error = undefined;
      }),
    ]);
    const main = el('div', { class: 'ss-main' }, [this.canvasWrap, p.detail, p.statePanel]);
    container.append(el('div', { class: 'ss-app' }, [this.errorBar, p.toolbar, p.replayBar, p.filterBar, this.legendBox, main, this.status, ...p.dialogs]));
  }

  get canvasFocused(): boolean {
    return document.activeElement === this.canvas;
  }

  showError(message: string): void {
    this.error = message;
    this.errorText.textContent = message;
    this.errorBar.hidden = false;
  }

  /** Hides the error bar (another session: an error about the one before no longer holds). */
  clearError(): void {
    this.errorBar.hidden = true;
    this.error = undefined;
  }

  say(text: string): void {
    setText(this.status, text);
  }

  /** The legend for a session (with the replay cursor and keys where there is a replay). */
  legend(withReplay: boolean, keys: string, comparison = false): void {
    this.legendBox.replaceChildren(legend(withReplay, keys, comparison));
  }

  /** The window shown, the keys and events, the selection. */
  sayView(vp: Viewport, s: SessionInfo, lanesShown: number, selected?: { kind: string; id: number }): void {
    if (s.arrivals === 0 && s.events === 0) {
      this.say('Nothing has arrived yet: the timeline starts with the first message.');
      return;
    }
    const sel = selected ? ` · selected ${selected.kind} ${selected.id}` : '';
    this.say(
      `${clockTime(vp.t0)} – ${clockTime(vp.t1)} (${duration(vp.span)}) · ${count(lanesShown)} of ${count(s.lanes.length)} keys · ${count(s.events)} events${sel}`,
    );
  }

  /** A lane's counts (`c`: at the replay position, when not the lane's own totals). */
  sayLane(lane: LaneInfo, c: LaneCounts): void {
    const where = c === lane ? '' : ' at the replay position';
    this.say(
      `Lane ${displayKey(lane.name)}${where}: ${count(c.received)} received, ${count(c.delivered)} delivered, ${count(c.gaps)} ${noun(c.gaps, 'gap')} (${count(c.lost)} lost), ${count(c.duplicates)} ${noun(c.duplicates, 'duplicate')}, ${count(c.late)} late${c.reordered ? `, ${count(c.reordered)} reordered` : ''}${c.resets ? `, ${count(c.resets)} ${noun(c.resets, 'reset')}` : ''}${lane.hot ? ', hot' : ''}`,
    );
  }
}
