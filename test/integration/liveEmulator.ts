/**
 * What the live integration suites share: the real Pub/Sub emulator started for the suite (or a
 * loud skip where it is missing), the extension activated, a connection through the same Pub/Sub
 * bundle the extension loads, and user settings set for the suite and put back after it.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type * as PubsubLayer from '../../src/pubsub';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { TreeNode } from '../../src/extension/sessionsTree';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { Restore, stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';

/** A user setting: section, key, value. */
export type Setting = readonly [section: string, key: string, value: unknown];

export interface LiveEmulator {
  readonly api: SeqScopeApi;
  readonly emu: PubsubEmulator;
  readonly layer: typeof PubsubLayer;
  readonly conn: PubsubLayer.PubsubConnection;
  /** Put back in reverse order after the suite: settings, and the dialogs `stub` replaced. */
  readonly restore: Restore;
  readonly stub: ReturnType<typeof stubber>;
  /** A tree row as the user reads it: label and description. */
  text(node: TreeNode): string;
}

/**
 * Registers the suite's `before` and `after` hooks (call it inside `describe`); the fields are
 * there once `before` has run. `what` names the suite in the skip notice.
 */
export function useLiveEmulator(what: string, projectId: string, settings: readonly Setting[]): LiveEmulator {
  const restore: Restore = [];
  const live = { restore, stub: stubber(restore) } as { -readonly [K in keyof LiveEmulator]: LiveEmulator[K] };
  live.text = (node) => {
    const item = live.api.tree.getTreeItem(node);
    return `${typeof item.label === 'string' ? item.label : item.label?.label} ${item.description ?? ''}`;
  };

  before(async function () {
    const found = findEmulator();
    if ('missing' in found) {
      announceMissing(found.missing, what);
      this.skip();
    }
    const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID)!;
    live.api = await ext.activate();
    live.emu = await PubsubEmulator.start(found.launcher);
    // The same Pub/Sub bundle the extension loads (a run-time require: it is not part of this suite's bundle).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    live.layer = require(join(ext.extensionPath, 'dist', 'pubsub.js')) as typeof PubsubLayer;
    live.conn = await live.layer.connect({ emulatorHost: live.emu.host, projectId, env: {} });
    const all: Setting[] = [['seqscope.pubsub', 'emulatorHost', live.emu.host], ['seqscope.pubsub', 'projectId', projectId], ...settings];
    for (const [section, key, value] of all) {
      await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
      restore.push(() => vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Global));
    }
  });

  after(async () => {
    for (const r of restore.reverse()) await r();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    await live.conn?.close();
    await live.emu?.stop();
  });

  return live;
}
