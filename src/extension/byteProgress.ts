import * as vscode from 'vscode';
import { formatBytes } from '../core/util/byteSize';
import { thinProgress } from '../core/util/thinProgress';

/** Also told of the progress (a timeline opened with the load shows it). */
export interface ProgressWatcher {
  progress?(fraction: number, detail: string): void;
}

/** How often the notification moves, at most. */
const REPORT_EVERY_MS = 500;

/**
 * Reports bytes done of `total` to a progress notification ("45% of 473 MB") and to `watcher`
 * (`detail` words it), at most twice a second (thinProgress): a reader may report every MiB, and
 * each report animates the notification's progress bar, which makes the window lay out and paint
 * again for as long as it moves — on the cores the load and the timeline need. The last report
 * (100 %) always goes through.
 */
export function byteProgress(
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  watcher: ProgressWatcher,
  detail: (done: number, total: number) => string,
): (done: number, total: number) => void {
  let reported = 0;
  return thinProgress(REPORT_EVERY_MS, Date.now, (done, total) => {
    const pct = total > 0 ? (done / total) * 100 : 100;
    progress.report({ increment: pct - reported, message: `${Math.floor(pct)}% of ${formatBytes(total)}` });
    reported = pct;
    watcher.progress?.(pct / 100, detail(done, total));
  });
}
