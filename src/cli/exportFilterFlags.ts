/**
 * `replay`'s flags that choose which events `--export` writes — the extension's filter (key,
 * kind, number range, attribute), for the terminal: `--export - --only gap,late` prints just the
 * findings. The summary still counts everything.
 */
import { Command } from 'commander';
import { numberRangeProblem, TraceFilterSpec } from '../core/trace/traceFilter';
import { TRACE_EVENT_TYPES, TraceEventType } from '../core/trace/traceEvents';
import type { SeqBits } from '../core/sequencer/serial';
import { UsageError } from './usageError';
import { compilePayloadPattern, MessageQuery } from '../core/trace/messageMatch';

export interface ExportFilterFlags {
  only?: string;
  onlyKey?: string[];
  numbers?: string;
  where?: string;
  grep?: string;
  messageId?: string[];
}

export function addExportFilterOptions(cmd: Command): Command {
  return cmd
    .option('--only <kinds>', `export only these kinds of event: comma-separated ${TRACE_EVENT_TYPES.join(',')}`)
    .option('--only-key <key>', 'export only the events of this key; repeat it for several', (v: string, all: string[] = []) => [...all, v])
    .option(
      '--numbers <range>',
      'export only the events of numbers FROM-TO (inclusive; FROM- and -TO leave an end open; a gap that overlaps counts; with 16- or 32-bit numbers FROM above TO runs through the wrap, e.g. 65530-5)',
    )
    .option('--where <name=value>', 'export only the events whose record has this attribute value (gaps, which have no record, are kept, as in the extension)')
    .option(
      '--grep <regex>',
      'export only the events whose payload (data, decoded as UTF-8 text) matches this RE2 regular expression somewhere; (?i) ignores case; binary payloads never match (gaps are kept)',
    )
    .option(
      '--message-id <id>',
      'export only the events of the message with this messageId; repeat it for several (gaps are kept)',
      (v: string, all: string[] = []) => [...all, v],
    );
}

/**
 * Comma-separated names from `allowed`, singular or plural (`gaps`), for `flag`. Used for
 * `--only` and `--fail-on`.
 */
export function parseNameList<T extends string>(text: string, allowed: readonly T[], flag: string, what: string): T[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) throw new UsageError(`${flag} needs at least one of ${allowed.join(',')}`, flag);
  return parts.map((p) => {
    const singular = p.replace(/s$/, '');
    if (!(allowed as readonly string[]).includes(singular)) throw new UsageError(`${flag} "${p}" is not ${what}: use ${allowed.join(',')}`, flag);
    return singular as T;
  });
}

/**
 * The filter the flags describe, or undefined when none was given. `seqBits` is the sequence
 * width: where numbers wrap, a range may run through the wrap.
 */
export function exportFilterFromFlags(f: ExportFilterFlags, seqBits: SeqBits): TraceFilterSpec | undefined {
  const spec: TraceFilterSpec = {};
  if (f.only !== undefined) spec.kinds = [...new Set(parseNameList<TraceEventType>(f.only, TRACE_EVENT_TYPES, '--only', 'a kind of event'))];
  if (f.onlyKey?.length) spec.keys = f.onlyKey;
  if (f.numbers !== undefined) {
    const m = /^\s*(\d+)?\s*(-)?\s*(\d+)?\s*$/.exec(f.numbers);
    if (!m || (m[1] === undefined && m[3] === undefined) || (m[2] === undefined && m[3] !== undefined)) {
      throw new UsageError(`--numbers "${f.numbers}" is not a range: use FROM-TO, FROM-, -TO or one number`, '--numbers');
    }
    const from = m[1] === undefined ? undefined : Number(m[1]);
    // One number alone is a range of one.
    const to = m[3] !== undefined ? Number(m[3]) : m[2] === undefined ? from : undefined;
    const problem = numberRangeProblem(from, to, seqBits);
    // With 64 bits the one problem is a start above the end.
    if (problem) throw new UsageError(`--numbers ${f.numbers}: ${seqBits === 64 ? 'FROM is above TO, and ' : ''}${problem}`, '--numbers');
    spec.seqFrom = from;
    spec.seqTo = to;
  }
  if (f.where !== undefined) {
    const eq = f.where.indexOf('=');
    if (eq <= 0) throw new UsageError(`--where "${f.where}" is not name=value`, '--where');
    spec.attribute = { name: f.where.slice(0, eq), value: f.where.slice(eq + 1) };
  }
  return Object.keys(spec).length ? spec : undefined;
}

/**
 * The messages `--grep` and `--message-id` ask for, or undefined when neither was given. A
 * regular expression that is not valid is a usage error naming it.
 */
export function messageQueryFromFlags(f: ExportFilterFlags): MessageQuery | undefined {
  const ids = f.messageId?.length ? [...new Set(f.messageId)] : undefined;
  if (ids?.some((id) => id === '')) throw new UsageError('--message-id needs a messageId', '--message-id');
  if (f.grep === '') throw new UsageError('--grep needs a regular expression (use . for any payload)', '--grep');
  const payload = f.grep === undefined ? undefined : { source: f.grep, regex: true, ignoreCase: false };
  if (payload) compilePayloadPattern(payload, { flag: '--grep' });
  if (!ids && !payload) return undefined;
  return { ...(ids ? { messageIds: ids } : {}), ...(payload ? { payload } : {}) };
}
