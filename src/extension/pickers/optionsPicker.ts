/** Open Capture…'s question: how to sequence this capture (the settings, a preset, or custom values). */
import * as vscode from 'vscode';
import { describeOptions, OptionText, PRESETS, resolveOptions, SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { optionsFromSettings, optionTextFromSettings } from '../settings';

/** Per-session override of the settings: one Enter keeps them. */
export async function pickOptions(): Promise<SequencingOptions | undefined> {
  const fromSettings = optionsFromSettings();
  type Item = vscode.QuickPickItem & { text?: OptionText; custom?: boolean };
  const items: Item[] = [
    { label: 'Use settings', description: describeOptions(fromSettings), text: {} },
    ...Object.keys(PRESETS).map((p) => ({ label: `Preset: ${p}`, description: describeOptions(resolveOptions({ preset: p })), text: { preset: p } })),
    { label: 'Customize…', description: 'key, sequence, width, gap timeout, capacity for this session', custom: true },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'SeqScope: how should this capture be sequenced?', placeHolder: 'Sequencing options (settings: seqscope.*)' });
  if (!pick) return undefined;
  if (!pick.custom) return optionsFromSettings(pick.text);
  const base = optionTextFromSettings();
  const ask = (prompt: string, value: string | undefined, placeHolder: string) => vscode.window.showInputBox({ title: 'SeqScope: customize sequencing', prompt, value, placeHolder, ignoreFocusOut: true });
  const key = await ask('Key: orderingKey, attribute:<name> or none', base.key ?? 'orderingKey', 'attribute:Channel');
  if (key === undefined) return undefined;
  const seq = await ask('Sequence: attribute:<name>, mdp3 (the MDP 3.0 packet header, CME Smart Stream) or none', base.seq ?? 'none', 'attribute:MsgSeqNum');
  if (seq === undefined) return undefined;
  const time = await ask("Sender's time, for latency: attribute:<name> (ms), mdp3 (the MDP 3.0 packet's SendingTime) or none", base.time ?? (seq === 'mdp3' ? 'mdp3' : 'none'), 'attribute:SendingTime');
  if (time === undefined) return undefined;
  const bits = await vscode.window.showQuickPick(seq === 'mdp3' ? ['32', '64', '16'] : ['64', '32', '16'], { title: 'Sequence width (16 and 32 wrap)' });
  if (bits === undefined) return undefined;
  const gap = await ask('Gap timeout', String(base.gapTimeout ?? '10s'), '10s');
  if (gap === undefined) return undefined;
  const capacity = await ask('Capacity (messages a key may hold)', String(base.capacity ?? 10000), '10000');
  if (capacity === undefined) return undefined;
  return resolveOptions({ key, seq, time, seqBits: bits, gapTimeout: gap, capacity });
}
