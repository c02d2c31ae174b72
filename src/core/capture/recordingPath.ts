/**
 * Names a new live recording and claims the name: `<topic or subscription>-<UTC time>.jsonl`,
 * the time once and readable (`md-feed-2026-12-02T02-49-56Z.jsonl`; dashes, not colons, so the
 * name is valid on every file system). Why claimed: recordings are named after what was tapped
 * or attached and the time to the second, so two attaches to one subscription within a second
 * got one name, and both sessions wrote (and truncated) one file. Creating the file at once with
 * O_EXCL makes the name theirs alone; a name taken gets `-2`, `-3`…
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `dir/<name>-<yyyy-mm-ddThh-mm-ssZ>[-n].jsonl`, created empty. */
export function claimRecordingPath(dir: string, name: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const path = join(dir, `${name}-${stamp}${n > 1 ? `-${n}` : ''}.jsonl`);
    try {
      writeFileSync(path, '', { flag: 'wx' });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
