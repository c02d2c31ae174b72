/**
 * An open gap as the timeline draws it in a live session: a band from where the gap opened to
 * now, growing while it waits, inside the outline of its whole wait (to the gap timeout), with
 * "waiting for #400 · 3.2 s of 10 s". At the timeout the sequencer declares the gap and it comes
 * back as an ordinary gap band. Pure (no DOM); the host measured the wait when it sent the state.
 */
import { OpenState, openStateWords } from '../core/sequencer/openState';

export interface OpenGapBand {
  readonly key: number;
  /** Engine clock: where the gap opened, where the wait is now, where the timeout falls. */
  readonly t0: number;
  readonly tNow: number;
  readonly tDeadline: number;
  /** How much of the wait has passed, 0…1. */
  readonly fraction: number;
  /** "waiting for #400 · 3.2 s of 10 s" */
  readonly label: string;
}

/** The band of a key waiting on an open gap; none for a key in its start window or holding nothing. */
export function openGapBand(key: number, state: OpenState | undefined): OpenGapBand | undefined {
  if (!state || state.kind !== 'waiting') return undefined;
  const timeout = Math.max(0, state.timeoutMs);
  const waited = Math.min(timeout, Math.max(0, state.waitedMs));
  return {
    key,
    t0: state.openedAt,
    tNow: state.openedAt + waited,
    tDeadline: state.openedAt + timeout,
    fraction: timeout > 0 ? waited / timeout : 1,
    label: openStateWords(state).replace(/ · \d+ held$/, ''),
  };
}

/** Where a live session's data ends: its last arrival, or further where a gap still waits. */
export function liveDataEnd(end: number, bands: readonly OpenGapBand[]): number {
  let e = end;
  for (const b of bands) if (b.tNow > e) e = b.tNow;
  return e;
}
