import * as vscode from 'vscode';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { CaptureSession } from '../timeline/captureSession';
import { ReplayCursor } from '../timeline/replayCursor';
import { CursorState } from '../shared/timelineModel';
import type { ReplayAction, ReplayInfo, ReplaySpeed } from '../shared/protocol';
import { Disposable, toDisposable } from './dispose';

/** Timer tick while playing; at ×1 and ×10 the position follows the capture's own pacing. */
const TICK_MS = 50;
/** Arrivals per tick at "max" speed. */
const MAX_STEP = 2_000;

/**
 * Step-through replay of one session: a cursor over the arrival order with play / pause / step /
 * run-to-next-finding. Inactive until the user first steps (the views then show everything).
 */
/** What each Run to Next … action runs to. */
const NEXT_KIND = { nextGap: 'gap', nextDuplicate: 'duplicate', nextLate: 'late', nextReordered: 'reordered', nextReset: 'reset' } as const;

export class ReplayController extends Disposable {
  private readonly cursor: ReplayCursor;
  private pos = 0;
  private activeFlag = false;
  private playing = false;
  private speedValue: ReplaySpeed = 1;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Wall-clock and capture-clock anchors of the current play run. */
  private anchorWall = 0;
  private anchorClock = 0;
  private cached: CursorState | undefined;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly session: CaptureSession,
    options: SequencingOptions,
  ) {
    super();
    this.cursor = new ReplayCursor(session, options);
    this._register(toDisposable(() => this.stopTimer()));
  }

  get active(): boolean {
    return this.activeFlag;
  }

  get position(): number {
    return this.pos;
  }

  get end(): number {
    return this.cursor.end;
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  get speed(): ReplaySpeed {
    return this.speedValue;
  }

  state(): CursorState {
    return (this.cached ??= this.cursor.stateAt(this.pos));
  }

  info(): ReplayInfo {
    return { playing: this.playing, speed: this.speedValue, active: this.activeFlag, ...(this.activeFlag ? { state: this.state() } : {}) };
  }

  /** Set while replay is not possible (a live session); run() then throws it as the reason. */
  lockedReason: string | undefined;

  /** Runs an action; returns false when it could not move (e.g. no next gap). */
  run(action: ReplayAction): boolean {
    if (this.lockedReason) throw new Error(this.lockedReason);
    switch (action) {
      case 'play':
        this.play();
        return true;
      case 'pause':
        this.pause();
        return true;
      case 'stepForward':
        this.pause();
        return this.seek(this.pos + 1);
      case 'stepBack':
        this.pause();
        return this.seek(this.pos - 1);
      case 'toStart':
        this.pause();
        return this.seek(0);
      case 'toEnd':
        this.pause();
        return this.seek(this.end);
      case 'nextGap':
      case 'nextDuplicate':
      case 'nextLate':
      case 'nextReordered':
      case 'nextReset': {
        this.pause();
        const kind = NEXT_KIND[action];
        const from = this.activeFlag ? this.pos : 0;
        const next = kind === 'gap' ? this.session.nextGapStop(from) : this.session.nextPositionOf(kind, from);
        return next !== undefined && this.seek(next);
      }
    }
  }

  seek(position: number): boolean {
    const p = Math.max(0, Math.min(this.end, Math.round(position)));
    const moved = p !== this.pos || !this.activeFlag;
    this.activeFlag = true;
    this.pos = p;
    this.cached = undefined;
    if (moved) this.changed.fire();
    return moved;
  }

  setSpeed(speed: ReplaySpeed): void {
    this.speedValue = speed;
    if (this.playing) this.anchor();
    this.changed.fire();
  }

  play(): void {
    if (this.playing) return;
    if (!this.activeFlag || this.pos >= this.end) this.seek(this.pos >= this.end ? 0 : this.pos);
    this.playing = true;
    this.anchor();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.changed.fire();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.stopTimer();
    this.changed.fire();
  }

  private anchor(): void {
    this.anchorWall = Date.now();
    this.anchorClock = this.clockAt(this.pos);
  }

  /** Capture clock of the arrival at a position (the time the next step happens). */
  private clockAt(position: number): number {
    const log = this.session.log;
    for (let i = Math.min(position, log.count - 1); i >= 0; i--) {
      const t = log.time.get(i);
      if (t === t) return t;
    }
    return this.session.timeRange.start;
  }

  private tick(): void {
    const log = this.session.log;
    let next = this.pos;
    if (this.speedValue === 'max') {
      next = this.pos + MAX_STEP;
    } else {
      // Follow the capture's pacing: advance over every arrival due by now at this speed.
      const due = this.anchorClock + (Date.now() - this.anchorWall) * this.speedValue;
      while (next < log.count) {
        const t = log.time.get(next);
        if (t === t && t > due) break;
        next++;
      }
      if (next >= log.count) next = this.end;
    }
    if (next >= this.end) {
      this.seek(this.end);
      this.pause();
      return;
    }
    if (next !== this.pos) this.seek(next);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
