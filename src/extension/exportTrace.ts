import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TraceFormat } from '../core/export';
import { inputOverwrittenBy } from '../core/capture/fileIdentity';
import { runReplay } from '../core/replay/replayRun';
import { describeFilter, traceEventMatcher } from '../core/trace/traceFilter';
import { TraceWriter } from '../core/export/traceWriter';
import { writeStandaloneHtml } from '../timeline/node/standaloneHtml';
import { describeOptions } from '../core/sequencer/sequencingOptions';
import { InputError } from '../core/util/inputError';
import { maxEmbeddedRecords } from './settings';
import { log } from './log';
import { Session } from './session';
import { exportComparison } from './exportComparison';

export type ExportFormat = TraceFormat | 'html';

export interface ExportRequest {
  format?: ExportFormat;
  /** Target file; asked for when absent. */
  path?: string;
}

const FORMATS: { format: ExportFormat; label: string; detail: string; ext: string; filter: Record<string, string[]> }[] = [
  { format: 'jsonl', label: 'JSON Lines', detail: 'One event per line; SeqScope opens it again', ext: 'jsonl', filter: { 'JSON Lines': ['jsonl'] } },
  { format: 'csv', label: 'CSV', detail: 'One row per event, for spreadsheets', ext: 'csv', filter: { CSV: ['csv'] } },
  {
    format: 'chrome-trace',
    label: 'Chrome trace',
    detail: 'Opens in Perfetto (ui.perfetto.dev) and chrome://tracing',
    ext: 'json',
    filter: { 'Trace JSON': ['json'] },
  },
  { format: 'parquet', label: 'Parquet', detail: 'Typed columns for DuckDB, BigQuery, pandas and Spark', ext: 'parquet', filter: { Parquet: ['parquet'] } },
  { format: 'html', label: 'Standalone HTML', detail: 'The timeline in one file that opens in any browser', ext: 'html', filter: { HTML: ['html'] } },
];

type Progress = vscode.Progress<{ message?: string; increment?: number }>;
type Exporter = (session: Session, target: string, token: vscode.CancellationToken, extensionUri: vscode.Uri, progress: Progress) => Promise<void>;

/** Reports a fraction done (0…1) to a progress notification, which takes increments. */
function percentReporter(progress: Progress): (fraction: number) => void {
  let reported = 0;
  return (fraction) => {
    const pct = Math.min(100, Math.max(reported, fraction * 100));
    if (pct > reported) progress.report({ increment: pct - reported });
    reported = pct;
  };
}

/** The standalone HTML timeline: the webview bundle and the session (filtered) in one file. */
const exportHtml: Exporter = async (session, target, token, extensionUri, progress) => {
  // Cancel stops it: a large session's page takes seconds to write (and the file at `target`
  // stays as it was).
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    await writeStandaloneHtml(session.data, target, {
      title: session.title,
      options: describeOptions(session.options),
      seqBits: session.options.seqBits,
      payload: session.options.payload,
      bundleDir: vscode.Uri.joinPath(extensionUri, 'dist').fsPath,
      cssPath: vscode.Uri.joinPath(extensionUri, 'media', 'timeline.css').fsPath,
      filter: session.timeline.eventFilter,
      maxEmbeddedRecords: maxEmbeddedRecords(),
      schemas: session.options.schemas,
      readRecord: (a) => session.files.read(a),
      id: session.id,
      keyOrder: session.keyOrder,
      signal: abort.signal,
      onProgress: percentReporter(progress),
    });
  } catch (e) {
    if (abort.signal.aborted) throw new vscode.CancellationError();
    throw e;
  } finally {
    sub.dispose();
  }
};

/** Formats that are not trace formats. */
const extraExporters: Partial<Record<ExportFormat, Exporter>> = { html: exportHtml };

/**
 * Exports a session's ordered trace, respecting its filter. Trace formats re-run the replay
 * streaming into the file (the session keeps no records); progress is shown and cancellable.
 * Returns the written path, or undefined when the user backed out.
 */
export async function exportTrace(session: Session, extensionUri: vscode.Uri, req: ExportRequest = {}): Promise<string | undefined> {
  // A comparison exports its rows (key, number, in A, in B, arrivals, Δt, messageIds).
  if (session.comparison) return exportComparison(session, session.comparison, req);
  let format = req.format;
  if (!format) {
    const pick = await vscode.window.showQuickPick(
      FORMATS.map((f) => ({ label: f.label, detail: f.detail, format: f.format })),
      { title: `Export ${session.title}${session.filterActive ? ` (filter: ${describeFilter(session.filter)})` : ''}`, placeHolder: 'Format' },
    );
    if (!pick) return undefined;
    format = pick.format;
  }
  const spec = FORMATS.find((f) => f.format === format);
  if (!spec) throw new InputError(`export format "${format}" is unknown: use ${FORMATS.map((f) => f.format).join(', ')}`);
  let target = req.path;
  if (!target) {
    // Beside the file the user opened (not a gzip capture's decompressed copy), named after it;
    // for the bundled sample, in the workspace (else the home folder), not in the extension's
    // own folder, which an update replaces.
    const first = session.sourcePaths[0];
    const base = path
      .basename(first)
      .replace(/\.gz$/i, '')
      .replace(/\.(jsonl|json)$/i, '');
    const dir = isInside(first, extensionUri.fsPath) ? (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir()) : path.dirname(first);
    const uri = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(dir, `${base}.ordered.${spec.ext}`)),
      filters: spec.filter,
      title: `Export ordered trace as ${spec.label}`,
    });
    if (!uri) return undefined;
    target = uri.fsPath;
  }
  if (inputOverwrittenBy(target, [...session.data.paths, ...session.sourcePaths]) !== undefined) {
    throw new InputError(`exporting to ${target} would overwrite the capture being read: choose another file`);
  }
  const out = target;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SeqScope: exporting ${path.basename(out)}`, cancellable: true },
    async (progress, token) => {
      const extra = extraExporters[spec.format];
      if (extra) return extra(session, out, token, extensionUri, progress);
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const report = percentReporter(progress);
      try {
        const writer = await TraceWriter.open(out, spec.format as TraceFormat, session.keyOrder, { mdp3: session.options.payload === 'mdp3' });
        const { cancelled } = await runReplay({
          paths: session.data.paths,
          options: session.options,
          writer,
          exportFilter: traceEventMatcher(session.filter),
          signal: abort.signal,
          // A cut-off trace would look complete to whoever opens it; the file at `out`, if any,
          // stays as it was.
          onCancel: 'discard trace',
          onProgress: (read, total) => report(total ? read / total : 1),
        });
        if (cancelled) throw new vscode.CancellationError();
      } finally {
        sub.dispose();
      }
    },
  );
  log().info(`exported ${session.title} as ${spec.label} to ${out}${session.filterActive ? ` (filter: ${describeFilter(session.filter)})` : ''}`);
  return out;
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
