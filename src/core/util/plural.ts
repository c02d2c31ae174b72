/**
 * The noun for a count: `noun(1, 'gap')` is "gap", `noun(3, 'gap')` "gaps". Every summary line
 * the CLI, the tree, the status bar and the timeline write counts findings, and "1 gaps" reads
 * as a defect; one helper keeps them all right.
 */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
