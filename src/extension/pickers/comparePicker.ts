/** Compare with…: the other side of a comparison — an open session, or capture files. */
import * as vscode from 'vscode';
import type { Session } from '../session';
import { CAPTURE_FILTERS } from './captureFiles';

export type CompareTarget = { readonly session: Session } | { readonly files: readonly vscode.Uri[] };

/**
 * Asks for side B, `a` being side A: one of `sessions` (`a` among them: compared with itself,
 * everything is on both sides), or files from the open dialog. Undefined when the user backs out.
 */
export async function pickCompareTarget(a: Session, sessions: readonly Session[]): Promise<CompareTarget | undefined> {
  type Item = vscode.QuickPickItem & { target?: Session };
  const items: Item[] = sessions.map((s) => ({
    label: `$(file) ${s.title}`,
    description: s === a ? 'itself: everything on both sides' : s.data.summary.options,
    target: s,
  }));
  items.push({ label: '$(folder-opened) Choose Capture Files…', description: 'files not open yet; several are merged by their clock', alwaysShow: true });
  const pick = await vscode.window.showQuickPick(items, {
    title: `Compare ${a.title} (A) with… (B)`,
    placeHolder: 'Side B: an open session or capture files, sequenced as side A is',
  });
  if (!pick) return undefined;
  if (pick.target) return { session: pick.target };
  const files = await vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFiles: true,
    filters: CAPTURE_FILTERS,
    title: `Side B: compare ${a.title} with`,
    openLabel: 'Compare',
  });
  return files?.length ? { files } : undefined;
}
