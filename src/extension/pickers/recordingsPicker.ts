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

/** "Recordings…": the list, or, with none yet, a way to start a live session that records. */
export async function showRecordings(place: RecordingsPlace): Promise<RecordingsResult> {
  const list = await listRecordings(place.folders());
  if (!list.length) {
    const pick = await vscode.window.showInformationMessage(
      `SeqScope: no recordings yet in ${place.folders()[0]}. Live sessions record there: tap a topic or attach to a subscription.`,
      'Tap Topic…',
    );
    if (pick === 'Tap Topic…') void runCommand('seqscope.pubsub.tapTopic');
    return { deleted: [] };
  }
  return new RecordingsQuickPick(place, list).run();
}

/** The open Recordings picker: its list, what was deleted from it, and a deletion under way. */
class RecordingsQuickPick {
  private readonly picker = vscode.window.createQuickPick<RecordingItem>();
  private readonly deleted: string[] = [];
  private hidden = false;
  /** A deletion under way: the picker, if closed meanwhile, reports once it is done. */
  private removing: Promise<void> = Promise.resolve();

  constructor(
    private readonly place: RecordingsPlace,
    private list: RecordingFile[],
  ) {
    const picker = this.picker;
    picker.placeholder = 'Pick a recording to open it as a capture';
    picker.matchOnDescription = true;
    picker.matchOnDetail = true;
    picker.buttons = [OPEN_FOLDER, DELETE_UNUSED];
  }

  /** Shows the picker; resolves when it closes, after the recording picked (if any) is opened. */
  run(): Promise<RecordingsResult> {
    const picker = this.picker;
    this.show(this.list);
    return new Promise<RecordingsResult>((done) => {
      let opened: string | undefined;
      /** Event handlers' failures (a folder gone unreadable, a dialog refused) reach the user. */
      const reported =
        <A>(fn: (a: A) => Promise<void>) =>
        (a: A): void =>
          void fn(a).catch((e) => reportError('Recordings', e));
      picker.onDidTriggerItemButton(reported((e: vscode.QuickPickItemButtonEvent<RecordingItem>) => this.onItemButton(e)));
      picker.onDidTriggerButton(reported((button: vscode.QuickInputButton) => this.onButton(button)));
      picker.onDidAccept(() => {
        const item = picker.selectedItems[0];
        if (!item) return;
        opened = item.recording.path;
        picker.hide();
      });
      picker.onDidHide(async () => {
        this.hidden = true;
        await this.removing.catch(() => undefined); // reported where it failed
        picker.dispose();
        // Opened after the picker is gone: Open Capture asks for the options with a picker of its
        // own. Its failures are reported by its own command wrapper.
        if (opened) await Promise.resolve(runCommand('seqscope.capture.open', vscode.Uri.file(opened))).catch(() => undefined);
        done({ ...(opened ? { opened } : {}), deleted: this.deleted });
      });
      picker.show();
    });
  }

  private itemsOf(files: readonly RecordingFile[]): RecordingItem[] {
    const now = this.place.recordingNow();
    const open = this.place.openInSessions();
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
  }

  private show(files: readonly RecordingFile[]): void {
    const total = files.reduce((n, f) => n + f.bytes, 0);
    this.picker.title = `SeqScope Recordings: ${files.length} ${noun(files.length, 'file')}, ${formatBytes(total)}`;
    this.picker.items = this.itemsOf(files);
  }

  private async refresh(): Promise<void> {
    this.picker.busy = true;
    try {
      this.list = await listRecordings(this.place.folders());
      this.show(this.list);
    } finally {
      this.picker.busy = false;
    }
  }

  /** A row's buttons: reveal it, or delete it when not in use. */
  private async onItemButton({ item, button }: vscode.QuickPickItemButtonEvent<RecordingItem>): Promise<void> {
    if (button === REVEAL) await reveal(item.recording.path);
    else if (button === DELETE && !item.inUse)
      await this.remove([item.recording], `Delete the recording ${item.recording.name} (${formatBytes(item.recording.bytes)})?`);
  }

  /** The title's buttons: open the folder, or delete every recording not in use. */
  private async onButton(button: vscode.QuickInputButton): Promise<void> {
    if (button === OPEN_FOLDER) {
      // The file manager opens a folder by one of its files, selected (the folder recorded
      // into now may not exist yet); elsewhere the folder's path is copied.
      const folder = this.place.folders()[0];
      await reveal(canRevealInOS() ? (this.list.find((f) => dirname(f.path) === folder) ?? this.list[0]).path : folder);
      return;
    }
    if (button !== DELETE_UNUSED) return;
    const unused = this.itemsOf(this.list)
      .filter((i) => !i.inUse)
      .map((i) => i.recording);
    if (!unused.length) {
      void vscode.window.showInformationMessage('SeqScope: every recording listed is in use (recording now, or open in a session).');
      return;
    }
    const kept = this.list.length - unused.length;
    const bytes = unused.reduce((n, f) => n + f.bytes, 0);
    await this.remove(
      unused,
      `Delete ${unused.length} ${noun(unused.length, 'recording')} (${formatBytes(bytes)})?${kept ? ` ${kept} in use ${kept === 1 ? 'stays' : 'stay'}.` : ''}`,
    );
  }

  /** Deletes after the user confirms in a modal dialog; the picker stays open behind it. */
  private remove(files: readonly RecordingFile[], question: string): Promise<void> {
    this.removing = this.removeConfirmed(files, question);
    return this.removing;
  }

  private async removeConfirmed(files: readonly RecordingFile[], question: string): Promise<void> {
    this.picker.ignoreFocusOut = true;
    try {
      const answer = await vscode.window.showWarningMessage(question, { modal: true, detail: 'This cannot be undone.' }, 'Delete');
      if (answer !== 'Delete') return;
      const failed: string[] = [];
      for (const f of files) {
        try {
          await rm(f.path, { force: true });
          this.deleted.push(f.path);
        } catch (e) {
          failed.push(`${f.name}: ${(e as Error).message}`);
        }
      }
      if (failed.length)
        void vscode.window.showErrorMessage(
          `SeqScope: could not delete ${failed.join('; ')}. Check the folder's permissions, or reveal it and delete by hand.`,
        );
      await this.refresh();
    } finally {
      this.picker.ignoreFocusOut = false;
      if (!this.hidden) this.picker.show();
    }
  }
}
