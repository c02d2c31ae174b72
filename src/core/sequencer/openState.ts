/**
 * What a key is waiting for right now, for views of a live session: the start window (everything
 * is held until the first expected number is known), or an open gap (messages held above a
 * missing number until it arrives or the gap timeout declares it lost). Pure: the clock is the
 * caller's.
 */
import { KeyState, Sequencer } from './sequencer';

export type OpenState =
  /** The start window: it opened with the key's first arrival (`openedAt`, ms) and lasts `windowMs`. */
  | { readonly kind: 'collecting'; readonly leftMs: number; readonly held: number; readonly openedAt: number; readonly windowMs: number }
  | { readonly kind: 'waiting'; readonly expected: number; readonly waitedMs: number; readonly timeoutMs: number; readonly held: number; readonly openedAt: number };

/** A key's open state at `now` (ms), or undefined when it holds nothing. */
export function openStateOf<T>(sequencer: Sequencer<T>, k: KeyState<T>, now: number): OpenState | undefined {
  const held = k.held.size;
  if (held === 0) return undefined;
  const deadline = sequencer.deadlineOf(k);
  const timeoutMs = sequencer.config.gapTimeoutMs;
  // The start window lasts the gap timeout from the key's first arrival (Sequencer: StartDeadline).
  if (!k.started) return { kind: 'collecting', leftMs: Math.min(timeoutMs, Math.max(0, deadline - now)), held, openedAt: deadline - timeoutMs, windowMs: timeoutMs };
  const openedAt = deadline - timeoutMs;
  return { kind: 'waiting', expected: sequencer.expectedNumber(k) as number, waitedMs: Math.min(timeoutMs, Math.max(0, now - openedAt)), timeoutMs, held, openedAt };
}

/** "waiting for #400 · 3.2 s of 10 s · 1 096 held", "collecting: 7 s left · 1 495 held". */
export function openStateWords(s: OpenState): string {
  if (s.kind === 'collecting') return `collecting: ${seconds(s.leftMs, true)} left · ${s.held} held`;
  return `waiting for #${s.expected} · ${seconds(s.waitedMs, false)} of ${seconds(s.timeoutMs, false)} · ${s.held} held`;
}

/** Seconds for a countdown (whole, rounded up) or a wait (one decimal below 10 s). */
function seconds(ms: number, countdown: boolean): string {
  const s = ms / 1000;
  if (countdown) return `${Math.ceil(s)} s`;
  return s < 10 ? `${(Math.floor(s * 10) / 10).toFixed(1).replace(/\.0$/, '')} s` : `${Math.floor(s)} s`;
}
