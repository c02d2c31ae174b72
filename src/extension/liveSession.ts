import * as vscode from 'vscode';
import { mkdirSync } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { mebibytes } from '../core/util/byteSize';
import { HeapGuard } from '../core/replay/heapGuard';
import { claimRecordingPath } from '../core/capture/recordingPath';
import { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { OpenState } from '../core/sequencer/openState';
import { LiveFeed } from '../timeline/liveFeed';
import { learnRecorded, type SchemaSet, withRecorded } from '../core/schema/schemaSet';
import type * as PubsubLayer from '../pubsub';
import { Disposable, toDisposable } from './dispose';
import { log } from './log';
import { LiveStatus, Session } from './session';
import { SessionManager } from './sessionManager';
import { SessionNotices } from './sessionNotices';
import { outageWords } from './outageWords';
import { runCommand } from './commands/registry';
import { basename } from 'node:path';

/** How often the views catch up with what arrived (and the wall clock reaches the sequencer). */
const REFRESH_MS = 100;
/** Refreshes start at least this many times what the last one took apart (with many keys one costs more). */
const REFRESH_SPACING = 3;
/**
 * What a key costs the live session until it detaches, beyond what it holds now, for the heap
 * guard: the summary's row, the window's key list (as the loader's reserve, loadSession.ts).
 */
const RESERVE_PER_KEY = 512;

export interface LiveStart {
  readonly layer: typeof PubsubLayer;
  readonly connection: PubsubLayer.PubsubConnection;
  /** The subscription consumed; with taps, the first tap's. */
  readonly subscription: PubsubLayer.ResourceName;
  /**
   * Set when SeqScope made the subscriptions (taps), one per topic: they are deleted on detach.
   * Several topics feed the one session and recording, each line naming its topic (keys are per
   * topic: see ReceivedMessage.topic).
   */
  readonly taps?: readonly PubsubLayer.Tap[];
  readonly options: SequencingOptions;
  /** Folder for the recording. */
  readonly recordingDir: string;
  /** Arrivals a window shows before the views move on to a fresh one. */
  readonly windowArrivals?: number;
  /** Where the session's notifications go: settled when it re-taps, detaches or closes. */
  readonly notices: SessionNotices;
}

/** One subscription the session reads: a tap (replaced by Re-tap) or the subscription consumed. */
interface Input {
  tap: PubsubLayer.Tap | undefined;
  subscription: PubsubLayer.ResourceName;
  source: PubsubLayer.LiveSource | undefined;
  state: PubsubLayer.LiveState;
  detail: string;
  /** The server lost the tap (an emulator restart deletes every subscription). */
  gone: boolean;
  /** When the tap was found gone (ms), for what Re-tap reports as missed. */
  goneAt: number;
  /** The PubsubError kind behind a disconnect. */
  cause?: string;
}

/**
 * A live Pub/Sub session: the live source records every delivery to a file (acking after the
 * write) and feeds the sequencer, whose growing session the tree, timeline and status bar show
 * like any capture. Detaching stops the source, deletes a tap, and reopens the recording as an
 * ordinary capture session (with step-through replay); closing the window does the same cleanup.
 */
export class LiveSession extends Disposable {
  /** What the session reads: one input per tapped topic, or the one subscription consumed. */
  private readonly inputs: Input[];
  private recorder: PubsubLayer.CaptureRecorder | undefined;
  private readonly feed: LiveFeed;
  private readonly schemas: PubsubLayer.LiveSchemas;
  private detaching: Promise<void> | undefined;
  private readonly rateWindow: { t: number; n: number }[] = [];
  readonly recordingPath: string;
  /** The session showing the current window (a new one after each rollover). */
  session!: Session;
  /** Called once when the live session ends (detached or closed). */
  onDidEnd: (() => void) | undefined;
  private closeHook: { dispose(): void } | undefined;
  private readonly status: LiveStatus;
  /** Redeliveries counted when the source last reconnected (what it re-sent since then is shown). */
  private duplicatesAtReconnect = 0;
  /**
   * The sequencer runs on across windows, so a topic keyed per order grows a key per message
   * for as long as the session is attached, in the extension host's own heap: past what it
   * holds, every extension would go down with it. The guard detaches first.
   */
  private readonly heapGuard = new HeapGuard();

  private constructor(
    private readonly manager: SessionManager,
    private readonly start: LiveStart,
  ) {
    super();
    const taps = start.taps ?? [];
    const input = (tap: PubsubLayer.Tap | undefined, subscription: PubsubLayer.ResourceName): Input => ({
      tap,
      subscription,
      source: undefined,
      state: 'connecting',
      detail: '',
      gone: false,
      goneAt: 0,
    });
    this.inputs = taps.length ? taps.map((t) => input(t, t.subscription)) : [input(undefined, start.subscription)];
    mkdirSync(start.recordingDir, { recursive: true });
    // Named after what the user chose — the topic of a tap, not the tap's generated name.
    const named = taps.length ? taps[0].topic.id + (taps.length > 1 ? `+${taps.length - 1}` : '') : start.subscription.id;
    this.recordingPath = claimRecordingPath(start.recordingDir, named, new Date());
    this.feed = new LiveFeed(this.recordingPath, start.options, { windowArrivals: start.windowArrivals });
    this.schemas = this.liveSchemas();
    this.status = {
      state: 'connecting',
      detail: `connecting to ${this.inputs.map((i) => i.subscription.path).join(', ')}`,
      subscription: this.inputs.map((i) => i.subscription.path).join(', '),
      tapOf: taps.length ? taps.map((t) => t.topic.path).join(', ') : undefined,
      recording: this.recordingPath,
      rate: 0,
      received: 0,
      redeliveredSinceReconnect: 0,
      reconnects: 0,
      windows: 1,
      openState: (key) => this.feed.openStateOf(key),
      openKeys: 0,
      longestOpen: undefined,
    };
    this.showWindow();
    // A full window: the views move on to a fresh one (memory stays bounded), the counts go on.
    this.feed.onRollover = () => {
      const old = this.session;
      this.closeHook?.dispose();
      this.showWindow();
      this.manager.close(old);
      log().info(`${start.subscription.path}: window ${this.feed.rollovers + 1} started after ${this.feed.arrivals} arrivals`);
    };
  }

  /**
   * The schema revisions messages name, fetched once each through the live connection, recorded
   * before their first message and learned by the session's set (the feed and the detail pane
   * decode by them); one that cannot be fetched is said once, with the setting to fall back on.
   */
  private liveSchemas(): PubsubLayer.LiveSchemas {
    const { layer, connection, options } = this.start;
    const set = options.schemas as SchemaSet;
    return new layer.LiveSchemas(layer.schemaFetch(connection), {
      learned: (key, definition) => {
        learnRecorded(set, key, definition);
        this.feed.lineWithoutArrival();
        log().info(`${this.recordingPath}: schema ${key} recorded`);
      },
      unavailable: (why) => {
        log().warn(`${this.start.subscription.path}: ${why}`);
        this.start.notices.notify(this.recordingPath, 'schema-unavailable', {
          level: 'warning',
          message: `SeqScope: ${this.session.title}: ${why}`,
          actions: { 'Open Settings': () => vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope.schemas') },
        });
      },
    });
  }

  /** Puts the feed's current window in the tree as this live session. */
  private showWindow(): void {
    this.session = this.manager.add((id) => new Session(id, this.feed.session, this.start.options, false));
    this.session.live = this.status;
    this.session.replay.lockedReason = 'replay works on a detached session: detach the live session first (its recording then opens with replay)';
    // Closing the session (tree, Close All, window) stops the source and deletes the tap.
    this.closeHook = this.session.onDidDispose(() => void this.detach(false));
  }

  /** Starts receiving; the session is in the tree from the start. Throws PubsubError. */
  static async attach(manager: SessionManager, start: LiveStart): Promise<LiveSession> {
    // A set of the session's own, which learns the schema revisions its messages name.
    const live = new LiveSession(manager, { ...start, options: { ...start.options, schemas: withRecorded(start.options.schemas, {}) } });
    try {
      await live.begin();
    } catch (e) {
      manager.close(live.session);
      // Closing detaches (stops what started, closes the recording): wait for it, then drop the
      // recording claimed for the session if nothing reached it — each failed attempt left an
      // empty file in the recordings folder.
      await live.detach(false).catch(() => undefined);
      await removeIfEmpty(live.recordingPath);
      throw e;
    }
    return live;
  }

  /** A live source on the input's subscription, writing into this session's recording and feed. */
  private openSource(input: Input): PubsubLayer.LiveSource {
    const { layer, connection } = this.start;
    const status = this.status;
    const subscription = input.subscription;
    // Several topics in one recording: each line names its topic, and keys are per topic.
    const several = this.inputs.length > 1;
    const label = several && input.tap ? `${input.tap.topic.id}: ` : '';
    const source: PubsubLayer.LiveSource = new layer.LiveSource(
      { connection, subscription, recorder: this.recorder, topic: several ? input.tap?.topic.path : undefined, schemas: this.schemas },
      {
        record: (rm, offset, length, receivedAtMs) => this.feed.push(rm, offset, length, receivedAtMs),
        state: (state, detail, cause) => {
          // The source Re-tap replaced says nothing more (its "stopped" is not the session's).
          if (input.source !== source) return;
          input.state = state;
          // A gone tap stays named as gone until Re-tap: its source goes on retrying, each time
          // in its own words ("the subscription no longer exists"), which would hide Re-tap.
          if (!(input.gone && state !== 'live')) input.detail = detail;
          if (state === 'live' && /reconnected/.test(detail)) {
            status.reconnects++;
            this.duplicatesAtReconnect = this.feed.engine.sequencer.totals.redeliveries;
          }
          const newlyGone = state === 'disconnected' && cause === 'not-found' && input.tap !== undefined && !input.gone;
          if (newlyGone) {
            // The server lost the tap (an emulator restart deletes every subscription): it will
            // not come back by itself, and saying "disconnected" would leave the user waiting.
            input.gone = true;
            input.goneAt = Date.now();
            input.detail = `the tap ${subscription.id} is gone: the server no longer has it (an emulator restart deletes every subscription). Re-tap makes a new one and continues this session and recording.`;
          }
          input.cause = state === 'disconnected' ? cause : undefined;
          this.showState(label + input.detail);
          if (newlyGone) {
            // The session's window at the time of the click (a rollover makes a new one).
            this.start.notices.notify(this.recordingPath, 'tap-gone', {
              level: 'warning',
              message: `SeqScope: ${this.session.title}: ${status.detail}`,
              actions: { 'Re-tap': () => runCommand('seqscope.live.retap', this.session.id) },
            });
          }
          if (state === 'disconnected') log().warn(`${subscription.path}: ${input.gone && !newlyGone ? detail : input.detail}`);
          else log().info(`${subscription.path}: ${state}: ${detail}`);
          this.session.grew();
        },
        problem: (e) => log().error(`${subscription.path}: ${e.message}`),
      },
    );
    input.source = source;
    return source;
  }

  /**
   * The session's state from its inputs': disconnected when one is, live when all are; a gone tap
   * shows as such (with Re-tap) until every one is back. `detail` is the latest news.
   */
  private showState(detail: string): void {
    const status = this.status;
    const states = this.inputs.map((i) => i.state);
    status.state = states.includes('disconnected')
      ? 'disconnected'
      : states.every((s) => s === 'live')
        ? 'live'
        : states.includes('stopped')
          ? 'stopped'
          : 'connecting';
    status.tapGone = this.inputs.some((i) => i.gone) || undefined;
    const down = this.inputs.find((i) => i.gone) ?? this.inputs.find((i) => i.state === 'disconnected');
    status.outage = down ? outageWords(down.cause, down.gone) : undefined;
    status.detail = detail;
  }

  /** The subscriptions read now (taps are replaced by Re-tap): not leftovers, and what Replay from Time seeks. */
  get subscriptions(): string[] {
    return this.inputs.map((i) => i.subscription.path);
  }

  /**
   * Re-tap: a tap vanished (or the user wants a fresh one): a new tap on the same topic feeds the
   * same session and recording — for every tap found gone, or every tap when none is. The server
   * keeps nothing for a subscription that did not exist, so what was published while there was no
   * tap is missed: said so in the log and the session, and — with sequence numbers — it shows as
   * gaps.
   */
  async retap(): Promise<void> {
    if (!this.inputs[0].tap) throw new Error(`${this.session.title} reads a subscription, not a tap: attach again instead`);
    if (this.detaching) throw new Error(`${this.session.title} is detached`);
    const { layer, connection } = this.start;
    const gone = this.inputs.filter((i) => i.gone);
    const missed: string[] = [];
    for (const input of gone.length ? gone : this.inputs) {
      const old = input.tap!;
      const previous = input.source;
      input.source = undefined;
      await previous?.stop();
      await layer.deleteTap(connection, old.subscription).catch(() => undefined); // gone already, most times
      const tap = await layer.createTap(connection, old.topic);
      for (const note of tap.notes ?? []) log().warn(note);
      input.tap = tap;
      input.subscription = tap.subscription;
      input.gone = false;
      const goneSince = input.goneAt ? new Date(input.goneAt).toISOString() : undefined;
      input.goneAt = 0;
      await this.openSource(input).start();
      const words = `re-tapped ${old.topic.id} as ${tap.subscription.id}: what was published ${goneSince ? `between ${goneSince} (the tap was found gone) and now` : 'while there was no tap'} was not delivered to any tap and is missing from the recording${this.start.options.seq.kind === 'none' ? ' (without sequence numbers it cannot be counted)' : ' (it shows as gaps)'}`;
      log().warn(`${old.topic.path}: ${words}`);
      missed.push(words);
    }
    this.status.subscription = this.subscriptions.join(', ');
    this.showState(missed.join('; '));
    const title = this.session.title;
    this.start.notices.settle(
      this.recordingPath,
      (at) => `${title} was re-tapped at ${at} (now reading ${this.inputs.map((i) => i.subscription.id).join(', ')}): nothing more to do`,
      'tap-gone',
    );
    this.session.grew();
  }

  private async begin(): Promise<void> {
    const { layer, subscription } = this.start;
    this.recorder = await layer.CaptureRecorder.open(this.recordingPath);
    const status = this.status;
    for (const input of this.inputs) {
      const info = await this.openSource(input).start();
      for (const caveat of layer.subscriptionCaveats(info)) log().warn(caveat);
    }
    const refresh = () => {
      const now = Date.now();
      this.feed.tick(now);
      const summary = this.feed.refresh();
      status.received = summary.received + summary.invalid;
      status.windows = this.feed.rollovers + 1;
      this.noteOpenKeys();
      if (status.reconnects) status.redeliveredSinceReconnect = this.feed.engine.sequencer.totals.redeliveries - this.duplicatesAtReconnect;
      this.heapGuard.check(this.feed.engine.keyCount * RESERVE_PER_KEY);
      const full = this.heapGuard.stopped;
      if (full && !this.detaching) {
        const message =
          `SeqScope: detached from ${subscription.id}: the extension host's memory is nearly full (${mebibytes(full.used)} MiB in use of ${mebibytes(full.limit)} MiB), ` +
          `and this session's ${this.feed.engine.keyCount} keys grow with every new key (the sequencer keeps counters and state for each, across windows). ` +
          `The recording holds everything received and opens now as a capture; attach again to go on from here.`;
        log().warn(message);
        void vscode.window.showWarningMessage(message);
        void this.detach();
        return;
      }
      this.rateWindow.push({ t: now, n: status.received });
      while (this.rateWindow.length > 1 && now - this.rateWindow[0].t > 3000) this.rateWindow.shift();
      const first = this.rateWindow[0];
      status.rate = now > first.t ? ((status.received - first.n) * 1000) / (now - first.t) : 0;
      this.session.grew();
    };
    let stopped = false;
    const paced = () => {
      const started = Date.now();
      try {
        refresh();
      } finally {
        const spent = Date.now() - started;
        if (!stopped) timer = setTimeout(paced, Math.max(REFRESH_MS, spent * REFRESH_SPACING) - spent);
      }
    };
    let timer = setTimeout(paced, REFRESH_MS);
    this._register(
      toDisposable(() => {
        stopped = true;
        clearTimeout(timer);
      }),
    );
  }

  /**
   * Stops receiving (what was written is acked), closes the recording, deletes a tap, and —
   * unless the session is being closed — reopens the recording as a capture session.
   */
  detach(reopen = true): Promise<void> {
    this.detaching ??= (async () => {
      const { layer, connection, options, notices } = this.start;
      const subscription = this.subscriptions.join(', ');
      const title = this.session.title;
      const again = `to receive again, ${this.inputs[0].tap ? 'tap the topic' : 'attach'} again`;
      notices.settle(this.recordingPath, (at) =>
        reopen
          ? `${title} was detached at ${at}: its recording ${basename(this.recordingPath)} opened as a capture; ${again}`
          : `${title} was closed at ${at}; ${again}`,
      );
      try {
        for (const input of this.inputs) await input.source?.stop();
      } finally {
        await this.recorder?.close().catch((e: Error) => log().error(`closing ${this.recordingPath}: ${e.message}`));
        for (const { tap } of this.inputs) {
          if (!tap) continue;
          await layer.deleteTap(connection, tap.subscription).then(
            () => log().info(`deleted tap ${tap.subscription.path}`),
            (e: Error) =>
              log().error(`could not delete tap ${tap.subscription.path}: ${e.message} (it expires by itself; "SeqScope: Delete Leftover Taps" removes it)`),
          );
        }
        this.closeHook?.dispose();
        this.dispose();
        this.onDidEnd?.();
      }
      log().info(`detached from ${subscription}; recording ${this.recordingPath}`);
      if (!reopen) return;
      // The recording opens before the live session closes: with no other session, closing first
      // left none, and the timeline closed with it instead of showing the recording.
      const wasActive = this.manager.active === this.session;
      try {
        const reopened = await this.manager.open([this.recordingPath], options);
        if (reopened && wasActive) this.manager.active = reopened;
      } finally {
        this.manager.close(this.session);
      }
    })();
    return this.detaching;
  }

  /** Counts the keys waiting now and finds the one waiting longest, from the feed's snapshot (the views' one truth). */
  private noteOpenKeys(): void {
    let longest: { key: number; state: OpenState } | undefined;
    let longestEnds = Infinity;
    for (const o of this.feed.openKeys) {
      const ends = waitEnds(o.state);
      if (ends < longestEnds) {
        longestEnds = ends;
        longest = o;
      }
    }
    this.status.openKeys = this.feed.openKeys.length;
    this.status.longestOpen = longest;
  }

  get isLive(): boolean {
    return !this.detaching;
  }
}

/** Deletes a file that holds nothing; leaves anything else (and says nothing when it cannot). */
async function removeIfEmpty(path: string): Promise<void> {
  try {
    if ((await stat(path)).size === 0) await unlink(path);
  } catch {
    // Gone already, or not ours to delete: nothing to clean.
  }
}

/** When a key's wait ends: its start window's close, or its gap's timeout. */
function waitEnds(s: OpenState): number {
  return s.kind === 'collecting' ? s.openedAt + s.windowMs : s.openedAt + s.timeoutMs;
}
