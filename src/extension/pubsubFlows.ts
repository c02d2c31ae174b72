/**
 * The live Pub/Sub commands as the user meets them: attach, tap, detach, re-tap, replay from
 * time, leftover taps, recordings, publish a capture — the pickers, prompts, progress and
 * notices around the live service (pubsubService.ts), which holds the connection and sessions.
 */
import * as vscode from 'vscode';
import { basename, resolve } from 'node:path';
import { parseWhen } from '../core/util/duration';
import { futureSeekProblem } from '../core/util/seekTime';
import { InputError } from '../core/util/inputError';
import { noun } from '../core/util/plural';
import type * as PubsubLayer from '../pubsub';
import { CAPTURE_FILTERS } from './pickers/captureFiles';
import { AttachArgs, LiveResult, TapArgs } from './liveArgs';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { RecordingsResult, showRecordings } from './pickers/recordingsPicker';
import { withSchemasFromSettings } from './schemaSettings';
import { optionsFromSettings } from './settings';
import { NoticeLevel } from './sessionNotices';
import { publishWithProgress } from './publishCapture';
import { pickOptions } from './pickers/optionsPicker';
import { askAttachMode, askTopicPaths, pickSubscription, pickTopic, pickTopics, WithConnection } from './pickers/pubsubPickers';
import { Connected, PubsubService } from './pubsubService';
import { OptionText, SequencingOptions, sequencingLabel } from '../core/sequencer/sequencingOptions';

/** The live commands' UI on the live service: what to watch, how to sequence it, what happened. */
export class PubsubFlows {
  private leftoversChecked = false;

  constructor(
    private readonly service: PubsubService,
    private readonly manager: SessionManager,
    /** Remembers how each topic or subscription was sequenced last (the workspace's state). */
    private readonly memory?: vscode.Memento,
  ) {}

  /** The service's connection; the first one made also looks for taps left from earlier sessions. */
  private async connect(): Promise<Connected> {
    const connected = await this.service.connect();
    if (!this.leftoversChecked) {
      this.leftoversChecked = true;
      void this.offerLeftoverTaps(connected);
    }
    return connected;
  }

  private readonly withConnection: WithConnection = (title, fn) =>
    Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `SeqScope: ${title}` }, async () => {
        const { layer, conn } = await this.connect();
        return fn(layer, conn);
      }),
    );

  /**
   * "Recordings…": the folder recorded into now, and the default one, which keeps what was
   * recorded before the setting pointed elsewhere.
   */
  recordings(): Promise<RecordingsResult> {
    return showRecordings({
      folders: () => this.service.recordingFolders(),
      recordingNow: () => this.service.recordingNow(),
      openInSessions: () => new Set(this.manager.all.flatMap((s) => [...s.sourcePaths, ...s.data.paths]).map((p) => resolve(p))),
    });
  }

  /**
   * How a live session is sequenced: as given (automation), else — when the user picked what to
   * watch — asked as Open Capture… asks, the last choice for this topic or subscription first;
   * the settings when a caller named the target without options. Undefined: cancelled.
   */
  private async sequencing(
    targets: readonly PubsubLayer.ResourceName[],
    given: OptionText | undefined,
    interactive: boolean,
  ): Promise<SequencingOptions | undefined> {
    if (given) return withSchemasFromSettings(optionsFromSettings(given));
    if (!interactive) return withSchemasFromSettings(optionsFromSettings());
    const key = `seqscope.sequencing:${targets.map((t) => t.path).join(',')}`;
    const what =
      targets.length > 1
        ? `a tap on ${targets.length} topics (${targets.map((t) => t.id).join(', ')})`
        : `${targets[0].kind === 'topics' ? 'a tap on ' : ''}${targets[0].id}`;
    const picked = await pickOptions(what, this.memory?.get<OptionText>(key));
    if (!picked) return undefined;
    await this.memory?.update(key, picked.text);
    return withSchemasFromSettings(picked.options);
  }

  private async startLive(
    connected: Connected,
    subscription: PubsubLayer.ResourceName,
    options: SequencingOptions,
    taps: readonly PubsubLayer.Tap[] = [],
  ): Promise<LiveResult> {
    const live = await this.service.startLive(connected, subscription, options, taps);
    const topics = taps.map((t) => t.topic.id).join(', ');
    // Confirmed where the session's counts will show, without a notification to dismiss.
    vscode.window.setStatusBarMessage(
      `$(radio-tower) SeqScope: ${taps.length ? `tapped ${topics}` : `attached to ${subscription.id}`} · ${sequencingLabel(options)} · recording ${basename(live.recordingPath)}`,
      8000,
    );
    return { id: live.session.id, subscription: subscription.path, subscriptions: live.subscriptions, recording: live.recordingPath };
  }

  /** Taps on `topics` (all or none), their notes in the log. */
  private async makeTaps({ layer, conn }: Connected, topics: readonly PubsubLayer.ResourceName[]): Promise<PubsubLayer.Tap[]> {
    const taps = await this.withConnection(`creating ${topics.length > 1 ? `${topics.length} taps` : `a tap on ${topics[0].id}`}…`, () =>
      layer.createTaps(conn, topics),
    );
    for (const note of taps.flatMap((t) => t.notes ?? [])) log().warn(note);
    return taps;
  }

  /** "Attach to Subscription…": pick a subscription, then consume it or tap its topic. */
  async attach(args: AttachArgs = {}): Promise<LiveResult | undefined> {
    const connected = await this.withConnection('connecting to Pub/Sub…', async (layer, conn) => ({ layer, conn }));
    const { layer, conn } = connected;
    const info = args.subscription
      ? await layer.getSubscription(conn, layer.parseResourceName('subscriptions', args.subscription, conn.projectId))
      : await pickSubscription(connected, this.withConnection);
    if (!info) return undefined;
    const mode = args.mode ?? (await askAttachMode(info));
    if (!mode) return undefined;
    if (mode === 'consume') {
      const options = await this.sequencing([info.name], args.options, !args.subscription);
      return options && this.startLive(connected, info.name, options);
    }
    if (!info.topic || info.topic === '_deleted-topic_') throw new Error(`${info.name.path} has no topic to tap (it was deleted)`);
    const topic = layer.parseResourceName('topics', info.topic);
    // Asked before the tap is made: a cancelled choice leaves nothing behind.
    const options = await this.sequencing([topic], args.options, !args.subscription);
    if (!options) return undefined;
    const taps = await this.makeTaps(connected, [topic]);
    return this.startLive(connected, taps[0].subscription, options, taps);
  }

  /**
   * "Tap Topic…": a temporary subscription on a topic — or on several (CME publishes one topic
   * per channel), each with its own tap, into one session and recording. Topics of another project
   * are given by their full path.
   */
  async tapTopic(args: TapArgs = {}): Promise<LiveResult | undefined> {
    const connected = await this.withConnection('connecting to Pub/Sub…', async (layer, conn) => ({ layer, conn }));
    const given = args.topic === undefined ? [] : typeof args.topic === 'string' ? [args.topic] : [...args.topic];
    let topics: PubsubLayer.ResourceName[];
    if (given.length) topics = connected.layer.parseTopicList(given, connected.conn.projectId);
    else {
      const picked = args.byPath ? await askTopicPaths(connected) : await pickTopics(connected, this.withConnection);
      if (!picked?.length) return undefined;
      topics = picked;
    }
    const options = await this.sequencing(topics, args.options, !given.length);
    if (!options) return undefined;
    const taps = await this.makeTaps(connected, topics);
    return this.startLive(connected, taps[0].subscription, options, taps);
  }

  /** Detaches a live session: its recording reopens as a capture. */
  async detach(s: Session): Promise<void> {
    const live = this.service.liveFor(s);
    if (!live) throw new Error(`${s.title} is not a live session`);
    await live.detach(true);
  }

  /** "Re-tap": a new tap on the same topic continues the session and its recording. */
  async retap(s: Session): Promise<void> {
    const live = this.service.liveFor(s);
    if (!live) throw new Error(`${s.title} is not a live session`);
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `SeqScope: re-tapping for ${s.title}…` }, () => live.retap());
    vscode.window.setStatusBarMessage(`$(radio-tower) SeqScope: ${s.title} re-tapped; what was published while there was no tap is missed (see the log)`, 8000);
  }

  /** "Replay from Time…" on a tap: seeks it back so the server re-sends what it retained. */
  async replayFromTime(s: Session, when?: string): Promise<void> {
    const live = this.service.liveFor(s);
    if (!live || !s.live) throw new Error(`${s.title} is not a live session`);
    const text =
      when ??
      (await vscode.window.showInputBox({
        title: `Replay ${s.title} from…`,
        prompt: 'How far back: 5m, 30s, 1h — or an RFC 3339 time. The server re-sends what it retained since then (taps keep 10 minutes).',
        value: '5m',
        validateInput: (v) => {
          const t = parseWhen(v, Date.now());
          if (!t) return 'Write 5m, 30s, 1h or a time like 2026-11-30T09:30:00Z';
          const future = futureSeekProblem(t, Date.now());
          return future && `${future}: give a time in the past`;
        },
      }));
    if (!text) return;
    const time = parseWhen(text, Date.now());
    if (!time) throw new InputError(`"${text}" is not 5m, 30s, 1h or a date-time`);
    // Also for callers that pass `when` (no input box): the extension never acks a backlog.
    const future = futureSeekProblem(time, Date.now());
    if (future) throw new InputError(`${future}: give a time in the past`);
    await this.service.seek(await this.connect(), live, time);
    void vscode.window.showInformationMessage(`SeqScope: ${s.title} seeked to ${time.toISOString()}; re-sent messages show as redeliveries.`);
  }

  /** "Delete Leftover Taps…". */
  async deleteLeftoverTaps(args: { all?: boolean } = {}): Promise<number> {
    const { layer, conn } = await this.connect();
    const left = await layer.findLeftoverTaps(conn, this.service.subscriptionsInUse());
    if (!left.length) {
      void vscode.window.showInformationMessage(
        `SeqScope: no leftover taps in ${conn.projectId}: nothing to delete (taps of live sessions are deleted when they detach).`,
      );
      return 0;
    }
    let chosen = left;
    if (!args.all) {
      const picks = await vscode.window.showQuickPick(
        left.map((t) => ({ label: t.name.id, description: t.topic, picked: true, t })),
        { canPickMany: true, title: `Delete SeqScope taps left in ${conn.projectId}`, placeHolder: 'Taps to delete (they also expire by themselves)' },
      );
      if (!picks?.length) return 0;
      chosen = picks.map((p) => p.t);
    }
    await this.withConnection(`deleting ${chosen.length} tap(s)…`, async () => {
      for (const t of chosen) await layer.deleteTap(conn, t.name);
    });
    log().info(`deleted leftover taps: ${chosen.map((t) => t.name.path).join(', ')}`);
    return chosen.length;
  }

  private async offerLeftoverTaps({ layer, conn }: Connected): Promise<void> {
    try {
      const left = await layer.findLeftoverTaps(conn, this.service.subscriptionsInUse());
      if (!left.length) return;
      const pick = await vscode.window.showInformationMessage(
        `SeqScope: ${left.length} tap ${noun(left.length, 'subscription')} left from earlier sessions in ${conn.projectId} (they expire by themselves).`,
        'Delete Them',
        'Keep',
      );
      if (pick === 'Delete Them') await this.deleteLeftoverTaps({ all: true });
    } catch (e) {
      log().warn(`could not look for leftover taps: ${(e as Error).message}`);
    }
  }

  /** "Replay Capture into Topic…": publishes a capture, one key in order, keys concurrently. */
  async publishCapture(args: { file?: string; topic?: string; pace?: string } = {}): Promise<PubsubLayer.PublishResult | undefined> {
    let file = args.file;
    if (!file) {
      const active = this.manager.active;
      const uris = await vscode.window.showOpenDialog({
        defaultUri: active && !active.live ? vscode.Uri.file(active.sourcePaths[0]) : undefined,
        filters: CAPTURE_FILTERS,
        title: 'Capture to publish into a topic',
        openLabel: 'Publish This Capture',
      });
      if (!uris?.length) return undefined;
      file = uris[0].fsPath;
    }
    const connected = await this.connect();
    const { layer, conn } = connected;
    const topic = args.topic
      ? layer.parseResourceName('topics', args.topic, conn.projectId)
      : await pickTopic(connected, this.withConnection, 'Publish into a topic');
    if (!topic) return undefined;
    let pace = args.pace;
    if (!pace) {
      const p = await vscode.window.showQuickPick(
        [
          { label: 'max', description: 'as fast as Pub/Sub takes them' },
          { label: 'x10', description: "ten times the capture's pace" },
          { label: 'original', description: "the capture's own timing" },
        ],
        { title: 'Pace' },
      );
      if (!p) return undefined;
      pace = p.label;
    }
    return publishWithProgress(layer, conn, file, topic, pace);
  }
}

/** A notification at its level, resolving to the button picked. */
export function showNotice(level: NoticeLevel, message: string, buttons: readonly string[]): Thenable<string | undefined> {
  const show =
    level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  return show(message, ...buttons);
}
