/**
 * What the sequencer takes from a record: its key, its number and the sender's time, or why it
 * cannot be sequenced. One function for the replay engine and for the parallel reader's scanning
 * threads (capture/lineScan.ts), so both read every record alike.
 */
import { ReceivedMessage, topicKey } from './captureRecord';
import { decodeMdp3Base64, isMdp3Error, Mdp3Packet, sendingTimeMs } from './mdp3';
import { parsePayloadJson } from './payloadJson';
import { readsJson, SequencingOptions } from '../sequencer/sequencingOptions';
import { SerialSpace } from '../sequencer/serial';
import { evalJsonPath, formatJsonPath, JsonPath } from '../util/jsonPath';
import { parseTimestampMs } from '../util/timestamp';

/** Which option an invalid record points at, for the fix of a run that sequenced nothing. */
export type InvalidCause = 'record' | 'key' | 'seq' | 'width' | 'mdp3' | 'json';

/** Filled by `readFields`; reused from record to record (no allocation per record). */
export interface RecordFields {
  key: string;
  seq: number;
  /** The sender's time (ms since the epoch) for latency, NaN when the record has none or none is asked for. */
  sent: number;
  /** Set when the record cannot be sequenced: why, and what it points at. */
  reason: string | undefined;
  cause: InvalidCause | undefined;
  /** For cause `width`: where the too-wide number came from (`seq` holds it). */
  wideSource: string | undefined;
}

export function newRecordFields(): RecordFields {
  return { key: '', seq: 0, sent: NaN, reason: undefined, cause: undefined, wideSource: undefined };
}

/** A JSON value in a reason: its type, not its (possibly long) text. */
function describe(v: unknown): string {
  return v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : typeof v === 'boolean'
          ? `${v}`
          : typeof v === 'number'
            ? String(v)
            : typeof v;
}
/** A sequence attribute: decimal digits only (no sign, point, exponent or spaces). */
const DIGITS = /^\d+$/;

/**
 * Reads `rm`'s key, number and sender's time into `f` as `o` says; returns false (with the reason
 * in `f`) when the record cannot be sequenced.
 */
export function readFields(rm: ReceivedMessage, o: SequencingOptions, space: SerialSpace, f: RecordFields): boolean {
  f.reason = undefined;
  f.cause = undefined;
  f.wideSource = undefined;
  f.sent = NaN;
  f.seq = 0;
  let packetSent = NaN;
  let jsonSent = NaN;
  const m = rm.message;
  // Only when asked (a json: option): parsed (or decoded by its schema) once per record, and a replay that does not ask never parses.
  let doc: unknown;
  if (readsJson(o)) {
    const parsed = parsePayloadJson(rm, o.schemas);
    if ('error' in parsed) {
      return invalid(f, parsed.error, 'json');
    }
    doc = parsed.value;
  }
  let key = readKey(m, o, doc, f);
  if (key === undefined) return false;
  if (rm.topic !== undefined) key = topicKey(rm.topic, key);
  let seq: number | undefined = 0;
  if (o.seq.kind === 'mdp3' || o.sendingTimeMdp3 === true) {
    // Only when asked (--seq mdp3, --time mdp3): a replay that does not ask never decodes.
    const p = decodeMdp3Base64(m.data);
    if (isMdp3Error(p)) {
      return invalid(f, p.error, 'mdp3');
    }
    if (o.seq.kind === 'mdp3') seq = mdp3Seq(p, m, space, f);
    if (seq === undefined) return false;
    if (o.sendingTimeMdp3) packetSent = sendingTimeMs(p);
  }
  if (o.seq.kind === 'attribute') seq = attributeSeq(m, o.seq.name, o, space, f);
  else if (o.seq.kind === 'json') seq = jsonSeq(doc, o.seq.path, o, space, f);
  if (seq === undefined) return false;
  if (o.sendingTimeJson !== undefined) {
    const t = jsonSendingTime(doc, o.sendingTimeJson, f);
    if (t === undefined) return false;
    jsonSent = t;
  }
  f.key = key;
  f.seq = seq;
  // The time the release reads, as it always has: the attribute when one is named, else the packet's, else the payload field's.
  if (o.sendingTimeAttribute !== undefined) {
    const st = m.attributes?.[o.sendingTimeAttribute];
    f.sent = st !== undefined ? Number(st) : NaN;
  } else if (o.sendingTimeMdp3 === true) f.sent = packetSent;
  else if (o.sendingTimeJson !== undefined) f.sent = jsonSent;
  return true;
}

/** The record's key as `o` says (before any topic prefix), or undefined with the reason in `f`. */
function readKey(m: ReceivedMessage['message'], o: SequencingOptions, doc: unknown, f: RecordFields): string | undefined {
  if (o.key.kind === 'orderingKey') return m.orderingKey ?? '';
  if (o.key.kind === 'none') return '';
  if (o.key.kind === 'json') {
    const v = evalJsonPath(doc, o.key.path);
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    invalid(f, `payload field ${formatJsonPath(o.key.path)} ${v === undefined ? 'is missing' : `is ${describe(v)}, not a string or number`}`, 'key');
    return undefined;
  }
  const v = m.attributes?.[o.key.name];
  if (v === undefined) invalid(f, `key attribute "${o.key.name}" is missing`, 'key');
  return v;
}

/** The MDP packet's MsgSeqNum (`--seq mdp3`), or undefined with the reason in `f`. */
function mdp3Seq(p: Mdp3Packet, m: ReceivedMessage['message'], space: SerialSpace, f: RecordFields): number | undefined {
  const seq = p.msgSeqNum;
  // The header is the number sequenced; an attribute that says otherwise is not trusted.
  const attr = m.attributes?.MsgSeqNum;
  if (attr !== undefined && attr !== String(seq)) {
    invalid(f, `MDP packet MsgSeqNum ${seq} disagrees with attribute ${attr}`, 'mdp3');
    return undefined;
  }
  const problem = space.check(seq);
  if (problem !== undefined) {
    f.wideSource = 'MDP packet MsgSeqNum';
    f.seq = seq;
    invalid(f, `MDP packet MsgSeqNum ${seq} ${problem}`, 'width');
    return undefined;
  }
  return seq;
}

/** The number in a sequence attribute (`--seq attribute:<name>`), or undefined with the reason in `f`. */
function attributeSeq(m: ReceivedMessage['message'], name: string, o: SequencingOptions, space: SerialSpace, f: RecordFields): number | undefined {
  const text = m.attributes?.[name];
  if (text === undefined) {
    invalid(f, `sequence attribute "${name}" is missing`, 'seq');
    return undefined;
  }
  // A capture may hold a value of another type where Pub/Sub writes a string: not a number then.
  const seq = typeof text === 'string' && DIGITS.test(text) ? Number(text) : NaN;
  const problem = seqProblem(seq, text, space);
  if (problem === undefined) return seq;
  invalidSeq(f, seq, name, `${name} ${JSON.stringify(text)} ${problem}`, o, space);
  return undefined;
}

/** The number in a payload field (`--seq json:<path>`), or undefined with the reason in `f`. */
function jsonSeq(doc: unknown, path: JsonPath, o: SequencingOptions, space: SerialSpace, f: RecordFields): number | undefined {
  const v = evalJsonPath(doc, path);
  const where = `payload field ${formatJsonPath(path)}`;
  if (v === undefined) {
    invalid(f, `${where} is missing`, 'seq');
    return undefined;
  }
  const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  const seq = text !== undefined && DIGITS.test(text) ? Number(text) : NaN;
  const problem = seqProblem(seq, text, space);
  if (problem === undefined) return seq;
  invalidSeq(f, seq, where, `${where} ${text !== undefined ? JSON.stringify(text) : describe(v)} ${problem}`, o, space);
  return undefined;
}

/**
 * Why a sequence number read from `text` cannot be sequenced, or undefined: `seq` is its value,
 * NaN when the text is not decimal digits. Any sign is refused: "-0" would otherwise pass as 0,
 * and "+3" is not how a feed writes 3.
 */
function seqProblem(seq: number, text: unknown, space: SerialSpace): string | undefined {
  return seq === seq ? space.check(seq) : typeof text === 'string' && text[0] === '-' ? 'is negative' : 'is not an integer';
}

/** Reports a number that cannot be sequenced: too wide for the width asked for (its source noted), or not a number of it. */
function invalidSeq(f: RecordFields, seq: number, source: string, reason: string, o: SequencingOptions, space: SerialSpace): void {
  const wide = seq > space.max && o.seqBits !== 64;
  if (wide) f.wideSource = source;
  f.seq = seq;
  invalid(f, reason, wide ? 'width' : 'seq');
}

/** The sender's time in a payload field (`--time json:<path>`), or undefined with the reason in `f`. */
function jsonSendingTime(doc: unknown, path: JsonPath, f: RecordFields): number | undefined {
  const v = evalJsonPath(doc, path);
  const where = `payload field ${formatJsonPath(path)}`;
  if (v === undefined) {
    invalid(f, `${where} is missing`, 'json');
    return undefined;
  }
  const t = parseTimestampMs(v);
  if (typeof t !== 'number') {
    invalid(f, `${where} ${t.error}`, 'json');
    return undefined;
  }
  return t;
}

function invalid(f: RecordFields, reason: string, cause: InvalidCause): false {
  f.reason = reason;
  f.cause = cause;
  return false;
}
