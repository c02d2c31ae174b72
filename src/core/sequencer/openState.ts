/**
 * What a key is waiting for right now, for views of a live session: the start window (everything
 * is held until the first expected number is known), or an open gap (messages held above a
 * missing number until it arrives or the gap timeout declares it lost). Pure: the clock is the
 * caller's.
 */
import { KeyState, Sequencer } from './sequencer';

/** A missing number a key waits for: since `openedAt` (ms), `waitedMs` of `timeoutMs` so far. */
export interface OpenHole {
  readonly expected: number;
  readonly waitedMs: number;
  readonly timeoutMs: number;
  readonly openedAt: number;
}

export type OpenState =
  /**
   * The start window: it opened with the key's first arrival (`openedAt`, ms) and lasts
   * `windowMs`; `hole`: a number missing among what it holds, waiting already (the key starts at
   * its lowest number when the window closes, then waits for the hole until its timeout).
   */
  | {
      readonly kind: 'collecting';
      readonly leftMs: number;
      readonly held: number;
      readonly openedAt: number;
      readonly windowMs: number;
      readonly hole?: OpenHole;
    }
  | ({ readonly kind: 'waiting'; readonly held: number } & OpenHole);

/** A key's open state at `now` (ms), or undefined when it holds nothing. */
export function openStateOf<T>(sequencer: Sequencer<T>, k: KeyState<T>, now: number): OpenState | undefined {
  const held = k.held.size;
  if (held === 0) return undefined;
  const deadline = sequencer.deadlineOf(k);
  const timeoutMs = sequencer.config.gapTimeoutMs;
  // The start window lasts the gap timeout from the key's first arrival (Sequencer: StartDeadline).
  if (!k.started) {
    const collecting = {
      kind: 'collecting',
      leftMs: Math.min(timeoutMs, Math.max(0, deadline - now)),
      held,
      openedAt: deadline - timeoutMs,
      windowMs: timeoutMs,
    } as const;
    const hole = sequencer.startWindowHole(k);
    if (!hole) return collecting;
    return { ...collecting, hole: { expected: hole.expected, waitedMs: Math.min(timeoutMs, Math.max(0, now - hole.since)), timeoutMs, openedAt: hole.since } };
  }
  const openedAt = deadline - timeoutMs;
  return {
    kind: 'waiting',
    expected: sequencer.expectedNumber(k) as number,
    waitedMs: Math.min(timeoutMs, Math.max(0, now - openedAt)),
    timeoutMs,
    held,
    openedAt,
  };
}

/**
 * "waiting for #400 · 3.2 s of 10 s · 1 096 held", "collecting: 7 s left · 1 495 held", and a
 * hole in the start window: "waiting for #6 · 2 s of 10 s · starts in 7 s · 3 held".
 */
export function openStateWords(s: OpenState): string {
  if (s.kind === 'collecting') {
    if (s.hole) return `${holeWords(s.hole)} · starts in ${seconds(s.leftMs, true)} · ${s.held} held`;
    return `collecting: ${seconds(s.leftMs, true)} left · ${s.held} held`;
  }
  return `${holeWords(s)} · ${s.held} held`;
}

function holeWords(h: OpenHole): string {
  return `waiting for #${h.expected} · ${seconds(h.waitedMs, false)} of ${seconds(h.timeoutMs, false)}`;
}

/** Seconds for a countdown (whole, rounded up) or a wait (one decimal below 10 s). */
function seconds(ms: number, countdown: boolean): string {
  const s = ms / 1000;
  if (countdown) return `${Math.ceil(s)} s`;
  return s < 10 ? `${(Math.floor(s * 10) / 10).toFixed(1).replace(/\.0$/, '')} s` : `${Math.floor(s)} s`;
}
