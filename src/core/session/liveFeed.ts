/**
 * A session that grows as live messages arrive: each delivery the live source reports (already
 * written to the recording, with its byte range) goes through the sequencer and into the
 * session's columns, and the wall clock is fed in between arrivals so gaps are declared when their
 * timeout passes even while nothing arrives. The views read `session` as they read a loaded
 * capture; `refresh()` updates its summary. Pure: the clock comes from the caller.
 *
 * Memory is bounded: past `maxArrivals` the feed stops indexing (the sequencer still counts every
 * message and the recording still holds every line); the session says so.
 */
import { ReceivedMessage, recordTime } from '../captureRecord';
import { ReplayEngine, ReplaySummary } from '../replayEngine';
import { SequencingOptions } from '../sequencingOptions';
import { CaptureSession } from './captureSession';
import { SessionBuilder } from './sessionBuilder';

export interface LiveFeedOptions {
  /** Arrivals indexed for the views, at most (default 2 000 000: about 150 MB of columns). */
  readonly maxArrivals?: number;
}

export class LiveFeed {
  readonly engine: ReplayEngine;
  readonly session: CaptureSession;
  /** True once maxArrivals was reached: later messages are counted, not indexed. */
  truncated = false;
  private readonly builder = new SessionBuilder();
  private readonly keyNames: string[] = [];
  private readonly maxArrivals: number;

  constructor(
    readonly recordingPath: string,
    readonly options: SequencingOptions,
    feedOptions: LiveFeedOptions = {},
  ) {
    this.maxArrivals = feedOptions.maxArrivals ?? 2_000_000;
    this.engine = new ReplayEngine(options, this.builder.listener, [recordingPath]);
    this.builder.attach(this.engine);
    this.session = new CaptureSession([recordingPath], this.engine.summary(), this.builder.store, this.builder.log, this.keyNames);
  }

  get arrivals(): number {
    return this.builder.log.count;
  }

  /** One delivery, in arrival order, with its line's byte range in the recording. */
  push(rm: ReceivedMessage, offset: number, length: number): void {
    const t = recordTime(rm);
    const line = this.builder.log.count + 1;
    const entry = typeof t === 'number' ? { file: 0, line, offset, length, time: t, record: rm } : { file: 0, line, offset, length, time: NaN, invalid: t };
    if (this.builder.log.count >= this.maxArrivals) {
      // Past the window the views stop growing; the sequencer keeps its verdict complete.
      this.truncated = true;
      this.builder.indexing = false;
      this.engine.push(entry);
      return;
    }
    const b = this.builder;
    b.beforePush(entry);
    const valid = this.engine.push(entry);
    b.afterPush(entry, valid);
  }

  /** The wall clock moved (no arrival): gap timeouts that passed fire now. */
  tick(now: number): void {
    if (now <= this.engine.sequencer.now) return;
    this.builder.beforeAdvance();
    this.engine.sequencer.advance(now);
  }

  /** Brings the session's summary and key list up to date; returns the summary. */
  refresh(): ReplaySummary {
    const s = this.engine.summary();
    this.session.summary = s;
    for (let i = this.keyNames.length; i < s.byKey.length; i++) this.keyNames.push(s.byKey[i].key);
    return s;
  }

  /** Detached: releases what is held and declares open gaps lost, as at the end of a capture. */
  finish(): ReplaySummary {
    this.builder.beforeAdvance();
    this.engine.finish();
    return this.refresh();
  }
}
