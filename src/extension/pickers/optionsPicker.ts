import * as vscode from 'vscode';
import { describeOptions, OptionText, PRESETS, resolveOptions, SequencingOptions } from '../../core/sequencer/sequencingOptions';
import { optionsFromSettings, optionTextFromSettings } from '../settings';
import type { InputFormat } from '../../core/capture/captureReader';

/** What the user chose: the options, and the text they came from (to remember the choice). */
export interface PickedOptions {
  readonly options: SequencingOptions;
  readonly text: OptionText;
  /** `text`: read the captures as text archives (bare payloads), as picked. */
  readonly inputFormat?: InputFormat;
}

/**
 * "How should this be sequenced?": the settings, a preset, or custom values — one Enter keeps the
 * settings, or the choice `remembered` from last time (listed first). Open Capture…, Tap Topic…
 * and Attach to Subscription… all ask it. Undefined when the user cancels. With `archives`, it also
 * offers to read text archives (bare payloads), which cannot be told from a damaged JSON Lines
 * capture and so are read as such only when picked.
 */
export async function pickOptions(what = 'this capture', remembered?: OptionText, archives = false): Promise<PickedOptions | undefined> {
  const fromSettings = optionsFromSettings();
  type Item = vscode.QuickPickItem & { text?: OptionText; custom?: boolean; inputFormat?: InputFormat };
  const items: Item[] = [];
  const last = remembered && resolvable(remembered);
  if (last) items.push({ label: 'As last time', description: describeOptions(last), text: remembered });
  items.push(
    { label: 'Use settings', description: describeOptions(fromSettings), text: {} },
    ...Object.keys(PRESETS).map((p) => ({ label: `Preset: ${p}`, description: describeOptions(resolveOptions({ preset: p })), text: { preset: p } })),
    { label: 'Customize…', description: 'key, sequence, width, gap timeout, capacity', custom: true },
  );
  if (archives) items.push({ label: 'Text archive (bare payloads)', description: "a Cloud Storage subscription's text files: one message per line, in file order, no ids or times", text: {}, inputFormat: 'text' });
  const pick = await vscode.window.showQuickPick(items, { title: `SeqScope: how should ${what} be sequenced?`, placeHolder: 'Sequencing options (settings: seqscope.*)' });
  if (!pick) return undefined;
  if (!pick.custom) return { options: optionsFromSettings(pick.text), text: pick.text ?? {}, ...(pick.inputFormat ? { inputFormat: pick.inputFormat } : {}) };
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
  const text: OptionText = { key, seq, time, seqBits: bits, gapTimeout: gap, capacity };
  return { options: resolveOptions(text), text };
}

/** A remembered choice that still resolves (a preset may be gone, a setting may clash). */
function resolvable(text: OptionText): SequencingOptions | undefined {
  try {
    return optionsFromSettings(text);
  } catch {
    return undefined;
  }
}
