/**
 * **SeqScope: Recordings…** — the live sessions' recordings, newest first, with their sizes: open
 * one as a capture, reveal it, delete it, or delete every one not in use. Live sessions record
 * into the extension's global storage unless told otherwise, a folder users never see, and a tap
 * on a busy topic writes gigabytes an hour: this is where they find (and free) that space.
 */
import * as vscode from 'vscode';
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { formatBytes } from '../../core/util/byteSize';
import { noun } from '../../core/util/plural';
import { formatAge, listRecordings, RecordingFile } from '../../core/capture/recordings';
import { reportError } from '../errors';
import { runCommand } from '../commands/registry';

/** Where recordings are, and which are in use. */
export interface RecordingsPlace {
  /** The folder live sessions record into now, then any other that may hold older recordings. */
  folders(): string[];
  /** Recordings that a live session is writing (they cannot be deleted). */
  recordingNow(): ReadonlySet<string>;
  /** Files that open sessions read records from (deleting one would break its detail views). */
  openInSessions(): ReadonlySet<string>;
}

/** What the picker did, for automation and tests. */
export interface RecordingsResult {
  readonly opened?: string;
  readonly deleted: readonly string[];
}

interface RecordingItem extends vscode.QuickPickItem {
  readonly recording: RecordingFile;
  readonly inUse: boolean;
}

/**
 * The OS's file manager is on this machine only in desktop VS Code without a remote; in a browser
 * (code-server, vscode.dev) or over Remote SSH the recording is on another machine, so its path
 * is copied instead.
 */
export function canRevealInOS(): boolean {
  return vscode.env.uiKind === vscode.UIKind.Desktop && !vscode.env.remoteName;
}

const REVEAL: vscode.QuickInputButton = canRevealInOS()
  ? { iconPath: new vscode.ThemeIcon('folder-opened'), tooltip: 'Reveal in File Explorer' }
  : { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy Path' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete…' };
const OPEN_FOLDER: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('folder'),
  tooltip: canRevealInOS() ? 'Open the Recordings Folder' : 'Copy the Recordings Folder Path',
};
const DELETE_UNUSED: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('clear-all'), tooltip: 'Delete Every Recording Not in Use…' };

async function reveal(path: string): Promise<void> {
  if (canRevealInOS()) {
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(path));
    return;
  }
  await vscode.env.clipboard.writeText(path);
  vscode.window.setStatusBarMessage(`SeqScope: copied ${path}`, 5000);
}

export async function showRecordings(place: RecordingsPlace): Promise<RecordingsResult> {
  const deleted: string[] = [];
  let list = await listRecordings(place.folders());
  if (!list.length) {
    const pick = await vscode.window.showInformationMessage(
      `SeqScope: no recordings yet in ${place.folders()[0]}. Live sessions record there: tap a topic or attach to a subscription.`,
      'Tap Topic…',
    );
    if (pick === 'Tap Topic…') void runCommand('seqscope.pubsub.tapTopic');
    return { deleted };
  }

  const picker = vscode.window.createQuickPick<RecordingItem>();
  picker.placeholder = 'Pick a recording to open it as a capture';
  picker.matchOnDescription = true;
  picker.matchOnDetail = true;
  picker.buttons = [OPEN_FOLDER, DELETE_UNUSED];
  const itemsOf = (files: readonly RecordingFile[]): RecordingItem[] => {
    const now = place.recordingNow();
    const open = place.openInSessions();
    const severalFolders = new Set(files.map((f) => dirname(f.path))).size > 1;
    const stamp = Date.now();
    return files.map((f) => {
      const live = now.has(resolve(f.path));
      const inSession = !live && open.has(resolve(f.path));
      const notes = [
        live ? 'recording now: detach to delete it' : inSession ? 'open in a session: close it to delete it' : '',
        severalFolders ? dirname(f.path) : '',
      ].filter(Boolean);
      return {
        label: `$(${live ? 'record' : 'file'}) ${f.name}`,
        description: `${formatBytes(f.bytes)} · ${formatAge(f.modifiedMs, stamp)}`,
        ...(notes.length ? { detail: notes.join(' · ') } : {}),
        buttons: live || inSession ? [REVEAL] : [REVEAL, DELETE],
        recording: f,
        inUse: live || inSession,
      };
    });
  };
  const show = (files: readonly RecordingFile[]) => {
    const total = files.reduce((n, f) => n + f.bytes, 0);
    picker.title = `SeqScope Recordings: ${files.length} ${noun(files.length, 'file')}, ${formatBytes(total)}`;
    picker.items = itemsOf(files);
  };
  const refresh = async () => {
    picker.busy = true;
    try {
      list = await listRecordings(place.folders());
      show(list);
    } finally {
      picker.busy = false;
    }
  };
  let hidden = false;
  /** A deletion under way: the picker, if closed meanwhile, reports once it is done. */
  let removing: Promise<void> = Promise.resolve();
  /** Deletes after the user confirms in a modal dialog; the picker stays open behind it. */
  const remove = (files: readonly RecordingFile[], question: string): Promise<void> => (removing = removeConfirmed(files, question));
  const removeConfirmed = async (files: readonly RecordingFile[], question: string): Promise<void> => {
    picker.ignoreFocusOut = true;
    try {
      const answer = await vscode.window.showWarningMessage(question, { modal: true, detail: 'This cannot be undone.' }, 'Delete');
      if (answer !== 'Delete') return;
      const failed: string[] = [];
      for (const f of files) {
        try {
          await rm(f.path, { force: true });
          deleted.push(f.path);
        } catch (e) {
          failed.push(`${f.name}: ${(e as Error).message}`);
        }
      }
      if (failed.length)
        void vscode.window.showErrorMessage(
          `SeqScope: could not delete ${failed.join('; ')}. Check the folder's permissions, or reveal it and delete by hand.`,
        );
      await refresh();
    } finally {
      picker.ignoreFocusOut = false;
      if (!hidden) picker.show();
    }
  };

  show(list);
  return new Promise<RecordingsResult>((done) => {
    let opened: string | undefined;
    /** Event handlers' failures (a folder gone unreadable, a dialog refused) reach the user. */
    const reported =
      <A>(fn: (a: A) => Promise<void>) =>
      (a: A): void =>
        void fn(a).catch((e) => reportError('Recordings', e));
    picker.onDidTriggerItemButton(
      reported(async ({ item, button }: vscode.QuickPickItemButtonEvent<RecordingItem>) => {
        if (button === REVEAL) await reveal(item.recording.path);
        else if (button === DELETE && !item.inUse)
          await remove([item.recording], `Delete the recording ${item.recording.name} (${formatBytes(item.recording.bytes)})?`);
      }),
    );
    picker.onDidTriggerButton(
      reported(async (button: vscode.QuickInputButton) => {
        if (button === OPEN_FOLDER) {
          // The file manager opens a folder by one of its files, selected (the folder recorded
          // into now may not exist yet); elsewhere the folder's path is copied.
          const folder = place.folders()[0];
          await reveal(canRevealInOS() ? (list.find((f) => dirname(f.path) === folder) ?? list[0]).path : folder);
          return;
        }
        if (button !== DELETE_UNUSED) return;
        const unused = itemsOf(list)
          .filter((i) => !i.inUse)
          .map((i) => i.recording);
        if (!unused.length) {
          void vscode.window.showInformationMessage('SeqScope: every recording listed is in use (recording now, or open in a session).');
          return;
        }
        const kept = list.length - unused.length;
        const bytes = unused.reduce((n, f) => n + f.bytes, 0);
        await remove(
          unused,
          `Delete ${unused.length} ${noun(unused.length, 'recording')} (${formatBytes(bytes)})?${kept ? ` ${kept} in use ${kept === 1 ? 'stays' : 'stay'}.` : ''}`,
        );
      }),
    );
    picker.onDidAccept(() => {
      const item = picker.selectedItems[0];
      if (!item) return;
      opened = item.recording.path;
      picker.hide();
    });
    picker.onDidHide(async () => {
      hidden = true;
      await removing.catch(() => undefined); // reported where it failed
      picker.dispose();
      // Opened after the picker is gone: Open Capture asks for the options with a picker of its
      // own. Its failures are reported by its own command wrapper.
      if (opened) await Promise.resolve(runCommand('seqscope.openCapture', vscode.Uri.file(opened))).catch(() => undefined);
      done({ ...(opened ? { opened } : {}), deleted });
    });
    picker.show();
  });
}
