/**
 * Finding messages: by messageId (exact) and by what their payload says — text or a regular
 * expression over the decoded payload (the base64 `data` read as UTF-8). The extension's Find
 * Messages and the CLI's `--grep` / `--message-id` export filter match alike through this module.
 *
 * Regular expressions are RE2's (the re2js port: plain JavaScript, no native build), which match
 * in time linear in the payload: a pattern such as `(a+)+$` that makes JavaScript's own engine
 * backtrack for minutes on a 30-byte payload cannot hang a search over a million messages. RE2
 * has no backreferences and no lookahead; everything else common is there (classes, `\d`, `\b`,
 * `{n,m}`, `(?i)`, named groups).
 *
 * Binary payloads — not UTF-8 text, or text with control characters (an MDP 3.0 packet starts
 * with a little-endian sequence number: NUL bytes) — are not searched as text: a text search
 * would match their bytes by accident, and their hex would match digits typed to find an id.
 * They are counted, so a search can say how many it passed over; messageId finds them.
 *
 * Browser-safe: no Node built-ins.
 */
import { RE2JS, RE2JSException } from 're2js';
import { base64Bytes } from '../capture/mdp3';
import { InputError, InputFix } from '../util/inputError';
import type { CaptureEntry, ReceivedMessage } from '../capture/captureRecord';
import type { TraceEvent } from './traceEvents';

/** What a payload is to a text search. */
export type PayloadText = { readonly text: string } | 'binary' | 'empty';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** C0 controls other than tab, line feed, form feed and carriage return; and DEL. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\x00-\x08\x0b\x0e-\x1f\x7f]/;

/** The payload of a Pub/Sub `data` field (base64) as text, or why it is not text. */
export function payloadText(data: string | undefined): PayloadText {
  if (data === undefined || data === '') return 'empty';
  const bytes = base64Bytes(data);
  // Not base64: a hand-made capture may carry the text itself. It is text all the same.
  if (bytes === undefined) return CONTROL.test(data) ? 'binary' : { text: data };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return 'binary';
  }
  return CONTROL.test(text) ? 'binary' : { text };
}

/** How a payload is searched: for text it contains, or a regular expression. */
export interface PayloadPattern {
  readonly source: string;
  /** True: `source` is an RE2 regular expression; false: plain text. */
  readonly regex: boolean;
  readonly ignoreCase: boolean;
}

/** Whether `text` passes a compiled pattern. */
export type TextTest = (text: string) => boolean;

/**
 * The pattern as a test over payload text. A regular expression that is not valid throws an
 * InputError naming it, what is wrong and where it is fixed (`fix`).
 */
export function compilePayloadPattern(p: PayloadPattern, fix: InputFix = {}): TextTest {
  if (!p.regex) {
    if (!p.ignoreCase) return (t) => t.includes(p.source);
    const lower = p.source.toLowerCase();
    return (t) => t.toLowerCase().includes(lower);
  }
  const re = compileRegex(p, fix);
  return (t) => re.test(t);
}

/** Where a pattern first matches in a text: [index, length] in UTF-16 units. */
export type TextFind = (text: string) => readonly [number, number] | undefined;

/** The pattern as a finder (slower than the test: for the matches, to show them). */
export function compilePayloadFinder(p: PayloadPattern, fix: InputFix = {}): TextFind {
  if (!p.regex) {
    const needle = p.ignoreCase ? p.source.toLowerCase() : p.source;
    return (t) => {
      const at = (p.ignoreCase ? t.toLowerCase() : t).indexOf(needle);
      return at < 0 ? undefined : [at, needle.length];
    };
  }
  const re = compileRegex(p, fix);
  return (t) => {
    const m = re.exec(t) as (string[] & { index: number }) | null;
    return m ? [m.index, m[0].length] : undefined;
  };
}

function compileRegex(p: PayloadPattern, fix: InputFix): RE2JS {
  try {
    return RE2JS.compile(p.source, p.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    if (e instanceof RE2JSException) throw new InputError(`the regular expression /${p.source}/ is not valid: ${regexProblem(e)}`, fix);
    throw e;
  }
}

/**
 * A short line of `text` from a little before `at` (where a match starts), for a list of matches: at most `width`
 * characters, line breaks as spaces, an ellipsis where it was cut.
 */
export function snippet(text: string, at: number, width = 80): string {
  // Some context before the match; more where the text ends soon after it.
  const before = Math.max(0, Math.min(at - 20, text.length - width));
  const end = Math.min(text.length, before + width);
  const cut = text.slice(before, end).replace(/\s+/g, ' ');
  return (before > 0 ? '…' : '') + cut + (end < text.length ? '…' : '');
}

/** RE2's message without its "error parsing regexp: " lead, and a hint where RE2 differs. */
function regexProblem(e: RE2JSException): string {
  const what = e.message.replace(/^error parsing regexp: /, '');
  const hint = /invalid (named capture|escape sequence: `\\[1-9])|invalid or unsupported Perl syntax: `\(\?[=!<]/.test(what)
    ? ' (RE2 syntax: no backreferences or lookaround)'
    : '';
  return what + hint;
}

/** What to find: every part given must match (messageIds: any of them). */
export interface MessageQuery {
  /** Exact messageIds; a message matches when its id is one of them. */
  readonly messageIds?: readonly string[];
  readonly payload?: PayloadPattern;
}

export function isQueryActive(q: MessageQuery | undefined): q is MessageQuery {
  return !!q && (!!q.messageIds?.length || !!q.payload);
}

/** A query in words, for summaries: `messageId 17 · payload /ab+c/`. */
export function describeQuery(q: MessageQuery): string {
  const parts: string[] = [];
  if (q.messageIds?.length) parts.push(`messageId ${q.messageIds.join(', ')}`);
  if (q.payload) parts.push(`payload ${describePattern(q.payload)}`);
  return parts.join(' · ');
}

export function describePattern(p: PayloadPattern): string {
  return p.regex ? `/${p.source}/${p.ignoreCase ? 'i' : ''}` : JSON.stringify(p.source);
}

/** How a message fared against a query. */
export type MatchResult = 'match' | 'no' | 'binary';

/**
 * A query compiled for use on many messages. `binary`: the query needs the payload, and the
 * payload is binary (so it could not be searched).
 */
export function compileQuery(q: MessageQuery, fix: InputFix = {}): (messageId: string, data: string | undefined) => MatchResult {
  const match = compileTextQuery(q, fix);
  return (messageId, data) => match(messageId, () => payloadText(data));
}

/** The query over a payload's text as the caller reads it (`text` called only when the query needs it). */
function compileTextQuery(q: MessageQuery, fix: InputFix): (messageId: string, text: () => PayloadText) => MatchResult {
  const ids = q.messageIds?.length ? new Set(q.messageIds) : undefined;
  const test = q.payload && compilePayloadPattern(q.payload, fix);
  return (messageId, text) => {
    if (ids && !ids.has(messageId)) return 'no';
    if (!test) return 'match';
    const p = text();
    if (p === 'binary') return 'binary';
    return p !== 'empty' && test(p.text) ? 'match' : 'no';
  };
}

/**
 * What one search box finds (Find Messages): `/pattern/flags` is a regular expression over
 * payloads (flag `i`: ignore case); anything else finds a message whose messageId is exactly
 * the text, or whose payload contains it, ignoring case.
 */
export interface SearchInput {
  /** The messageId to look for (plain text only). */
  readonly messageId?: string;
  readonly payload: PayloadPattern;
}

const SLASHED = /^\/(.*)\/([a-z]*)$/s;

/** The search box's text as a search; an InputError says what is wrong with it. */
export function parseSearchInput(input: string, fix: InputFix = {}): SearchInput {
  const text = input.trim();
  if (text === '') throw new InputError('type a messageId, text in payloads, or /a regular expression/', fix);
  const m = SLASHED.exec(text);
  if (!m || text.length < 3) return { messageId: text, payload: { source: text, regex: false, ignoreCase: true } };
  const bad = m[2].replace(/i/g, '');
  if (bad) throw new InputError(`/${m[1]}/${m[2]}: the one flag is i (ignore case), not "${bad}"`, fix);
  const payload = { source: m[1], regex: true, ignoreCase: m[2].includes('i') };
  compilePayloadPattern(payload, fix);
  return { payload };
}

/**
 * A predicate for trace events, as export filters apply it: an event about a record passes when
 * the record matches; a gap, which has no record, passes (as with the attribute filter, so an
 * export still shows where numbers are missing). `onBinary` hears of each record passed over;
 * `textOf` reads a record's payload as text (decodedText.ts: decoded by its schema).
 */
export function traceEventQueryMatcher(
  q: MessageQuery,
  fix: InputFix = {},
  onBinary?: () => void,
  textOf: (rm: ReceivedMessage) => PayloadText = (rm) => payloadText(rm.message.data),
): (ev: TraceEvent, entry?: CaptureEntry) => boolean {
  const match = compileTextQuery(q, fix);
  return (ev, entry) => {
    if (ev.type === 'gap') return true;
    const rm = entry?.record;
    if (!rm) return false;
    const r = match(rm.message.messageId, () => textOf(rm));
    if (r === 'binary') onBinary?.();
    return r === 'match';
  };
}
