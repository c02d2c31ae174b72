import * as vscode from 'vscode';
import { isKeyOrder, KeyOrder } from '../core/trace/keyOrder';
import { OptionText, parsePresets, resolveOptions, SequencingOptions, UserPresets } from '../core/sequencer/sequencingOptions';

/**
 * The `seqscope.*` settings as option text: a preset (the setting, or `presetOverride`), then
 * the settings the user changed.
 */
export function optionTextFromSettings(presetOverride?: string): OptionText {
  const c = vscode.workspace.getConfiguration('seqscope');
  const text: OptionText = {};
  const preset = presetOverride ?? c.get<string>('preset');
  if (preset && preset !== 'none') text.preset = preset;
  // With a preset, only settings the user set explicitly override it; without, all apply.
  const explicit = <T>(name: string): T | undefined => {
    const i = c.inspect<T>(name);
    const v = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    return v !== undefined ? v : text.preset ? undefined : c.get<T>(name);
  };
  const key = explicit<string>('key');
  if (key !== undefined) text.key = key;
  // Only as set: unset, the default follows the key (publish order for ordering keys, else none).
  const seq = setByUser<string>(c, 'seq');
  if (seq !== undefined) text.seq = seq;
  const time = explicit<string>('time');
  if (time !== undefined) text.time = time;
  // mdp3 numbers are 32-bit unless the width was set: the setting's default (64) does not count.
  const bits = seq === 'mdp3' ? setByUser<number>(c, 'seqBits') : explicit<number>('seqBits');
  if (bits !== undefined) text.seqBits = bits;
  const gap = explicit<string>('gapTimeout');
  if (gap !== undefined) text.gapTimeout = gap;
  const cap = explicit<number>('capacity');
  if (cap !== undefined) text.capacity = cap;
  // "" finds resets by what follows; "off" turns detection off; a number is --reset-to.
  const resetTo = explicit<string>('resetTo')?.trim();
  if (resetTo === 'off') text.resets = 'off';
  else if (resetTo) text.resetTo = resetTo;
  return text;
}

function setByUser<T>(c: vscode.WorkspaceConfiguration, name: string): T | undefined {
  const i = c.inspect<T>(name);
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

/**
 * `seqscope.presets`: the user's named option sets, the shape of a CLI `--preset-file`. A bad
 * one is an InputError naming the setting, the preset and the field.
 */
export function userPresetsFromSettings(): UserPresets {
  const value = vscode.workspace.getConfiguration('seqscope').get<unknown>('presets');
  if (value === undefined || value === null) return {};
  return parsePresets(value, 'seqscope.presets', { setting: 'seqscope.presets' });
}

/** Sequencing options from the settings (a preset may be the user's own); an InputError names the bad setting. */
export function optionsFromSettings(overrides: OptionText = {}, presets: UserPresets = userPresetsFromSettings()): SequencingOptions {
  return resolveOptions({ ...optionTextFromSettings(overrides.preset), ...overrides }, presets);
}

export function treePageSize(): number {
  return vscode.workspace.getConfiguration('seqscope').get<number>('tree.pageSize', 200);
}

/** Whether Open Capture… opens the timeline at once (loading state, then the session). */
export function showTimelineOnOpen(): boolean {
  return vscode.workspace.getConfiguration('seqscope').get<boolean>('timeline.showOnOpen', true);
}

export function maxEmbeddedRecords(): number {
  return vscode.workspace.getConfiguration('seqscope').get<number>('export.maxEmbeddedRecords', 20000);
}

/** `seqscope.keyOrder`: how the tree and the timeline list keys (a bad value reads as the default). */
export function keyOrderSetting(): KeyOrder {
  const v = vscode.workspace.getConfiguration('seqscope').get<string>('keyOrder');
  return isKeyOrder(v) ? v : 'arrival';
}

/**
 * Chooses the key order: `apply` shows it at once (the tree, every timeline), then it is kept as
 * `seqscope.keyOrder` where it takes effect — in the workspace when the order is set there (a
 * user-level value would be overridden by it), else for the user. Writing settings.json can take
 * a second (the first time, VS Code creates it): the views do not wait for it. If it cannot be
 * written, the views go back to what the setting says and the error is thrown.
 */
export async function setKeyOrderSetting(order: KeyOrder, apply: (order: KeyOrder) => void): Promise<void> {
  apply(order);
  const c = vscode.workspace.getConfiguration('seqscope');
  const inWorkspace = c.inspect<string>('keyOrder')?.workspaceValue !== undefined;
  try {
    await c.update('keyOrder', order, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  } finally {
    apply(keyOrderSetting());
  }
}
