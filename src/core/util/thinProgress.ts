/**
 * Progress reports, thinned to what a reader can see: the first, then one every `everyMs` of
 * `now()`, and always the end (`done` reaching `total`). For reports that cost a message to
 * another thread, each of which wakes it.
 */
export function thinProgress(everyMs: number, now: () => number, report: (done: number, total: number) => void): (done: number, total: number) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (done, total) => {
    const t = now();
    if (t - last < everyMs && done < total) return;
    last = t;
    report(done, total);
  };
}
