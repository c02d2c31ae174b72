import * as vscode from 'vscode';
import {
  describeOptions,
  OptionText,
  parseKeySpec,
  parseSeqSpec,
  parseTimeSpec,
  PRESETS,
  resolveOptions,
  SequencingOptions,
  UserPresets,
} from '../../core/sequencer/sequencingOptions';
import { isInputError } from '../../core/util/inputError';
import { optionsFromSettings, optionTextFromSettings, userPresetsFromSettings } from '../settings';
import type { InputFormat } from '../../core/capture/captureReader';

/** What the user chose: the options, and the text they came from (to remember the choice). */
export interface PickedOptions {
  readonly options: SequencingOptions;
  readonly text: OptionText;
  /** `text`: read the captures as text archives (bare payloads), as picked. */
  readonly inputFormat?: InputFormat;
}

/** What each built-in preset is for, under its options in the picker. */
const BUILT_IN: Record<string, string> = {
  cme: 'CME Smart Stream SBE topics: MDP 3.0 packets, MsgSeqNum per Channel',
  'cme-json': 'CME Smart Stream JSON topics: header.sequenceNumber, one sequence per topic',
};

/** Pub/Sub's own orders, for ordering keys without sequence numbers: publish order, arrival order. */
const ORDERS: readonly { label: string; detail: string; text: OptionText }[] = [
  {
    label: 'Publish order',
    detail: 'per ordering key, no numbers: a message that arrives after one of its key published later is reordered',
    text: { key: 'orderingKey', seq: 'publishTime' },
  },
  { label: 'Arrival order only', detail: 'per ordering key, no numbers, nothing judged: duplicates by messageId', text: { key: 'orderingKey', seq: 'none' } },
];

/**
 * "How should this be sequenced?": the settings, a preset (built in or from `seqscope.presets`),
 * or custom values — one Enter keeps the settings, or the choice `remembered` from last time
 * (listed first). Open Capture…, Tap Topic… and Attach to Subscription… all ask it. Undefined
 * when the user cancels; a bad `seqscope.presets` is an InputError naming it. With `archives`,
 * it also offers to read text archives (bare payloads), which cannot be told from a damaged JSON
 * Lines capture and so are read as such only when picked.
 */
export async function pickOptions(what = 'this capture', remembered?: OptionText, archives = false): Promise<PickedOptions | undefined> {
  const presets = userPresetsFromSettings();
  const fromSettings = optionsFromSettings({}, presets);
  type Item = vscode.QuickPickItem & { text?: OptionText; custom?: boolean; inputFormat?: InputFormat };
  const items: Item[] = [];
  const last = remembered && resolvable(remembered, presets);
  if (last) items.push({ label: 'As last time', description: describeOptions(last), text: remembered });
  // What a preset gives here: settings the user set explicitly still apply over it.
  const preset = (name: string, detail: string): Item => ({
    label: `Preset: ${name}`,
    description: describeOptions(resolvable({ preset: name }, presets) ?? resolveOptions({ preset: name }, presets)),
    detail,
    text: { preset: name },
  });
  items.push(
    { label: 'Use settings', description: describeOptions(fromSettings), text: {} },
    ...ORDERS.map(({ label, detail, text }) => ({ label, description: describeOptions(optionsFromSettings(text, presets)), detail, text })),
    ...Object.keys(PRESETS).map((name) => preset(name, BUILT_IN[name] ?? 'built in')),
    ...Object.keys(presets).map((name) => preset(name, 'yours (setting seqscope.presets)')),
    { label: 'Customize…', description: 'key, sequence, time, width, gap timeout, capacity', custom: true },
  );
  if (archives)
    items.push({
      label: 'Text archive (bare payloads)',
      description: "a Cloud Storage subscription's text files: one message per line, in file order, no ids or times",
      text: {},
      inputFormat: 'text',
    });
  const pick = await vscode.window.showQuickPick(items, {
    title: `SeqScope: how should ${what} be sequenced?`,
    placeHolder: 'Sequencing options (settings: seqscope.*)',
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  if (!pick.custom)
    return { options: optionsFromSettings(pick.text, presets), text: pick.text ?? {}, ...(pick.inputFormat ? { inputFormat: pick.inputFormat } : {}) };
  return customize(optionTextFromSettings());
}

/** Asks each option in turn, each box checking what is typed before it can be accepted. */
async function customize(base: OptionText): Promise<PickedOptions | undefined> {
  const ask = (prompt: string, value: string | undefined, placeHolder: string, check: (text: string) => unknown) =>
    vscode.window.showInputBox({
      title: 'SeqScope: customize sequencing',
      prompt,
      value,
      placeHolder,
      ignoreFocusOut: true,
      validateInput: (text) => problem(text, check),
    });
  const key = await ask(
    'Key: orderingKey, attribute:<name>, json:<path> (a payload field) or none',
    base.key ?? 'orderingKey',
    'json:payload[0].instrument.symbol',
    parseKeySpec,
  );
  if (key === undefined) return undefined;
  const seq = await ask(
    'Sequence: attribute:<name>, json:<path> (a payload field), mdp3 (the MDP 3.0 packet header, CME Smart Stream), publishTime (no numbers: judge each key by publish order) or none',
    base.seq ?? (key.trim() === 'orderingKey' ? 'publishTime' : 'none'),
    'json:header.sequenceNumber',
    parseSeqSpec,
  );
  if (seq === undefined) return undefined;
  const time = await ask(
    "Sender's time, for latency: attribute:<name> (ms), json:<path> (ISO 8601 or ms/ns since the epoch), mdp3 (the MDP 3.0 packet's SendingTime) or none",
    base.time ?? (seq === 'mdp3' ? 'mdp3' : 'none'),
    'json:header.sentTime',
    parseTimeSpec,
  );
  if (time === undefined) return undefined;
  const bits = await vscode.window.showQuickPick(seq === 'mdp3' ? ['32', '64', '16'] : ['64', '32', '16'], { title: 'Sequence width (16 and 32 wrap)' });
  if (bits === undefined) return undefined;
  const gap = await ask('Gap timeout', String(base.gapTimeout ?? '10s'), '10s', (gapTimeout) => resolveOptions({ gapTimeout }));
  if (gap === undefined) return undefined;
  const capacity = await ask('Capacity (messages a key may hold)', String(base.capacity ?? 10000), '10000', (c) =>
    resolveOptions({ capacity: c, seqBits: bits, seq: seq.trim() }),
  );
  if (capacity === undefined) return undefined;
  const text: OptionText = { key: key.trim(), seq: seq.trim(), time: time.trim(), seqBits: bits, gapTimeout: gap.trim(), capacity: capacity.trim() };
  return { options: resolveOptions(text), text };
}

/** The input box's message for text that `check` refuses; undefined when it is accepted. */
function problem(text: string, check: (text: string) => unknown): string | undefined {
  try {
    check(text.trim());
    return undefined;
  } catch (e) {
    if (isInputError(e)) return e.message;
    throw e;
  }
}

/** A remembered choice that still resolves (a preset may be gone, a setting may clash). */
function resolvable(text: OptionText, presets: UserPresets): SequencingOptions | undefined {
  try {
    return optionsFromSettings(text, presets);
  } catch {
    return undefined;
  }
}
