/**
 * Names a new live recording and claims the name. Why claimed: recordings are named after the
 * subscription and the time to the second, so two attaches to one subscription within a second
 * got one name, and both sessions wrote (and truncated) one file. Creating the file at once with
 * O_EXCL makes the name theirs alone; a name taken gets `-2`, `-3`…
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `dir/<subscription>-<yyyymmddThhmmssZ>[-n].jsonl`, created empty. */
export function claimRecordingPath(dir: string, subscriptionId: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const path = join(dir, `${subscriptionId}-${stamp}${n > 1 ? `-${n}` : ''}.jsonl`);
    try {
      writeFileSync(path, '', { flag: 'wx' });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
