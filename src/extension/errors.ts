import * as vscode from 'vscode';
import { CaptureError } from '../core/capture/captureReader';
import { sniffGzip } from '../core/capture/captureSource';
import { sniffAvro } from '../core/capture/avroArchive';
import { ExportError } from '../core/export/outputFile';
import { isInputError, isProgrammingError } from '../core/util/inputError';
import { redactSecrets } from '../core/util/secrets';
import type { CommandId } from './commands/commandIds';
import { CompressedCaptureError } from './compressedCaptures';
import { log } from './log';

/** This extension's id (publisher.name), for the issue reporter. */
const EXTENSION_ID = 'seqscope.seqscope';

/**
 * A command that acts on a session ran while there was none (or no live one). Not a bug and not
 * bad input: the user is told what the command needs and offered the commands that provide it.
 */
export class NoSessionError extends Error {
  override readonly name = 'NoSessionError';

  constructor(readonly live = false) {
    super(live ? 'no live session: attach to a subscription or tap a topic first' : 'no session is open: open a capture or attach to a subscription first');
  }
}

/** What a command without its session offers, by label: the command that provides one. */
const SESSION_PROVIDERS: Readonly<Record<string, CommandId>> = {
  'Open Capture…': 'seqscope.capture.open',
  'Open Sample Capture': 'seqscope.capture.openSample',
  'Attach to Subscription…': 'seqscope.pubsub.attach',
  'Tap Topic…': 'seqscope.pubsub.tapTopic',
};

/**
 * Wraps a command so that a failure is shown once — a notification with a next step, after
 * vscode-kafka's handleErrors — and the command resolves (to undefined). Never rethrown: VS Code
 * would follow the notification with its own "Command … resulted in an error".
 */
export function withErrorHandling<A extends unknown[]>(name: string, fn: (...args: A) => unknown): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      await reportError(name, e);
      return undefined;
    }
  };
}

/**
 * Shows `e` as one notification with a next step, by kind, and logs it: a capture problem offers
 * to open the file at the line (a damaged gzip capture: the command that decompresses what can be
 * read), the user's input offers the setting that fixes it, a Pub/Sub failure its next step, a
 * programming error (a RangeError from V8 or an invariant, a TypeError…) is a bug: "internal
 * error", with the log and the issue reporter. Resolves once the notification is shown; what the
 * user picks in it is handled without being waited for.
 */
export async function reportError(context: string, e: unknown): Promise<void> {
  if (e instanceof vscode.CancellationError) return;
  const err = e instanceof Error ? e : new Error(String(e));
  const showLog = (pick: string | undefined) => pick === 'Show Log' && log().show();
  if (isProgrammingError(e)) {
    log().error(redactSecrets(`internal error in ${context}: ${err.stack ?? err.message}`));
    show(
      `SeqScope: internal error in ${context}: ${err.message}. This is a bug in SeqScope; the log has the details.`,
      ['Show Log', 'Report Issue'],
      (pick) => {
        if (pick === 'Report Issue')
          return vscode.commands.executeCommand('workbench.action.openIssueReporter', {
            extensionId: EXTENSION_ID,
            issueTitle: `Internal error in ${context}: ${err.message}`,
            issueBody: `\`\`\`\n${err.stack ?? err.message}\n\`\`\`\n`,
          });
        return showLog(pick);
      },
    );
    return;
  }
  log().error(redactSecrets(`${context}: ${err.message}`));
  if (err.stack) log().debug(redactSecrets(err.stack));
  if (err instanceof NoSessionError) {
    const [what, next, actions] = err.live
      ? ['a live session', 'attach to a subscription or tap a topic first', ['Attach to Subscription…', 'Tap Topic…']]
      : ['an open session', 'open a capture or attach to a subscription first', ['Open Capture…', 'Open Sample Capture']];
    show(
      `SeqScope: "${context}" needs ${what}: ${next}.`,
      actions,
      (pick) => pick && SESSION_PROVIDERS[pick] && vscode.commands.executeCommand(SESSION_PROVIDERS[pick]),
    );
    return;
  }
  if (err instanceof CaptureError) {
    // The editor cannot show a gzip capture's lines (the core reads them decompressed), nor Avro's.
    const binary = (await sniffGzip(err.path).catch(() => false)) || (await sniffAvro(err.path).catch(() => false));
    const actions = binary ? [] : ['Open File'];
    show(`SeqScope: ${err.message}`, actions, (pick) => pick === 'Open File' && openAt(err.path, err.line));
    return;
  }
  if (err instanceof CompressedCaptureError) {
    // Not "Open File": the editor cannot show gzip data. The command gets what can be read.
    show(`SeqScope: ${err.message}. ${err.nextStep}.`, [...(err.command ? ['Copy Command'] : []), 'Show Log'], async (pick) => {
      if (pick === 'Copy Command' && err.command) {
        await vscode.env.clipboard.writeText(err.command);
        vscode.window.setStatusBarMessage(`SeqScope: copied ${err.command}`, 5000);
      } else showLog(pick);
    });
    return;
  }
  if (err instanceof ExportError) {
    show(`SeqScope: ${err.message}. Next: ${err.nextStep}.`, [], () => undefined);
    return;
  }
  // From the separately bundled Pub/Sub layer (dist/pubsub.js): matched by name, not class.
  if (err.name === 'PubsubError') {
    const { kind, nextStep } = err as Error & { kind: string; nextStep: string };
    const settingsFix = ['no-project', 'emulator-down', 'invalid-name', 'unauthenticated'].includes(kind);
    show(`SeqScope: ${err.message}. Next: ${nextStep}.`, [...(settingsFix ? ['Open Settings'] : []), 'Show Log'], (pick) => {
      if (pick === 'Open Settings') return vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope.pubsub');
      return showLog(pick);
    });
    return;
  }
  if (isInputError(err)) {
    // The setting that fixes it, named and offered; input typed into a command has none.
    const setting = err.fix.setting;
    const named = setting && !err.message.includes(setting) ? ` (setting ${setting})` : '';
    show(
      `SeqScope: ${err.message}${named}`,
      setting ? ['Open Settings'] : [],
      (pick) => pick === 'Open Settings' && vscode.commands.executeCommand('workbench.action.openSettings', setting),
    );
    return;
  }
  show(`SeqScope: ${context} failed: ${err.message}`, ['Show Log'], showLog);
}

/** An error notification; `onPick` handles the answer, which is not waited for. */
function show(message: string, actions: string[], onPick: (pick: string | undefined) => unknown): void {
  void Promise.resolve(vscode.window.showErrorMessage(message, ...actions))
    .then(onPick)
    .then(undefined, (e: unknown) => log().warn(`after "${message}": ${(e as Error).message}`));
}

/** Opens a file with the cursor on a 1-based line. */
export async function openAt(path: string, line?: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
}
