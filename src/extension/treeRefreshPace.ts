/**
 * When the Sessions tree draws again. Every row the tree redraws is laid out and styled again in
 * the window, on the cores the timeline draws with; a live stream changes every key's counts on
 * each of the session's refreshes. So the tree follows what a user compares across the views (a
 * key waiting or collecting, a finding, the session's state, an outage) within STATE_MS, and a
 * live stream's climbing counts alone once every COUNTS_MS.
 */
import type { ControllerTimers } from './timelineController';
import type { LiveStatus } from './session';

/** The most the tree lags a change of state. */
export const STATE_MS = 200;
/** The most the tree lags a live stream's counts when nothing else changed. */
export const COUNTS_MS = 1000;

/** What the pace reads of a session. */
export interface PacedSession {
  readonly id: string;
  readonly title: string;
  readonly live: Pick<LiveStatus, 'state' | 'tapGone' | 'openKeys' | 'windows' | 'reconnects'> | undefined;
  readonly loading: number | undefined;
  readonly replay: { readonly active: boolean };
  readonly keyOrder: string;
  readonly filter: object;
  readonly data: {
    readonly summary: {
      readonly keys: number;
      readonly gaps: number;
      readonly lost: number;
      readonly duplicates: number;
      readonly conflicts: number;
      readonly late: number;
      readonly reordered: number;
      readonly resets: number;
      readonly invalid: number;
    };
  };
}

/**
 * What the tree shows that must not lag the other views, when every session is a live one
 * flowing steadily (live, no key waiting or collecting): a change of it is a change of state.
 * Undefined otherwise: then any change is one.
 */
export function steadyState(sessions: readonly PacedSession[], active: string | undefined): string | undefined {
  if (sessions.length === 0) return undefined;
  const parts = [active ?? ''];
  for (const s of sessions) {
    const live = s.live;
    if (!live || live.state !== 'live' || live.tapGone || live.openKeys > 0 || s.loading !== undefined || s.replay.active) return undefined;
    const m = s.data.summary;
    parts.push(
      [
        s.id,
        s.title,
        s.keyOrder,
        JSON.stringify(s.filter),
        live.windows,
        live.reconnects,
        m.keys,
        m.gaps,
        m.lost,
        m.duplicates,
        m.conflicts,
        m.late,
        m.reordered,
        m.resets,
        m.invalid,
      ].join(' '),
    );
  }
  return parts.join('\n');
}

export class TreeRefreshPace {
  private timer: unknown;
  private dueAt = Number.POSITIVE_INFINITY;
  /** The state the tree last drew, and the latest told. */
  private drawn: string | undefined;
  private latest: string | undefined;

  constructor(
    private readonly draw: () => void,
    private readonly timers: ControllerTimers,
  ) {}

  /** Something changed; `state`: steadyState now. */
  changed(state: string | undefined): void {
    this.latest = state;
    const delay = state !== undefined && state === this.drawn ? COUNTS_MS : STATE_MS;
    const at = this.timers.now() + delay;
    if (this.timer !== undefined) {
      if (this.dueAt <= at) return;
      this.timers.clearTimeout(this.timer);
    }
    this.dueAt = at;
    this.timer = this.timers.setTimeout(() => this.now(), delay);
  }

  /** A draw that is waiting, done now. */
  flush(): void {
    if (this.timer !== undefined) this.now();
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private now(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = Number.POSITIVE_INFINITY;
    this.drawn = this.latest;
    this.draw();
  }
}
