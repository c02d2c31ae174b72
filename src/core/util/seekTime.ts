/**
 * Where a subscription may be seeked to without losing messages.
 *
 * Seeking to a time marks every message published before it as acknowledged and every later one
 * as not. Back in time that re-sends what the subscription retained — what SeqScope's "replay
 * from" is for. Forward, past now, it acknowledges the whole backlog, messages nobody has
 * received included, and they cannot be had again unless the subscription retains acked
 * messages: a typo in the year would empty it. So a future time is refused unless asked for.
 */

/** How far ahead of this machine's clock a time may be (the server's clock may be ahead). */
export const SEEK_CLOCK_SKEW_MS = 60_000;

/** Why seeking to `time` would lose messages, or undefined when it is not in the future. */
export function futureSeekProblem(time: Date, now: number): string | undefined {
  if (time.getTime() <= now + SEEK_CLOCK_SKEW_MS) return undefined;
  return `${time.toISOString()} is in the future: seeking there acknowledges every message published before it, including those not yet received`;
}
