/**
 * Feeds capture entries through the sequencer: takes each record's key and number as the
 * options say, reports records that cannot be sequenced as invalid, drives the clock from the
 * records' own times, and turns what the sequencer finds into trace events and a summary.
 */
import { CaptureEntry, topicKey } from '../capture/captureRecord';
import { conflictReason, contentDifferences, contentHash } from '../capture/contentHash';
import { KeyState, SequenceCounts, Sequencer, SequencerSink, GapInfo, DuplicateInfo, LateInfo } from '../sequencer/sequencer';
import { SequencingOptions, describeOptions, isSequenced, readsJson } from '../sequencer/sequencingOptions';
import { parsePayloadJson } from '../capture/payloadJson';
import { evalJsonPath, formatJsonPath } from '../util/jsonPath';
import { parseTimestampMs } from '../util/timestamp';
import { decodeMdp3Base64, isMdp3Error, sendingTimeMs } from '../capture/mdp3';
import { DuplicateEvent, InvalidEvent, MessageEvent, TraceEvent } from '../trace/traceEvents';
import { SeqBits } from '../sequencer/serial';

export interface LatencyStats {
  count: number;
  sumMs: number;
  maxMs: number;
}

export interface KeySummary extends SequenceCounts {
  key: string;
  maxHoldMs: number;
  maxHeld: number;
  latency?: { count: number; meanMs: number; maxMs: number };
}

export interface ReplaySummary extends SequenceCounts {
  invalid: number;
  /** Number of keys. */
  keys: number;
  files: string[];
  options: string;
  /** First and last clock values seen (ms since epoch), or null for an empty run. */
  firstTime: number | null;
  lastTime: number | null;
  maxHoldMs: number;
  byKey: KeySummary[];
  /**
   * The first invalid records, with where they are; not those whose number is too wide for the
   * width, which `tooWide` sums up once.
   */
  invalidSamples: { file?: string; line: number; reason: string }[];
  /** Records whose sequence number did not fit the chosen width (all counted in `invalid`). */
  tooWide?: TooWide;
  /** Set when records were read but none could be sequenced: the run failed, and why. */
  unsequenced?: RunProblem;
}

/** Numbers too wide for the width: one finding for the run, not one line per record. */
export interface TooWide {
  count: number;
  /** The attribute the numbers came from. */
  source: string;
  bits: SeqBits;
  /** The largest number seen, and the first record that had one. */
  largest: number;
  first: { file?: string; line: number };
  /** The width that would have taken them all. */
  fitsIn: SeqBits;
}

/**
 * A failed run: the reason and its fix, as the CLI says it (a flag) and as the extension says
 * it (a setting, or Open Capture…'s options).
 */
export interface RunProblem {
  reason: string;
  fix: { flag: string; setting: string };
}

/** Which option an invalid record points at, for the fix of a run that sequenced nothing. */
type InvalidCause = 'record' | 'key' | 'seq' | 'width' | 'mdp3' | 'json';

/** One line for numbers too wide for the width, with the fix. */
export function tooWideMessage(t: TooWide, fix: 'flag' | 'setting'): string {
  const where = `${t.first.file ? t.first.file + ':' : 'line '}${t.first.line}`;
  const records = t.count === 1 ? '1 record has a' : `${t.count} records have`;
  const how = fix === 'flag' ? `use --seq-bits ${t.fitsIn}` : `open it with sequence width ${t.fitsIn} (Open Capture… › Customize…, or the seqscope.seqBits setting)`;
  return `${records} ${t.source} too wide for ${t.bits}-bit numbers (largest ${t.largest}, first at ${where}): counted invalid; ${how}`;
}

/** Receives each trace event and, except for gaps, the capture entry it is about. */
export type TraceListener = (event: TraceEvent, entry?: CaptureEntry) => void;

const INVALID_SAMPLES = 100;

/** The content hash of an entry the engine offers (always a record). */
function entryContent(e: CaptureEntry): number {
  return contentHash(e.record!.message);
}

/** A JSON value in a reason: its type, not its (possibly long) text. */
function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'boolean' ? `${v}` : typeof v === 'number' ? String(v) : typeof v;
}
/** A sequence attribute: decimal digits only (no sign, point, exponent or spaces). */
const DIGITS = /^\d+$/;

export class ReplayEngine {
  readonly sequencer: Sequencer<CaptureEntry>;
  invalid = 0;
  /** Key and raw number of the last valid record pushed. */
  lastKey = '';
  lastSeq = 0;
  private readonly invalidSamples: ReplaySummary['invalidSamples'] = [];
  private firstTime = NaN;
  private readonly latency = new Map<string, LatencyStats>();
  private tooWide: TooWide | undefined;
  /** Whether each record's payload is decoded as an MDP 3.0 packet (for its number or its time). */
  private readonly readsPackets: boolean;
  /** The packet's SendingTime (ms) of records held until released, with --time mdp3. */
  private readonly packetSent = new WeakMap<CaptureEntry, number>();
  /** What the first invalid record points at. */
  private firstCause: InvalidCause | undefined;
  /** Whether each record's payload is read as JSON (for its key, number or time). */
  private readonly readsJson: boolean;
  /** The payload field's sending time (ms) of records held until released, with --time json:<path>. */
  private readonly jsonSent = new WeakMap<CaptureEntry, number>();

  constructor(
    readonly options: SequencingOptions,
    /** Receives every trace event in release order; omit it when only the summary is wanted. */
    private readonly listener?: TraceListener,
    /** Capture paths by file index; named on events only when there are several. */
    readonly files: readonly string[] = [],
  ) {
    this.readsPackets = options.seq.kind === 'mdp3' || options.sendingTimeMdp3 === true;
    this.readsJson = readsJson(options);
    this.sequencer = new Sequencer<CaptureEntry>(
      {
        gapTimeoutMs: options.gapTimeoutMs,
        capacity: options.capacity,
        seqBits: options.seqBits,
        sequenced: isSequenced(options),
      },
      this.makeSink(),
      entryContent,
    );
  }

  pushAll(entries: readonly CaptureEntry[]): void {
    for (let i = 0; i < entries.length; i++) this.push(entries[i]);
  }

  /**
   * Offers one entry. Returns false when it was invalid (reported). Afterwards `lastKey` and
   * `lastSeq` hold what the record was sequenced by (for callers that log arrivals).
   */
  push(e: CaptureEntry): boolean {
    const rm = e.record;
    if (rm === undefined) {
      this.reportInvalid(e, e.invalid ?? 'not a record', 'record');
      return false;
    }
    const m = rm.message;
    const o = this.options;
    // Only when asked (a json: option): parsed once per record, and a replay that does not ask never parses.
    let doc: unknown;
    if (this.readsJson) {
      const parsed = parsePayloadJson(m.data);
      if ('error' in parsed) {
        this.reportInvalid(e, parsed.error, 'json');
        return false;
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
        this.reportInvalid(e, `payload field ${formatJsonPath(o.key.path)} ${v === undefined ? 'is missing' : `is ${describe(v)}, not a string or number`}`, 'key');
        return false;
      }
    } else {
      const v = m.attributes?.[o.key.name];
      if (v === undefined) {
        this.reportInvalid(e, `key attribute "${o.key.name}" is missing`, 'key');
        return false;
      }
      key = v;
    }
    if (rm.topic !== undefined) key = topicKey(rm.topic, key);
    let seq = 0;
    if (this.readsPackets) {
      // Only when asked (--seq mdp3, --time mdp3): a replay that does not ask never decodes.
      const p = decodeMdp3Base64(m.data);
      if (isMdp3Error(p)) {
        this.reportInvalid(e, p.error, 'mdp3');
        return false;
      }
      if (o.seq.kind === 'mdp3') {
        seq = p.msgSeqNum;
        // The header is the number sequenced; an attribute that says otherwise is not trusted.
        const attr = m.attributes?.MsgSeqNum;
        if (attr !== undefined && attr !== String(seq)) {
          this.reportInvalid(e, `MDP packet MsgSeqNum ${seq} disagrees with attribute ${attr}`, 'mdp3');
          return false;
        }
        const problem = this.sequencer.space.check(seq);
        if (problem !== undefined) {
          this.noteTooWide(e, 'MDP packet MsgSeqNum', seq);
          this.reportInvalid(e, `MDP packet MsgSeqNum ${seq} ${problem}`, 'width');
          return false;
        }
      }
      if (o.sendingTimeMdp3) this.packetSent.set(e, sendingTimeMs(p));
    }
    if (o.seq.kind === 'attribute') {
      const text = m.attributes?.[o.seq.name];
      if (text === undefined) {
        this.reportInvalid(e, `sequence attribute "${o.seq.name}" is missing`, 'seq');
        return false;
      }
      seq = DIGITS.test(text) ? Number(text) : NaN;
      // Any sign is refused: "-0" would otherwise pass as 0, and "+3" is not how a feed writes 3.
      const problem = seq === seq ? this.sequencer.space.check(seq) : text[0] === '-' ? 'is negative' : 'is not an integer';
      if (problem !== undefined) {
        const wide = seq > this.sequencer.space.max && o.seqBits !== 64;
        if (wide) this.noteTooWide(e, o.seq.name, seq);
        this.reportInvalid(e, `${o.seq.name} ${JSON.stringify(text)} ${problem}`, wide ? 'width' : 'seq');
        return false;
      }
    }
    if (o.seq.kind === 'json') {
      const v = evalJsonPath(doc, o.seq.path);
      const where = `payload field ${formatJsonPath(o.seq.path)}`;
      if (v === undefined) {
        this.reportInvalid(e, `${where} is missing`, 'seq');
        return false;
      }
      const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
      seq = text !== undefined && DIGITS.test(text) ? Number(text) : NaN;
      const problem = seq === seq ? this.sequencer.space.check(seq) : text !== undefined && text[0] === '-' ? 'is negative' : 'is not an integer';
      if (problem !== undefined) {
        const wide = seq > this.sequencer.space.max && o.seqBits !== 64;
        if (wide) this.noteTooWide(e, where, seq);
        this.reportInvalid(e, `${where} ${text !== undefined ? JSON.stringify(text) : describe(v)} ${problem}`, wide ? 'width' : 'seq');
        return false;
      }
    }
    if (o.sendingTimeJson !== undefined) {
      const v = evalJsonPath(doc, o.sendingTimeJson);
      const where = `payload field ${formatJsonPath(o.sendingTimeJson)}`;
      if (v === undefined) {
        this.reportInvalid(e, `${where} is missing`, 'json');
        return false;
      }
      const t = parseTimestampMs(v);
      if (typeof t !== 'number') {
        this.reportInvalid(e, `${where} ${t.error}`, 'json');
        return false;
      }
      this.jsonSent.set(e, t);
    }
    if (this.firstTime !== this.firstTime) this.firstTime = e.time;
    this.lastKey = key;
    this.lastSeq = seq;
    this.sequencer.advance(e.time);
    this.sequencer.offer(key, seq, m.messageId, e);
    return true;
  }

  /** Keys seen so far. */
  get keyCount(): number {
    return this.sequencer.keyStates.length;
  }

  /** End of input: releases what is held and declares open gaps lost. */
  finish(): void {
    this.sequencer.finish();
  }

  summary(): ReplaySummary {
    const s = this.sequencer;
    const byKey: KeySummary[] = s.keyStates.map((k) => {
      const ks: KeySummary = {
        key: k.name,
        received: k.received,
        delivered: k.delivered,
        duplicates: k.duplicates,
        redeliveries: k.redeliveries,
        cascades: k.cascades,
        conflicts: k.conflicts,
        gaps: k.gaps,
        lost: k.lost,
        late: k.late,
        maxHoldMs: s.maxHoldMsOf(k),
        maxHeld: k.maxHeld,
      };
      const l = this.latency.get(k.name);
      if (l) ks.latency = { count: l.count, meanMs: l.sumMs / l.count, maxMs: l.maxMs };
      return ks;
    });
    return {
      ...s.totals,
      invalid: this.invalid,
      keys: byKey.length,
      files: [...this.files],
      options: describeOptions(this.options),
      firstTime: this.firstTime === this.firstTime ? this.firstTime : null,
      lastTime: s.now === -Infinity ? null : s.now,
      maxHoldMs: byKey.reduce((m, k) => Math.max(m, k.maxHoldMs), 0),
      byKey,
      invalidSamples: [...this.invalidSamples],
      ...(this.tooWide ? { tooWide: { ...this.tooWide, first: { ...this.tooWide.first } } } : {}),
      ...(s.totals.received === 0 && this.invalid > 0 ? { unsequenced: this.unsequenced() } : {}),
    };
  }

  private noteTooWide(e: CaptureEntry, source: string, seq: number): void {
    const t = this.tooWide;
    const fitsIn: SeqBits = seq <= 2 ** 32 - 1 ? 32 : 64;
    if (t === undefined) {
      const file = this.fileName(e);
      this.tooWide = { count: 1, source, bits: this.options.seqBits, largest: seq, first: file ? { file, line: e.line } : { line: e.line }, fitsIn };
      return;
    }
    t.count++;
    if (seq > t.largest) {
      t.largest = seq;
      if (fitsIn > t.fitsIn) t.fitsIn = fitsIn;
    }
  }

  /** Why no record was sequenced, and what to change: by what the first invalid record points at. */
  private unsequenced(): RunProblem {
    const n = this.invalid;
    const all = n === 1 ? 'its one record is invalid' : `all ${n} records are invalid`;
    const o = this.options;
    const t = this.tooWide;
    if (t !== undefined && (this.firstCause === 'width' || t.count * 2 >= n)) {
      return {
        reason: `no record could be sequenced: ${t.count === n ? (n === 1 ? 'its one record has' : `all ${n} records have`) : `${t.count} of its ${n} records have`} ${t.source} too wide for ${t.bits}-bit numbers (largest ${t.largest})`,
        fix: { flag: `use --seq-bits ${t.fitsIn}`, setting: `open it with sequence width ${t.fitsIn} (Open Capture… › Customize…, or the seqscope.seqBits setting)` },
      };
    }
    const first = this.invalidSamples[0]?.reason ?? 'not a record';
    const reason = `no record could be sequenced: ${all} (the first: ${first})`;
    switch (this.firstCause) {
      case 'key': {
        const name = o.key.kind === 'attribute' ? o.key.name : '';
        return { reason, fix: { flag: `records lack the key attribute "${name}": name one they carry with --key attribute:<name>, or use --key orderingKey`, setting: `records lack the key attribute "${name}": choose another key (Open Capture… › Customize…, or the seqscope.key setting)` } };
      }
      case 'mdp3':
        return { reason, fix: { flag: 'the payloads are not MDP 3.0 packets that agree with their MsgSeqNum attribute: use --seq attribute:MsgSeqNum (and --time attribute:SendingTime) instead of mdp3', setting: 'the payloads are not MDP 3.0 packets that agree with their MsgSeqNum attribute: sequence by attribute:MsgSeqNum instead of mdp3 (Open Capture… › Customize…, or the seqscope.seq setting)' } };
      case 'json':
        return { reason, fix: { flag: 'the payloads are not JSON with the fields asked for: check the json:<path> options (docs/cli.md: payload fields) or use attribute:<name>', setting: 'the payloads are not JSON with the fields asked for: check the json:<path> options (Open Capture… › Customize…, or the seqscope.key/seq/time settings)' } };
      case 'seq':
        return { reason, fix: { flag: 'name the attribute that carries the number with --seq attribute:<name>, or use --seq none to keep arrival order', setting: 'choose the sequence number\'s source (Open Capture… › Customize…, or the seqscope.seq setting), or none to keep arrival order' } };
      default:
        return { reason, fix: { flag: 'check that the file is a capture of Pub/Sub ReceivedMessage records (README: capture format)', setting: 'check that the file is a capture of Pub/Sub ReceivedMessage records (README: capture format)' } };
    }
  }

  private fileName(e: CaptureEntry): string | undefined {
    return this.files.length > 1 ? this.files[e.file] : undefined;
  }

  private reportInvalid(e: CaptureEntry, reason: string, cause: InvalidCause): void {
    this.invalid++;
    this.firstCause ??= cause;
    const file = this.fileName(e);
    if (cause !== 'width' && this.invalidSamples.length < INVALID_SAMPLES) this.invalidSamples.push(file ? { file, line: e.line, reason } : { line: e.line, reason });
    if (!this.listener) return;
    const ev: InvalidEvent = { type: 'invalid', line: e.line, reason };
    // Before the first valid record there is no clock yet.
    const at = this.sequencer.now === -Infinity ? e.time : this.sequencer.now;
    if (at === at) ev.at = at;
    if (file) ev.file = file;
    this.listener(ev, e);
  }

  private makeSink(): SequencerSink<CaptureEntry> {
    const listener = this.listener;
    const sendingAttr = this.options.sendingTimeAttribute;
    const fromPacket = this.options.sendingTimeMdp3 === true;
    const fromJson = this.options.sendingTimeJson !== undefined;
    return {
      message: (k: KeyState<CaptureEntry>, seq: number | undefined, e: CaptureEntry, arrivedAt: number, releasedAt: number): void => {
        const rm = e.record!;
        const m = rm.message;
        let latencyMs: number | undefined;
        let sent = NaN;
        if (sendingAttr !== undefined) {
          const st = m.attributes?.[sendingAttr];
          if (st !== undefined) sent = Number(st);
        } else if (fromPacket) sent = this.packetSent.get(e) ?? NaN;
        else if (fromJson) sent = this.jsonSent.get(e) ?? NaN;
        if (sent === sent) {
          latencyMs = e.time - sent;
          let l = this.latency.get(k.name);
          if (!l) this.latency.set(k.name, (l = { count: 0, sumMs: 0, maxMs: -Infinity }));
          l.count++;
          l.sumMs += latencyMs;
          if (latencyMs > l.maxMs) l.maxMs = latencyMs;
        }
        if (!listener) return;
        listener(
          new MessageRelease(
            'message',
            k.name,
            seq,
            m.messageId,
            m.publishTime,
            rm.receivedAt,
            m.orderingKey,
            m.attributes,
            m.data,
            rm.deliveryAttempt,
            arrivedAt,
            releasedAt,
            releasedAt - arrivedAt,
            latencyMs,
            this.fileName(e),
            e.line,
          ),
          e,
        );
      },
      gap: (k: KeyState<CaptureEntry>, g: GapInfo): void => {
        listener?.({
          type: 'gap',
          key: k.name,
          from: g.from,
          to: g.to,
          count: g.count,
          openedAt: g.openedAt,
          declaredAt: g.declaredAt,
          waitedMs: g.declaredAt - g.openedAt,
          reason: g.reason,
        });
      },
      duplicate: (k: KeyState<CaptureEntry>, d: DuplicateInfo<CaptureEntry>): void => {
        if (!listener) return;
        const rm = d.item.record!;
        const ev: DuplicateEvent = {
          type: 'duplicate',
          key: k.name,
          seq: d.seq,
          messageId: d.messageId,
          redelivery: d.redelivery,
          firstMessageId: d.firstMessageId,
          cascade: d.cascade,
          conflict: d.conflict ? true : undefined,
          conflictReason: d.conflict ? conflictReason(d.firstItem?.record && contentDifferences(d.firstItem.record.message, rm.message)) : undefined,
          deliveryAttempt: rm.deliveryAttempt,
          publishTime: rm.message.publishTime,
          receivedAt: rm.receivedAt,
          at: d.at,
          file: this.fileName(d.item),
          line: d.item.line,
        };
        listener(ev, d.item);
      },
      late: (k: KeyState<CaptureEntry>, l: LateInfo<CaptureEntry>): void => {
        if (!listener) return;
        const rm = l.item.record!;
        listener({
          type: 'late',
          key: k.name,
          seq: l.seq,
          messageId: l.messageId,
          lostAt: l.lostAt,
          publishTime: rm.message.publishTime,
          receivedAt: rm.receivedAt,
          at: l.at,
          file: this.fileName(l.item),
          line: l.item.line,
        }, l.item);
      },
    };
  }
}

/**
 * A message event, made by a class rather than an object literal: an exporter holds a batch's
 * events until it writes them, so most survive a young-generation collection, and V8 then may
 * allocate an object literal's site in the old generation (see RecordEntry in captureRecord.ts
 * for what that costs). Parameters in the order of the JSONL export's fields, `type` first: a
 * class field would be defined after them.
 */
class MessageRelease implements MessageEvent {
  constructor(
    readonly type: 'message',
    readonly key: string,
    readonly seq: number | undefined,
    readonly messageId: string,
    readonly publishTime: string | undefined,
    readonly receivedAt: string | undefined,
    readonly orderingKey: string | undefined,
    readonly attributes: Record<string, string> | undefined,
    readonly data: string | undefined,
    readonly deliveryAttempt: number | undefined,
    readonly arrivedAt: number,
    readonly releasedAt: number,
    readonly heldMs: number,
    readonly latencyMs: number | undefined,
    readonly file: string | undefined,
    readonly line: number,
  ) {}
}
