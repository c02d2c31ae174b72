/**
 * The live Pub/Sub service, without UI: the connection (opened on demand — the client library
 * loads on first use — and closed with the extension), the live sessions and their taps, and
 * where recordings go. Live sessions are detached — taps deleted — when the window closes. The
 * pickers, prompts and notices around it are in pubsubFlows.ts.
 */
import * as vscode from 'vscode';
import { join, resolve } from 'node:path';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import type * as PubsubLayer from '../pubsub';
import { Disposable } from './dispose';
import { LiveSession } from './liveSession';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { SessionNotices } from './sessionNotices';

/** The Pub/Sub layer with a connection made through it. */
export interface Connected {
  readonly layer: typeof PubsubLayer;
  readonly conn: PubsubLayer.PubsubConnection;
}

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

/** Connections, live sessions and recordings' folders for the live commands. */
export class PubsubService extends Disposable {
  private connection: { key: string; conn: Promise<PubsubLayer.PubsubConnection> } | undefined;
  private readonly lives = new Set<LiveSession>();

  constructor(
    private readonly manager: SessionManager,
    private readonly storageUri: vscode.Uri,
    /** Live sessions' notifications (a gone tap's Re-tap), settled as the sessions move on. */
    private readonly notices: SessionNotices,
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
  subscriptionsInUse(): Set<string> {
    return new Set([...this.lives].flatMap((l) => l.subscriptions));
  }

  liveFor(s: Session): LiveSession | undefined {
    return [...this.lives].find((l) => l.session === s);
  }

  /** The connection for the current settings: made (or remade, when they changed) on demand. */
  async connect(): Promise<Connected> {
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
      return { layer, conn };
    } catch (e) {
      // Try again next time (the emulator may be started by then); a client that was made is closed.
      const failed = this.connection;
      this.connection = undefined;
      void failed?.conn.then((c) => c.close()).catch(() => undefined);
      throw e;
    }
  }

  /** The folder recorded into now: the setting, else the extension's storage. */
  recordingDir(): string {
    return pubsubSettings().recordingDirectory ?? this.defaultRecordingDir();
  }

  /** The folder recorded into now, and the default one, which keeps what was recorded before the setting pointed elsewhere. */
  recordingFolders(): string[] {
    return [...new Set([this.recordingDir(), this.defaultRecordingDir()])];
  }

  /** Recordings live sessions are writing (resolved paths). */
  recordingNow(): Set<string> {
    return new Set([...this.lives].map((l) => resolve(l.recordingPath)));
  }

  private defaultRecordingDir(): string {
    return join(this.storageUri.fsPath, 'recordings');
  }

  /** A live session on `subscription` (and `taps`, deleted when it cannot start), its start in the log. */
  async startLive(
    { layer, conn }: Connected,
    subscription: PubsubLayer.ResourceName,
    options: SequencingOptions,
    taps: readonly PubsubLayer.Tap[] = [],
  ): Promise<LiveSession> {
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
    log().info(
      `attached to ${live.subscriptions.join(', ')}${taps.length ? ` (${taps.length > 1 ? 'taps' : 'tap'} on ${taps.map((t) => t.topic.path).join(', ')})` : ''}; recording to ${live.recordingPath}`,
    );
    if (taps.length > 1) log().info(`${taps.length} topics into one recording: each line names its topic, and keys are per topic (<topic id>/<key>)`);
    return live;
  }

  /** Seeks every subscription `live` reads back to `time`: the server re-sends what it retained. */
  async seek({ layer, conn }: Connected, live: LiveSession, time: Date): Promise<void> {
    for (const sub of live.subscriptions) await layer.seekSubscription(conn, layer.parseResourceName('subscriptions', sub), { time });
  }
}
