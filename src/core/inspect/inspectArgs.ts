/**
 * The agent tools' inputs: JSON Schemas (what `seqscope mcp` lists and `package.json`'s
 * languageModelTools declare) and their checked reading. A bad input is an InputError that says
 * which argument and what it takes.
 */
import { OptionText, resolveOptions, SequencingOptions } from '../sequencer/sequencingOptions';
import { MessageQuery, PayloadPattern } from '../trace/messageMatch';
import { parseTimestampMs } from '../util/timestamp';
import { InputError } from '../util/inputError';
import { FindingKind } from './findingKinds';
import { FINDING_KINDS, FindingsFilter } from './inspectText';

export type Args = Readonly<Record<string, unknown>>;
export type JsonSchema = Readonly<Record<string, unknown>>;

/** How a capture is sequenced: the CLI's sequencing flags. */
export const SEQUENCING_PROPERTIES = {
  preset: { type: 'string', description: "Named options: 'cme' (key attribute:Channel, seq attribute:MsgSeqNum, 32-bit), 'cme-json', or 'none'." },
  key: { type: 'string', description: "What a stream is keyed by: 'orderingKey', 'attribute:NAME', 'json:PATH' or 'none'." },
  seq: { type: 'string', description: "The sequence number: 'attribute:NAME', 'json:PATH' or 'none' (arrival order)." },
  time: { type: 'string', description: "The sender's time, for latency: 'attribute:NAME', 'mdp3' or 'json:PATH'." },
  seqBits: { type: 'integer', enum: [16, 32, 64], description: 'Width of the sequence numbers (they wrap at it).' },
  gapTimeout: { type: 'string', description: "How long a missing number is waited for before it is lost, e.g. '10s', '500ms'." },
  capacity: { type: 'integer', minimum: 1, description: 'Messages held per key while waiting for a missing number.' },
} as const;

export const FINDINGS_PROPERTIES = {
  kinds: { type: 'array', items: { type: 'string', enum: [...FINDING_KINDS] }, description: 'Only these kinds of finding (default: all).' },
  forKey: { type: 'string', description: 'Only the findings of this key (exact).' },
  fromSeq: { type: 'integer', minimum: 0, description: 'Only findings whose numbers reach this one or above (a gap overlapping the range counts).' },
  toSeq: { type: 'integer', minimum: 0, description: 'Only findings whose numbers reach this one or below.' },
  since: { type: 'string', description: 'Only findings made at or after this time (ISO 8601, e.g. 2026-11-30T09:30:00Z).' },
  until: { type: 'string', description: 'Only findings made at or before this time (ISO 8601).' },
  offset: { type: 'integer', minimum: 0, description: 'Findings to skip (paging; default 0).' },
  limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Findings to list (default 50, at most 500).' },
} as const;

export const MESSAGES_PROPERTIES = {
  messageId: { type: 'string', description: 'The messageId to find (exact).' },
  text: { type: 'string', description: 'Text the decoded payload contains.' },
  regex: { type: 'string', description: 'An RE2 regular expression the decoded payload matches.' },
  ignoreCase: { type: 'boolean', description: 'Match text or regex ignoring case.' },
  limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Messages to list (default 20, at most 200).' },
  includePayload: { type: 'boolean', description: 'Include each message payload (default false: counts and ids only).' },
} as const;

function optional<T>(args: Args, name: string, type: 'string' | 'boolean', check?: (v: T) => boolean): T | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== type || (check && !check(v as T))) throw new InputError(`argument "${name}" must be a ${type}${type === 'string' ? ' (not empty)' : ''}`);
  return v as T;
}

export function optionalString(args: Args, name: string): string | undefined {
  return optional<string>(args, name, 'string', (s) => s.length > 0);
}

export function optionalBoolean(args: Args, name: string): boolean | undefined {
  return optional<boolean>(args, name, 'boolean');
}

export function optionalInteger(args: Args, name: string, min: number, max: number): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new InputError(`argument "${name}" must be a whole number from ${min} to ${max}`);
  return v;
}

export function requiredString(args: Args, name: string): string {
  const v = optionalString(args, name);
  if (v === undefined) throw new InputError(`argument "${name}" is required`);
  return v;
}

/** The sequencing options the arguments describe (defaults: ordering key, no numbers). */
export function sequencingOptions(args: Args): SequencingOptions {
  return resolveOptions(sequencingText(args));
}

/** The sequencing arguments as option text (checked to be strings or numbers, not resolved). */
export function sequencingText(args: Args): OptionText {
  const text: Record<string, string> = {};
  for (const k of Object.keys(SEQUENCING_PROPERTIES)) {
    const v = args[k];
    if (v === undefined || v === null) continue;
    if (!(typeof v === 'string' && v !== '') && typeof v !== 'number') throw new InputError(`argument "${k}" must be a string (not empty)`);
    text[k] = String(v);
  }
  return text;
}

function time(args: Args, name: string): number | undefined {
  const s = optionalString(args, name);
  if (s === undefined) return undefined;
  const t = parseTimestampMs(s);
  if (typeof t !== 'number') throw new InputError(`argument "${name}": ${t.error}`);
  return t;
}

export function findingsFilter(args: Args): FindingsFilter {
  const kinds = args.kinds;
  if (kinds !== undefined && (!Array.isArray(kinds) || kinds.some((k) => !(FINDING_KINDS as readonly unknown[]).includes(k)))) {
    throw new InputError(`argument "kinds" must be a list of ${FINDING_KINDS.join(', ')}`);
  }
  const fromSeq = optionalInteger(args, 'fromSeq', 0, Number.MAX_SAFE_INTEGER);
  const toSeq = optionalInteger(args, 'toSeq', 0, Number.MAX_SAFE_INTEGER);
  return {
    kinds: kinds as FindingKind[] | undefined,
    key: optionalString(args, 'forKey'),
    fromSeq,
    toSeq,
    since: time(args, 'since'),
    until: time(args, 'until'),
    offset: optionalInteger(args, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: optionalInteger(args, 'limit', 1, 500) ?? 50,
  };
}

/** What find_messages looks for: a messageId, or text or a regex in the payload (one at least). */
export function messageQuery(args: Args): { query: MessageQuery; limit: number; includePayload: boolean } {
  const messageId = optionalString(args, 'messageId');
  const text = optionalString(args, 'text');
  const regex = optionalString(args, 'regex');
  if (text !== undefined && regex !== undefined) throw new InputError('give "text" or "regex", not both');
  if (messageId === undefined && text === undefined && regex === undefined) throw new InputError('give "messageId", "text" or "regex": what to find');
  const ignoreCase = optionalBoolean(args, 'ignoreCase') ?? false;
  const payload: PayloadPattern | undefined =
    text !== undefined ? { source: text, regex: false, ignoreCase } : regex !== undefined ? { source: regex, regex: true, ignoreCase } : undefined;
  return {
    query: { messageIds: messageId === undefined ? undefined : [messageId], payload },
    limit: optionalInteger(args, 'limit', 1, 200) ?? 20,
    includePayload: optionalBoolean(args, 'includePayload') ?? false,
  };
}
