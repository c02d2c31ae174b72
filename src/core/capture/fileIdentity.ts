/**
 * Which paths name the same file, by file identity (device and inode, after symbolic links), not
 * by name: `out.jsonl` through a link, `./x` and `/abs/x`, or a hard link all name one file.
 * Whether writing a path would write over one of the files being read (opening it for writing
 * truncates the capture before it is read — the one way an export could destroy its own input),
 * and whether one capture is named twice.
 */
import { statSync } from 'node:fs';

/** The first of `inputs` that `target` names, or undefined (also when `target` does not exist yet). */
export function inputOverwrittenBy(target: string, inputs: readonly string[]): string | undefined {
  const t = identity(target);
  if (t === undefined) return undefined;
  return inputs.find((p) => identity(p) === t);
}

/**
 * Two of `paths` that name the same file — the first naming and a later one — or undefined.
 * Read twice, a capture merges with itself: every message arrives again with its own messageId
 * and the replay reports each as a redelivery, which says nothing about the feed. Paths that
 * cannot be read are left to the reader, which names them.
 */
export function repeatedInput(paths: readonly string[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const p of paths) {
    const id = identity(p);
    if (id === undefined) continue;
    const first = seen.get(id);
    if (first !== undefined) return [first, p];
    seen.set(id, p);
  }
  return undefined;
}

/**
 * What to say of a capture named twice (see repeatedInput): which paths, what to do (the CLI
 * "names", the editor "opens") and why it is refused.
 */
export function repeatedInputMessage([first, again]: readonly [string, string], nextStep: string): string {
  const named = first === again ? `${first} is named twice` : `${first} and ${again} are the same file`;
  return `${named}: ${nextStep} (read twice, it would merge with itself and every message would count as a duplicate)`;
}

/**
 * The files at `paths` as they are now — which files (device, inode) with what size and last
 * write — in order; undefined when one cannot be read. Equal versions: the same captures,
 * unchanged, so sequencing them again gives the same session (a recording still being written
 * changes size).
 */
export function captureVersion(paths: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const p of paths) {
    try {
      const s = statSync(p, { bigint: true });
      parts.push(`${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`);
    } catch {
      return undefined;
    }
  }
  return parts.join('|');
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
