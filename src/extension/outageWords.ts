/**
 * A live session's outage in a few words, for the places too small for the whole story (the
 * tree row, the timeline's header): what is wrong and what comes next. The full detail stays in
 * the hover, the status bar's tooltip and the log. No vscode import (unit-tested in plain Node).
 */

export interface OutageWords {
  /** What is wrong: "emulator not running". */
  readonly reason: string;
  /** What happens or what to do: "reconnects by itself" / "Re-tap". */
  readonly next: string;
}

const BY_KIND: Readonly<Record<string, OutageWords>> = {
  'emulator-down': { reason: 'emulator not running', next: 'start it again: SeqScope reconnects by itself' },
  unavailable: { reason: 'server unreachable', next: 'SeqScope reconnects by itself' },
  timeout: { reason: 'server not answering', next: 'SeqScope reconnects by itself' },
  'not-found': { reason: 'subscription gone', next: 'attach to another subscription' },
  'permission-denied': { reason: 'permission denied', next: 'grant roles/pubsub.subscriber, then attach again' },
  unauthenticated: { reason: 'not signed in', next: 'run gcloud auth application-default login' },
};

/** The words for a disconnect whose PubsubError kind is `cause` (a gone tap: Re-tap). */
export function outageWords(cause: string | undefined, tapGone: boolean): OutageWords {
  if (tapGone) return { reason: 'tap is gone', next: 'Re-tap makes a new one and continues the recording' };
  return BY_KIND[cause ?? ''] ?? { reason: 'connection lost', next: 'SeqScope reconnects by itself' };
}
