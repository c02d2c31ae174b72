/**
 * "-" as a capture path: standard input, for `replay` and `publish` alike
 * (`gzip -dc feed.jsonl.gz | seqscope replay -`).
 */

export type StandardInput = NodeJS.ReadableStream & { isTTY?: boolean };

/** How the CLI names an input: its path, or "standard input" for "-". */
export function inputName(path: string): string {
  return path === '-' ? 'standard input' : path;
}

/**
 * Why `paths` cannot be read as given, or undefined when they can: "-" named twice, or named
 * when nothing is piped in — waiting on a terminal would look like a hang.
 */
export function standardInputProblem(paths: readonly string[], stdin: StandardInput | undefined, example: string): string | undefined {
  const named = paths.filter((p) => p === '-').length;
  if (named > 1) return '"-" (standard input) can be named once';
  if (named === 1 && (stdin === undefined || stdin.isTTY)) {
    return `"-" reads a capture from standard input, but nothing is piped in: pipe one (gzip -dc feed.jsonl.gz | ${example}) or name the file`;
  }
  return undefined;
}
