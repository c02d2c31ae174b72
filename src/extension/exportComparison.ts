/**
 * Export of a comparison session: the rows of `seqscope compare --export` — one per key and
 * number (key, number, in A, in B, first arrival in A and in B, Δt, messageIds), a run both lost
 * as one row — as JSON Lines or CSV. The comparison runs again over the sides' files, streaming
 * the rows into the file (the session keeps none); cancelling leaves the target as it was.
 */
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import * as vscode from 'vscode';
import { inputOverwrittenBy } from '../core/capture/fileIdentity';
import { CompareExport } from '../core/compare/compareExport';
import { runCompare } from '../core/compare/compareRun';
import { InputError } from '../core/util/inputError';
import type { ComparisonFacts } from '../timeline/compareLanes';
import { log } from './log';
import type { Session } from './session';

const FORMATS = [
  {
    format: 'jsonl',
    label: 'JSON Lines',
    detail: 'One row per key and number: key, seq, inA, inB, arrivedA, arrivedB, deltaMs, messageIdA, messageIdB',
    ext: 'jsonl',
  },
  { format: 'csv', label: 'CSV', detail: 'The same rows, for spreadsheets', ext: 'csv' },
] as const;

export type ComparisonFormat = (typeof FORMATS)[number]['format'];

/** Exports a comparison's rows; returns the written path, or undefined when the user backed out. */
export async function exportComparison(session: Session, facts: ComparisonFacts, req: { format?: string; path?: string } = {}): Promise<string | undefined> {
  let format = req.format;
  if (!format) {
    const pick = await vscode.window.showQuickPick(
      FORMATS.map((f) => ({ label: f.label, detail: f.detail, format: f.format })),
      { title: `Export the comparison ${session.title} (A: ${facts.labels[0]}, B: ${facts.labels[1]})`, placeHolder: 'Format' },
    );
    if (!pick) return undefined;
    format = pick.format;
  }
  const spec = FORMATS.find((f) => f.format === format);
  if (!spec) throw new InputError(`a comparison exports as ${FORMATS.map((f) => f.format).join(' or ')}, not "${format}": choose one of them`);
  let target = req.path;
  if (!target) {
    const first = session.sourcePaths[0];
    const uri = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(path.dirname(first), `${comparisonBase(facts)}.compare.${spec.ext}`)),
      filters: spec.format === 'csv' ? { CSV: ['csv'] } : { 'JSON Lines': ['jsonl'] },
      title: `Export the comparison's rows as ${spec.label}`,
    });
    if (!uri) return undefined;
    target = uri.fsPath;
  }
  // The file's name says the format (CompareExport tells it by name): a .csv target writes CSV.
  if ((spec.format === 'csv') !== /\.csv$/i.test(target)) target += `.${spec.ext}`;
  if (inputOverwrittenBy(target, [...session.data.paths, ...session.sourcePaths]) !== undefined)
    throw new InputError(`exporting to ${target} would overwrite a capture being compared: choose another file`);
  const rows = await writeRows(session, facts, target);
  log().info(`exported the comparison ${session.title} (${rows} rows) to ${target}`);
  return target;
}

/** "a ⇄ b" as a file name's stem. */
function comparisonBase(f: ComparisonFacts): string {
  const stem = (label: string) => label.replace(/\.gz$/i, '').replace(/\.(jsonl|json|avro)$/i, '');
  return `${stem(f.labels[0])}-vs-${stem(f.labels[1])}`.replace(/[\\/:*?"<>|\s]+/g, '_');
}

async function writeRows(session: Session, facts: ComparisonFacts, target: string): Promise<number> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SeqScope: exporting ${path.basename(target)}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      // Never "-": nothing goes to this stand-in for standard output.
      const out = await CompareExport.open(target, new PassThrough());
      let reported = 0;
      try {
        const r = await runCompare({
          a: { paths: facts.paths[0] },
          b: { paths: facts.paths[1] },
          options: session.options,
          inputFormat: session.inputFormat,
          signal: abort.signal,
          rows: out,
          onProgress: (read, total) => {
            const pct = total ? (read / total) * 100 : 100;
            if (pct > reported) progress.report({ increment: pct - reported });
            reported = Math.max(reported, pct);
          },
        });
        if (r.cancelled) throw new vscode.CancellationError();
        await out.close();
        return out.rows;
      } catch (e) {
        await out.discard();
        throw e;
      } finally {
        sub.dispose();
      }
    },
  );
}
