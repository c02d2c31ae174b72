/**
 * Builds a session's columns while the sequencer runs: every arrival goes into the arrival log
 * and every trace event into the event store, each event pointing back to the arrival that caused
 * it. Used by loadSession (a capture, one pass) and by LiveFeed (a live subscription, as messages
 * arrive).
 */
import { CaptureEntry } from '../core/capture/captureRecord';
import { ScannedEntry } from '../core/capture/scannedEntry';
import { ReplayEngine } from '../core/replay/replayEngine';
import { TraceEvent } from '../core/trace/traceEvents';
import type { TraceListener } from '../core/replay/replayEngine';
import { ArrivalLog } from './arrivalLog';
import { EventStore } from './eventStore';
import { Flag, Kind, RESET_HOWS } from '../shared/timelineModel';
import { GapReason } from '../core/sequencer/sequencer';

/**
 * Where a load also writes each arrival, to read it back by byte range (an archive's JSON Lines
 * copy, node/archiveCopy.ts).
 */
export interface ArrivalCopy {
  /** Appends the entry's line; its place is then lastOffset / lastLength. */
  append(e: CaptureEntry): void;
  readonly lastOffset: number;
  readonly lastLength: number;
  /** Ends the copy (the load's last step, or its failure). */
  close(): void;
}

/**
 * What a builder recorded since its last cut (SessionBuilder.cut): the events from `eventBase`
 * on and the arrivals from `arrivalBase` on. Arrival indexes in the events (arrival, cause) and
 * the event ids keying the store's maps are the session's, counted from its start; the store's
 * per-key lists are the chunk's own and not read.
 */
export interface BuiltChunk {
  readonly store: EventStore;
  readonly log: ArrivalLog;
  readonly eventBase: number;
  readonly arrivalBase: number;
}

/** A gap's reason as its flag (timeout: none). */
const GAP_REASON_FLAG: Record<GapReason, number> = { timeout: 0, capacity: Flag.reasonCapacity, end: Flag.reasonEnd, reset: Flag.reasonReset };

export class SessionBuilder {
  /** What was recorded since the last cut (all of it when never cut). */
  store: EventStore;
  log = new ArrivalLog();
  /** Events and arrivals handed over by earlier cuts. */
  private eventBase = 0;
  private arrivalBase = 0;
  /** Arrival index of the entry being pushed: events emitted now are caused by it. */
  private cause = 0;
  private engine: ReplayEngine | undefined;
  /** What the attached engine emits. */
  private readonly main: EventRecording;
  /** The engine's listener: records each event in the store under the engine's own key indexes. */
  readonly listener: TraceListener;
  private readonly laneOf: ((key: string) => number) | undefined;
  private readonly chunked: boolean;

  /**
   * @param copy Where each arrival is also written, and read back from (an archive's load).
   * @param how.laneOf The lane of a key, for the attached engine's events and the arrivals (default: the engine's key index).
   * @param how.chunked What is recorded is handed over in chunks (`cut`), whose per-key indexes are built where they are appended: not here.
   */
  constructor(
    readonly copy?: ArrivalCopy,
    how: { readonly laneOf?: (key: string) => number; readonly chunked?: boolean } = {},
  ) {
    this.laneOf = how.laneOf;
    this.chunked = how.chunked ?? false;
    this.store = new EventStore(!this.chunked);
    this.main = this.recorder(this.laneOf ?? ((name) => (this.engine as ReplayEngine).sequencer.key(name)!.order));
    this.listener = this.main.listener;
  }

  /**
   * Hands over what was recorded since the last cut and goes on into new columns, so a load that
   * sends its session on in chunks holds no more than one (see sessionChunk.ts).
   */
  cut(): BuiltChunk {
    const chunk: BuiltChunk = { store: this.store, log: this.log, eventBase: this.eventBase, arrivalBase: this.arrivalBase };
    this.eventBase += this.store.count;
    this.arrivalBase += this.log.count;
    this.store = new EventStore(!this.chunked);
    this.log = new ArrivalLog();
    return chunk;
  }

  /** Arrivals recorded so far, across cuts. */
  get arrivals(): number {
    return this.arrivalBase + this.log.count;
  }

  /** Events recorded so far, across cuts. */
  get events(): number {
    return this.eventBase + this.store.count;
  }

  /** The engine whose events this builder records (its key indexes are the session's). */
  attach(engine: ReplayEngine): void {
    this.engine = engine;
  }

  /**
   * A listener for one more engine fed the same arrivals (a comparison's side engines), whose
   * events go into the store under the lanes `laneOf` names by key.
   */
  recorder(laneOf: (key: string) => number): EventRecording {
    return new EventRecorder(this, laneOf, () => this.cause);
  }

  /** The attached engine's event about `e` will not be recorded (see crossSideCopies.ts): it stops waiting for it. */
  readonly forget = (e: CaptureEntry): void => this.main.forget(e);

  /** Before the engine sees an arrival: events from here on are caused by it. */
  readonly beforePush = (e: CaptureEntry): void => {
    this.cause = this.arrivals;
    this.main.pushing(e);
  };

  /** After the engine saw it: log what it was sequenced by. */
  readonly afterPush = (e: CaptureEntry, valid: boolean): void => {
    const en = this.engine as ReplayEngine;
    // A scanned entry carries its messageId (its record is not kept: see runReplay's sequencingOnly).
    const id = e instanceof ScannedEntry ? e.messageId : (e.record?.message.messageId ?? '');
    let offset = e.offset ?? -1;
    let length = e.length ?? 0;
    const copy = this.copy;
    if (copy) {
      copy.append(e);
      offset = copy.lastOffset;
      length = copy.lastLength;
    }
    if (valid) {
      const lane = this.laneOf ? this.laneOf(en.lastKey) : en.sequencer.key(en.lastKey)!.order;
      this.log.add(e.file, e.line, offset, length, e.time, lane, en.lastSeq, id);
    } else this.log.add(e.file, e.line, offset, length, e.time, -1, NaN, id);
  };

  /**
   * Before the clock moves without an arrival (a live source's timer, or end of input): what
   * fires now is attributed to the next arrival position, as replay does.
   */
  readonly beforeAdvance = (): void => {
    this.cause = this.arrivals;
  };
}

/** One more engine's events, recorded in a builder's store (see SessionBuilder.recorder). */
export interface EventRecording {
  readonly listener: TraceListener;
  /** Before the engine is pushed the arrival being logged. */
  pushing(e: CaptureEntry): void;
  /** The engine's event about `e` will not be recorded. */
  forget(e: CaptureEntry): void;
}

/**
 * Records one engine's events in the store. An entry an engine holds is released later, maybe
 * by another arrival: each engine keeps which arrival each of its held entries was.
 */
class EventRecorder implements EventRecording {
  /**
   * Arrival index of entries the engine still holds. The one being pushed waits in `pushed`
   * instead, and goes in here only if the engine still holds it when the next one comes: most
   * entries are released by their own push.
   */
  private readonly pending = new Map<CaptureEntry, number>();
  private pushed: CaptureEntry | undefined;
  private pushedArrival = -1;
  /** The arrival of the latest message event (a reordered event marks it). */
  private messageArrival = -1;

  constructor(
    /** Where the events go: its current columns, and the events handed over before them. */
    private readonly into: { readonly store: EventStore; readonly events: number },
    private readonly keyId: (name: string) => number,
    private readonly cause: () => number,
  ) {}

  pushing(e: CaptureEntry): void {
    if (this.pushed !== undefined) this.pending.set(this.pushed, this.pushedArrival);
    // The same entry pushed again: its new arrival is the one that counts.
    if (this.pending.size > 0) this.pending.delete(e);
    this.pushed = e;
    this.pushedArrival = this.cause();
  }

  forget(e: CaptureEntry): void {
    if (e === this.pushed) this.pushed = undefined;
    else this.pending.delete(e);
  }

  private arrivalOf(e: CaptureEntry | undefined): number {
    if (e === undefined) return -1;
    if (e === this.pushed) {
      this.pushed = undefined;
      return this.pushedArrival;
    }
    const a = this.pending.get(e);
    if (a === undefined) return -1;
    this.pending.delete(e);
    return a;
  }

  readonly listener = (ev: TraceEvent, e?: CaptureEntry): void => {
    const store = this.into.store;
    const base = this.into.events - store.count;
    const cause = this.cause();
    switch (ev.type) {
      case 'message':
        this.messageArrival = this.arrivalOf(e);
        store.add(Kind.message, this.keyId(ev.key), ev.seq ?? NaN, NaN, ev.latencyMs ?? NaN, ev.arrivedAt, ev.releasedAt, 0, this.messageArrival, cause);
        break;
      case 'reordered': {
        // Heard right after its message's event: the same arrival.
        const id = base + store.add(Kind.reordered, this.keyId(ev.key), NaN, ev.byPosition, ev.byMs, ev.at, ev.at, 0, this.messageArrival, cause);
        store.behind.set(id, ev.behindMessageId);
        break;
      }
      case 'gap':
        store.add(Kind.gap, this.keyId(ev.key), ev.from, ev.to, ev.count, ev.openedAt, ev.declaredAt, GAP_REASON_FLAG[ev.reason], -1, cause);
        break;
      case 'duplicate':
        store.add(
          Kind.duplicate,
          this.keyId(ev.key),
          ev.seq ?? NaN,
          NaN,
          ev.cascade ?? 0,
          ev.at,
          ev.at,
          (ev.redelivery ? Flag.redelivery : 0) | (ev.conflict ? Flag.conflict : 0),
          this.arrivalOf(e),
          cause,
        );
        break;
      case 'late':
        store.add(Kind.late, this.keyId(ev.key), ev.seq, NaN, ev.lostAt, ev.at, ev.at, ev.beforeStart ? Flag.beforeStart : 0, this.arrivalOf(e), cause);
        break;
      case 'reset': {
        const id = base + store.add(Kind.reset, this.keyId(ev.key), ev.to, ev.from, ev.lost, ev.arrivedAt, ev.at, RESET_HOWS.indexOf(ev.how), -1, cause);
        if (ev.released) store.released.set(id, ev.released);
        break;
      }
      case 'invalid': {
        const t = ev.at ?? NaN;
        const id = base + store.add(Kind.invalid, -1, NaN, NaN, 0, t, t, 0, this.arrivalOf(e), cause);
        store.problems.set(id, ev.reason);
        break;
      }
    }
  };
}
