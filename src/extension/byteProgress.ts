import * as vscode from 'vscode';
import { formatBytes } from '../core/util/byteSize';
import { thinProgress } from '../core/util/thinProgress';

/** Also told of the progress (a timeline opened with the load shows it). */
export interface ProgressWatcher {
  progress?(fraction: number, detail: string): void;
}

/**
 * Reports bytes done of `total` to a progress notification ("45% of 473 MB") and to `watcher`
 * (`detail` words it), at most ten times a second (thinProgress): a reader may report every MiB,
 * and each report redraws the notification in the window, which then delays everything else sent
 * to it — the timeline's messages included. The last report (100 %) always goes through.
 */
export function byteProgress(
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  watcher: ProgressWatcher,
  detail: (done: number, total: number) => string,
): (done: number, total: number) => void {
  let reported = 0;
  return thinProgress(100, Date.now, (done, total) => {
    const pct = total > 0 ? (done / total) * 100 : 100;
    progress.report({ increment: pct - reported, message: `${Math.floor(pct)}% of ${formatBytes(total)}` });
    reported = pct;
    watcher.progress?.(pct / 100, detail(done, total));
  });
}
