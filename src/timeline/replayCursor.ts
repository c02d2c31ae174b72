/**
 * Step-through replay over a session's arrival order. Position p means "arrivals 0..p−1 have
 * been processed"; the last position (arrivalCount + 1) means "and the input has ended".
 *
 * What was emitted up to p comes straight from the event store (events carry the arrival that
 * caused them). The sequencer's inner state at p — expected numbers, held numbers, how long a
 * gap has waited — comes from re-running the sequencer over the arrival log from the nearest
 * checkpoint: the engine is deterministic, so stepping back is exact, not an approximation.
 * Checkpoints are spaced to a memory budget; the re-run sequencer keeps only a tiny messageId
 * history, because history only affects how duplicates are labelled (and, without sequence
 * numbers, which arrivals are duplicates: the event store says so), never what is held.
 */
import { Sequencer, SequencerSink, KeyState } from '../core/sequencer/sequencer';
import { isSequenced, sequencerConfig, SequencingOptions } from '../core/sequencer/sequencingOptions';
import { CaptureSession } from './captureSession';
import type { CursorState, KeyStateView } from '../shared/timelineModel';

/**
 * Where a replay position stands, in words every view uses ("arrival 3 of 3006"): there is one
 * position more than arrivals — the end of input — so "position / end" read "3 / 3007" beside
 * "3006 arrivals". `num` formats the numbers (the webview groups digits).
 */
export function positionWords(position: number, arrivals: number, num: (n: number) => string = String): string {
  if (position <= 0) return 'before the first arrival';
  if (position > arrivals) return 'end of input';
  return `arrival ${num(position)} of ${num(arrivals)}`;
}

const HELD_RUNS_SHOWN = 8;
const KEYS_SHOWN = 50;
/** Bytes of checkpoints a session may keep (rough estimate per key). */
const CHECKPOINT_BUDGET = 64 << 20;
const BYTES_PER_KEY = 400;
const noopSink: SequencerSink<number> = { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} };
/** Grid of the floating checkpoint (see stateAt): stepping back re-runs at most this many arrivals. */
const FLOATING_STEP = 1024;

export class ReplayCursor {
  private readonly checkpoints: { position: number; seq: Sequencer<number> }[] = [];
  private readonly interval: number;
  /**
   * A checkpoint near where the user went back to, when the fixed ones are far apart: with many
   * keys the budget allows only the one at position 0 (which costs next to nothing, so this one
   * stays within the budget), and every step back re-ran the log from the start — 0.2–0.45 s at
   * 100 000 keys and 300 000 arrivals.
   */
  private floating: { position: number; seq: Sequencer<number> } | undefined;
  /** The sequencer at `livePosition`, advanced incrementally while stepping forward. */
  private live: Sequencer<number>;
  private livePosition = 0;

  constructor(
    readonly session: CaptureSession,
    readonly options: SequencingOptions,
    /** Bytes the checkpoints may take (tests make it small to have few). */
    checkpointBudget = CHECKPOINT_BUDGET,
  ) {
    const n = session.arrivalCount;
    const keys = Math.max(1, session.keyNames.length);
    const maxCheckpoints = Math.max(1, Math.min(256, Math.floor(checkpointBudget / (keys * BYTES_PER_KEY))));
    this.interval = Math.max(1024, Math.ceil(n / maxCheckpoints));
    this.live = this.fresh();
  }

  get end(): number {
    return this.session.arrivalCount + 1;
  }

  /** Runs once through the log, keeping checkpoints; call before stepping (cost ~ one re-run). */
  prepare(): void {
    if (this.checkpoints.length) return;
    const seq = this.fresh();
    const n = this.session.arrivalCount;
    for (let p = 0; p < n; p++) {
      if (p % this.interval === 0) this.checkpoints.push({ position: p, seq: seq.clone(noopSink) });
      this.feed(seq, p);
    }
    if (this.checkpoints.length === 0) this.checkpoints.push({ position: 0, seq: seq.clone(noopSink) });
  }

  /** The state at `position` (clamped to 0..end). */
  stateAt(position: number): CursorState {
    const p = Math.max(0, Math.min(this.end, Math.round(position)));
    this.prepare();
    const n = this.session.arrivalCount;
    const target = Math.min(p, n);
    if (target < this.livePosition || target - this.livePosition > this.interval) {
      // A jump: start from the nearest checkpoint at or before the target, unless the live
      // sequencer is already between that checkpoint and the target.
      let cp = this.checkpoints[0];
      for (const c of this.checkpoints) if (c.position <= target) cp = c;
      const f = this.floating;
      if (f && f.position <= target && f.position > cp.position) cp = f;
      if (target < this.livePosition || this.livePosition < cp.position) {
        this.live = cp.seq.clone(noopSink);
        this.livePosition = cp.position;
        // Re-running from afar: leave a checkpoint on the grid just below the target, for the
        // steps back that usually follow. Only here, never while stepping or playing forward
        // (a clone of 100 000 keys takes ~80 ms).
        const at = target - (target % FLOATING_STEP);
        if (this.interval > FLOATING_STEP && at > cp.position) {
          while (this.livePosition < at) this.feed(this.live, this.livePosition++);
          this.floating = { position: at, seq: this.live.clone(noopSink) };
        }
      }
    }
    while (this.livePosition < target) this.feed(this.live, this.livePosition++);
    let seq = this.live;
    if (p === this.end) {
      // End of input mutates the state: do it on a copy so stepping back stays cheap.
      seq = this.live.clone(noopSink);
      seq.finish();
    }
    return this.describe(seq, p);
  }

  private fresh(): Sequencer<number> {
    return new Sequencer<number>(
      // The messageIds remembered without sequence numbers only decide which arrivals are
      // duplicates, which the event store says already: two, not the 2^20 over all keys that
      // every checkpoint would otherwise copy.
      sequencerConfig(this.options, { historySize: 2, idsKept: 2 }),
      noopSink,
    );
  }

  private feed(seq: Sequencer<number>, i: number): void {
    const log = this.session.log;
    const k = log.key.data[i];
    if (k < 0) return;
    seq.advance(log.time.data[i]);
    seq.offer(this.session.keyNames[k], log.seq.data[i], log.messageId.get(i), i);
  }

  private describe(seq: Sequencer<number>, p: number): CursorState {
    const session = this.session;
    const log = session.log;
    const state: CursorState = {
      position: p,
      end: this.end,
      time: seq.now === -Infinity ? NaN : seq.now,
      counts: session.countsAt(p),
      keys: [],
      keysHolding: 0,
    };
    let currentKey: string | undefined;
    if (p > 0 && p <= log.count) {
      const a = p - 1;
      const k = log.key.get(a);
      const s = log.seq.get(a);
      state.current = {
        arrival: a,
        key: k >= 0 ? session.keyNames[k] : '',
        messageId: log.messageId.get(a),
        line: log.line.get(a),
        file: log.file.get(a),
        valid: k >= 0,
      };
      if (k >= 0 && isSequenced(this.options) && s === s) state.current.seq = s;
      if (k >= 0) currentKey = session.keyNames[k];
    }
    const holding: KeyState<number>[] = [];
    for (const k of seq.keyStates) if (k.held.size > 0) holding.push(k);
    state.keysHolding = holding.length;
    holding.sort((a, b) => b.held.size - a.held.size || a.order - b.order);
    const shown = holding.slice(0, KEYS_SHOWN);
    const cur = currentKey !== undefined ? seq.key(currentKey) : undefined;
    if (cur && !shown.includes(cur)) shown.unshift(cur);
    state.keys = shown.map((k) => this.keyView(seq, k));
    return state;
  }

  /**
   * The session's index of a key this cursor's sequencer made: the same as the key's order, except
   * where the session has lanes no arrival is logged under (a comparison's side lanes).
   */
  private keyIndexOf(k: KeyState<number>): number {
    const names = this.session.keyNames;
    if (names[k.order] === k.name) return k.order;
    this.indexByName ??= new Map(names.map((n, i) => [n, i]));
    return this.indexByName.get(k.name) ?? -1;
  }

  private indexByName: Map<string, number> | undefined;

  private keyView(seq: Sequencer<number>, k: KeyState<number>): KeyStateView {
    const held = k.held.positions();
    const runs = heldRuns(held, HELD_RUNS_SHOWN, (abs) => seq.space.wrap(abs));
    const v: KeyStateView = { key: k.name, keyIndex: this.keyIndexOf(k), heldRuns: runs.runs, heldCount: held.length };
    if (runs.more) v.heldMore = true;
    const expected = seq.expectedNumber(k);
    if (expected !== undefined) v.expected = expected;
    const deadline = seq.deadlineOf(k);
    if (!k.started) {
      if (held.length) v.startsAt = deadline;
    } else if (held.length && expected !== undefined) {
      const oldest = deadline - this.options.gapTimeoutMs;
      v.gap = { from: expected, to: seq.space.wrap(k.held.lowest() - 1), waitedMs: seq.now - oldest, deadline };
    }
    return v;
  }
}

/**
 * Runs of consecutive positions (sorted, distinct), at most `max`, their ends mapped by `raw`
 * (positions are unwrapped: consecutive across the wrap too); `more` when runs were left out.
 */
export function heldRuns(positions: readonly number[], max: number, raw: (abs: number) => number): { runs: [number, number][]; more: boolean } {
  const runs: [number, number][] = [];
  let i = 0;
  while (i < positions.length && runs.length < max) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === positions[j] + 1) j++;
    runs.push([raw(positions[i]), raw(positions[j])]);
    i = j + 1;
  }
  return { runs, more: i < positions.length };
}
