/**
 * The captures a command names, expanded: a folder stands for the files in it (a Cloud Storage
 * subscription writes one file per batch, so an archive is a folder of them), and a name with
 * `*` or `?` in its last part for the files it matches (quoted, so the shell leaves it alone).
 * Files are listed by name; merging orders their records by clock anyway.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CaptureError } from './captureReader';

const WILDCARD = /[*?]/;

export async function expandCapturePaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    const st = await stat(p).catch(() => undefined);
    if (st?.isDirectory()) {
      const files = await filesIn(p, () => true);
      if (files.length === 0) throw new CaptureError(`${p} is a folder with no files in it: name the capture files, or a folder that holds them`, p);
      out.push(...files);
    } else if (st === undefined && WILDCARD.test(basename(p))) {
      const dir = dirname(p);
      if (WILDCARD.test(dir)) throw new CaptureError(`${p}: only the file-name part of a pattern may hold * or ?`, p);
      const re = patternRegExp(basename(p));
      const files = await filesIn(dir, (name) => re.test(name)).catch(() => []);
      if (files.length === 0) throw new CaptureError(`no file matches ${p}`, p);
      out.push(...files);
    } else {
      out.push(p);
    }
  }
  return out;
}

/** The regular files of `dir` whose names pass `keep`, hidden ones left out, by name. */
async function filesIn(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.') && keep(e.name))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(dir, name));
}

/** `part-*.avro` → /^part-.*\.avro$/ (`*` any run of characters, `?` one). */
export function patternRegExp(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.+()[\]{}|]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`);
}
