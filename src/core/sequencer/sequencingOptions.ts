/**
 * How a stream is sequenced: where the key and the number come from, the number's width, and
 * the timeouts. Shared by the CLI flags and the extension's settings so both mean the same.
 */
import { formatDurationExact, parseDuration } from '../util/duration';
import { InputError, InputFix, isInputError } from '../util/inputError';
import { formatJsonPath, JsonPath, parseJsonPath } from '../util/jsonPath';
import type { SchemaSet } from '../schema/schemaSet';
import { presetSchemaEntries, type SchemaEntries } from '../schema/presetSchemas';
import type { SequencerConfig } from './sequencer';
import { SEQ_BITS, SeqBits } from './serial';

/** `json`: a field of the payload read as JSON (`json:payload[0].instrument.symbol`). */
export type JsonSpec = { readonly kind: 'json'; readonly path: JsonPath };
export type KeySpec = { readonly kind: 'orderingKey' } | { readonly kind: 'attribute'; readonly name: string } | JsonSpec | { readonly kind: 'none' };
/**
 * `mdp3`: the MsgSeqNum in the header of the MDP 3.0 packet that is the payload (CME Smart Stream).
 * `publishTime`: no numbers; arrival order, each key judged by its messages' publish times.
 */
export type SeqSpec =
  | { readonly kind: 'attribute'; readonly name: string }
  | { readonly kind: 'mdp3' }
  | JsonSpec
  | { readonly kind: 'publishTime' }
  | { readonly kind: 'none' };
/** Where the sender's time (for latency) comes from: an attribute in ms since the epoch, the MDP 3.0 packet's SendingTime, or a payload field. */
export type TimeSpec = { readonly kind: 'attribute'; readonly name: string } | { readonly kind: 'mdp3' } | JsonSpec | { readonly kind: 'none' };

export interface SequencingOptions {
  readonly key: KeySpec;
  readonly seq: SeqSpec;
  readonly seqBits: SeqBits;
  readonly gapTimeoutMs: number;
  readonly capacity: number;
  /** Attribute carrying the sender's time in ms since epoch (CME `SendingTime`), for latency. */
  readonly sendingTimeAttribute?: string;
  /** Latency from the MDP 3.0 packet's SendingTime (ns) instead (`--time mdp3`). */
  readonly sendingTimeMdp3?: boolean;
  /** Latency from a payload field (`--time json:<path>`): ISO 8601 (zone-less is UTC) or ms/ns since the epoch. */
  readonly sendingTimeJson?: JsonPath;
  /**
   * Payloads are MDP 3.0 packets: the detail pane and the JSONL export show their decoded
   * header. Set by the cme preset and by `mdp3` as the seq or time source; nothing else decodes.
   */
  readonly payload?: 'mdp3';
  /** False: no reset detection (`--no-resets`). Absent: on (docs/sequencing-rules.md, "Reset"). */
  readonly resets?: false;
  /** A jump to exactly this number from far away is a reset at once (`--reset-to`). */
  readonly resetTo?: number;
  /** Schemas `json:` options read payloads by (`--schema`); payloads that name their own are read by it. */
  readonly schemas?: SchemaSet;
  /**
   * Schema files the preset names (`schema`, `schemas`), not yet read: the CLI and the extension
   * read them into `schemas`, beside `--schema` and `seqscope.schemas` (which win entry by entry).
   */
  readonly presetSchemas?: SchemaEntries;
}

/** Whether records' numbers come from somewhere (an attribute or the packet), so are sequenced. */
export function isSequenced(o: SequencingOptions): boolean {
  return o.seq.kind !== 'none' && o.seq.kind !== 'publishTime';
}

/** Whether keys are judged by their messages' publish times (`--seq publishTime`). */
export function judgesPublishOrder(o: SequencingOptions): boolean {
  return o.seq.kind === 'publishTime';
}

/**
 * The sequencer's configuration for these options; `memory` sizes what it remembers (a replay
 * cursor that checkpoints the sequencer keeps it small).
 */
export function sequencerConfig(o: SequencingOptions, memory: Pick<SequencerConfig, 'historySize' | 'historyTotal' | 'idsKept'> = {}): SequencerConfig {
  return {
    gapTimeoutMs: o.gapTimeoutMs,
    capacity: o.capacity,
    seqBits: o.seqBits,
    sequenced: isSequenced(o),
    publishOrder: judgesPublishOrder(o),
    resets: o.resets,
    resetTo: o.resetTo,
    ...memory,
  };
}

/** Ordering keys without numbers are judged by publish order; other keys (see resolveOptions) keep arrival order. */
export const DEFAULT_OPTIONS: SequencingOptions = {
  key: { kind: 'orderingKey' },
  seq: { kind: 'publishTime' },
  seqBits: 64,
  gapTimeoutMs: 10_000,
  capacity: 10_000,
};

/** Named option sets; flags given next to a preset override it. */
export const PRESETS: Record<string, Partial<SequencingOptions>> = {
  cme: {
    key: { kind: 'attribute', name: 'Channel' },
    seq: { kind: 'attribute', name: 'MsgSeqNum' },
    // MsgSeqNum is the MDP 3.0 packet sequence number, a uInt32 on the wire (CME's tutorial shows
    // 1539130); --seq-bits 16 remains for feeds that number in 16 bits.
    seqBits: 32,
    sendingTimeAttribute: 'SendingTime',
    payload: 'mdp3',
    // MDP 3.0 packet sequence numbers start at 1 each weekly session (sources: test/fixtures/cme/NOTICE.md).
    resetTo: 1,
  },
  // CME Smart Stream JSON: header{messageType, sentTime, sequenceNumber, version} and a payload[]
  // of entries with instrument{…symbol}. CME numbers messages per session, across instruments,
  // so a topic is one sequence (sources: test/fixtures/cme-json/NOTICE.md).
  'cme-json': {
    key: { kind: 'none' },
    seq: { kind: 'json', path: ['header', 'sequenceNumber'] },
    sendingTimeJson: ['header', 'sentTime'],
  },
};

/** A user preset as written in `seqscope.presets` or a `--preset-file`: option text by field. */
export interface PresetText {
  key?: string;
  seq?: string;
  /** Sender's time for latency: attribute:<name> | mdp3 | json:<path> | none. */
  time?: string;
  seqBits?: string | number;
  gapTimeout?: string | number;
  capacity?: string | number;
  /** What a reset looks like: the number a new sequence starts at (`--reset-to`). */
  resetTo?: string | number;
  /** `off` turns reset detection off (`--no-resets`); `on` (the default) back on. */
  resets?: string;
  /** A schema file for payloads without a schema of their own (`--schema FILE`). */
  schema?: string;
  /** Schema files by schema name or topic, `"*"` for payloads without a schema (as `seqscope.schemas`). */
  schemas?: Readonly<Record<string, string>>;
}
const PRESET_FIELDS: readonly (keyof PresetText)[] = ['key', 'seq', 'seqBits', 'time', 'gapTimeout', 'capacity', 'resetTo', 'resets', 'schema', 'schemas'];
export type UserPresets = Readonly<Record<string, PresetText>>;

/**
 * Checks user presets (parsed JSON): an object of name → {key, seq, seqBits, time, gapTimeout,
 * capacity}. Throws an InputError starting with `source`, naming the preset and the field, fixed
 * where `fix` says (the `seqscope.presets` setting, the `--preset-file` flag).
 */
export function parsePresets(value: unknown, source: string, fix: InputFix = {}): UserPresets {
  const fail = (message: string): never => {
    throw new InputError(message, fix);
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`${source}: presets must be a JSON object of name → options`);
  const out: Record<string, PresetText> = {};
  for (const [name, p] of Object.entries(value as object)) {
    const at = `${source}: preset "${name}"`;
    if (name === '' || name.trim() !== name) fail(`${at}: a name must not be empty or begin or end with a space`);
    if (Object.hasOwn(PRESETS, name) || name === 'none') fail(`${at}: the name is built in; choose another`);
    if (p === null || typeof p !== 'object' || Array.isArray(p)) fail(`${at} must be an object with key, seq, seqBits, time, gapTimeout or capacity`);
    const text: PresetText = {};
    for (const [field, v] of Object.entries(p as Record<string, unknown>)) {
      if (!(PRESET_FIELDS as readonly string[]).includes(field)) fail(`${at}: field "${field}" is unknown: use ${PRESET_FIELDS.join(', ')}`);
      const numeric = field === 'seqBits' || field === 'gapTimeout' || field === 'capacity' || field === 'resetTo';
      if (typeof v !== 'string' && !(numeric && typeof v === 'number') && field !== 'schemas')
        fail(`${at}: field "${field}" must be a ${numeric ? 'string or number' : 'string'}`);
      (text as Record<string, unknown>)[field] = v;
      try {
        resolveOptions({ [field]: v });
      } catch (e) {
        if (isInputError(e)) fail(`${at}: field "${field}": ${e.message}`);
        throw e;
      }
    }
    try {
      resolveOptions(text);
    } catch (e) {
      if (isInputError(e)) fail(`${at}: ${e.message}`);
      throw e;
    }
    out[name] = text;
  }
  return out;
}

/** Built-in preset names, then the user's. */
export function presetNames(user: UserPresets = {}): string[] {
  return [...Object.keys(PRESETS), ...Object.keys(user)];
}

export function parseKeySpec(text: string): KeySpec {
  if (text === 'orderingKey') return { kind: 'orderingKey' };
  if (text === 'none') return { kind: 'none' };
  const name = attributeName(text);
  if (name !== undefined) return { kind: 'attribute', name };
  const json = jsonSpec(text, 'key');
  if (json !== undefined) return json;
  throw new InputError(
    `key "${text}" is not valid: use orderingKey, attribute:<name>, json:<path> (a payload field, e.g. json:payload[0].instrument.symbol) or none`,
    optionFix('key'),
  );
}

export function parseSeqSpec(text: string): SeqSpec {
  if (text === 'none') return { kind: 'none' };
  if (text === 'mdp3') return { kind: 'mdp3' };
  if (text === 'publishTime') return { kind: 'publishTime' };
  const name = attributeName(text);
  if (name !== undefined) return { kind: 'attribute', name };
  const json = jsonSpec(text, 'seq');
  if (json !== undefined) return json;
  throw new InputError(
    `seq "${text}" is not valid: use attribute:<name> (e.g. attribute:MsgSeqNum), mdp3 (the MDP 3.0 packet header), json:<path> (a payload field, e.g. json:header.seq), publishTime (no numbers: judge each key by publish order) or none`,
    optionFix('seq'),
  );
}

export function parseTimeSpec(text: string): TimeSpec {
  if (text === 'none') return { kind: 'none' };
  if (text === 'mdp3') return { kind: 'mdp3' };
  const name = attributeName(text);
  if (name !== undefined) return { kind: 'attribute', name };
  const json = jsonSpec(text, 'time');
  if (json !== undefined) return json;
  throw new InputError(
    `time "${text}" is not valid: use attribute:<name> (ms since the epoch, e.g. attribute:SendingTime), mdp3 (the MDP 3.0 packet's SendingTime), json:<path> (a payload field, e.g. json:header.sentTime) or none`,
    optionFix('time'),
  );
}

function jsonSpec(text: string, option: string): JsonSpec | undefined {
  if (!text.startsWith('json:')) return undefined;
  try {
    return { kind: 'json', path: parseJsonPath(text.slice(5)) };
  } catch (e) {
    if (isInputError(e)) throw new InputError(`${option} "${text}": ${e.message}`, optionFix(option as 'key'));
    throw e;
  }
}

export function formatKeySpec(k: KeySpec): string {
  return k.kind === 'attribute' ? `attribute:${k.name}` : k.kind === 'json' ? `json:${formatJsonPath(k.path)}` : k.kind;
}

export function formatSeqSpec(s: SeqSpec): string {
  return s.kind === 'attribute' ? `attribute:${s.name}` : s.kind === 'json' ? `json:${formatJsonPath(s.path)}` : s.kind;
}

/** Whether any option reads a field of the payload as JSON. */
export function readsJson(o: SequencingOptions): boolean {
  return o.key.kind === 'json' || o.seq.kind === 'json' || o.sendingTimeJson !== undefined;
}

/** Where an option is set: its setting (`seqscope.gapTimeout`) and its flag (`--gap-timeout`). */
function optionFix(option: 'preset' | 'key' | 'seq' | 'time' | 'seqBits' | 'gapTimeout' | 'capacity' | 'resetTo' | 'resets'): InputFix {
  if (option === 'resets') return { setting: 'seqscope.resetTo', flag: '--no-resets' };
  return { setting: `seqscope.${option}`, flag: `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` };
}

function attributeName(text: string): string | undefined {
  const m = /^attribute:(.+)$/.exec(text);
  return m ? m[1] : undefined;
}

/** Option values as users write them (flags, settings); every field optional. */
export interface OptionText extends PresetText {
  preset?: string;
}

/** Resolves and validates; throws RangeError with a message naming the option and the fix. */
export function resolveOptions(text: OptionText, userPresets: UserPresets = {}): SequencingOptions {
  let o: SequencingOptions = DEFAULT_OPTIONS;
  if (text.preset !== undefined && text.preset !== '' && text.preset !== 'none') {
    // Own keys only: "constructor" or "toString" must not pass as presets.
    const user = Object.hasOwn(userPresets, text.preset) ? userPresets[text.preset] : undefined;
    if (user) {
      // A user preset is option text: the flags given beside it override it field by field.
      const { preset: _p, ...rest } = text;
      const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      return resolveOptions({ ...user, ...given });
    }
    const p = Object.hasOwn(PRESETS, text.preset) ? PRESETS[text.preset] : undefined;
    if (!p) throw new InputError(`preset "${text.preset}" is unknown: use ${presetNames(userPresets).join(', ')}`, optionFix('preset'));
    o = { ...o, ...p };
  }
  const schemaFiles = presetSchemaEntries(text.schema, text.schemas);
  if (schemaFiles) o = { ...o, presetSchemas: schemaFiles };
  if (text.key !== undefined) o = { ...o, key: parseKeySpec(text.key) };
  if (text.seq !== undefined) {
    o = { ...o, seq: parseSeqSpec(text.seq) };
    // The packet's MsgSeqNum is a uInt32 that wraps: 32-bit unless --seq-bits says otherwise.
    if (o.seq.kind === 'mdp3' && text.seqBits === undefined) o = { ...o, seqBits: 32 };
  }
  if (text.time !== undefined) {
    const t = parseTimeSpec(text.time);
    const { sendingTimeAttribute: _a, sendingTimeMdp3: _m, sendingTimeJson: _j, ...rest } = o;
    o =
      t.kind === 'attribute'
        ? { ...rest, sendingTimeAttribute: t.name }
        : t.kind === 'mdp3'
          ? { ...rest, sendingTimeMdp3: true }
          : t.kind === 'json'
            ? { ...rest, sendingTimeJson: t.path }
            : rest;
  }
  if (o.seq.kind === 'mdp3' || o.sendingTimeMdp3) o = { ...o, payload: 'mdp3' };
  if (text.seqBits !== undefined) {
    const bits = Number(text.seqBits);
    if (!SEQ_BITS.includes(bits as SeqBits)) throw new InputError(`seq-bits "${text.seqBits}" is not valid: use 16, 32 or 64`, optionFix('seqBits'));
    o = { ...o, seqBits: bits as SeqBits };
  }
  if (text.gapTimeout !== undefined) {
    let ms: number;
    if (typeof text.gapTimeout === 'number') ms = text.gapTimeout;
    else {
      try {
        ms = parseDuration(text.gapTimeout);
      } catch (e) {
        if (!isInputError(e)) throw e;
        throw new InputError(`gap-timeout "${text.gapTimeout}" is not valid: write a duration like 500ms, 10s or 2m`, optionFix('gapTimeout'));
      }
    }
    if (!(ms >= 0)) throw new InputError(`gap-timeout ${ms} is not valid: use a duration of 0 or more`, optionFix('gapTimeout'));
    o = { ...o, gapTimeoutMs: ms };
  }
  if (text.capacity !== undefined) {
    const c = Number(text.capacity);
    if (!Number.isInteger(c) || c < 1) throw new InputError(`capacity "${text.capacity}" is not valid: use a whole number of 1 or more`, optionFix('capacity'));
    o = { ...o, capacity: c };
  }
  // The default judges publish order only where Pub/Sub keeps it: ordering keys. A key of one's
  // own (an attribute, a payload field, none) keeps arrival order unless publishTime is asked for.
  if (o.seq.kind === 'publishTime' && text.seq === undefined && o.key.kind !== 'orderingKey') o = { ...o, seq: { kind: 'none' } };
  o = resolveResets(o, text);
  // Serial arithmetic only orders numbers less than half the space apart; more held than that
  // would make a held number look older than the expected one.
  if (isSequenced(o) && o.seqBits !== 64 && o.capacity >= 2 ** (o.seqBits - 1)) {
    throw new InputError(`capacity ${o.capacity} is too large for ${o.seqBits}-bit numbers: use less than ${2 ** (o.seqBits - 1)}`, optionFix('capacity'));
  }
  return o;
}

/** Applies `resets` and `resetTo` (option text) to resolved options. */
function resolveResets(o: SequencingOptions, text: OptionText): SequencingOptions {
  if (text.resets !== undefined) {
    if (text.resets !== 'on' && text.resets !== 'off') throw new InputError(`resets "${text.resets}" is not valid: use on or off`, optionFix('resets'));
    const { resets: _r, ...rest } = o;
    o = text.resets === 'off' ? { ...rest, resets: false } : rest;
  }
  if (text.resetTo !== undefined && text.resetTo !== '') {
    const n = Number(text.resetTo);
    const max = o.seqBits === 64 ? Number.MAX_SAFE_INTEGER : 2 ** o.seqBits - 1;
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new InputError(
        `reset-to "${text.resetTo}" is not valid: use a whole number from 0 to ${max} (the number a new sequence starts at, e.g. 1)`,
        optionFix('resetTo'),
      );
    o = { ...o, resetTo: n };
  }
  if (o.resets === false && text.resetTo !== undefined && text.resetTo !== '') {
    throw new InputError('reset-to and resets off contradict each other: leave out one of them', optionFix('resetTo'));
  }
  // A preset's reset-to means nothing with resets off.
  if (o.resets === false && o.resetTo !== undefined) {
    const { resetTo: _t, ...rest } = o;
    o = rest;
  }
  return o;
}

/** Whether two option sets sequence alike (however they were written: a preset, flags, settings). */
export function sameOptions(a: SequencingOptions, b: SequencingOptions): boolean {
  return (
    describeOptions(a) === describeOptions(b) &&
    a.sendingTimeAttribute === b.sendingTimeAttribute &&
    a.sendingTimeMdp3 === b.sendingTimeMdp3 &&
    a.payload === b.payload
  );
}

export function describeOptions(o: SequencingOptions): string {
  const seq = isSequenced(o) ? `seq ${formatSeqSpec(o.seq)} (${o.seqBits}-bit)` : judgesPublishOrder(o) ? 'seq publishTime (publish order)' : 'seq none';
  const time = o.sendingTimeMdp3 ? ', time mdp3' : o.sendingTimeJson ? `, time json:${formatJsonPath(o.sendingTimeJson)}` : '';
  const resets = !isSequenced(o) ? '' : o.resets === false ? ', resets off' : o.resetTo !== undefined ? `, reset to ${o.resetTo}` : '';
  return `key ${formatKeySpec(o.key)}, ${seq}${time}, gap timeout ${formatDurationExact(o.gapTimeoutMs)}, capacity ${o.capacity}${resets}${describeSchemas(o.schemas)}`;
}

/** The schemas a session decodes payloads with, by where each came from: `, schemas trades.avsc, quote.proto`. */
function describeSchemas(set: SchemaSet | undefined): string {
  if (!set) return '';
  const sources = new Set<string>();
  if (set.fallback) sources.add(set.fallback.source);
  for (const d of Object.values(set.byName ?? {})) sources.add(d.source);
  for (const d of Object.values(set.recorded ?? {})) sources.add(d.source);
  return sources.size === 0 ? '' : `, ${sources.size === 1 ? 'schema' : 'schemas'} ${[...sources].join(', ')}`;
}

/**
 * How a session is sequenced, in a few words for its row: "MsgSeqNum per Channel (32-bit)", or
 * "arrival order per ordering key" when there are no sequence numbers.
 */
export function sequencingLabel(o: SequencingOptions): string {
  const per =
    o.key.kind === 'orderingKey'
      ? 'per ordering key'
      : o.key.kind === 'attribute'
        ? `per ${o.key.name}`
        : o.key.kind === 'json'
          ? `per ${formatJsonPath(o.key.path)}`
          : 'in one stream';
  if (o.seq.kind === 'none') return `arrival order ${per}`;
  if (o.seq.kind === 'publishTime') return `publish order ${per}`;
  const numbers = o.seq.kind === 'attribute' ? o.seq.name : o.seq.kind === 'json' ? formatJsonPath(o.seq.path) : 'MDP 3.0 packet numbers';
  return `${numbers} ${per}${o.seqBits === 64 ? '' : ` (${o.seqBits}-bit)`}`;
}

/**
 * What a session sequenced this way cannot find, said where its counts would otherwise read
 * "0 gaps": without sequence numbers a missing, late or re-published message looks like any
 * other, and only a redelivery (the same messageId again) is recognised. Undefined when the
 * options can find everything.
 */
export function unseenFindings(o: SequencingOptions): string | undefined {
  if (o.seq.kind === 'publishTime')
    return 'publish order: gaps cannot be seen (no sequence numbers); a message is reordered when it came after one of its key published later; duplicates are redeliveries of one message id';
  return o.seq.kind === 'none' ? 'arrival order only: gaps cannot be seen (no sequence numbers); duplicates are redeliveries of one message id' : undefined;
}
