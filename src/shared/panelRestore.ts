/**
 * What a timeline panel keeps across a window reload, in its webview's state (setState), and the
 * check the host makes of it when VS Code hands it back: the state comes from the webview, so it
 * is read as untrusted input, never cast.
 */
import { formatKeySpec, formatSeqSpec, resolveOptions, SequencingOptions } from '../core/sequencer/sequencingOptions';

/**
 * A timeline panel's session: a capture is loaded again from its files, sequenced alike, at its
 * replay position; a live session is over after a reload, and offers its recording.
 */
export type PanelRestore =
  | { kind: 'capture'; paths: string[]; options: SequencingOptions; position?: number }
  | { kind: 'live'; title: string; recording: string; options: SequencingOptions };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Sequencing options as saved, checked as a user's would be (resolveOptions); undefined when not valid. */
function optionsFrom(v: unknown): SequencingOptions | undefined {
  if (!isRecord(v) || !isRecord(v.key) || !isRecord(v.seq)) return undefined;
  if ((v.key.kind === 'attribute' && !isString(v.key.name)) || (v.seq.kind === 'attribute' && !isString(v.seq.name))) return undefined;
  try {
    const time = v.sendingTimeMdp3 === true ? 'mdp3' : isString(v.sendingTimeAttribute) ? `attribute:${v.sendingTimeAttribute}` : 'none';
    const o = resolveOptions({
      key: formatKeySpec(v.key as unknown as SequencingOptions['key']),
      seq: formatSeqSpec(v.seq as unknown as SequencingOptions['seq']),
      time,
      seqBits: v.seqBits as number,
      gapTimeout: v.gapTimeoutMs as number,
      capacity: v.capacity as number,
      ...(v.resets === false ? { resets: 'off' } : {}),
      ...(typeof v.resetTo === 'number' && v.resets !== false ? { resetTo: v.resetTo } : {}),
    });
    // The payload decoding the cme preset turns on (with attribute numbers) is kept as it was.
    return v.payload === 'mdp3' ? { ...o, payload: 'mdp3' } : o;
  } catch {
    return undefined;
  }
}

/** The `restore` a webview state carries, when it is one; anything else reads as nothing to restore. */
export function panelRestoreFrom(state: unknown): PanelRestore | undefined {
  const r = isRecord(state) ? state.restore : undefined;
  if (!isRecord(r)) return undefined;
  const options = optionsFrom(r.options);
  if (!options) return undefined;
  if (r.kind === 'capture' && Array.isArray(r.paths) && r.paths.length > 0 && r.paths.every(isString)) {
    const position = typeof r.position === 'number' && Number.isInteger(r.position) && r.position >= 0 ? r.position : undefined;
    return { kind: 'capture', paths: [...(r.paths as string[])], options, ...(position !== undefined ? { position } : {}) };
  }
  if (r.kind === 'live' && isString(r.title) && isString(r.recording)) return { kind: 'live', title: r.title, recording: r.recording, options };
  return undefined;
}
