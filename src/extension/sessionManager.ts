import * as vscode from 'vscode';
import { sameOptions, SequencingOptions } from '../core/sequencer/sequencingOptions';
import { learnRecorded, type SchemaSet, withRecorded } from '../core/schema/schemaSet';
import { captureVersion } from '../core/capture/fileIdentity';
import type { KeyOrder } from '../core/trace/keyOrder';
import * as path from 'node:path';
import { loadSessionInWorker } from '../timeline/node/loadInWorker';
import type { LoadResult } from '../timeline/node/loadSession';
import type { CaptureSession } from '../timeline/captureSession';
import { ChunkPace, DEFAULT_CHUNK_PACE } from '../timeline/chunkPace';
import type { HeapStop } from '../core/replay/replayRun';
import type { InputFormat } from '../core/capture/captureReader';
import { sniffAvro } from '../core/capture/avroArchive';
import type { DecompressedCaptures, PreparedCaptures } from './compressedCaptures';
import { formatBytes, mebibytes } from '../core/util/byteSize';
import { byteProgress } from './byteProgress';
import { Disposable } from './dispose';
import { log } from './log';
import { Session } from './session';
import { InputError } from '../core/util/inputError';
import { ComparisonFacts, sideLaneOf } from '../timeline/compareLanes';
import { fitBeforeLoad, LoadLimits, LoadStop, offerSummaryAfterStop, showSummaryOnly, stopWords } from './bigCaptures';

/** Who watches a load (a timeline opened with it). */
export interface LoadWatcher {
  /** Fraction of the bytes read, and the same in words; at most twice a second. */
  progress?(fraction: number, detail: string): void;
  /**
   * The session, shown from the load's first chunk on while the rest loads (`Session.loading`);
   * not called for a capture whose load ends before its first chunk is due.
   */
  shown?(session: Session): void;
}

/** How captures are opened, besides their sequencing options. */
export interface OpenHow {
  /** How the content is told (`text`: Cloud Storage text archives, never guessed). */
  readonly inputFormat?: InputFormat;
  /** The session's title, when not its files' names (a folder opened: the folder's name). */
  readonly title?: string;
  /** A comparison (Compare with…): the paths are side A's files, then side B's from `firstB` on. */
  readonly compare?: { readonly firstB: number; readonly labels: readonly [string, string] };
}

/** How a load ends besides its session: stopped at the part asked for, or for memory. */
interface LoadEnd {
  label: string;
  sources: readonly string[];
  started: number;
  stop: LoadStop | undefined;
  summary: () => Promise<void>;
}

/** Why a load stopped early for memory, what the session holds, and what to do. */
function heapStopMessage(label: string, h: HeapStop): string {
  const share = h.totalBytes > 0 ? ` at ${Math.floor((h.bytesRead / h.totalBytes) * 100)} %` : '';
  const line = h.line === undefined ? '' : ` (line ${h.line}${h.path === undefined ? '' : ` of ${path.basename(h.path)}`})`;
  return (
    `SeqScope: stopped sequencing ${label}${share}${line}: its ${h.keys} keys fill the memory the loader has (${mebibytes(h.heap.used)} MiB in use and some ${mebibytes(h.heap.reserve)} MiB to summarise them, of ${mebibytes(h.heap.limit)} MiB; ` +
    `the sequencer keeps counters and state for each key). The session holds what was read, marked partial. ` +
    `For all of it, run "seqscope replay" in a terminal (NODE_OPTIONS=--max-old-space-size=… gives it more memory), or sequence by a coarser key.`
  );
}

/** The open sessions, the active one, and loading with progress and cancellation. */
export class SessionManager extends Disposable {
  private readonly sessions: Session[] = [];
  private activeSession: Session | undefined;
  private nextId = 1;
  private readonly subscriptions = new Map<Session, vscode.Disposable>();
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** A session opened, closed, became active, or changed its counts. */
  readonly onDidChange = this.changed.event;
  private readonly revealRequested = this._register(new vscode.EventEmitter<{ session: Session; eventId: number }>());
  readonly onDidRequestReveal = this.revealRequested.event;

  private order: KeyOrder = 'arrival';
  /** When a load shows its next chunk (tests make it certain with a small `everyArrivals`). */
  chunkPace: ChunkPace = DEFAULT_CHUNK_PACE;

  /** @param decompressed Where gzip captures are decompressed to before they load. */
  constructor(private readonly decompressed: DecompressedCaptures) {
    super();
  }

  /** How every session's tree rows and lanes are ordered (the `seqscope.keyOrder` setting). */
  get keyOrder(): KeyOrder {
    return this.order;
  }

  set keyOrder(order: KeyOrder) {
    this.order = order;
    for (const s of this.sessions) s.setKeyOrder(order);
  }

  get all(): readonly Session[] {
    return this.sessions;
  }

  get active(): Session | undefined {
    return this.activeSession;
  }

  set active(s: Session | undefined) {
    if (s === this.activeSession) return;
    this.activeSession = s;
    this.changed.fire();
  }

  get(id: string): Session | undefined {
    return this.sessions.find((s) => s.id === id);
  }

  /**
   * Loads captures into a new session, with a cancellable progress notification. A cancelled
   * load keeps what was read (marked partial) unless nothing was. Gzip captures are decompressed
   * first, to a copy the session reads and deletes when it closes (see compressedCaptures.ts);
   * cancelling that opens nothing. Archives (Avro, text) load into a JSON Lines copy of their
   * records, which the session reads back from and deletes in the same way (see
   * timeline/node/archiveCopy.ts).
   */
  async open(paths: string[], options: SequencingOptions, watcher: LoadWatcher = {}, how: OpenHow = {}): Promise<Session | undefined> {
    // Taken before reading: a file written to during the load is not the version loaded.
    const version = captureVersion(paths);
    const prepared = await this.decompressed.prepare(paths, watcher);
    if (!prepared) return undefined;
    let copy: { dir: string; release: () => Promise<void> } | undefined;
    const release = async () => {
      await prepared.release();
      await copy?.release();
    };
    let session: Session | undefined;
    try {
      const archive = how.inputFormat === 'text' || (await anyAvro(prepared.paths));
      // JSON Lines: too big to hold is said before the load (archives' records have no lines to count).
      const fit =
        archive || how.compare
          ? { open: 'whole' as const }
          : await fitBeforeLoad(prepared.paths, labelOf(prepared.paths), summaryOf(prepared.paths, options, how));
      if (fit.open === 'nothing') {
        await release();
        return undefined;
      }
      if (archive) copy = await this.decompressed.copyFolder();
      session = await this.load(prepared, options, watcher, how, copy && path.join(copy.dir, 'records.jsonl'), fit.open === 'part' ? fit.bytes : undefined);
    } catch (e) {
      await release();
      throw prepared.explain(e);
    }
    if (!session) await release();
    else {
      // A comparison is never "the same captures opened again".
      if (!how.compare) session.version = version;
      if (prepared.decompressed || copy) session.whenFilesClosed(release);
    }
    return session;
  }

  /**
   * An open session of these captures, unchanged since it loaded them and sequenced alike, whole
   * (not a cancelled or stopped load): opening them again would only repeat it.
   */
  findSame(paths: readonly string[], options: SequencingOptions, inputFormat?: InputFormat): Session | undefined {
    const version = captureVersion(paths);
    if (version === undefined) return undefined;
    return this.sessions.find(
      (s) =>
        !s.live &&
        !s.partial &&
        !s.comparison &&
        s.loading === undefined &&
        s.version === version &&
        sameOptions(s.options, options) &&
        s.inputFormat === inputFormat,
    );
  }

  private async load(
    prepared: PreparedCaptures,
    asked: SequencingOptions,
    watcher: LoadWatcher,
    how: OpenHow,
    copyTo: string | undefined,
    partBytes: number | undefined,
  ): Promise<Session | undefined> {
    // A set of the session's own, which learns the schemas the captures record (the detail pane, Copy Message, search).
    const options = { ...asked, schemas: withRecorded(asked.schemas, {}) };
    const paths = prepared.paths;
    const started = Date.now();
    const label = labelOf(paths);
    const make = (id: string, data: CaptureSession, partial: boolean, comparison?: ComparisonFacts) => {
      const s = new Session(id, data, options, partial, how.title);
      if (prepared.decompressed) s.sources = prepared.sources;
      if (prepared.damage.length) s.damage = prepared.damage;
      s.inputFormat = how.inputFormat;
      s.comparison = comparison;
      if (comparison) s.timeline.alsoReceivedOn = sideLaneOf(data.log, comparison.paths[0].length);
      return s;
    };
    // Shown from the first chunk on, growing with each (see timeline/sessionChunk.ts); closing
    // it cancels the load. A comparison is shown once it is whole.
    const abort = new AbortController();
    const limits = new LoadLimits(partBytes, () => abort.abort());
    let shown: Session | undefined;
    let read = 0;
    const showChunk = (data: CaptureSession) => {
      if (shown) {
        shown.loading = read;
        shown.grew();
        return;
      }
      shown = this.add((id) => {
        const s = make(id, data, false);
        s.loading = read;
        s.replay.lockedReason = 'replay starts once the capture has loaded';
        return s;
      });
      shown.onDidDispose(() => abort.abort());
      log().info(`showing ${prepared.sources.join(', ')} while it loads, ${Date.now() - started} ms after the choice`);
      watcher.shown?.(shown);
    };
    let result: LoadResult;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `SeqScope: sequencing ${label} (Cancel keeps what was read, marked partial)`,
          cancellable: true,
        },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          const report = byteProgress(progress, watcher, (done, total) => `Read ${formatBytes(done)} of ${formatBytes(total)}`);
          try {
            // On a worker thread: the host stays responsive and keeps none of the load's garbage.
            return await loadSessionInWorker(path.join(__dirname, 'loadWorker.js'), paths, options, {
              signal: abort.signal,
              inputFormat: how.inputFormat,
              copyTo,
              compare: how.compare,
              onProgress: (done, total) => {
                read = total > 0 ? done / total : 0;
                report(done, total);
                limits.check(done, total);
              },
              chunks: how.compare ? undefined : { pace: this.chunkPace, onChunk: showChunk },
            });
          } finally {
            sub.dispose();
          }
        },
      );
    } catch (e) {
      if (shown) this.close(shown);
      throw e;
    }
    return this.loaded(result, shown, make, { label, sources: prepared.sources, started, stop: limits.stopped, summary: summaryOf(paths, options, how) });
  }

  /** A load ended: its session, whole or partial (shown already, or made now), or none. */
  private loaded(
    { session: data, cancelled, heapStop, notes, comparison, recordedSchemas }: LoadResult,
    shown: Session | undefined,
    make: (id: string, data: CaptureSession, partial: boolean, comparison?: ComparisonFacts) => Session,
    load: LoadEnd,
  ): Session | undefined {
    // A side that holds nothing to compare: no session, the side named.
    if (comparison?.problem) throw new InputError(comparison.problem);
    log().info(
      `opened ${load.sources.join(', ')} in ${Date.now() - load.started} ms: ${data.summary.received} received, ${data.summary.gaps} gaps, ${data.summary.duplicates} duplicates, ${data.summary.invalid} invalid${heapStop ? ' (stopped, memory full: partial)' : cancelled ? ' (cancelled: partial)' : ''}`,
    );
    if (heapStop) {
      const message = heapStopMessage(load.label, heapStop);
      log().warn(message);
      void vscode.window.showWarningMessage(message);
    }
    // Closed while it loaded (which cancelled the load), or nothing read before a cancel.
    if (shown?.isDisposed) return undefined;
    if (cancelled && data.arrivalCount === 0) {
      if (shown) this.close(shown);
      return undefined;
    }
    for (const note of notes) log().info(`note: ${note}`);
    let session = shown;
    if (session) {
      session.loading = undefined;
      session.partial = cancelled;
      session.replay.lockedReason = undefined;
      session.grew();
    } else session = this.add((id) => make(id, data, cancelled, comparison));
    if (load.stop?.by === 'part') session.notes = [...notes, stopWords(load.label, load.stop)];
    else if (notes.length) session.notes = notes;
    if (load.stop) void offerSummaryAfterStop(load.label, load.stop, load.summary);
    for (const [key, definition] of Object.entries(recordedSchemas ?? {})) learnRecorded(session.options.schemas as SchemaSet, key, definition);
    this.warmUp(session);
    return session;
  }

  /**
   * Work ahead for the timeline, a step per turn of the event loop, once the window has had a
   * second for the new session (tree, status bar, a timeline opened with the load): a long
   * synchronous run right after the load held the extension host's messages back by 0.3–0.8 s.
   */
  private warmUp(session: Session): void {
    const steps = session.timeline.warmUpSteps(session.replay.info());
    let warm: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      const step = steps.shift();
      if (!step || !this.sessions.includes(session)) return;
      step();
      warm = setTimeout(next, 0);
    };
    warm = setTimeout(next, 1000);
    session.onDidDispose(() => clearTimeout(warm));
  }

  /** Adds a session made elsewhere (a live one) and makes it active. */
  add(make: (id: string) => Session): Session {
    const s = make(this.newId());
    s.setKeyOrder(this.order);
    this.sessions.push(s);
    this.subscriptions.set(
      s,
      s.onDidChange(() => this.changed.fire()),
    );
    this.activeSession = s;
    this.changed.fire();
    return s;
  }

  private newId(): string {
    return `s${this.nextId++}`;
  }

  close(s: Session): void {
    const i = this.sessions.indexOf(s);
    if (i < 0) return;
    this.sessions.splice(i, 1);
    this.subscriptions.get(s)?.dispose();
    this.subscriptions.delete(s);
    if (this.activeSession === s) this.activeSession = this.sessions[this.sessions.length - 1];
    s.dispose();
    log().info(`closed ${s.title}`);
    this.changed.fire();
  }

  closeAll(): void {
    for (const s of [...this.sessions]) this.close(s);
  }

  requestReveal(session: Session, eventId: number): void {
    this.revealRequested.fire({ session, eventId });
  }

  override dispose(): void {
    this.closeAll();
    super.dispose();
  }
}

/** A load's captures in words: their names. */
function labelOf(paths: readonly string[]): string {
  return paths.map((p) => path.basename(p)).join(', ');
}

/** The summary alone of the captures, shown in an editor (bigCaptures.ts), for captures too big to hold. */
function summaryOf(paths: readonly string[], options: SequencingOptions, how: OpenHow): () => Promise<void> {
  return async () => {
    await showSummaryOnly(paths, options, how.inputFormat, labelOf(paths));
  };
}

/** Whether any of the files is an Avro container (read back from a JSON Lines copy). */
async function anyAvro(paths: readonly string[]): Promise<boolean> {
  for (const p of paths) if (await sniffAvro(p).catch(() => false)) return true;
  return false;
}
