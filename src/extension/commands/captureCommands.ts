/** Opening captures (files, the bundled sample) and exporting a session's trace. */
import * as vscode from 'vscode';
import { CaptureError } from '../../core/capture/captureReader';
import { repeatedInput, repeatedInputMessage } from '../../core/capture/fileIdentity';
import { OptionText, resolveOptions, SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { dialogTakesFolders, openTargets, splitInputFormat } from '../openTargets';
import { exportTrace, ExportRequest } from '../exportTrace';
import { CAPTURE_FILTERS } from '../pickers/captureFiles';
import { pickOptions } from '../pickers/optionsPicker';
import { Session } from '../session';
import { withSchemasFromSettings } from '../schemaSettings';
import { optionsFromSettings, showTimelineOnOpen } from '../settings';
import { CommandContext, OpenResult, sessionFrom } from './context';
import { Handlers } from './registry';
import { SessionViews } from './sessionViews';

export function captureCommands(
  ctx: CommandContext,
  views: SessionViews,
): Handlers<'seqscope.capture.open' | 'seqscope.capture.openSample' | 'seqscope.capture.openOrderingSample' | 'seqscope.session.exportTrace'> {
  const { manager } = ctx;
  return {
    'seqscope.capture.open': (arg?: vscode.Uri | vscode.Uri[], second?: vscode.Uri[] | OptionText) => openCapture(ctx, views, arg, second),

    'seqscope.capture.openSample': () => openSample('cme-sample.jsonl', resolveOptions({ preset: 'cme' })),
    // Ordering keys without numbers: judged by publish order, the default.
    'seqscope.capture.openOrderingSample': () => openSample('orders-sample.jsonl', resolveOptions({})),

    'seqscope.session.exportTrace': (arg?: unknown, req?: ExportRequest) => exportTrace(sessionFrom(manager, arg), ctx.extensionUri, req),
  };

  /** Opens a sample shipped in media/samples (or shows the session that has it open already). */
  async function openSample(file: string, options: SequencingOptions): Promise<OpenResult | undefined> {
    const sample = vscode.Uri.joinPath(ctx.extensionUri, 'media', 'samples', file);
    const same = manager.findSame([sample.fsPath], options);
    if (same) {
      await views.showOpenAlready(same, true);
      return { id: same.id, title: same.title } satisfies OpenResult;
    }
    const s = await manager.open([sample.fsPath], options);
    if (!s) return undefined;
    await views.revealSession(s);
    views.showTimeline(s);
    return { id: s.id, title: s.title } satisfies OpenResult;
  }
}

/**
 * "Open Capture…": the files given (Explorer passes (clicked, allSelected); automation passes
 * (uri | uri[], options)) or picked, sequenced as asked — or, open already and unchanged, shown.
 */
async function openCapture(
  { manager }: CommandContext,
  views: SessionViews,
  arg?: vscode.Uri | vscode.Uri[],
  second?: vscode.Uri[] | OptionText,
): Promise<OpenResult | undefined> {
  let uris: vscode.Uri[] | undefined;
  if (Array.isArray(second)) uris = second;
  else if (Array.isArray(arg)) uris = arg;
  else if (arg instanceof vscode.Uri) uris = [arg];
  const automated = second !== undefined && !Array.isArray(second);
  if (!uris?.length) uris = await askCaptureUris();
  if (!uris?.length) return undefined;
  // A folder stands for its files (an archive written in batches).
  const targets = await openTargets(uris);
  const paths = targets.paths;
  // A file and a link to it, selected together in the Explorer or the dialog: refused before
  // the options are asked, as the CLI refuses it.
  const repeated = repeatedInput(paths);
  if (repeated) throw new CaptureError(repeatedInputMessage(repeated, 'open each capture once'), repeated[1]);
  const auto = automated ? splitInputFormat(second as OptionText) : undefined;
  const picked = auto ? { options: optionsFromSettings(auto.text), inputFormat: auto.inputFormat } : await pickOptions('this capture', undefined, true);
  if (!picked) return undefined;
  const { inputFormat } = picked;
  const options = await withSchemasFromSettings(picked.options, paths[0]);
  // Open already, unchanged, sequenced alike: shown, not loaded a second time (two sessions
  // of one title would be told apart by nothing). A changed file — a recording that grew —
  // or other options open a session of their own.
  const same = manager.findSame(paths, options, inputFormat);
  if (same) {
    await views.showOpenAlready(same, !automated && showTimelineOnOpen());
    return { id: same.id, title: same.title } satisfies OpenResult;
  }
  // Interactive opens show the timeline at once: it starts up while the capture loads, under
  // the title the session will have (a gzip capture's is its name without .gz, a folder's its name).
  const title = targets.title;
  const loading = !automated && showTimelineOnOpen() ? views.showLoading(title) : undefined;
  let s: Session | undefined;
  try {
    s = await manager.open(
      paths,
      options,
      // The timeline shows the session from its first chunk on, growing until it is whole.
      loading && { progress: (fraction, detail) => loading.loadingProgress(fraction, detail), shown: (session) => loading.finishLoading(session) },
      { inputFormat, title: targets.folderTitle },
    );
  } finally {
    loading?.finishLoading(s);
  }
  if (!s) return undefined;
  await views.revealSession(s);
  return { id: s.id, title: s.title } satisfies OpenResult;
}

/** The open dialog: captures (several), or a folder of archive files where the dialog takes folders. */
async function askCaptureUris(): Promise<vscode.Uri[] | undefined> {
  const folders = dialogTakesFolders();
  return vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFiles: true,
    canSelectFolders: folders,
    filters: CAPTURE_FILTERS,
    title: `Open capture (several${folders ? ', or a folder of archive files,' : ''} are merged by their clock)`,
    openLabel: 'Open Capture',
  });
}
