/** `seqscope record --drain`: when the recording stops, and whether its quiet proves the subscription empty. */
import { formatDuration } from '../core/util/duration';

/** `--drain`: quiet this long first, then the note, then the rest of the ack deadline. */
export const DRAIN_QUIET_MS = 2000;

/**
 * `--drain`: stops the recording once the subscription is empty. A subscription cannot say that
 * it is: messages leased to a client that died (a killed recorder) stay away until their lease
 * ends, and on an ordered subscription every later message of their key waits behind them. A
 * recorder never extends a lease, so one it held ends at most an ack deadline after it was sent:
 * nothing for longer than that is the evidence. After DRAIN_QUIET_MS without a delivery the
 * recorder says it is waiting on such leases, and stops after `emptyAfterMs` of quiet with
 * `confirmed` false when that evidence is missing (see drainRule).
 */
export function watchDrain(rule: DrainRule, lastArrival: () => number, say: (line: string) => void, stop: (why: string) => void): NodeJS.Timeout {
  let noted = -1;
  return setInterval(() => {
    const since = lastArrival();
    const quiet = Date.now() - since;
    if (quiet >= rule.emptyAfterMs) {
      stop(
        rule.unconfirmed
          ? `drained: nothing arrived for ${formatDuration(rule.emptyAfterMs)}, not confirmed: ${rule.unconfirmed}`
          : `drained: nothing arrived for ${formatDuration(rule.emptyAfterMs)}, longer than a lease lasts`,
      );
    } else if (quiet >= DRAIN_QUIET_MS && noted !== since) {
      noted = since;
      say(
        `seqscope: nothing new for ${formatDuration(DRAIN_QUIET_MS)}; waiting up to ${formatDuration(rule.emptyAfterMs - DRAIN_QUIET_MS)} more for messages a previous client holds leased ` +
          `(they come back when their ack deadline expires; on an ordered subscription the rest of their key waits behind them)\n`,
      );
    }
  }, 250);
}

export interface DrainRule {
  /** Stop after this long without a delivery (ms). */
  readonly emptyAfterMs: number;
  /** Why an empty subscription cannot be concluded from that quiet; undefined when it can. */
  readonly unconfirmed?: string;
}

/**
 * When `--drain` stops and whether its quiet proves the subscription empty. A lease SeqScope took
 * lasts at most the ack deadline (10–600 s; it never extends one), so quiet for longer proves
 * that no recorder — alive or killed — still holds a message. Not on the emulator: it hands a
 * killed client's leases back in bursts an ack deadline or more apart, for minutes (measured: up
 * to 130 s with a 10 s deadline, silent for 30 s in between). A client that extends its leases
 * (the client libraries do, up to 10 min at a time) is outside that evidence: the docs say so.
 */
export function drainRule(ackDeadlineSeconds: number, quietMs: number | undefined, emulator: boolean): DrainRule {
  const leaseMs = Math.min(600, Math.max(10, ackDeadlineSeconds || 10)) * 1000;
  const emptyAfterMs = quietMs ?? leaseMs + DRAIN_QUIET_MS;
  if (emulator)
    return {
      emptyAfterMs,
      unconfirmed: `the emulator hands a killed client's leases back over minutes, not after the ack deadline (${formatDuration(leaseMs)}); run \`record --append --drain\` again for any it still holds`,
    };
  if (emptyAfterMs <= leaseMs)
    return {
      emptyAfterMs,
      unconfirmed: `${formatDuration(emptyAfterMs)} is not longer than the ack deadline (${formatDuration(leaseMs)}), so a stopped client's leases may not have ended; drop the quiet to wait the default`,
    };
  return { emptyAfterMs };
}
