/** What the sequencer found, as agents are told it: every trace event that is not a released message. */
import type { MessageEvent, TraceEvent } from '../trace/traceEvents';

export type FindingEvent = Exclude<TraceEvent, MessageEvent>;
export type FindingKind = FindingEvent['type'];

/** Findings kept per inspection; past this the list says it was cut (the summary counts all). */
export const MAX_FINDINGS_KEPT = 200_000;
