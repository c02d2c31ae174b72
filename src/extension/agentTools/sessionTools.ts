/**
 * The language model tools on open sessions (Copilot agent mode, any chat participant): list the
 * sessions, summarise one or a key, list findings, find messages, and open a capture. They answer
 * in the compact text `seqscope mcp` answers in (core/inspect/inspectText.ts), read the sessions'
 * columns instead of the files where they can, and send payloads only when asked. A bad input
 * answers with a message that says what to fix; it is never thrown at the chat.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Inspection } from '../../core/inspect/captureInspection';
import { FindingEvent } from '../../core/inspect/findingKinds';
import { assertReadable, capturePaths } from '../../core/inspect/captureTools';
import { compareForAgent, comparisonText } from '../../core/inspect/compareInspection';
import { Args, findingsFilter, JsonSchema, messageQuery, optionalString, SEQUENCING_PROPERTIES, sequencingText } from '../../core/inspect/inspectArgs';
import { SESSION_TOOL_SCHEMAS, SessionToolName } from './toolSchemas';
import { counts, findingLine, findingsPage, findingsPageText, messageLine, payloadLine, quoteText, summaryText } from '../../core/inspect/inspectText';
import { describeOptions, SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { compilePayloadPattern, MessageQuery, payloadText } from '../../core/trace/messageMatch';
import { InputError, isInputError } from '../../core/util/inputError';
import { CaptureError } from '../../core/capture/captureReader';
import { log } from '../log';
import { optionsFromSettings } from '../settings';
import { orderKeys } from '../../core/trace/keyOrder';
import { searchInWorker } from '../../timeline/node/searchInWorker';
import { findingOf, SessionFindings, sessionFindings } from '../../timeline/sessionFindings';
import { Session } from '../session';
import { SessionManager } from '../sessionManager';

/** Keys a session's line in the list names, the busiest in findings first. */
const KEYS_LISTED = 10;
/** A payload is cut to this many characters in an answer (the record stays one request away). */
const PAYLOAD_WIDTH = 2000;

export interface SessionToolHost {
  readonly manager: SessionManager;
  /** The Find Messages worker script. */
  readonly searchWorker: string;
  /** Relative capture paths are read from here (the first workspace folder). */
  readonly cwd: string | undefined;
  /** Opens captures as Open Capture does and shows the session; undefined when cancelled. */
  open(paths: string[], options: SequencingOptions): Promise<Session | undefined>;
}

export interface SessionTool {
  readonly name: string;
  readonly inputSchema: JsonSchema;
  /** Set for the tools that act (open a capture): what the user confirms first. */
  confirm?(args: Args): { title: string; message: string };
  /** What the chat shows while it runs. */
  progress(args: Args): string;
  run(args: Args, signal: AbortSignal): Promise<string>;
}

/** The session named by `session` (id or title), else the active one; an InputError saying which are open. */
export function sessionNamed(manager: SessionManager, args: Args): Session {
  const name = optionalString(args, 'session');
  const all = manager.all;
  if (all.length === 0)
    throw new InputError('no session is open in SeqScope: open a capture first (seqscope_open_capture, or the command SeqScope: Open Capture…)');
  if (name === undefined) {
    const s = manager.active ?? (all.length === 1 ? all[0] : undefined);
    if (!s) throw new InputError(`${all.length} sessions are open and none is active: give "session", one of ${openList(all)}`);
    return s;
  }
  const s = manager.get(name) ?? all.find((x) => x.title === name);
  if (!s) throw new InputError(`no open session is ${quoteText(name)}: give one of ${openList(all)}`);
  return s;
}

function openList(all: readonly Session[]): string {
  return all.map((s) => `${s.id} (${quoteText(s.title, 60)})`).join(', ');
}

/** What a session is read from: files, or a subscription (and the file it records into). */
function sourceText(s: Session): string {
  if (s.live) {
    const rec = s.live.recording ? `, recording to ${s.live.recording}` : '';
    return `${s.live.tapOf ? `tap on ${s.live.tapOf}` : `subscription ${s.live.subscription}`} (${s.live.state}: ${s.live.received} received, ${s.live.rate.toFixed(1)}/s${rec})`;
  }
  return `${s.sourcePaths.join(', ')}${s.partial ? ' (loading was cancelled: partial)' : ''}`;
}

function listText(manager: SessionManager): string {
  const all = manager.all;
  if (all.length === 0) return 'no session is open in SeqScope (seqscope_open_capture opens a capture)';
  const lines = [`${all.length} ${all.length === 1 ? 'session' : 'sessions'} open:`];
  for (const s of all) {
    const sum = s.data.summary;
    lines.push(`session ${s.id}${s === manager.active ? ' (active)' : ''}: ${quoteText(s.title)}`);
    lines.push(`  source: ${sourceText(s)}`);
    lines.push(`  options: ${describeOptions(s.options)}`);
    lines.push(`  total, ${sum.keys} keys: ${counts(sum)}`);
    const order = orderKeys(sum.byKey, 'findings', (k) => k.key).slice(0, KEYS_LISTED);
    for (const i of order) lines.push(`  key ${quoteText(sum.byKey[i].key)}: ${counts(sum.byKey[i])}`);
    if (order.length < sum.byKey.length)
      lines.push(`  … ${sum.byKey.length - order.length} more keys (seqscope_summarize_session lists the keys with the most findings; forKey gives one)`);
  }
  return lines.join('\n');
}

/** The session as an inspection, as the text of `seqscope mcp` takes it, and its findings' records. */
function inspectionOf(s: Session): { ins: Inspection; found: SessionFindings } {
  const found = sessionFindings(s.data, s.sourcePaths.length === s.data.paths.length ? s.sourcePaths : s.data.paths);
  const notes = [...(s.damage ?? []), ...(s.notes ?? [])];
  if (s.live) notes.push(`live: ${sourceText(s)}; these are the counts so far`);
  return { ins: { paths: s.sourcePaths, options: s.options, summary: s.data.summary, findings: found.findings, findingsDropped: found.dropped, notes }, found };
}

/**
 * A page of findings with what the columns do not keep, read back from the records: publish and
 * receive times, and the publish time of the message a reordered one came behind.
 */
async function withRecordTimes(s: Session, page: readonly FindingEvent[], found: SessionFindings): Promise<FindingEvent[]> {
  const times = async (a: number | undefined) => {
    if (a === undefined) return {};
    const rm = await s.files.read(a).catch(() => undefined);
    return { ...(rm?.message.publishTime ? { publishTime: rm.message.publishTime } : {}), ...(rm?.receivedAt ? { receivedAt: rm.receivedAt } : {}) };
  };
  const behind = arrivalsOfIds(s, new Set(page.flatMap((ev) => (ev.type === 'reordered' ? [ev.behindMessageId] : []))));
  return Promise.all(
    page.map(async (ev): Promise<FindingEvent> => {
      switch (ev.type) {
        case 'duplicate':
        case 'late':
          return { ...ev, ...(await times(found.arrivalOf.get(ev))) };
        case 'reordered': {
          const b = (await times(behind.get(ev.behindMessageId))).publishTime;
          return { ...ev, ...(await times(found.arrivalOf.get(ev))), ...(b ? { behindPublishTime: b } : {}) };
        }
        default:
          return ev;
      }
    }),
  );
}

/** The first arrival of each messageId asked for: one pass over the arrival log. */
function arrivalsOfIds(s: Session, ids: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  if (ids.size === 0) return out;
  const col = s.data.log.messageId;
  for (let a = 0; a < s.data.log.count && out.size < ids.size; a++) {
    const id = col.get(a);
    if (ids.has(id) && !out.has(id)) out.set(id, a);
  }
  return out;
}

/** Arrivals whose messageId is `id`, in arrival order: from the arrival log, no file read. */
function arrivalsWithId(s: Session, id: string): number[] {
  const ids = s.data.log.messageId;
  const out: number[] = [];
  for (let a = 0; a < s.data.log.count; a++) if (ids.get(a) === id) out.push(a);
  return out;
}

/** Each arrival's event (a message, duplicate, late, reordered-marked or invalid record). */
function eventsOfArrivals(s: Session, arrivals: readonly number[]): Map<number, number> {
  const wanted = new Map<number, number>(arrivals.map((a) => [a, -1]));
  const arr = s.data.store.arrival;
  const kinds = s.data.store.kind;
  for (let id = 0; id < s.data.store.count; id++) {
    const a = arr.get(id);
    // A reordered mark shares its message's arrival: the message event speaks for it.
    if (a >= 0 && wanted.get(a) === -1 && kinds.get(id) !== 5) wanted.set(a, id);
  }
  return wanted;
}

async function findText(host: SessionToolHost, s: Session, args: Args, signal: AbortSignal): Promise<string> {
  const q = messageQuery(args);
  const { matched, arrivals, binary, cancelled } = await matchArrivals(host, s, q.query, q.limit, signal);
  if (matched === 0)
    return `no messages in ${quoteText(s.title)} match${binary ? `; ${binary} binary payloads were not searched as text (find them by messageId)` : ''}${cancelled ? ' (the search was cancelled)' : ''}`;
  const lines = [
    `${matched} records in ${quoteText(s.title)} match${arrivals.length < matched ? `; the first ${arrivals.length} shown` : ''}${cancelled ? ' (the search was cancelled: more may match)' : ''}`,
  ];
  const events = eventsOfArrivals(s, arrivals);
  for (const a of arrivals) {
    const id = events.get(a) ?? -1;
    const record = await s.files.read(a).catch(() => undefined);
    const m = record?.message;
    const v = id >= 0 ? s.data.event(id) : undefined;
    if (v?.kind === 'message') {
      lines.push(
        messageLine({
          type: 'message',
          key: v.key,
          ...(v.seq !== undefined ? { seq: v.seq } : {}),
          messageId: v.messageId ?? m?.messageId ?? '',
          ...(m?.publishTime ? { publishTime: m.publishTime } : {}),
          ...(m?.attributes && Object.keys(m.attributes).length ? { attributes: m.attributes } : {}),
          arrivedAt: v.t0,
          releasedAt: v.t1,
          heldMs: v.t1 - v.t0,
          ...(v.file !== undefined && s.data.paths.length > 1 ? { file: s.sourcePaths[v.file] ?? s.data.paths[v.file] } : {}),
          line: v.line ?? 0,
        }),
      );
    } else if (v) {
      const f = findingOf(v, s.sourcePaths);
      const times = { ...(m?.publishTime ? { publishTime: m.publishTime } : {}), ...(record?.receivedAt ? { receivedAt: record.receivedAt } : {}) };
      lines.push(f ? findingLine({ ...f, ...times }) : `record ${a} (${v.kind})`);
    } else {
      lines.push(`record at arrival ${a}, messageId ${quoteText(m?.messageId ?? '')}: not sequenced yet (held, or the load was cut short)`);
    }
    if (q.includePayload && m?.data !== undefined) lines.push(payloadLine(m.data, PAYLOAD_WIDTH));
  }
  if (binary) lines.push(`${binary} binary payloads were not searched as text (find them by messageId)`);
  return lines.join('\n');
}

/** The arrivals matching the query, the first `limit` in arrival order, and how many match in all. */
async function matchArrivals(
  host: SessionToolHost,
  s: Session,
  query: MessageQuery,
  limit: number,
  signal: AbortSignal,
): Promise<{ matched: number; arrivals: number[]; binary: number; cancelled: boolean }> {
  const id = query.messageIds?.[0];
  if (!query.payload) {
    const all = arrivalsWithId(s, id!);
    return { matched: all.length, arrivals: all.slice(0, limit), binary: 0, cancelled: false };
  }
  // A bad expression is the caller's to fix: said here, before a worker starts.
  const test = compilePayloadPattern(query.payload);
  const abort = new AbortController();
  const stop = () => abort.abort();
  signal.addEventListener('abort', stop);
  try {
    if (id !== undefined) {
      // Both: the records with the id whose payload matches too.
      const withId = arrivalsWithId(s, id);
      const hits: number[] = [];
      for (const a of withId) {
        const rm = await s.files.read(a).catch(() => undefined);
        const p = rm?.message.data === undefined ? undefined : payloadText(rm.message.data);
        if (typeof p === 'object' && test(p.text)) hits.push(a);
      }
      return { matched: hits.length, arrivals: hits.slice(0, limit), binary: 0, cancelled: false };
    }
    const r = await searchInWorker(host.searchWorker, s.data, { payload: query.payload }, { signal: abort.signal, limit, schemas: s.options.schemas });
    return { matched: r.matched, arrivals: r.hits.map((h) => h.arrival), binary: r.binary, cancelled: r.cancelled };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

function optionWords(args: Args): string {
  const given = Object.keys(SEQUENCING_PROPERTIES).filter((k) => args[k] !== undefined && args[k] !== null);
  return given.length ? given.map((k) => `${k} ${String(args[k])}`).join(', ') : 'the sequencing options of your SeqScope settings';
}

export function sessionTools(host: SessionToolHost): readonly (SessionTool & { name: SessionToolName })[] {
  const { manager } = host;
  const cwd = () => host.cwd ?? process.cwd();
  return [
    {
      name: 'seqscope_list_sessions',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_list_sessions,
      progress: () => 'Listing SeqScope sessions',
      run: async () => listText(manager),
    },
    {
      name: 'seqscope_summarize_session',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_summarize_session,
      progress: (args) => `Summarising ${optionalString(args, 'session') ?? 'the active SeqScope session'}`,
      run: async (args) => {
        const s = sessionNamed(manager, args);
        return summaryText(inspectionOf(s).ins, `session ${s.id} ${quoteText(s.title)}`, optionalString(args, 'forKey'));
      },
    },
    {
      name: 'seqscope_list_findings',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_list_findings,
      progress: () => 'Listing findings',
      run: async (args) => {
        const s = sessionNamed(manager, args);
        const filter = findingsFilter(args);
        const { ins, found } = inspectionOf(s);
        const { total, page } = findingsPage(ins, filter);
        return `session ${s.id} ${quoteText(s.title)}: ${findingsPageText(ins, filter, { total, page: await withRecordTimes(s, page, found) })}`;
      },
    },
    {
      name: 'seqscope_find_messages',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_find_messages,
      progress: () => 'Finding messages',
      run: async (args, signal) => findText(host, sessionNamed(manager, args), args, signal),
    },
    {
      name: 'seqscope_open_capture',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_open_capture,
      confirm: (args) => {
        const paths = Array.isArray(args.paths) ? args.paths.map(String) : [];
        return {
          title: 'Open a capture in SeqScope?',
          message: `Read and sequence ${paths.map((p) => `\`${p}\``).join(', ') || 'the capture'} with ${optionWords(args)}, and show it in the Sessions view.`,
        };
      },
      progress: (args) => `Opening ${Array.isArray(args.paths) ? args.paths.map((p) => path.basename(String(p))).join(', ') : 'a capture'}`,
      run: async (args) => {
        const paths = capturePaths(args, cwd());
        // As Open Capture sequences: the settings, and the user's presets, under what is given.
        const options = optionsFromSettings(sequencingText(args));
        assertReadable(paths, 'the workspace folder');
        const s = await host.open(paths, options);
        if (!s) return 'the capture was not opened (cancelled)';
        return summaryText(inspectionOf(s).ins, `opened as session ${s.id} ${quoteText(s.title)}`);
      },
    },
    {
      name: 'seqscope_compare_captures',
      inputSchema: SESSION_TOOL_SCHEMAS.seqscope_compare_captures,
      confirm: (args) => {
        const side = (v: unknown) => (Array.isArray(v) ? v.map((p) => `\`${String(p)}\``).join(', ') : '—');
        return {
          title: 'Compare two captures in SeqScope?',
          message: `Read and compare A ${side(args.a)} with B ${side(args.b)}, sequenced with ${optionWords(args)}.`,
        };
      },
      progress: () => 'Comparing captures',
      run: async (args, signal) => {
        const a = capturePaths(args, cwd(), 'a');
        const b = capturePaths(args, cwd(), 'b');
        const options = optionsFromSettings(sequencingText(args));
        assertReadable([...a, ...b], 'the workspace folder');
        return comparisonText(await compareForAgent(a, b, options, signal), optionalString(args, 'forKey'));
      },
    },
  ];
}

/** Registers the tools with VS Code's language model API. */
export function registerSessionTools(tools: readonly SessionTool[]): vscode.Disposable[] {
  return tools.map((tool) =>
    vscode.lm.registerTool<Args>(tool.name, {
      prepareInvocation: (options) => {
        const input = options.input ?? {};
        const c = tool.confirm?.(input);
        return {
          invocationMessage: safely(() => tool.progress(input)),
          ...(c ? { confirmationMessages: { title: c.title, message: new vscode.MarkdownString(c.message) } } : {}),
        };
      },
      invoke: async (options, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return result(await tool.run(options.input ?? {}, abort.signal));
        } catch (e) {
          if (isInputError(e) || e instanceof CaptureError) return result(`${tool.name}: ${(e as Error).message}`);
          log().error(`${tool.name} failed: ${String((e as Error)?.stack ?? e)}`);
          throw e;
        } finally {
          sub.dispose();
        }
      },
    }),
  );
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function safely(f: () => string): string {
  try {
    return f();
  } catch {
    return 'SeqScope';
  }
}
