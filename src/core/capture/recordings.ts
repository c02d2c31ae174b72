/**
 * The recordings in a folder: what **SeqScope: Recordings…** lists. Live sessions record every
 * delivery (see recordingPath.ts), by default into the extension's global storage, where nobody
 * looks: a tap on a busy topic writes gigabytes an hour, and without a list they stay on the
 * disk for good.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One recording on disk. */
export interface RecordingFile {
  readonly path: string;
  readonly name: string;
  readonly bytes: number;
  /** Last written (ms since the epoch): a live recording's is its latest delivery. */
  readonly modifiedMs: number;
}

/**
 * How a live session names its recording (see claimRecordingPath): `<topic or subscription>-<UTC
 * time>` — `2026-12-02T02-49-56Z`, or `20261202T024956Z` as earlier versions wrote it —, `-2`…
 * when the second was taken, `.jsonl` (or gzip's `.jsonl.gz`). Only such files are listed:
 * the setting may point at a folder of other captures, which "delete every one not in use" must
 * never touch.
 */
const RECORDING_NAME = /^.+-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ|\d{8}T\d{6}Z)(-\d+)?\.jsonl(\.gz)?$/;

/**
 * The recordings in `dirs`, newest first (ties by path). A folder that does not exist yet has
 * none (nothing was recorded); one that cannot be read is an error naming it.
 */
export async function listRecordings(dirs: readonly string[]): Promise<RecordingFile[]> {
  const found = new Map<string, RecordingFile>();
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true })).filter((d) => !d.isDirectory()).map((d) => d.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new Error(`cannot list the recordings in ${dir}: ${(e as Error).message}`);
    }
    for (const name of names) {
      if (!RECORDING_NAME.test(name)) continue;
      const path = join(dir, name);
      try {
        const s = await stat(path);
        if (s.isFile()) found.set(path, { path, name, bytes: s.size, modifiedMs: s.mtimeMs });
      } catch {
        // Deleted between the listing and its stat (another window's cleanup): not there.
      }
    }
  }
  return [...found.values()].sort((a, b) => b.modifiedMs - a.modifiedMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How long ago, for people: "just now", "5 min ago", "3 h ago", "2 days ago" (floor). */
export function formatAge(thenMs: number, nowMs: number): string {
  const s = Math.max(0, (nowMs - thenMs) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const days = Math.floor(s / 86_400);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}
