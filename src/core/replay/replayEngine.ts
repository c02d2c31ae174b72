/**
 * Feeds capture entries through the sequencer: takes each record's key and number as the
 * options say, reports records that cannot be sequenced as invalid, drives the clock from the
 * records' own times, and turns what the sequencer finds into trace events and a summary.
 */
import { CaptureEntry, publishedAt, receivedAtMs } from '../capture/captureRecord';
import { contentHash } from '../capture/contentHash';
import { KeyState, SequenceCounts, Sequencer, SequencerSink, GapInfo, DuplicateInfo, LateInfo, ReorderInfo } from '../sequencer/sequencer';
import { SequencingOptions, describeOptions, judgesPublishOrder, sequencerConfig } from '../sequencer/sequencingOptions';
import { causeOf, ScanKind, ScannedEntry } from '../capture/scannedEntry';
import { InvalidCause, newRecordFields, readFields } from '../capture/recordFields';
import { InvalidEvent, TraceEvent } from '../trace/traceEvents';
import { SeqBits } from '../sequencer/serial';
import { ResetInfo } from '../sequencer/resets';
import { KeyTimes } from './messageTimes';
import { duplicateEvent, gapEvent, lateEvent, messageEvent, reorderedEvent, resetEvent } from './replayEvents';
import { TimePercentiles } from './timePercentiles';

export interface LatencyStats {
  count: number;
  sumMs: number;
  maxMs: number;
}

/** The largest displacement of a key's (or the run's) reordered messages: by publish time (ms) and by position. */
export interface MaxReorder {
  byMs: number;
  byPosition: number;
}

export interface KeySummary extends SequenceCounts {
  key: string;
  maxHoldMs: number;
  maxHeld: number;
  /** Present when the key has reordered messages. */
  maxReorder?: MaxReorder;
  latency?: { count: number; meanMs: number; maxMs: number };
  /** Percentiles of the hold and of the records' times (sender → publish → receive). */
  percentiles: TimePercentiles;
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
  /** Present when some key has reordered messages: the largest displacements over all keys (each its own maximum). */
  maxReorder?: MaxReorder;
  /** Percentiles over all keys' messages (see KeySummary.percentiles). */
  percentiles: TimePercentiles;
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

/** One line for numbers too wide for the width, with the fix. */
export function tooWideMessage(t: TooWide, fix: 'flag' | 'setting'): string {
  const where = `${t.first.file ? t.first.file + ':' : 'line '}${t.first.line}`;
  const records = t.count === 1 ? '1 record has a' : `${t.count} records have`;
  const how =
    fix === 'flag' ? `use --seq-bits ${t.fitsIn}` : `open it with sequence width ${t.fitsIn} (Open Capture… › Customize…, or the seqscope.seqBits setting)`;
  return `${records} ${t.source} too wide for ${t.bits}-bit numbers (largest ${t.largest}, first at ${where}): counted invalid; ${how}`;
}

/** Receives each trace event and, except for gaps, the capture entry it is about. */
export type TraceListener = (event: TraceEvent, entry?: CaptureEntry) => void;

const INVALID_SAMPLES = 100;

/** The content hash of an entry the engine offers (always a record; scanned ones carry theirs). */
function entryContent(e: CaptureEntry): number {
  return e instanceof ScannedEntry ? e.hash : contentHash(e.record!.message);
}

/** Shared by every key of a summary made without percentiles (see `summary`). */
const NO_PERCENTILES: TimePercentiles = Object.freeze({});

export class ReplayEngine {
  readonly sequencer: Sequencer<CaptureEntry>;
  invalid = 0;
  /** Key and raw number of the last valid record pushed. */
  lastKey = '';
  lastSeq = 0;
  private readonly invalidSamples: ReplaySummary['invalidSamples'] = [];
  private firstTime = NaN;
  private readonly latency = new Map<string, LatencyStats>();
  /** Hold and latency percentiles by key (KeyState.order); the run's are merged from them. */
  private readonly times = new KeyTimes();
  private tooWide: TooWide | undefined;
  /**
   * The sender's time (ms) of records held until released, with --time mdp3 (the packet's
   * SendingTime) or --time json:<path> (the payload field's); scanned entries carry theirs.
   */
  private readonly sentAt = new WeakMap<CaptureEntry, number>();
  /** What the first invalid record points at. */
  private firstCause: InvalidCause | undefined;
  /** What `readFields` read from the record being pushed. */
  private readonly fields = newRecordFields();
  /** `--seq publishTime`: the sequencer's number is the record's publish time (ms, NaN when absent). */
  private readonly byPublish: boolean;

  constructor(
    readonly options: SequencingOptions,
    /** Receives every trace event in release order; omit it when only the summary is wanted. */
    private readonly listener?: TraceListener,
    /** Capture paths by file index; named on events only when there are several. */
    readonly files: readonly string[] = [],
  ) {
    this.byPublish = judgesPublishOrder(options);
    this.sequencer = new Sequencer<CaptureEntry>(sequencerConfig(options), this.makeSink(), entryContent);
  }

  pushAll(entries: readonly CaptureEntry[]): void {
    for (let i = 0; i < entries.length; i++) this.push(entries[i]);
  }

  /**
   * Offers one entry. Returns false when it was invalid (reported). Afterwards `lastKey` and
   * `lastSeq` hold what the record was sequenced by (for callers that log arrivals).
   */
  push(e: CaptureEntry): boolean {
    if (e instanceof ScannedEntry) return this.pushScanned(e);
    const rm = e.record;
    if (rm === undefined) {
      this.reportInvalid(e, e.invalid ?? 'not a record', 'record');
      return false;
    }
    const f = this.fields;
    if (!readFields(rm, this.options, this.sequencer.space, f)) {
      if (f.cause === 'width') this.noteTooWide(e, f.wideSource as string, f.seq);
      this.reportInvalid(e, f.reason as string, f.cause as InvalidCause);
      return false;
    }
    if (this.options.sendingTimeAttribute === undefined && f.sent === f.sent) this.sentAt.set(e, f.sent);
    return this.offer(e, f.key, this.byPublish ? publishedAt(rm, e.time) : f.seq, rm.message.messageId);
  }

  /** An entry a scanning thread has read already (see capture/lineScan.ts). */
  private pushScanned(e: ScannedEntry): boolean {
    const kind = e.kind;
    if (kind !== ScanKind.Valid) {
      if (kind === ScanKind.Width) this.noteTooWide(e, e.wideSource as string, e.seq);
      this.reportInvalid(e, kind === ScanKind.Record ? (e.invalid ?? 'not a record') : (e.reason as string), causeOf(kind));
      return false;
    }
    return this.offer(e, e.key, this.byPublish ? e.published : e.seq, e.messageId);
  }

  private offer(e: CaptureEntry, key: string, seq: number, messageId: string): true {
    if (this.firstTime !== this.firstTime) this.firstTime = e.time;
    this.lastKey = key;
    this.lastSeq = seq;
    this.sequencer.advance(e.time);
    this.sequencer.offer(key, seq, messageId, e);
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

  /**
   * @param keyPercentiles Without (false), every key's `percentiles` is one shared empty object:
   *   a summary of a load under way, sent between threads for each refresh, where 100 000 keys'
   *   percentiles made each ~50 MB.
   */
  summary(keyPercentiles = true): ReplaySummary {
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
        reordered: k.reordered,
        resets: k.resets,
        maxHoldMs: s.maxHoldMsOf(k),
        maxHeld: k.maxHeld,
        percentiles: keyPercentiles ? this.times.percentiles(k.order) : NO_PERCENTILES,
      };
      if (k.reordered > 0) ks.maxReorder = { ...s.maxReorderOf(k) };
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
      ...(s.totals.reordered > 0 ? { maxReorder: worstReorder(byKey) } : {}),
      percentiles: this.times.total(),
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
        fix: {
          flag: `use --seq-bits ${t.fitsIn}`,
          setting: `open it with sequence width ${t.fitsIn} (Open Capture… › Customize…, or the seqscope.seqBits setting)`,
        },
      };
    }
    const first = this.invalidSamples[0]?.reason ?? 'not a record';
    const reason = `no record could be sequenced: ${all} (the first: ${first})`;
    switch (this.firstCause) {
      case 'key': {
        const name = o.key.kind === 'attribute' ? o.key.name : '';
        return {
          reason,
          fix: {
            flag: `records lack the key attribute "${name}": name one they carry with --key attribute:<name>, or use --key orderingKey`,
            setting: `records lack the key attribute "${name}": choose another key (Open Capture… › Customize…, or the seqscope.key setting)`,
          },
        };
      }
      case 'mdp3':
        return {
          reason,
          fix: {
            flag: 'the payloads are not MDP 3.0 packets that agree with their MsgSeqNum attribute: use --seq attribute:MsgSeqNum (and --time attribute:SendingTime) instead of mdp3',
            setting:
              'the payloads are not MDP 3.0 packets that agree with their MsgSeqNum attribute: sequence by attribute:MsgSeqNum instead of mdp3 (Open Capture… › Customize…, or the seqscope.seq setting)',
          },
        };
      case 'json':
        return {
          reason,
          fix: {
            flag: 'the payloads are not JSON with the fields asked for: check the json:<path> options (docs/cli.md: payload fields) or use attribute:<name>',
            setting:
              'the payloads are not JSON with the fields asked for: check the json:<path> options (Open Capture… › Customize…, or the seqscope.key/seq/time settings)',
          },
        };
      case 'seq':
        return {
          reason,
          fix: {
            flag: 'name the attribute that carries the number with --seq attribute:<name>, or use --seq none to keep arrival order',
            setting: "choose the sequence number's source (Open Capture… › Customize…, or the seqscope.seq setting), or none to keep arrival order",
          },
        };
      default:
        return {
          reason,
          fix: {
            flag: 'check that the file is a capture of Pub/Sub ReceivedMessage records (README: capture format)',
            setting: 'check that the file is a capture of Pub/Sub ReceivedMessage records (README: capture format)',
          },
        };
    }
  }

  private fileName(e: CaptureEntry): string | undefined {
    return this.files.length > 1 ? this.files[e.file] : undefined;
  }

  private reportInvalid(e: CaptureEntry, reason: string, cause: InvalidCause): void {
    this.invalid++;
    this.firstCause ??= cause;
    const file = this.fileName(e);
    if (cause !== 'width' && this.invalidSamples.length < INVALID_SAMPLES)
      this.invalidSamples.push(file ? { file, line: e.line, reason } : { line: e.line, reason });
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
    return {
      message: (k: KeyState<CaptureEntry>, seq: number | undefined, e: CaptureEntry, arrivedAt: number, releasedAt: number): void => {
        let latencyMs: number | undefined;
        let sent = NaN;
        let published: number;
        let received: number;
        if (e instanceof ScannedEntry) {
          sent = e.sent;
          published = e.published;
          received = e.received;
        } else {
          const rm = e.record!;
          if (sendingAttr !== undefined) {
            const st = rm.message.attributes?.[sendingAttr];
            if (st !== undefined) sent = Number(st);
          } else sent = this.sentAt.get(e) ?? NaN;
          published = publishedAt(rm, e.time);
          received = receivedAtMs(rm, e.time);
        }
        const heldMs = releasedAt - arrivedAt;
        // As the longest hold (maxHoldMs), the start window's waits are not holds: NaN leaves them out.
        this.times.record(k.order, this.sequencer.releasingStart ? NaN : heldMs, sent, published, received);
        if (sent === sent) {
          latencyMs = e.time - sent;
          let l = this.latency.get(k.name);
          if (!l) this.latency.set(k.name, (l = { count: 0, sumMs: 0, maxMs: -Infinity }));
          l.count++;
          l.sumMs += latencyMs;
          if (latencyMs > l.maxMs) l.maxMs = latencyMs;
        }
        if (!listener) return;
        listener(messageEvent(k.name, seq, e, arrivedAt, releasedAt, heldMs, latencyMs, this.fileName(e)), e);
      },
      gap: (k: KeyState<CaptureEntry>, g: GapInfo): void => {
        listener?.(gapEvent(k.name, g));
      },
      duplicate: (k: KeyState<CaptureEntry>, d: DuplicateInfo<CaptureEntry>): void => {
        if (!listener) return;
        listener(duplicateEvent(k.name, d, this.fileName(d.item)), d.item);
      },
      reordered: (k: KeyState<CaptureEntry>, r: ReorderInfo<CaptureEntry>): void => {
        if (!listener) return;
        listener(reorderedEvent(k.name, r, this.fileName(r.item)), r.item);
      },
      late: (k: KeyState<CaptureEntry>, l: LateInfo<CaptureEntry>): void => {
        if (!listener) return;
        listener(lateEvent(k.name, l, this.fileName(l.item)), l.item);
      },
      reset: (k: KeyState<CaptureEntry>, r: ResetInfo): void => {
        listener?.(resetEvent(k.name, r));
      },
    };
  }
}

/** The run's largest displacements: each the maximum over the keys. */
function worstReorder(byKey: readonly KeySummary[]): MaxReorder {
  const worst: MaxReorder = { byMs: 0, byPosition: 0 };
  for (const k of byKey) {
    if (k.maxReorder === undefined) continue;
    if (k.maxReorder.byMs > worst.byMs) worst.byMs = k.maxReorder.byMs;
    if (k.maxReorder.byPosition > worst.byPosition) worst.byPosition = k.maxReorder.byPosition;
  }
  return worst;
}
