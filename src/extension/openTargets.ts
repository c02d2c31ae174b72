/**
 * What Open Capture… was given, as files to load: a folder stands for the files in it (a Cloud
 * Storage subscription writes one file per batch, so an archive is a folder of them), as in the
 * CLI; several files, or a folder's, merge by publish time into one session.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { expandCapturePaths } from '../core/capture/capturePaths';
import type { InputFormat } from '../core/capture/captureReader';
import type { OptionText } from '../core/sequencer/sequencingOptions';
import { InputError } from '../core/util/inputError';
import { captureTitle } from '../timeline/captureSession';
import { decompressedName } from './compressedCaptures';

export interface OpenTargets {
  /** The capture files, a folder's in name order. */
  readonly paths: string[];
  /** The session's title: a folder's name, else the files' names (a gzip capture's without .gz). */
  readonly title: string;
  /** Set when the title is not the one the files' names make (a folder). */
  readonly folderTitle?: string;
}

export async function openTargets(uris: readonly vscode.Uri[]): Promise<OpenTargets> {
  const named = uris.map((u) => u.fsPath);
  const paths = await expandCapturePaths(named);
  const folder = named.length === 1 && (await stat(named[0]).catch(() => undefined))?.isDirectory() ? basename(named[0]) : undefined;
  return { paths, title: folder ?? captureTitle(paths.map(decompressedName), false), folderTitle: folder };
}

/**
 * Whether the open dialog can take files and folders at once. The native dialogs of Windows and
 * Linux cannot (asked for both, they show a folder picker): there, a folder is opened from the
 * Explorer's context menu, or by selecting its files. VS Code's own dialog (remote windows, the
 * web, `files.simpleDialog.enable`) and macOS's can.
 */
export function dialogTakesFolders(): boolean {
  return (
    process.platform === 'darwin' ||
    vscode.env.remoteName !== undefined ||
    vscode.env.uiKind === vscode.UIKind.Web ||
    vscode.workspace.getConfiguration('files').get<boolean>('simpleDialog.enable', false)
  );
}

/** Option text as automation passes it (`executeCommand('seqscope.capture.open', uri, text)`), split from the input format. */
export function splitInputFormat(text: OptionText & { inputFormat?: InputFormat }): { text: OptionText; inputFormat?: InputFormat } {
  const { inputFormat, ...rest } = text;
  if (inputFormat !== undefined && inputFormat !== 'auto' && inputFormat !== 'text')
    throw new InputError(`the option inputFormat ${JSON.stringify(inputFormat)} is not valid: pass "auto" (Pub/Sub messages) or "text" (bare payloads)`);
  return { text: rest, inputFormat: inputFormat === 'text' ? 'text' : undefined };
}

/** What to do then, in the editor's words. */
export const BARE_PAYLOADS_FIX =
  "if these are bare payloads (a Cloud Storage subscription's text archive), open it again and pick Text archive (bare payloads) in the options";
