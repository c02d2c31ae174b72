/**
 * Builds a CaptureSession from capture files: one streaming pass through the sequencer that
 * records every arrival and every event into columns. Memory grows with the number of events
 * (tens of bytes each), not with the size of the records, which stay in the file.
 */
import { CaptureEntry } from '../captureRecord';
import { runReplay } from '../replayRun';
import { SequencingOptions } from '../sequencingOptions';
import { TraceEvent } from '../traceEvents';
import { ArrivalLog } from './arrivalLog';
import { CaptureSession } from './captureSession';
import { EventStore, Flag, Kind } from './eventStore';
import { ReplayEngine } from '../replayEngine';

export interface LoadOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
}

export interface LoadResult {
  readonly session: CaptureSession;
  readonly cancelled: boolean;
}

export async function loadSession(paths: readonly string[], options: SequencingOptions, load: LoadOptions = {}): Promise<LoadResult> {
  const store = new EventStore();
  const log = new ArrivalLog();
  /** Arrival index of entries the sequencer still holds (and of the one being pushed). */
  const pending = new Map<CaptureEntry, number>();
  let cause = 0;

  let engine: ReplayEngine | undefined;
  // Key indexes are the sequencer's own (first-appearance order, as in the summary).
  const keyId = (name: string): number => (engine as ReplayEngine).sequencer.key(name)!.order;
  const arrivalOf = (e: CaptureEntry | undefined): number => {
    if (e === undefined) return -1;
    const a = pending.get(e);
    pending.delete(e);
    return a ?? -1;
  };

  const listener = (ev: TraceEvent, e?: CaptureEntry): void => {
    switch (ev.type) {
      case 'message':
        store.add(Kind.message, keyId(ev.key), ev.seq ?? NaN, NaN, ev.latencyMs ?? NaN, ev.arrivedAt, ev.releasedAt, 0, arrivalOf(e), cause);
        break;
      case 'gap':
        store.add(Kind.gap, keyId(ev.key), ev.from, ev.to, ev.count, ev.openedAt, ev.declaredAt, ev.reason === 'capacity' ? Flag.reasonCapacity : ev.reason === 'end' ? Flag.reasonEnd : 0, -1, cause);
        break;
      case 'duplicate':
        store.add(Kind.duplicate, keyId(ev.key), ev.seq ?? NaN, NaN, ev.cascade ?? 0, ev.at, ev.at, ev.redelivery ? Flag.redelivery : 0, arrivalOf(e), cause);
        break;
      case 'late':
        store.add(Kind.late, keyId(ev.key), ev.seq, NaN, 0, ev.at, ev.at, 0, arrivalOf(e), cause);
        break;
      case 'invalid': {
        const t = ev.at ?? NaN;
        const id = store.add(Kind.invalid, -1, NaN, NaN, 0, t, t, 0, arrivalOf(e), cause);
        store.problems.set(id, ev.reason);
        break;
      }
    }
  };

  const { summary, cancelled } = await runReplay({
    paths,
    options,
    signal: load.signal,
    onProgress: load.onProgress,
    listener,
    onEngine: (en) => (engine = en),
    // Log each arrival before the sequencer sees it, so events can point back to it.
    beforePush: (e) => {
      cause = log.count;
      pending.set(e, cause);
    },
    afterPush: (e, valid) => {
      const en = engine as ReplayEngine;
      const m = e.record?.message;
      if (valid) log.add(e.file, e.line, e.offset ?? -1, e.length ?? 0, e.time, keyId(en.lastKey), en.lastSeq, m?.messageId ?? '');
      else log.add(e.file, e.line, e.offset ?? -1, e.length ?? 0, e.time, -1, NaN, m?.messageId ?? '');
    },
    beforeFinish: () => {
      cause = log.count;
    },
  });
  const keyNames = summary.byKey.map((k) => k.key);
  return { session: new CaptureSession(paths, summary, store, log, keyNames), cancelled };
}
