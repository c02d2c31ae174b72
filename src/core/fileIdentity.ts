/**
 * Whether writing a path would write over one of the files being read. By file identity (device
 * and inode, after symbolic links), not by name: `out.jsonl` through a link, `./x` and `/abs/x`,
 * or a hard link all name the same file, and opening it for writing truncates the capture before
 * it is read — the one way an export could destroy its own input.
 */
import { statSync } from 'node:fs';

/** The first of `inputs` that `target` names, or undefined (also when `target` does not exist yet). */
export function inputOverwrittenBy(target: string, inputs: readonly string[]): string | undefined {
  const t = identity(target);
  if (t === undefined) return undefined;
  return inputs.find((p) => identity(p) === t);
}

function identity(path: string): string | undefined {
  try {
    // bigint: inode numbers can exceed 2^53 (some file systems), where a number would round.
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}
