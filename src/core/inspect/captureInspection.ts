/**
 * A capture inspected for an agent (`seqscope mcp`, the extension's language model tools): the
 * replay summary and the findings (every trace event but the messages), kept so that a
 * conversation's follow-up questions are answered without reading the files again. Messages are
 * not kept — a capture may hold millions — and are found by reading the files again
 * (findMessages).
 */
import { captureVersion } from '../capture/fileIdentity';
import { runReplay } from '../replay/replayRun';
import { ReplaySummary } from '../replay/replayEngine';
import { describeOptions, SequencingOptions } from '../sequencer/sequencingOptions';
import { MessageEvent } from '../trace/traceEvents';
import { compileQuery, MessageQuery } from '../trace/messageMatch';
import { InputError } from '../util/inputError';
import { FindingEvent, MAX_FINDINGS_KEPT } from './findingKinds';

export interface Inspection {
  readonly paths: readonly string[];
  readonly options: SequencingOptions;
  readonly summary: ReplaySummary;
  readonly findings: readonly FindingEvent[];
  /** Findings past MAX_FINDINGS_KEPT, counted but not kept. */
  readonly findingsDropped: number;
  readonly notes: readonly string[];
}

export async function inspectCaptures(paths: readonly string[], options: SequencingOptions, signal?: AbortSignal): Promise<Inspection> {
  const findings: FindingEvent[] = [];
  let dropped = 0;
  const { summary, notes, cancelled } = await runReplay({
    paths,
    options,
    signal,
    listener: (ev) => {
      if (ev.type === 'message') return;
      if (findings.length < MAX_FINDINGS_KEPT) findings.push(ev);
      else dropped++;
    },
  });
  if (cancelled) throw new InputError('the inspection was cancelled');
  if (summary.unsequenced) throw new InputError(`${summary.unsequenced.reason}: ${summary.unsequenced.fix.flag}`);
  return { paths, options, summary, findings, findingsDropped: dropped, notes };
}

export interface MessageSearch {
  readonly hits: readonly MessageEvent[];
  /** Matches past the limit, counted. */
  readonly more: number;
  /** Binary payloads a text search passed over. */
  readonly binary: number;
}

/** Reads the captures again and keeps the first `limit` released messages the query matches. */
export async function findMessages(
  paths: readonly string[],
  options: SequencingOptions,
  query: MessageQuery,
  limit: number,
  signal?: AbortSignal,
): Promise<MessageSearch> {
  const match = compileQuery(query);
  const hits: MessageEvent[] = [];
  let more = 0;
  let binary = 0;
  await runReplay({
    paths,
    options,
    signal,
    listener: (ev) => {
      if (ev.type !== 'message') return;
      const r = match(ev.messageId, ev.data);
      if (r === 'binary') binary++;
      if (r !== 'match') return;
      if (hits.length < limit) hits.push(ev);
      else more++;
    },
  });
  return { hits, more, binary };
}

/**
 * Inspections kept between calls, the most recently used last; keyed by the captures' paths,
 * the options and the files' identity and size (captureVersion), so a capture that changed is
 * read again and one renamed over is not mistaken for the old one.
 */
export class InspectionCache {
  private readonly entries = new Map<string, Promise<Inspection>>();

  constructor(private readonly capacity = 4) {}

  async get(paths: readonly string[], options: SequencingOptions): Promise<Inspection> {
    const version = captureVersion(paths);
    if (version === undefined) throw new InputError(missingMessage(paths));
    const id = JSON.stringify([paths, describeOptions(options), version]);
    let entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
    } else {
      entry = inspectCaptures(paths, options);
      // A failed inspection is not kept: the next call tries again.
      entry.catch(() => this.entries.get(id) === entry && this.entries.delete(id));
    }
    this.entries.set(id, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}

function missingMessage(paths: readonly string[]): string {
  const missing = paths.filter((p) => captureVersion([p]) === undefined);
  return `${missing.map((p) => JSON.stringify(p)).join(', ')} cannot be read: give the path of an existing capture file (absolute, or relative to the server's working folder)`;
}
