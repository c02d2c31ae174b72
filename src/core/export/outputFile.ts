/**
 * A file SeqScope writes for the user — an exported trace, a standalone timeline page — and the
 * errors writing it can give.
 *
 * It is written beside its target under a hidden temporary name and renamed over the target only
 * once complete. Why: the target used to be opened (and so truncated) before the captures were
 * even read, so `seqscope replay typo.jsonl --export trace.jsonl` left an empty trace.jsonl where
 * the previous export had been, and a full disk left a cut-off trace that looked whole. Now a run
 * that fails or is discarded leaves whatever was at the target as it was, and no partial file.
 *
 * A target that exists and is not a regular file (/dev/null, a FIFO, a terminal) is written
 * directly: renaming over it would replace the device itself.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, WriteStream } from 'node:fs';
import { once } from 'node:events';
import { access, chmod, constants, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isRunning } from '../util/processAlive';

export class ExportError extends Error {
  constructor(
    message: string,
    readonly path: string,
    /** The system's error code when there is one ("EPIPE": what read the output went away). */
    readonly code?: string,
    /** What the user can do about it, for the CLI's line and the editor's notification. */
    readonly nextStep = 'check the path, or export somewhere else',
  ) {
    super(message);
    this.name = 'ExportError';
  }
}

/** Why a write failed, in words, and what to do; `target` is the path the user gave. */
function describe(e: unknown, target: string): { reason: string; nextStep?: string } {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return { reason: `the folder ${dirname(target)} does not exist`, nextStep: 'create it, or export to a folder that exists' };
    case 'ENOTDIR':
      return { reason: `part of the path ${dirname(target)} is a file, not a folder`, nextStep: 'export to a folder that exists' };
    case 'EISDIR':
      return { reason: 'it is a folder', nextStep: `name a file in it, e.g. ${join(target, 'trace.jsonl')}` };
    case 'EACCES':
    case 'EPERM':
      return { reason: 'permission denied', nextStep: 'export to a folder you may write to' };
    case 'EROFS':
      return { reason: 'the file system is read-only', nextStep: 'export to a folder on a writable disk' };
    case 'ENOSPC':
      return { reason: 'the disk is full', nextStep: 'free some space, or export to another disk' };
    case 'EDQUOT':
      return { reason: 'the disk quota is used up', nextStep: 'free some space, or export to another disk' };
    default:
      return { reason: err instanceof Error ? err.message : String(e) };
  }
}

/**
 * The ExportError for a failed write to `target`. `left` says what is at the target afterwards,
 * for failures after the file was opened: whoever reads the message must know whether to trust
 * the file they find there.
 */
export function writeError(target: string, e: unknown, left?: 'unchanged' | 'nothing'): ExportError {
  const { reason, nextStep } = describe(e, target);
  const after = left === 'unchanged' ? `; ${basename(target)} is as it was before` : left === 'nothing' ? '; no file was left there' : '';
  return new ExportError(`cannot write ${target}: ${reason}${after}`, target, (e as NodeJS.ErrnoException)?.code, nextStep);
}

/** How long a temporary file must have gone unwritten before it is taken as abandoned. */
const STALE_PART_MS = 10 * 60_000;

/**
 * Removes temporary files an earlier export to `final` left behind when it was killed outright
 * (SIGKILL, a machine stopped): hidden, they would stay beside the trace for good. One is taken
 * as abandoned only when the process named in it is gone from this machine and it has not been
 * written for ten minutes — on a folder shared between machines a pid says nothing, and an
 * export in progress writes all the time.
 */
async function removeStaleParts(final: string, now = Date.now()): Promise<void> {
  const dir = dirname(final);
  const prefix = `.${basename(final)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.part$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || isRunning(Number(m[1]))) continue;
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (st?.isFile() && now - st.mtimeMs > STALE_PART_MS) await rm(path, { force: true }).catch(() => undefined);
  }
}

export class OutputFile {
  private state: 'open' | 'committed' | 'discarded' = 'open';

  private constructor(
    /** The path the user asked for. */
    readonly target: string,
    /** Where the file goes: `target`, or the file it links to. */
    private readonly final: string,
    /** The stream to write to: the temporary file's, or the target's own when written directly. */
    readonly stream: WriteStream,
    /** The temporary file renamed over the target on commit; undefined when written directly. */
    private readonly temp: string | undefined,
    /** Whether something was at the target before (for what a failure says is left). */
    private readonly existed: boolean,
  ) {}

  static async open(target: string, encoding?: BufferEncoding): Promise<OutputFile> {
    const st = await stat(target).catch(() => undefined);
    if (st?.isDirectory()) throw writeError(target, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    const direct = st !== undefined && !st.isFile();
    // A file the user may not write stays refused, as writing it in place was: a rename beside
    // it would replace a file made read-only to keep it.
    if (st?.isFile()) await access(target, constants.W_OK).catch((e: unknown) => Promise.reject(writeError(target, e)));
    // Through a symbolic link to the file it names: the rename then replaces that file and the
    // link stays, as writing in place would have left it.
    const final = st?.isFile() ? await realpath(target).catch(() => target) : target;
    // Hidden, and unique per process and call: two exports to one folder never share it.
    const temp = direct ? undefined : join(dirname(final), `.${basename(final)}.${process.pid}.${randomBytes(4).toString('hex')}.part`);
    if (temp !== undefined) await removeStaleParts(final);
    const stream = createWriteStream(temp ?? target, { encoding, flags: temp ? 'wx' : 'w' });
    try {
      await once(stream, 'open');
    } catch (e) {
      throw writeError(target, e);
    }
    // A file written over keeps its permissions (a private trace stays private).
    if (temp !== undefined && st !== undefined) await chmod(temp, st.mode & 0o7777).catch(() => undefined);
    return new OutputFile(target, final, stream, temp, st !== undefined);
  }

  /** What a failure after the open leaves at the target. */
  get left(): 'unchanged' | 'nothing' | undefined {
    if (this.temp === undefined) return undefined;
    return this.existed ? 'unchanged' : 'nothing';
  }

  /**
   * Puts the finished file in place (call once the stream has been ended). A failure discards
   * the temporary file and throws an ExportError.
   */
  async commit(): Promise<void> {
    if (this.state !== 'open') throw new Error(`output ${this.target} was already ${this.state}`);
    if (this.temp === undefined) {
      this.state = 'committed';
      return;
    }
    try {
      // Closed before it is renamed: Windows cannot rename an open file.
      if (!this.stream.closed) await once(this.stream, 'close');
      await rename(this.temp, this.final);
      this.state = 'committed';
    } catch (e) {
      await this.discard();
      throw writeError(this.target, e, this.left);
    }
  }

  /**
   * Drops what was written: the temporary file goes, the target stays as it was. Safe to call
   * more than once, and after a commit (then it does nothing).
   */
  async discard(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'discarded';
    const s = this.stream;
    // Closed before removed: Windows cannot remove a file that is still open.
    if (!s.closed) {
      const closed = once(s, 'close').catch(() => undefined);
      s.destroy();
      await closed;
    }
    if (this.temp !== undefined) await rm(this.temp, { force: true });
  }
}
