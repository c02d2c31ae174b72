/**
 * What the live Pub/Sub commands take and return for automation (tests, tasks): arguments that
 * skip the pickers, and the started session's names.
 */
import type { OptionText } from '../core/sequencer/sequencingOptions';

/** Arguments for automation (tests, tasks): skip the pickers. */
export interface AttachArgs {
  /** projects/P/subscriptions/S or S. */
  readonly subscription?: string;
  /** consume the subscription, or tap its topic instead. */
  readonly mode?: 'consume' | 'tap';
  /** How to sequence (as Open Capture… takes it); without it, the settings — or the picker when nothing was given. */
  readonly options?: OptionText;
}

export interface TapArgs {
  /**
   * A topic id (in seqscope.pubsub.projectId), a full path `projects/P/topics/T` (a topic of
   * another project: CME Smart Stream), a comma list of them, or an array: several topics feed
   * one session and recording.
   */
  readonly topic?: string | readonly string[];
  /** Skip the list of the project's topics: ask for ids or paths (what "no topics" offers). */
  readonly byPath?: boolean;
  /** How to sequence (as Open Capture… takes it); without it, the settings — or the picker when nothing was given. */
  readonly options?: OptionText;
}

export interface LiveResult {
  readonly id: string;
  /** The subscription read (the first tap's, with several topics). */
  readonly subscription: string;
  /** Every subscription read: one tap per topic. */
  readonly subscriptions: readonly string[];
  readonly recording: string;
}
