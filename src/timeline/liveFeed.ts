/**
 * A session that grows as live messages arrive: each delivery the live source reports (already
 * written to the recording, with its byte range) goes through the sequencer and into the
 * session's columns, and the wall clock is fed in between arrivals so gaps are declared when their
 * timeout passes even while nothing arrives. The views read `session` as they read a loaded
 * capture; `refresh()` updates its summary and what each key waits for. Pure: the clock comes from the caller.
 *
 * Memory is bounded by a window: when `windowArrivals` arrivals are indexed, the feed starts a
 * new window (a fresh `session`, announced through `onRollover`) holding only what arrives from
 * then on. The sequencer runs on across windows, so its verdict and the summary's counts cover
 * everything since attach; the recording keeps every line, and reopening it shows them all.
 */
import { OpenState, openStateOf } from '../core/sequencer/openState';
import { CaptureEntry, ReceivedMessage, RecordEntry, recordTime } from '../core/capture/captureRecord';
import { ReplayEngine, ReplaySummary } from '../core/replay/replayEngine';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { CaptureSession } from './captureSession';
import { SessionBuilder } from './sessionBuilder';

export interface LiveFeedOptions {
  /** Arrivals a window indexes before the next one starts (default 1 000 000: ~100 MB of columns). */
  readonly windowArrivals?: number;
}

export class LiveFeed {
  readonly engine: ReplayEngine;
  /** The current window: what the views show. Replaced on rollover. */
  session!: CaptureSession;
  /** Windows started after the first. */
  rollovers = 0;
  /** Called with the new window's session when the previous one was full. */
  onRollover: ((session: CaptureSession) => void) | undefined;
  private builder!: SessionBuilder;
  private keyNames!: string[];
  /** Arrivals in the windows before this one (the recording's line numbers go on). */
  private base = 0;
  /** Lines of the recording that are not arrivals (recorded schemas). */
  private otherLines = 0;
  private readonly windowArrivals: number;
  private open: { key: number; state: OpenState }[] = [];
  private openByKey = new Map<number, OpenState>();

  constructor(
    readonly recordingPath: string,
    readonly options: SequencingOptions,
    feedOptions: LiveFeedOptions = {},
  ) {
    this.windowArrivals = Math.max(1, feedOptions.windowArrivals ?? 1_000_000);
    // The listener reaches the current window's builder, whichever that is.
    this.engine = new ReplayEngine(options, (ev, e) => this.builder.listener(ev, e), [recordingPath]);
    this.startWindow();
  }

  private startWindow(): void {
    this.builder = new SessionBuilder();
    this.builder.attach(this.engine);
    // Key indexes are the sequencer's, across windows: every key known so far keeps its index.
    this.keyNames = this.engine.sequencer.keyStates.map((k) => k.name);
    this.session = new CaptureSession([this.recordingPath], this.engine.summary(), this.builder.store, this.builder.log, this.keyNames);
    this.session.heldNow = (key) => {
      const k = this.engine.sequencer.keyStates[key];
      return k?.started ? k.held.size : 0;
    };
    this.session.openNow = () => this.open;
  }

  /**
   * What each key waits for as of the last refresh: the tree, the status bar and the timeline
   * all read this one snapshot, so they never disagree (a gap declared since shows everywhere
   * at the next refresh, with its counts).
   */
  get openKeys(): readonly { key: number; state: OpenState }[] {
    return this.open;
  }

  /** A key's entry in the snapshot (undefined: it holds nothing). */
  openStateOf(key: number): OpenState | undefined {
    return this.openByKey.get(key);
  }

  private snapshotOpen(): void {
    const seq = this.engine.sequencer;
    // The sequencer's clock: arrivals, and the wall clock the caller feeds in between them.
    const now = seq.now;
    const open: { key: number; state: OpenState }[] = [];
    const byKey = new Map<number, OpenState>();
    const keys = seq.keyStates;
    for (let key = 0; key < keys.length; key++) {
      if (keys[key].held.size === 0) continue;
      const state = openStateOf(seq, keys[key], now);
      if (!state) continue;
      open.push({ key, state });
      byKey.set(key, state);
    }
    this.open = open;
    this.openByKey = byKey;
  }

  /** Arrivals since attach. */
  get arrivals(): number {
    return this.base + this.builder.log.count;
  }

  /**
   * One delivery, in arrival order, with its line's byte range in the recording. `time` is its
   * clock value when the caller has it (a live source knows the receive time it wrote into
   * `receivedAt`); else it is read from the record.
   */
  push(rm: ReceivedMessage, offset: number, length: number, time?: number): void {
    if (this.builder.log.count >= this.windowArrivals) {
      this.base += this.builder.log.count;
      this.rollovers++;
      this.startWindow();
      this.onRollover?.(this.session);
    }
    const t = time ?? recordTime(rm);
    const line = this.base + this.otherLines + this.builder.log.count + 1;
    // A RecordEntry, not a literal: see there why.
    const entry: CaptureEntry =
      typeof t === 'number' ? new RecordEntry(0, line, offset, length, t, rm) : { file: 0, line, offset, length, time: NaN, invalid: t };
    const b = this.builder;
    b.beforePush(entry);
    const valid = this.engine.push(entry);
    b.afterPush(entry, valid);
  }

  /** A line written to the recording that is not an arrival (a recorded schema): the arrivals' line numbers go on after it. */
  lineWithoutArrival(): void {
    this.otherLines++;
  }

  /** The wall clock moved (no arrival): gap timeouts that passed fire now. */
  tick(now: number): void {
    if (now <= this.engine.sequencer.now) return;
    this.builder.beforeAdvance();
    this.engine.sequencer.advance(now);
  }

  /**
   * Brings the session's summary and key list up to date; returns the summary (counts since
   * attach; its first time is the window's, so the timeline spans the window).
   */
  refresh(): ReplaySummary {
    const s = this.engine.summary();
    const log = this.builder.log;
    this.session.summary = this.rollovers && log.count ? { ...s, firstTime: log.time.get(0) } : s;
    for (let i = this.keyNames.length; i < s.byKey.length; i++) this.keyNames.push(s.byKey[i].key);
    this.snapshotOpen();
    return s;
  }

  /** Detached: releases what is held and declares open gaps lost, as at the end of a capture. */
  finish(): ReplaySummary {
    this.builder.beforeAdvance();
    this.engine.finish();
    return this.refresh();
  }
}
