import * as vscode from 'vscode';
import { basename, join, resolve } from 'node:path';
import { parseWhen } from '../core/util/duration';
import { futureSeekProblem } from '../core/util/seekTime';
import { InputError } from '../core/util/inputError';
import { noun } from '../core/util/plural';
import type * as PubsubLayer from '../pubsub';
import { CAPTURE_FILTERS } from './pickers/captureFiles';
import { runCommand } from './commands/registry';
import type { CommandId } from './commands/commandIds';
import { Disposable } from './dispose';
import { LiveSession } from './liveSession';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { RecordingsResult, showRecordings } from './pickers/recordingsPicker';
import { optionsFromSettings } from './settings';
import { NoticeLevel, SessionNotices } from './sessionNotices';
import { publishWithProgress } from './publishCapture';
import { pickOptions } from './pickers/optionsPicker';
import { OptionText, SequencingOptions, sequencingLabel } from '../core/sequencer/sequencingOptions';

/** Arguments for automation (tests, tasks): skip the pickers. */
export interface AttachArgs {
  /** projects/P/subscriptions/S or S. */
  readonly subscription?: string;
  /** consume the subscription, or tap its topic instead. */
  readonly mode?: 'consume' | 'tap';
  /** How to sequence (as Open Capture… takes it); without it, the settings — or the picker when nothing was given. */
  readonly options?: OptionText;
}

export interface TapArgs {
  /**
   * A topic id (in seqscope.pubsub.projectId), a full path `projects/P/topics/T` (a topic of
   * another project: CME Smart Stream), a comma list of them, or an array: several topics feed
   * one session and recording.
   */
  readonly topic?: string | readonly string[];
  /** Skip the list of the project's topics: ask for ids or paths (what "no topics" offers). */
  readonly byPath?: boolean;
  /** How to sequence (as Open Capture… takes it); without it, the settings — or the picker when nothing was given. */
  readonly options?: OptionText;
}

export interface LiveResult {
  readonly id: string;
  /** The subscription read (the first tap's, with several topics). */
  readonly subscription: string;
  /** Every subscription read: one tap per topic. */
  readonly subscriptions: readonly string[];
  readonly recording: string;
}

const TAP_INSTEAD = 'Tap the Topic Instead (recommended)';
const BY_PATH = 'Topics by Path…';
const CONSUME = 'Consume the Subscription';

function loadLayer(): Promise<typeof PubsubLayer> {
  return import('../pubsub');
}

export function pubsubSettings(): { projectId?: string; emulatorHost?: string; recordingDirectory?: string; windowArrivals: number } {
  const c = vscode.workspace.getConfiguration('seqscope.pubsub');
  return {
    windowArrivals: Math.max(100, c.get<number>('liveWindowMessages', 1_000_000)),
    projectId: c.get<string>('projectId') || undefined,
    emulatorHost: c.get<string>('emulatorHost') || undefined,
    recordingDirectory: c.get<string>('recordingDirectory') || undefined,
  };
}

/** The emulator in use (setting, else PUBSUB_EMULATOR_HOST), for the status bar. */
export function emulatorHostInUse(): string | undefined {
  return pubsubSettings().emulatorHost ?? (process.env.PUBSUB_EMULATOR_HOST || undefined);
}

/**
 * The live Pub/Sub commands: attach, tap, detach, replay from time, leftover taps, publish a
 * capture. Connections are opened on demand (the client library loads on first use) and closed
 * with the extension; live sessions are detached — taps deleted — when the window closes.
 */
export class PubsubCommands extends Disposable {
  private connection: { key: string; conn: Promise<PubsubLayer.PubsubConnection> } | undefined;
  private readonly lives = new Set<LiveSession>();
  private leftoversChecked = false;
  /** Live sessions' notifications (a gone tap's Re-tap), settled as the sessions move on. */
  private readonly notices = new SessionNotices(showNotice, Date.now, (m) => log().warn(m));

  constructor(
    private readonly manager: SessionManager,
    private readonly storageUri: vscode.Uri,
    /** Remembers how each topic or subscription was sequenced last (the workspace's state). */
    private readonly memory?: vscode.Memento,
  ) {
    super();
    this._register({ dispose: () => void this.shutdown() });
  }

  /** Detaches every live session (deleting taps) and closes the connection; awaited on deactivate. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.lives].map((l) => l.detach(false).catch(() => undefined)));
    const c = this.connection;
    this.connection = undefined;
    if (c) await (await c.conn.catch(() => undefined))?.close().catch(() => undefined);
  }

  /** Subscriptions live sessions read from: taps among them are not leftovers. */
  private subscriptionsInUse(): Set<string> {
    return new Set([...this.lives].flatMap((l) => l.subscriptions));
  }

  liveFor(s: Session): LiveSession | undefined {
    return [...this.lives].find((l) => l.session === s);
  }

  private async connect(): Promise<{ layer: typeof PubsubLayer; conn: PubsubLayer.PubsubConnection }> {
    const layer = await loadLayer();
    const settings = pubsubSettings();
    const key = JSON.stringify([settings.projectId, settings.emulatorHost, process.env.PUBSUB_EMULATOR_HOST]);
    if (this.connection?.key !== key) {
      const old = this.connection;
      this.connection = { key, conn: layer.connect({ projectId: settings.projectId, emulatorHost: settings.emulatorHost }) };
      void old?.conn.then((c) => c.close()).catch(() => undefined);
    }
    try {
      const conn = await this.connection.conn;
      // The emulator may have stopped since this connection was made: a refused connection is
      // known at once, where the admin call would spend its retries (~9 s) before saying so.
      if (conn.emulatorHost) await layer.probeEmulator(conn.emulatorHost);
      if (!this.leftoversChecked) {
        this.leftoversChecked = true;
        void this.offerLeftoverTaps(layer, conn);
      }
      return { layer, conn };
    } catch (e) {
      // Try again next time (the emulator may be started by then); a client that was made is closed.
      const failed = this.connection;
      this.connection = undefined;
      void failed?.conn.then((c) => c.close()).catch(() => undefined);
      throw e;
    }
  }

  private withConnection<T>(title: string, fn: (layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection) => Promise<T>): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `SeqScope: ${title}` }, async () => {
        const { layer, conn } = await this.connect();
        return fn(layer, conn);
      }),
    );
  }

  private recordingDir(): string {
    return pubsubSettings().recordingDirectory ?? this.defaultRecordingDir();
  }

  private defaultRecordingDir(): string {
    return join(this.storageUri.fsPath, 'recordings');
  }

  /**
   * "Recordings…": the folder recorded into now, and the default one, which keeps what was
   * recorded before the setting pointed elsewhere.
   */
  recordings(): Promise<RecordingsResult> {
    return showRecordings({
      folders: () => [...new Set([this.recordingDir(), this.defaultRecordingDir()])],
      recordingNow: () => new Set([...this.lives].map((l) => resolve(l.recordingPath))),
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
    if (given) return optionsFromSettings(given);
    if (!interactive) return optionsFromSettings();
    const key = `seqscope.sequencing:${targets.map((t) => t.path).join(',')}`;
    const what =
      targets.length > 1
        ? `a tap on ${targets.length} topics (${targets.map((t) => t.id).join(', ')})`
        : `${targets[0].kind === 'topics' ? 'a tap on ' : ''}${targets[0].id}`;
    const picked = await pickOptions(what, this.memory?.get<OptionText>(key));
    if (!picked) return undefined;
    await this.memory?.update(key, picked.text);
    return picked.options;
  }

  private async startLive(
    layer: typeof PubsubLayer,
    conn: PubsubLayer.PubsubConnection,
    subscription: PubsubLayer.ResourceName,
    options: SequencingOptions,
    taps: readonly PubsubLayer.Tap[] = [],
  ): Promise<LiveResult> {
    let live: LiveSession;
    try {
      live = await LiveSession.attach(this.manager, {
        layer,
        connection: conn,
        subscription,
        taps,
        options,
        recordingDir: this.recordingDir(),
        windowArrivals: pubsubSettings().windowArrivals,
        notices: this.notices,
      });
    } catch (e) {
      await Promise.all(taps.map((t) => layer.deleteTap(conn, t.subscription).catch(() => undefined)));
      throw e;
    }
    this.lives.add(live);
    live.onDidEnd = () => this.lives.delete(live);
    const topics = taps.map((t) => t.topic.id).join(', ');
    log().info(
      `attached to ${live.subscriptions.join(', ')}${taps.length ? ` (${taps.length > 1 ? 'taps' : 'tap'} on ${taps.map((t) => t.topic.path).join(', ')})` : ''}; recording to ${live.recordingPath}`,
    );
    if (taps.length > 1) log().info(`${taps.length} topics into one recording: each line names its topic, and keys are per topic (<topic id>/<key>)`);
    // Confirmed where the session's counts will show, without a notification to dismiss.
    vscode.window.setStatusBarMessage(
      `$(radio-tower) SeqScope: ${taps.length ? `tapped ${topics}` : `attached to ${subscription.id}`} · ${sequencingLabel(options)} · recording ${basename(live.recordingPath)}`,
      8000,
    );
    return { id: live.session.id, subscription: subscription.path, subscriptions: live.subscriptions, recording: live.recordingPath };
  }

  /** Taps on `topics` (all or none), their notes in the log. */
  private async makeTaps(
    layer: typeof PubsubLayer,
    conn: PubsubLayer.PubsubConnection,
    topics: readonly PubsubLayer.ResourceName[],
  ): Promise<PubsubLayer.Tap[]> {
    const taps = await this.withConnection(`creating ${topics.length > 1 ? `${topics.length} taps` : `a tap on ${topics[0].id}`}…`, () =>
      layer.createTaps(conn, topics),
    );
    for (const note of taps.flatMap((t) => t.notes ?? [])) log().warn(note);
    return taps;
  }

  /** "Attach to Subscription…": pick a subscription, then consume it or tap its topic. */
  async attach(args: AttachArgs = {}): Promise<LiveResult | undefined> {
    const { layer, conn } = await this.withConnection('connecting to Pub/Sub…', async (layer, conn) => ({ layer, conn }));
    let info: PubsubLayer.SubscriptionInfo;
    if (args.subscription) {
      info = await layer.getSubscription(conn, layer.parseResourceName('subscriptions', args.subscription, conn.projectId));
    } else {
      const subs = await this.withConnection(`listing subscriptions of ${conn.projectId}…`, () => layer.listSubscriptions(conn));
      const visible = subs.filter((s) => !layer.isTap(s));
      if (!visible.length) {
        void offerWayForward(
          `project ${conn.projectId} has no subscriptions (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Tap a topic instead, or use another project?`,
          'seqscope.pubsub.attach',
          ['Tap Topic…', () => runCommand('seqscope.pubsub.tapTopic')],
        );
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        visible.map((s) => ({
          label: s.name.id,
          description: s.messageOrdering ? '$(list-ordered) message ordering on' : 'no message ordering',
          detail: `topic ${s.topic}${s.deadLetterTopic ? ` · dead-letter ${s.deadLetterTopic} (order is lost there)` : ''}`,
          info: s,
        })),
        { title: `Attach to a subscription of ${conn.projectId}`, placeHolder: 'Subscription to watch', matchOnDescription: true, matchOnDetail: true },
      );
      if (!pick) return undefined;
      info = pick.info;
    }
    let mode = args.mode;
    if (!mode) {
      const choice = await vscode.window.showWarningMessage(
        `Attaching to ${info.name.id} consumes it.`,
        {
          modal: true,
          detail:
            "SeqScope acks what it receives, so those messages are taken from the subscription's other consumers. " +
            "Tapping the topic instead creates a temporary subscription of SeqScope's own (ordered, self-expiring, deleted on detach) and leaves real consumers untouched.",
        },
        TAP_INSTEAD,
        CONSUME,
      );
      if (!choice) return undefined;
      mode = choice === CONSUME ? 'consume' : 'tap';
    }
    if (mode === 'consume') {
      const options = await this.sequencing([info.name], args.options, !args.subscription);
      return options && this.startLive(layer, conn, info.name, options);
    }
    if (!info.topic || info.topic === '_deleted-topic_') throw new Error(`${info.name.path} has no topic to tap (it was deleted)`);
    const topic = layer.parseResourceName('topics', info.topic);
    // Asked before the tap is made: a cancelled choice leaves nothing behind.
    const options = await this.sequencing([topic], args.options, !args.subscription);
    if (!options) return undefined;
    const taps = await this.makeTaps(layer, conn, [topic]);
    return this.startLive(layer, conn, taps[0].subscription, options, taps);
  }

  /**
   * "Tap Topic…": a temporary subscription on a topic — or on several (CME publishes one topic
   * per channel), each with its own tap, into one session and recording. Topics of another project
   * are given by their full path.
   */
  async tapTopic(args: TapArgs = {}): Promise<LiveResult | undefined> {
    const { layer, conn } = await this.withConnection('connecting to Pub/Sub…', async (layer, conn) => ({ layer, conn }));
    const given = args.topic === undefined ? [] : typeof args.topic === 'string' ? [args.topic] : [...args.topic];
    let topics: PubsubLayer.ResourceName[];
    if (given.length) topics = layer.parseTopicList(given, conn.projectId);
    else {
      const picked = args.byPath ? await this.askTopicPaths(layer, conn) : await this.pickTopics(layer, conn);
      if (!picked?.length) return undefined;
      topics = picked;
    }
    const options = await this.sequencing(topics, args.options, !given.length);
    if (!options) return undefined;
    const taps = await this.makeTaps(layer, conn, topics);
    return this.startLive(layer, conn, taps[0].subscription, options, taps);
  }

  /** The project's topics, several at once, and a way to name others by path. */
  private async pickTopics(layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection): Promise<PubsubLayer.ResourceName[] | undefined> {
    const topics = await this.withConnection(`listing topics of ${conn.projectId}…`, () => layer.listTopics(conn));
    if (!topics.length) {
      void offerWayForward(
        `project ${conn.projectId} has no topics (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Tap a topic of another project by its path, use another project, or create a topic first?`,
        'seqscope.pubsub.tapTopic',
        [BY_PATH, () => runCommand('seqscope.pubsub.tapTopic', { byPath: true } satisfies TapArgs)],
      );
      return undefined;
    }
    type Item = vscode.QuickPickItem & { name?: PubsubLayer.ResourceName };
    const items: Item[] = [
      ...topics.map((t) => ({ label: t.name.id, description: t.name.path, name: t.name })),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(edit) ${BY_PATH}`, description: 'projects/<project>/topics/<topic>: a topic of another project (CME Smart Stream)', alwaysShow: true },
    ];
    const picks = await vscode.window.showQuickPick(items, {
      title: `Tap topics of ${conn.projectId}`,
      placeHolder: 'Topics to tap into one session (each gets a tap of its own)',
      canPickMany: true,
      matchOnDescription: true,
    });
    if (!picks?.length) return undefined;
    const chosen = picks.flatMap((p) => (p.name ? [p.name] : []));
    if (picks.some((p) => !p.name)) {
      const more = await this.askTopicPaths(layer, conn);
      if (!more) return undefined;
      chosen.push(...more);
    }
    return chosen;
  }

  /** Topic ids or full paths, comma-separated, checked as typed. */
  private async askTopicPaths(layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection): Promise<PubsubLayer.ResourceName[] | undefined> {
    const parse = (v: string) => layer.parseTopicList([v], conn.projectId);
    const text = await vscode.window.showInputBox({
      title: 'SeqScope: tap topics by name',
      prompt: `Topic ids of ${conn.projectId}, or full paths projects/<project>/topics/<topic> for another project's (CME Smart Stream: one topic per channel); several separated by commas`,
      placeHolder: 'projects/<project>/topics/<topic>, …',
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          parse(v);
          return undefined;
        } catch (e) {
          const err = e as PubsubLayer.PubsubError;
          return err.nextStep ? `${err.message}: ${err.nextStep}` : err.message;
        }
      },
    });
    return text === undefined ? undefined : parse(text);
  }

  /** A topic to publish into (one). */
  private async pickTopic(layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection, title: string): Promise<PubsubLayer.ResourceName | undefined> {
    const topics = await this.withConnection(`listing topics of ${conn.projectId}…`, () => layer.listTopics(conn));
    if (!topics.length) {
      void offerWayForward(
        `project ${conn.projectId} has no topics (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Use another project, or create a topic first?`,
        undefined,
      );
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      topics.map((t) => ({ label: t.name.id, description: t.name.path, name: t.name })),
      { title: `${title} of ${conn.projectId}`, placeHolder: 'Topic' },
    );
    return pick?.name;
  }

  /** Detaches a live session: its recording reopens as a capture. */
  async detach(s: Session): Promise<void> {
    const live = this.liveFor(s);
    if (!live) throw new Error(`${s.title} is not a live session`);
    await live.detach(true);
  }

  /** "Re-tap": a new tap on the same topic continues the session and its recording. */
  async retap(s: Session): Promise<void> {
    const live = this.liveFor(s);
    if (!live) throw new Error(`${s.title} is not a live session`);
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `SeqScope: re-tapping for ${s.title}…` }, () => live.retap());
    vscode.window.setStatusBarMessage(`$(radio-tower) SeqScope: ${s.title} re-tapped; what was published while there was no tap is missed (see the log)`, 8000);
  }

  /** "Replay from Time…" on a tap: seeks it back so the server re-sends what it retained. */
  async replayFromTime(s: Session, when?: string): Promise<void> {
    const live = this.liveFor(s);
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
    const { layer, conn } = await this.connect();
    for (const sub of live.subscriptions) await layer.seekSubscription(conn, layer.parseResourceName('subscriptions', sub), { time });
    void vscode.window.showInformationMessage(`SeqScope: ${s.title} seeked to ${time.toISOString()}; re-sent messages show as redeliveries.`);
  }

  /** "Delete Leftover Taps…". */
  async deleteLeftoverTaps(args: { all?: boolean } = {}): Promise<number> {
    const { layer, conn } = await this.connect();
    const left = await layer.findLeftoverTaps(conn, this.subscriptionsInUse());
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

  private async offerLeftoverTaps(layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection): Promise<void> {
    try {
      const left = await layer.findLeftoverTaps(conn, this.subscriptionsInUse());
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
    const { layer, conn } = await this.connect();
    const topic = args.topic ? layer.parseResourceName('topics', args.topic, conn.projectId) : await this.pickTopic(layer, conn, 'Publish into a topic');
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

/**
 * A "no X" message that leads somewhere: another project (typed here, kept as
 * seqscope.pubsub.projectId, then `rerun` runs again), the settings, or `extra` (a label and
 * what it does). A wrong project id is the usual reason a project looks empty.
 */
async function offerWayForward(message: string, rerun: CommandId | undefined, extra?: [string, () => Thenable<unknown>]): Promise<void> {
  const USE = 'Use Another Project…';
  const SETTINGS = 'Open Settings';
  const pick = await vscode.window.showInformationMessage(`SeqScope: ${message}`, ...(extra ? [extra[0]] : []), USE, SETTINGS);
  if (pick === SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope.pubsub.projectId');
  else if (extra && pick === extra[0]) await extra[1]();
  else if (pick === USE) {
    const c = vscode.workspace.getConfiguration('seqscope.pubsub');
    const project = await vscode.window.showInputBox({
      title: 'SeqScope: Google Cloud project',
      prompt: 'The project whose topics and subscriptions SeqScope lists (kept as seqscope.pubsub.projectId)',
      value: c.get<string>('projectId') ?? '',
      validateInput: (v) =>
        /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(v.trim()) ? undefined : 'A project id: 6–30 lowercase letters, digits and hyphens, starting with a letter',
    });
    if (!project) return;
    const inWorkspace = c.inspect<string>('projectId')?.workspaceValue !== undefined;
    await c.update(
      'projectId',
      project.trim(),
      inWorkspace || vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
    );
    if (rerun) await runCommand(rerun);
  }
}

/** A notification at its level, resolving to the button picked. */
function showNotice(level: NoticeLevel, message: string, buttons: readonly string[]): Thenable<string | undefined> {
  const show =
    level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  return show(message, ...buttons);
}
