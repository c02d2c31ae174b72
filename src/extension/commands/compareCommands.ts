/**
 * Compare with…: two captures of one stream as a session of their own (see
 * timeline/node/loadComparison.ts) — per key an A lane, a B lane and the merged lane, what each
 * side missed in the tree — opened from a session, which is side A.
 */
import * as vscode from 'vscode';
import { repeatedInput, repeatedInputMessage } from '../../core/capture/fileIdentity';
import { sideLabel } from '../../core/inspect/compareInspection';
import { InputError } from '../../core/util/inputError';
import { comparisonNotes, totalsLine } from '../../timeline/comparisonWords';
import { openTargets } from '../openTargets';
import { CompareTarget, pickCompareTarget } from '../pickers/comparePicker';
import { Session } from '../session';
import { showTimelineOnOpen } from '../settings';
import { CommandContext, OpenResult, sessionFrom } from './context';
import { Handlers } from './registry';
import { SessionViews } from './sessionViews';

export function compareCommands(ctx: CommandContext, views: SessionViews): Handlers<'seqscope.session.compareWith'> {
  return {
    // Automation passes side B as a session id, a file's Uri or several; what a menu passes besides is no side B.
    'seqscope.session.compareWith': (arg?: unknown, other?: unknown) => compareWith(ctx, views, arg, sideBGiven(other)),
  };
}

/** The files a session stands for as a side: its captures, or a live session's recording so far. */
function sidePaths(s: Session, side: 'A' | 'B'): readonly string[] {
  if (s.comparison) throw new InputError(`${s.title} is a comparison already: compare one of its captures' sessions instead (side ${side})`);
  if (!s.live) return s.sourcePaths;
  if (s.live.recording) return [s.live.recording];
  throw new InputError(`${s.title} records to no file, so there is nothing to compare as side ${side}: attach with a recording, or compare a capture`);
}

function sideBGiven(other: unknown): string | vscode.Uri | vscode.Uri[] | undefined {
  if (typeof other === 'string' || other instanceof vscode.Uri) return other;
  return Array.isArray(other) && other.length > 0 && other.every((u) => u instanceof vscode.Uri) ? other : undefined;
}

function targetFrom(ctx: CommandContext, other: string | vscode.Uri | vscode.Uri[]): CompareTarget {
  if (typeof other !== 'string') return { files: Array.isArray(other) ? other : [other] };
  const session = ctx.manager.get(other);
  if (!session) throw new InputError(`no open session has the id ${JSON.stringify(other)}: pick side B from the list instead`);
  return { session };
}

async function compareWith(
  ctx: CommandContext,
  views: SessionViews,
  arg: unknown,
  other?: string | vscode.Uri | vscode.Uri[],
): Promise<OpenResult | undefined> {
  const { manager } = ctx;
  const a = sessionFrom(manager, arg);
  const aPaths = sidePaths(a, 'A');
  const automated = other !== undefined;
  const target = automated
    ? targetFrom(ctx, other)
    : await pickCompareTarget(
        a,
        manager.all.filter((s) => !s.comparison && (!s.live || s.live.recording)),
      );
  if (!target) return undefined;
  const bPaths = 'session' in target ? sidePaths(target.session, 'B') : (await openTargets(target.files)).paths;
  // One capture on both sides is allowed (everything on both sides); twice on one side is not.
  const repeated = repeatedInput(bPaths);
  if (repeated) throw new InputError(`side B: ${repeatedInputMessage(repeated, 'name each capture once')}`);
  const labels = [sideLabel(aPaths), sideLabel(bPaths)] as const;
  const title = `${labels[0]} ⇄ ${labels[1]}`;
  const loading = !automated && showTimelineOnOpen() ? views.showLoading(title) : undefined;
  let s: Session | undefined;
  try {
    s = await manager.open([...aPaths, ...bPaths], a.options, loading && { progress: (fraction, detail) => loading.loadingProgress(fraction, detail) }, {
      inputFormat: a.inputFormat,
      title,
      compare: { firstB: aPaths.length, labels },
    });
  } finally {
    loading?.finishLoading(s);
  }
  if (!s) return undefined;
  await views.revealInSessionsView(s);
  sayComparison(s);
  return { id: s.id, title: s.title };
}

/** The comparison just opened, said once: its totals; a warning when the sides share no key; the clocks. */
function sayComparison(s: Session): void {
  const f = s.comparison!;
  const notes = comparisonNotes(f);
  const text = `SeqScope: ${s.title}: ${totalsLine(f)}.${notes.map((n) => ` Note: ${n}.`).join('')}`;
  if (f.comparison.sharedKeys === 0) void vscode.window.showWarningMessage(text);
  else if (notes.length) void vscode.window.showInformationMessage(text);
  else vscode.window.setStatusBarMessage(text, 8000);
}
