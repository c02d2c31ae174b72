/**
 * Gzip-compressed captures (`feed.jsonl.gz`; told by their first bytes, not by the name) open
 * from a decompressed copy: a session reads its records back by their byte offset in the file
 * (the detail pane, Copy Message, the attribute filter), which compressed data cannot give.
 *
 * Each open decompresses into a folder of its own under the extension's global storage
 * (`decompressed/<extension host pid>-<random>/feed.jsonl`), so the session's title and tree
 * read as the capture's name without `.gz` and two opens never share a file. The copy goes when
 * its session closes (or its load fails or is cancelled), the rest when the extension
 * deactivates; folders left by an extension host that is no longer running (a crashed window)
 * are removed at the next activation. Folders of other windows, still running, are left alone.
 */
import * as vscode from 'vscode';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { decompressCapture, DamagedCompressionError, sniffGzip } from '../core/capture/captureSource';
import { CaptureError } from '../core/capture/captureReader';
import { isRunning } from '../core/util/processAlive';
import { log } from './log';
import { formatBytes } from '../core/util/byteSize';
import { byteProgress, ProgressWatcher } from './byteProgress';

/** The captures of one open, as the loader is to read them. */
export interface PreparedCaptures {
  /** What to load: each gzip capture replaced by its decompressed copy. */
  readonly paths: readonly string[];
  /** The files the user opened, in the same order. */
  readonly sources: readonly string[];
  /** True when at least one capture was decompressed. */
  readonly decompressed: boolean;
  /**
   * Damage found while decompressing (a file cut off or damaged part way): the copy holds what
   * came before it, and the session opens that; each says which file and what to do.
   */
  readonly damage: readonly string[];
  /** Deletes the decompressed copies (once; later calls return the same promise). */
  release(): Promise<void>;
  /** A load error about a decompressed copy, restated about the file the user opened. */
  explain(e: unknown): unknown;
}

/**
 * A compressed capture that cannot be opened (damaged or truncated gzip data, or what it holds
 * is not a capture). The message names the file the user opened; `nextStep` says what to do.
 */
export class CompressedCaptureError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly nextStep: string,
    /** A shell command that gets what can be read (offered as "Copy Command"). */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'CompressedCaptureError';
  }
}

/** `feed.jsonl.gz` → `feed.jsonl`; a name that does not end in `.gz` is kept as it is. */
export function decompressedName(path: string): string {
  const name = basename(path);
  const plain = name.replace(/\.gz$/i, '');
  return plain || name;
}

/** Quotes a path for a POSIX shell (gzip is a POSIX tool). */
function shellQuote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

export class DecompressedCaptures implements vscode.Disposable {
  /** Folders of this extension host's opens that have not been deleted yet. */
  private readonly owned = new Set<string>();
  /** Deletions under way (awaited by removeAll). */
  private readonly pending = new Set<Promise<void>>();

  /** Folders for the copies, first choice first: folders only SeqScope writes in (whole folders in them are deleted). */
  private readonly roots: readonly string[];

  /**
   * @param globalStorageUri The extension's global storage: the copies go in its `decompressed`
   *   folder, or in the temp folder when the storage is not a local folder or cannot be written.
   */
  constructor(globalStorageUri: vscode.Uri) {
    const fallback = join(tmpdir(), `seqscope-decompressed-${process.getuid?.() ?? 'user'}`);
    this.roots = globalStorageUri.scheme === 'file' ? [join(globalStorageUri.fsPath, 'decompressed'), fallback] : [fallback];
  }

  /** A new, empty folder for one copy, named after this extension host (see removeLeftovers). */
  private async newFolder(): Promise<string> {
    let error: unknown;
    for (const root of this.roots) {
      try {
        await mkdir(root, { recursive: true, mode: 0o700 });
        const dir = await mkdtemp(join(root, `${process.pid}-`));
        this.owned.add(dir);
        return dir;
      } catch (e) {
        error ??= e;
        log().warn(`cannot decompress into ${root}: ${(e as Error).message}`);
      }
    }
    throw error;
  }

  /**
   * Deletes folders left by extension hosts that are no longer running (a window that crashed
   * or was killed). Another window's folders are kept while its extension host runs. Never throws.
   */
  async removeLeftovers(): Promise<void> {
    for (const root of this.roots) {
      let names: string[];
      try {
        names = await readdir(root);
      } catch {
        continue; // No folder: nothing was ever decompressed there.
      }
      for (const name of names) await this.removeLeftover(root, name);
    }
  }

  private async removeLeftover(root: string, name: string): Promise<void> {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) return;
    const dir = join(root, name);
    try {
      await rm(dir, { recursive: true, force: true, maxRetries: 2 });
      log().info(`removed a decompressed capture left by an earlier window: ${dir}`);
    } catch (e) {
      log().warn(`could not remove ${dir}: ${(e as Error).message}`);
    }
  }

  /**
   * Decompresses the gzip captures among `paths` (with a cancellable progress notification),
   * each into a new folder. Undefined when the user cancelled (nothing is left behind). Throws
   * CompressedCaptureError when the gzip data is damaged before anything could be read; damage
   * further on keeps what came before it (see PreparedCaptures.damage). Files that are not gzip (or cannot be read:
   * the loader then says why) pass through unchanged, with no notification.
   */
  async prepare(paths: readonly string[], watcher: ProgressWatcher = {}): Promise<PreparedCaptures | undefined> {
    const gz: number[] = [];
    for (const [i, p] of paths.entries()) if (await sniffGzip(p).catch(() => false)) gz.push(i);
    if (!gz.length) return passThrough(paths);

    const out = [...paths];
    const dirs: string[] = [];
    let released: Promise<void> | undefined;
    const release = () => (released ??= this.remove(dirs));
    const sizes = await Promise.all(gz.map((i) => stat(paths[i]).then((s) => s.size)));
    const total = sizes.reduce((a, b) => a + b, 0);
    const label = gz.map((i) => basename(paths[i])).join(', ');
    const damage: string[] = [];
    const started = Date.now();
    let cancelled: boolean;
    try {
      cancelled = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `SeqScope: decompressing ${label}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          let done = 0; // compressed bytes of the files finished
          let current = '';
          const report = byteProgress(progress, watcher, (done) => `Decompressing ${current}: ${formatBytes(done)} of ${formatBytes(total)}`);
          try {
            for (const [k, i] of gz.entries()) {
              if (abort.signal.aborted) return true;
              const from = paths[i];
              const dir = await this.newFolder();
              dirs.push(dir);
              const to = join(dir, decompressedName(from));
              current = basename(from);
              try {
                const result = await decompressCapture(from, to, {
                  signal: abort.signal,
                  // Like the CLI: a file cut off (still being written, a copy that stopped) opens
                  // with what it holds, and the damage is said.
                  keepPartial: true,
                  onProgress: (read) => report(done + read, total),
                });
                if (result.damage !== undefined) {
                  // Nothing before the damage: there is nothing to open.
                  if ((await stat(to)).size === 0) throw new DamagedCompressionError(result.damage);
                  damage.push(damagedWarning(from, result.damage));
                }
              } catch (e) {
                if (abort.signal.aborted) return true;
                if (e instanceof DamagedCompressionError) throw damaged(from, e);
                if ((e as NodeJS.ErrnoException).code === 'ENOSPC') throw noSpace(from, dirname(dir));
                throw e;
              }
              done += sizes[k];
              out[i] = to;
            }
            return abort.signal.aborted;
          } finally {
            sub.dispose();
          }
        },
      );
    } catch (e) {
      await release();
      throw e;
    }
    if (cancelled) {
      await release();
      log().info(`decompressing ${label} cancelled`);
      return undefined;
    }
    log().info(`decompressed ${gz.map((i) => `${paths[i]} to ${out[i]}`).join(', ')} in ${Date.now() - started} ms`);
    return {
      paths: out,
      sources: [...paths],
      decompressed: true,
      damage,
      release,
      explain: (e) => restate(e, out, paths),
    };
  }

  /**
   * A new folder for an archive's JSON Lines copy (see timeline/node/archiveCopy.ts): made, named and
   * cleaned up like a decompressed copy's. `release` deletes it (once).
   */
  async copyFolder(): Promise<{ dir: string; release: () => Promise<void> }> {
    const dir = await this.newFolder();
    let released: Promise<void> | undefined;
    return { dir, release: () => (released ??= this.remove([dir])) };
  }

  /** Deletes every copy this extension host made (deactivation). */
  async removeAll(): Promise<void> {
    await Promise.all([...this.pending]);
    await this.remove([...this.owned]);
  }

  /**
   * With the extension's subscriptions (just after deactivate is called): synchronous, best
   * effort; what is still open (Windows) is left to removeAll, which deactivate awaits.
   */
  dispose(): void {
    for (const dir of this.owned) {
      try {
        rmSync(dir, { recursive: true, force: true });
        this.owned.delete(dir);
      } catch {
        // Still open: removeAll retries.
      }
    }
  }

  private remove(dirs: readonly string[]): Promise<void> {
    const p = Promise.all(
      dirs.map(async (dir) => {
        try {
          await rm(dir, { recursive: true, force: true, maxRetries: 3 });
          this.owned.delete(dir);
        } catch (e) {
          log().warn(`could not delete the decompressed copy ${dir}: ${(e as Error).message}`);
        }
      }),
    ).then(() => undefined);
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }
}

function passThrough(paths: readonly string[]): PreparedCaptures {
  return { paths, sources: paths, decompressed: false, damage: [], release: () => Promise.resolve(), explain: (e) => e };
}

function damaged(from: string, e: DamagedCompressionError): CompressedCaptureError {
  const name = basename(from);
  const plainName = decompressedName(from) === name ? `${name}.jsonl` : decompressedName(from);
  const plain = join(dirname(from), plainName);
  return new CompressedCaptureError(
    `${name}: ${e.message}`,
    from,
    `Check the file is complete (gzip -t ${shellQuote(name)}), or decompress what can be read (gzip -dc ${shellQuote(name)} > ${shellQuote(plainName)}) and open that`,
    `gzip -dc ${shellQuote(from)} > ${shellQuote(plain)}`,
  );
}

/** What the user reads when a damaged file opened with what came before the damage. */
function damagedWarning(from: string, damage: string): string {
  const name = shellQuote(basename(from));
  return `${basename(from)}: ${damage}. Opened the records before it (one cut off by the damage is counted invalid); check the file with gzip -t ${name}`;
}

function noSpace(from: string, root: string): CompressedCaptureError {
  const name = basename(from);
  return new CompressedCaptureError(
    `${name}: not enough disk space to decompress it into ${root} (a capture decompresses to about ten times its size)`,
    from,
    `Free some space there, or decompress it onto a disk with room (gzip -dc ${shellQuote(name)} > /elsewhere/${shellQuote(decompressedName(from))}) and open that`,
  );
}

/** A CaptureError about a decompressed copy, restated about the compressed file the user opened. */
function restate(e: unknown, copies: readonly string[], sources: readonly string[]): unknown {
  if (!(e instanceof CaptureError)) return e;
  const i = copies.indexOf(e.path);
  if (i < 0 || copies[i] === sources[i]) return e;
  const message = e.message.split(copies[i]).join(`${sources[i]} (decompressed)`);
  const name = shellQuote(basename(sources[i]));
  return new CompressedCaptureError(message, sources[i], `Look at what it holds (gzip -dc ${name} | head -c 300), or open the capture it was made from`);
}
