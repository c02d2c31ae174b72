/**
 * What the sequencer takes from a record: its key, its number and the sender's time, or why it
 * cannot be sequenced. One function for the replay engine and for the parallel reader's scanning
 * threads (capture/lineScan.ts), so both read every record alike.
 */
import { ReceivedMessage, topicKey } from './captureRecord';
import { decodeMdp3Base64, isMdp3Error, sendingTimeMs } from './mdp3';
import { parsePayloadJson } from './payloadJson';
import { readsJson, SequencingOptions } from '../sequencer/sequencingOptions';
import { SerialSpace } from '../sequencer/serial';
import { evalJsonPath, formatJsonPath } from '../util/jsonPath';
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
  // Only when asked (a json: option): parsed once per record, and a replay that does not ask never parses.
  let doc: unknown;
  if (readsJson(o)) {
    const parsed = parsePayloadJson(m.data);
    if ('error' in parsed) {
      return invalid(f, parsed.error, 'json');
    }
    doc = parsed.value;
  }
  let key: string;
  if (o.key.kind === 'orderingKey') key = m.orderingKey ?? '';
  else if (o.key.kind === 'none') key = '';
  else if (o.key.kind === 'json') {
    const v = evalJsonPath(doc, o.key.path);
    if (typeof v === 'string') key = v;
    else if (typeof v === 'number' && Number.isFinite(v)) key = String(v);
    else {
      return invalid(f, `payload field ${formatJsonPath(o.key.path)} ${v === undefined ? 'is missing' : `is ${describe(v)}, not a string or number`}`, 'key');
    }
  } else {
    const v = m.attributes?.[o.key.name];
    if (v === undefined) {
      return invalid(f, `key attribute "${o.key.name}" is missing`, 'key');
    }
    key = v;
  }
  if (rm.topic !== undefined) key = topicKey(rm.topic, key);
  let seq = 0;
  if (o.seq.kind === 'mdp3' || o.sendingTimeMdp3 === true) {
    // Only when asked (--seq mdp3, --time mdp3): a replay that does not ask never decodes.
    const p = decodeMdp3Base64(m.data);
    if (isMdp3Error(p)) {
      return invalid(f, p.error, 'mdp3');
    }
    if (o.seq.kind === 'mdp3') {
      seq = p.msgSeqNum;
      // The header is the number sequenced; an attribute that says otherwise is not trusted.
      const attr = m.attributes?.MsgSeqNum;
      if (attr !== undefined && attr !== String(seq)) {
        return invalid(f, `MDP packet MsgSeqNum ${seq} disagrees with attribute ${attr}`, 'mdp3');
      }
      const problem = space.check(seq);
      if (problem !== undefined) {
        f.wideSource = 'MDP packet MsgSeqNum';
        f.seq = seq;
        return invalid(f, `MDP packet MsgSeqNum ${seq} ${problem}`, 'width');
      }
    }
    if (o.sendingTimeMdp3) packetSent = sendingTimeMs(p);
  }
  if (o.seq.kind === 'attribute') {
    const text = m.attributes?.[o.seq.name];
    if (text === undefined) {
      return invalid(f, `sequence attribute "${o.seq.name}" is missing`, 'seq');
    }
    // A capture may hold a value of another type where Pub/Sub writes a string: not a number then.
    seq = typeof text === 'string' && DIGITS.test(text) ? Number(text) : NaN;
    // Any sign is refused: "-0" would otherwise pass as 0, and "+3" is not how a feed writes 3.
    const problem = seq === seq ? space.check(seq) : typeof text === 'string' && text[0] === '-' ? 'is negative' : 'is not an integer';
    if (problem !== undefined) {
      const wide = seq > space.max && o.seqBits !== 64;
      if (wide) f.wideSource = o.seq.name;
      f.seq = seq;
      return invalid(f, `${o.seq.name} ${JSON.stringify(text)} ${problem}`, wide ? 'width' : 'seq');
    }
  }
  if (o.seq.kind === 'json') {
    const v = evalJsonPath(doc, o.seq.path);
    const where = `payload field ${formatJsonPath(o.seq.path)}`;
    if (v === undefined) {
      return invalid(f, `${where} is missing`, 'seq');
    }
    const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    seq = text !== undefined && DIGITS.test(text) ? Number(text) : NaN;
    const problem = seq === seq ? space.check(seq) : text !== undefined && text[0] === '-' ? 'is negative' : 'is not an integer';
    if (problem !== undefined) {
      const wide = seq > space.max && o.seqBits !== 64;
      if (wide) f.wideSource = where;
      f.seq = seq;
      return invalid(f, `${where} ${text !== undefined ? JSON.stringify(text) : describe(v)} ${problem}`, wide ? 'width' : 'seq');
    }
  }
  if (o.sendingTimeJson !== undefined) {
    const v = evalJsonPath(doc, o.sendingTimeJson);
    const where = `payload field ${formatJsonPath(o.sendingTimeJson)}`;
    if (v === undefined) {
      return invalid(f, `${where} is missing`, 'json');
    }
    const t = parseTimestampMs(v);
    if (typeof t !== 'number') {
      return invalid(f, `${where} ${t.error}`, 'json');
    }
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

function invalid(f: RecordFields, reason: string, cause: InvalidCause): false {
  f.reason = reason;
  f.cause = cause;
  return false;
}
