/**
 * Every trace event of a session in columns, with per-key indexes. Events are appended in
 * emission order, which is engine-clock order, so each key's list is sorted by `t1` (the time
 * the event happened: release, declaration, arrival) and by `cause` (the arrival being processed
 * when it was emitted) — both searchable by bisection.
 *
 * Browser-safe (no Node imports): the standalone HTML export runs the same queries in the page.
 */
import { ByteColumn, FloatColumn, IntColumn } from './columns';
import { isCompareKind, Kind, type KindCode } from '../shared/timelineModel';

/** Events spanning longer than this are listed per key (KeyEvents.long) for the lane index. */
export const LONG_SPAN_MS = 50;

export class KeyEvents {
  /** Every event of the key, in emission order. */
  readonly all = new IntColumn(16);
  /**
   * For the lane index (laneIndex.ts), kept as events arrive so it needs no pass over the store:
   * the release times of the key's messages (ascending, as events come in t1 order), and the
   * ids of its events longer than LONG_SPAN_MS.
   */
  readonly releases = new FloatColumn(16);
  // Empty for most keys: no array until the first push (see Column).
  readonly long = new IntColumn(0);
  readonly gap = new IntColumn(0);
  readonly duplicate = new IntColumn(0);
  readonly late = new IntColumn(0);
  readonly reordered = new IntColumn(0);
  readonly reset = new IntColumn(0);
  /**
   * A comparison's ranges on a merged lane (onlyA, onlyB, lostBoth), sorted by t1. Kept apart
   * from `all`: they are facts of both captures whole, recorded at the end of the load, so they
   * are in neither the lane's t1 order nor its cause order, and they show at every replay position.
   */
  readonly compared = new IntColumn(0);
  /** Longest span of a `compared` range. */
  comparedSpan = 0;
  /** Longest span (t1 − t0) of any event, so a time query knows how far back spans reach. */
  maxSpan = 0;
}

export class EventStore {
  readonly kind = new ByteColumn(4096);
  readonly key = new IntColumn(4096);
  /** seq of a message/duplicate/late (NaN without one); first missing number of a gap; reset: the new sequence's first number. */
  readonly seq = new FloatColumn(4096);
  /** Gap and a comparison's ranges: last number; reordered: byPosition; reset: the old sequence's last number; others: NaN. */
  readonly seqTo = new FloatColumn(4096);
  /** Gap and a comparison's ranges: how many numbers; duplicate: cascade number (0 = none); message: latency ms (NaN = none); reordered: byMs; reset: numbers declared lost; late: when its number was declared lost (0: not known). */
  readonly extra = new FloatColumn(4096);
  /** Message: arrival; gap: opened; reset: the new sequence's first arrival; others: when it happened. */
  readonly t0 = new FloatColumn(4096);
  /** Message: release; gap: declared lost; reset: decided; others: when it happened. */
  readonly t1 = new FloatColumn(4096);
  /** See Flag; reset: its RESET_HOWS index. */
  readonly flags = new ByteColumn(4096);
  /** Arrival index of the record this event is about (−1 for gaps and resets). */
  readonly arrival = new IntColumn(4096);
  /** Arrival index being processed when the event was emitted (arrival count for end of input). */
  readonly cause = new IntColumn(4096);

  readonly keys: KeyEvents[] = [];
  readonly invalid = new IntColumn(16);
  /** Why each invalid event's record could not be sequenced. */
  readonly problems = new Map<number, string>();
  /** The messageId each reordered event's message came behind. */
  readonly behind = new Map<number, string>();
  /** Held messages each reset released (only those that released any). */
  readonly released = new Map<number, number>();

  /**
   * @param indexed Whether `add` lists each event in the per-key indexes: a chunk built to be
   * sent on (sessionChunk.ts) is indexed where it is appended instead.
   */
  constructor(private readonly indexed = true) {}

  get count(): number {
    return this.kind.length;
  }

  keyEvents(k: number): KeyEvents {
    while (this.keys.length <= k) this.keys.push(new KeyEvents());
    return this.keys[k];
  }

  add(kind: KindCode, key: number, seq: number, seqTo: number, extra: number, t0: number, t1: number, flags: number, arrival: number, cause: number): number {
    const id = this.kind.length;
    this.kind.push(kind);
    this.key.push(key);
    this.seq.push(seq);
    this.seqTo.push(seqTo);
    this.extra.push(extra);
    this.t0.push(t0);
    this.t1.push(t1);
    this.flags.push(flags);
    this.arrival.push(arrival);
    this.cause.push(cause);
    if (this.indexed) this.indexEvent(id, kind, key, t0, t1);
    return id;
  }

  /**
   * Lists event `id` (already in the columns) in the per-key indexes: `add` does it for each
   * event, and a session loaded a chunk at a time (sessionChunk.ts) for each appended one, so
   * both build the very same indexes.
   */
  indexEvent(id: number, kind: number, key: number, t0: number, t1: number): void {
    if (kind === Kind.invalid) {
      this.invalid.push(id);
      return;
    }
    const ke = this.keyEvents(key);
    if (isCompareKind(kind)) {
      ke.compared.push(id);
      if (t1 - t0 > ke.comparedSpan) ke.comparedSpan = t1 - t0;
      return;
    }
    ke.all.push(id);
    if (kind === Kind.message) ke.releases.push(t1);
    if (t1 - t0 > LONG_SPAN_MS) ke.long.push(id);
    if (kind === Kind.gap) ke.gap.push(id);
    else if (kind === Kind.duplicate) ke.duplicate.push(id);
    else if (kind === Kind.late) ke.late.push(id);
    else if (kind === Kind.reordered) ke.reordered.push(id);
    else if (kind === Kind.reset) ke.reset.push(id);
    const span = t1 - t0;
    if (span > ke.maxSpan) ke.maxSpan = span;
  }
}
