/**
 * In a comparison's merged stream the first copy of a number wins and every later copy is a
 * duplicate — so the other side's copy of every number both sides had is one. That is the
 * arbitration doing its job, not a finding: it is not recorded. What is recorded is what a feed
 * handler would report: a second copy from the same side (that side's engine calls it a
 * duplicate too), and a copy whose content differs from the first (a conflict, whichever side).
 *
 * The merged engine hears of an arrival before its side's engine does, so its duplicate waits
 * until the side has seen the arrival (settle). Browser-safe.
 */
import type { CaptureEntry } from '../core/capture/captureRecord';
import type { TraceListener } from '../core/replay/replayEngine';
import type { DuplicateEvent } from '../core/trace/traceEvents';

/** What the copies left out took from a key's merged counts. */
export interface DroppedCopies {
  duplicates: number;
  redeliveries: number;
}

export class CrossSideCopies {
  /** The merged engine's duplicate of the arrival being pushed, waiting for its side. */
  private held: { ev: DuplicateEvent; e: CaptureEntry } | undefined;
  private sideCalledIt = false;
  /** The arrival being pushed. */
  private current: CaptureEntry | undefined;
  /** By key. */
  readonly dropped = new Map<string, DroppedCopies>();

  /**
   * @param record Records a merged event (the session builder's listener).
   * @param forget Tells the builder an arrival's event will not come (it stops waiting for it).
   */
  constructor(
    private readonly record: TraceListener,
    private readonly forget: (e: CaptureEntry) => void,
  ) {}

  /** Before the merged engine is pushed `e`. */
  pushing(e: CaptureEntry): void {
    this.current = e;
    this.held = undefined;
    this.sideCalledIt = false;
  }

  /** The merged engine's listener. */
  readonly merged: TraceListener = (ev, e) => {
    if (ev.type === 'duplicate' && !ev.conflict && e !== undefined && e === this.current) this.held = { ev, e };
    else this.record(ev, e);
  };

  /** Wraps a side engine's listener: notes whether the side too calls the arrival a duplicate. */
  side(listener: TraceListener): TraceListener {
    return (ev, e) => {
      if (ev.type === 'duplicate' && e !== undefined && e === this.held?.e) this.sideCalledIt = true;
      listener(ev, e);
    };
  }

  /** After the arrival's side engine saw it: records the held duplicate when it is the side's own, else counts it as left out. */
  settle(): void {
    const h = this.held;
    this.held = undefined;
    this.current = undefined;
    if (!h) return;
    if (this.sideCalledIt) {
      this.record(h.ev, h.e);
      return;
    }
    this.forget(h.e);
    let d = this.dropped.get(h.ev.key);
    if (!d) this.dropped.set(h.ev.key, (d = { duplicates: 0, redeliveries: 0 }));
    d.duplicates++;
    if (h.ev.redelivery) d.redeliveries++;
  }
}
