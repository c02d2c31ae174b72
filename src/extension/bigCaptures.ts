/**
 * Captures too big to hold as a session in the extension host (timeline/sessionBudget.ts): said
 * before they are read, with two offers — the summary alone, as `seqscope replay --json` makes it
 * (memory by keys, not messages), or the first part of the capture that fits — and a guard that
 * stops a load outgrowing its room anyway, keeping what was read.
 */
import { freemem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InputFormat } from '../core/capture/captureReader';
import { HeapAtStop, HeapGuard } from '../core/replay/heapGuard';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { formatBytes } from '../core/util/byteSize';
import { sampleCaptures } from '../timeline/node/captureSample';
import { summarizeInWorker } from '../timeline/node/loadInWorker';
import { MemoryStop, SessionFit, sessionFit, SessionMemoryGuard } from '../timeline/sessionBudget';
import { byteProgress } from './byteProgress';
import { reportError } from './errors';
import { log } from './log';

/** The setting that bounds a session's memory (MiB; 0: three quarters of the memory free when a capture opens). */
export const MEMORY_LIMIT_SETTING = 'seqscope.sessionMemoryLimit';

/** The memory a session may take in the extension host, bytes. */
export function sessionRoom(): number {
  const mib = vscode.workspace.getConfiguration('seqscope').get<number>('sessionMemoryLimit', 0);
  return mib > 0 ? mib * 2 ** 20 : Math.floor(0.75 * freemem());
}

/** What to open of a capture. */
export type FitChoice = { readonly open: 'whole' } | { readonly open: 'part'; readonly bytes: number; readonly fit: SessionFit } | { readonly open: 'nothing' };

const SUMMARY_ONLY = 'Summary Only';

function count(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e4 ? `${Math.round(n / 1e3)} k` : String(n);
}

/**
 * Before a load: whether the captures fit the room (from their size and the lines at their
 * head). If not, says so and offers the summary alone (run here, then nothing opens) or the first
 * part that fits.
 */
export async function fitBeforeLoad(paths: readonly string[], label: string, summary: () => Promise<void>): Promise<FitChoice> {
  const room = sessionRoom();
  const sample = await sampleCaptures(paths);
  const fit = sessionFit(sample, room);
  log().info(
    `${label}: about ${fit.messages} messages, ${formatBytes(fit.need)} to load of ${formatBytes(room)} the extension host can spare (its heap limit ${formatBytes(getHeapStatistics().heap_size_limit)})`,
  );
  if (fit.fits) return { open: 'whole' };
  const part = `Open First ${formatBytes(fit.partBytes)}`;
  const message =
    `SeqScope: ${label} (${formatBytes(sample.totalBytes)}, about ${count(fit.messages)} messages) needs about ${formatBytes(fit.need)} to open whole; ` +
    `the extension host can spare about ${formatBytes(room)} (${MEMORY_LIMIT_SETTING}). ${SUMMARY_ONLY} sequences all of it as "seqscope replay --json" does, without keeping a session` +
    (fit.partMessages > 0 ? `; or open its first ${formatBytes(fit.partBytes)} (about ${count(fit.partMessages)} messages), marked partial.` : '.');
  const choice = await vscode.window.showWarningMessage(message, ...(fit.partMessages > 0 ? [SUMMARY_ONLY, part] : [SUMMARY_ONLY]));
  if (choice === SUMMARY_ONLY) {
    await summary();
    return { open: 'nothing' };
  }
  return choice === part ? { open: 'part', bytes: fit.partBytes, fit } : { open: 'nothing' };
}

/** Why a load was stopped before the end of its captures, besides a cancel. */
export type LoadStop =
  | { readonly by: 'part'; readonly bytes: number; readonly totalBytes: number }
  | { readonly by: 'memory'; readonly memory: MemoryStop; readonly share: number }
  | { readonly by: 'heap'; readonly heap: HeapAtStop; readonly share: number };

/**
 * Watches a load in the extension host: stops it at `partBytes` of its input when only a part
 * was asked for, or when the process outgrows the room or its heap nears its limit.
 */
export class LoadLimits {
  private readonly memory = new SessionMemoryGuard(sessionRoom(), () => ({ resident: process.memoryUsage.rss() }));
  private readonly heap = new HeapGuard();
  private why: LoadStop | undefined;

  constructor(
    private readonly partBytes: number | undefined,
    private readonly stop: () => void,
  ) {}

  get stopped(): LoadStop | undefined {
    return this.why;
  }

  /** After each batch the loader reports. */
  check(bytesRead: number, totalBytes: number): void {
    if (this.why) return;
    if (this.partBytes !== undefined && bytesRead >= this.partBytes) this.why = { by: 'part', bytes: bytesRead, totalBytes };
    else {
      const share = totalBytes > 0 ? bytesRead / totalBytes : 0;
      this.heap.check();
      const heap = this.heap.stopped;
      if (this.memory.check()) this.why = { by: 'memory', memory: this.memory.stopped ?? { grown: 0, room: 0 }, share };
      else if (heap) this.why = { by: 'heap', heap, share };
    }
    if (this.why) this.stop();
  }
}

/** What the user is told of a stopped load: a note on the session, and a warning when memory stopped it. */
export function stopWords(label: string, s: LoadStop): string {
  if (s.by === 'part')
    return `Opened the first ${formatBytes(s.bytes)} of ${label}'s ${formatBytes(s.totalBytes)}: the whole does not fit the memory the extension host can spare (${MEMORY_LIMIT_SETTING}); ${SUMMARY_ONLY} counts all of it`;
  const why =
    s.by === 'memory'
      ? `it grew the extension host by ${formatBytes(s.memory.grown)}, past the ${formatBytes(s.memory.room)} it can spare (${MEMORY_LIMIT_SETTING})`
      : `the extension host's heap is nearly full (${formatBytes(s.heap.used)} of ${formatBytes(s.heap.limit)})`;
  return `SeqScope: stopped loading ${label} at ${Math.floor(s.share * 100)} %: ${why}. The session holds what was read, marked partial; ${SUMMARY_ONLY} counts all of it.`;
}

/** After a stopped load: the warning, offering the summary of the whole. */
export async function offerSummaryAfterStop(label: string, s: LoadStop, summary: () => Promise<void>): Promise<void> {
  const message = stopWords(label, s);
  log().warn(message);
  if (s.by === 'part') return;
  if ((await vscode.window.showWarningMessage(message, SUMMARY_ONLY)) !== SUMMARY_ONLY) return;
  try {
    await summary();
  } catch (e) {
    await reportError(SUMMARY_ONLY, e);
  }
}

/**
 * The summary alone of captures, as `seqscope replay --json` prints it, in a new JSON editor,
 * after a cancellable progress notification (a cancelled run shows what was read, `"cancelled": true`).
 */
export async function showSummaryOnly(
  paths: readonly string[],
  options: SequencingOptions,
  inputFormat: InputFormat | undefined,
  label: string,
): Promise<vscode.TextDocument | undefined> {
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SeqScope: summarising ${label} (nothing is kept open)`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const report = byteProgress(progress, {}, (done, total) => `Read ${formatBytes(done)} of ${formatBytes(total)}`);
      try {
        return await summarizeInWorker(path.join(__dirname, 'loadWorker.js'), paths, options, { signal: abort.signal, inputFormat, onProgress: report });
      } finally {
        sub.dispose();
      }
    },
  );
  const { summary, cancelled, heapStop, notes } = result;
  for (const note of notes) log().info(`note: ${note}`);
  log().info(
    `summarised ${label}: ${summary.received} received, ${summary.gaps} gaps, ${summary.duplicates} duplicates, ${summary.invalid} invalid${cancelled ? ' (cancelled: partial)' : ''}`,
  );
  const stopped = heapStop ? { stopped: 'memory' } : {};
  const text = JSON.stringify({ ...summary, ...(cancelled ? { cancelled } : {}), ...stopped }, null, 2);
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: text + '\n' });
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}
