/**
 * What a key of a live session is waiting for, as the timeline draws it: a band from where the
 * wait began to now, growing, inside the outline of the whole wait, with its words.
 *
 * - An open gap: from where it opened, "waiting for #400 · 3.2 s of 10 s"; at the gap timeout
 *   the sequencer declares the gap and it comes back as an ordinary gap band.
 * - The start window (the sequencer collects a key's first arrivals before it decides where the
 *   key starts): from the key's first arrival, "collecting: 7 s left", counting down; it is gone
 *   once the window closes.
 *
 * Pure (no DOM); the host measured the wait when it sent the state (SessionInfo.open).
 */
import { OpenState, openStateWords } from '../core/sequencer/openState';
import { assertNever } from '../core/util/assertNever';

export interface OpenGapBand {
  /** An open gap, or a start window. */
  readonly kind: 'gap' | 'start';
  readonly key: number;
  /** Engine clock: where the wait began, where it is now, where it ends (timeout, window's end). */
  readonly t0: number;
  readonly tNow: number;
  readonly tDeadline: number;
  /** How much of the wait has passed, 0…1. */
  readonly fraction: number;
  /** "waiting for #400 · 3.2 s of 10 s", "collecting: 7 s left" */
  readonly label: string;
}

/** The band of a key waiting on an open gap or in its start window; none for a key holding nothing. */
export function openGapBand(key: number, state: OpenState | undefined): OpenGapBand | undefined {
  if (!state) return undefined;
  const label = openStateWords(state).replace(/ · \d+ held$/, '');
  switch (state.kind) {
    case 'waiting':
      return band('gap', key, state.openedAt, state.waitedMs, state.timeoutMs, label);
    case 'collecting':
      // A hole among the first arrivals is drawn as the open gap it is, from the arrival above it.
      if (state.hole) return band('gap', key, state.hole.openedAt, state.hole.waitedMs, state.hole.timeoutMs, label);
      return band('start', key, state.openedAt, state.windowMs - state.leftMs, state.windowMs, label);
    default:
      return assertNever(state, 'open state');
  }
}

function band(kind: OpenGapBand['kind'], key: number, t0: number, waitedMs: number, lengthMs: number, label: string): OpenGapBand {
  const length = Math.max(0, lengthMs);
  const waited = Math.min(length, Math.max(0, waitedMs));
  return { kind, key, t0, tNow: t0 + waited, tDeadline: t0 + length, fraction: length > 0 ? waited / length : 1, label };
}

/** Where a live session's data ends: its last arrival, or further where a key still waits. */
export function liveDataEnd(end: number, bands: readonly OpenGapBand[]): number {
  let e = end;
  for (const b of bands) if (b.tNow > e) e = b.tNow;
  return e;
}
