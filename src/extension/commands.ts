import * as vscode from 'vscode';
import { noun } from '../core/util/plural';
import { CaptureError } from '../core/capture/captureReader';
import { repeatedInput, repeatedInputMessage } from '../core/capture/fileIdentity';
import { captureTitle } from '../timeline/captureSession';
import { tooWideMessage } from '../core/replay/replayEngine';
import { describeOptions, OptionText, PRESETS, resolveOptions } from '../core/sequencer/sequencingOptions';
import { describeFilter, numberRangeProblem, TraceFilterSpec } from '../core/trace/traceFilter';
import type { ReplayAction, ReplaySpeed } from '../shared/protocol';
import { decompressedName } from './compressedCaptures';
import { withErrorHandling } from './errors';
import { exportTrace, ExportRequest } from './exportTrace';
import { log } from './log';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { EventNode, LoadMoreNode, revealEventInTree, SessionNode, SessionsTreeProvider, TreeNode } from './sessionsTree';
import { optionsFromSettings, optionTextFromSettings, setKeyOrderSetting, showTimelineOnOpen } from './settings';
import { isKeyOrder, KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, KeyOrder, orderKeys } from '../core/trace/keyOrder';
import { TimelinePanel } from './timelinePanel';
import { pickKeys } from './keyPicker';

export interface CommandContext {
  readonly extensionUri: vscode.Uri;
  readonly manager: SessionManager;
  readonly tree: SessionsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
}

/** What "Open Capture" returns to `executeCommand` callers (automation, tests). */
export interface OpenResult {
  id: string;
  title: string;
}

/** Gzip-compressed captures end in `.gz` (`feed.jsonl.gz`): a filter matches the last extension only. */
export const CAPTURE_FILTERS = { 'Captures (JSON Lines, JSON, gzip)': ['jsonl', 'json', 'ndjson', 'gz'], 'All files': ['*'] };
const REPLAY_ACTIONS: [string, ReplayAction][] = [
  ['seqscope.replay.play', 'play'],
  ['seqscope.replay.pause', 'pause'],
  ['seqscope.replay.stepForward', 'stepForward'],
  ['seqscope.replay.stepBack', 'stepBack'],
  ['seqscope.replay.toStart', 'toStart'],
  ['seqscope.replay.toEnd', 'toEnd'],
  ['seqscope.replay.nextGap', 'nextGap'],
  ['seqscope.replay.nextDuplicate', 'nextDuplicate'],
  ['seqscope.replay.nextLate', 'nextLate'],
];

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const { manager, tree, treeView } = ctx;
  const reg = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, withErrorHandling(id, fn as (...args: unknown[]) => unknown));

  /** The session a command is about: from a tree node or id argument, else the active one. */
  const sessionFrom = (arg: unknown): Session => {
    if (arg instanceof SessionNode) return arg.session;
    if (arg instanceof EventNode) return arg.session;
    if (typeof arg === 'string') {
      const s = manager.get(arg);
      if (s) return s;
    }
    const active = manager.active;
    if (!active) throw new NoSessionError();
    return active;
  };

  const showTimeline = (s?: Session) => {
    if (s) manager.active = s;
    return TimelinePanel.show(ctx.extensionUri, manager, (session, eventId) => void revealInTree(session, eventId));
  };

  const revealInTree = (s: Session, eventId: number) => revealEventInTree(tree, treeView, s, eventId);

  return [
    reg('seqscope.openCapture', async (arg?: vscode.Uri | vscode.Uri[], second?: vscode.Uri[] | OptionText) => {
      let uris: vscode.Uri[] | undefined;
      // Explorer passes (clicked, allSelected); automation passes (uri | uri[], options).
      if (Array.isArray(second)) uris = second;
      else if (Array.isArray(arg)) uris = arg;
      else if (arg instanceof vscode.Uri) uris = [arg];
      const automated = second !== undefined && !Array.isArray(second);
      if (!uris?.length) {
        uris = await vscode.window.showOpenDialog({ canSelectMany: true, filters: CAPTURE_FILTERS, title: 'Open capture (several are merged by their clock)', openLabel: 'Open Capture' });
        if (!uris?.length) return undefined;
      }
      // A file and a link to it, selected together in the Explorer or the dialog: refused before
      // the options are asked, as the CLI refuses it.
      const repeated = repeatedInput(uris.map((u) => u.fsPath));
      if (repeated) throw new CaptureError(repeatedInputMessage(repeated, 'open each capture once'), repeated[1]);
      const options = automated ? optionsFromSettings(second as OptionText) : await pickOptions();
      if (!options) return undefined;
      // Open already, unchanged, sequenced alike: shown, not loaded a second time (two sessions
      // of one title would be told apart by nothing). A changed file — a recording that grew —
      // or other options open a session of their own.
      const same = manager.findSame(uris.map((u) => u.fsPath), options);
      if (same) {
        await showOpenAlready(same, !automated && showTimelineOnOpen());
        return { id: same.id, title: same.title } satisfies OpenResult;
      }
      // Interactive opens show the timeline at once: it starts up while the capture loads, under
      // the title the session will have (a gzip capture's is its name without .gz).
      const title = captureTitle(uris.map((u) => decompressedName(u.fsPath)), false);
      const loading = !automated && showTimelineOnOpen() ? TimelinePanel.showLoading(ctx.extensionUri, manager, (session, eventId) => void revealInTree(session, eventId), title) : undefined;
      let s: Session | undefined;
      try {
        s = await manager.open(
          uris.map((u) => u.fsPath),
          options,
          loading && { progress: (fraction, detail) => loading.loadingProgress(fraction, detail), firstView: (view) => loading.showFirstView(view) },
        );
      } finally {
        loading?.finishLoading(s);
      }
      if (!s) return undefined;
      await revealSession(s);
      return { id: s.id, title: s.title } satisfies OpenResult;
    }),

    reg('seqscope.openSample', async () => {
      const sample = vscode.Uri.joinPath(ctx.extensionUri, 'media', 'samples', 'cme-sample.jsonl');
      const options = resolveOptions({ preset: 'cme' });
      const same = manager.findSame([sample.fsPath], options);
      if (same) {
        await showOpenAlready(same, true);
        return { id: same.id, title: same.title } satisfies OpenResult;
      }
      const s = await manager.open([sample.fsPath], options);
      if (!s) return undefined;
      await revealSession(s);
      showTimeline(s);
      return { id: s.id, title: s.title } satisfies OpenResult;
    }),

    reg('seqscope.showTimeline', (arg?: unknown) => {
      const s = manager.all.length ? sessionFrom(arg) : undefined;
      showTimeline(s);
    }),

    reg('seqscope.exportTrace', (arg?: unknown, req?: ExportRequest) => exportTrace(sessionFrom(arg), ctx.extensionUri, req)),

    reg('seqscope.session.close', (arg?: unknown) => manager.close(sessionFrom(arg))),
    reg('seqscope.session.closeAll', () => manager.closeAll()),

    reg('seqscope.revealInTimeline', (node?: EventNode) => {
      if (!(node instanceof EventNode)) return;
      showTimeline(node.session).reveal(node.session, node.event.id);
    }),

    reg('seqscope.copyMessage', async (node?: EventNode) => {
      if (!(node instanceof EventNode) || node.event.arrival === undefined) return;
      const text = await node.session.files.readText(node.event.arrival);
      if (text === undefined) throw new Error('the record cannot be read back from its file');
      let out = text;
      try {
        out = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // An invalid record is copied as it is.
      }
      await vscode.env.clipboard.writeText(out);
      vscode.window.setStatusBarMessage('SeqScope: message copied', 2000);
    }),

    reg('seqscope.filter.set', async (arg?: TraceFilterSpec) => {
      const s = sessionFrom(undefined);
      const filter = arg && typeof arg === 'object' && !(arg instanceof SessionNode) ? arg : await pickFilter(s);
      if (!filter) return;
      await s.setFilter(filter);
      log().info(`filter on ${s.title}: ${describeFilter(filter)}`);
    }),
    reg('seqscope.filter.clear', async () => {
      const s = sessionFrom(undefined);
      await s.setFilter({});
    }),

    ...REPLAY_ACTIONS.map(([id, action]) =>
      reg(id, () => {
        const s = sessionFrom(undefined);
        const moved = s.replay.run(action);
        if (!moved && action.startsWith('next')) vscode.window.setStatusBarMessage(`SeqScope: no further ${action.slice(4).toLowerCase()} from here`, 3000);
        return s.replay.info();
      }),
    ),
    reg('seqscope.replay.setSpeed', async (speed?: ReplaySpeed) => {
      const s = sessionFrom(undefined);
      let v = speed;
      if (v === undefined) {
        const pick = await vscode.window.showQuickPick(
          [
            { label: '×1', description: 'capture pacing', speed: 1 as ReplaySpeed },
            { label: '×10', description: 'ten times faster', speed: 10 as ReplaySpeed },
            { label: 'max', description: 'as fast as the views keep up', speed: 'max' as ReplaySpeed },
          ],
          { title: 'Replay speed' },
        );
        if (!pick) return;
        v = pick.speed;
      }
      s.replay.setSpeed(v);
    }),

    reg('seqscope.sortKeys', async (order?: unknown) => {
      let v: KeyOrder | undefined;
      if (order !== undefined) {
        if (!isKeyOrder(order)) throw new RangeError(`unknown key order ${JSON.stringify(order)}: use ${KEY_ORDERS.join(', ')}`);
        v = order;
      } else {
        const current = manager.keyOrder;
        const pick = await vscode.window.showQuickPick(
          KEY_ORDERS.map((o) => ({ label: KEY_ORDER_LABELS[o][0].toUpperCase() + KEY_ORDER_LABELS[o].slice(1), description: o === current ? 'current' : undefined, detail: KEY_ORDER_DETAILS[o], order: o })),
          {
            title: 'List keys — in the Sessions tree and the timeline',
            placeHolder: `Now: ${KEY_ORDER_LABELS[current]}`,
            // Opened from the Command Palette just after the timeline's Keys menu changed the
            // order, the picker could close by itself (an e2e run caught it; measured, other
            // pickers then closed 1–2 times in 12): while the setting is being written, the
            // webview, which had the focus, takes it back. Escape still closes it.
            ignoreFocusOut: true,
          },
        );
        if (!pick) return undefined;
        v = pick.order;
      }
      // A setting (seqscope.keyOrder): every session follows it, now and when opened later.
      await setKeyOrderSetting(v, (order) => (manager.keyOrder = order));
      return manager.keyOrder;
    }),
    reg('seqscope.tree.loadMore', (node?: LoadMoreNode) => {
      if (node instanceof LoadMoreNode) tree.loadMore(node);
    }),
    reg('seqscope.showLog', () => log().show()),
  ];

  /** A capture opened again, unchanged and sequenced alike: its session, shown and said so. */
  async function showOpenAlready(s: Session, withTimeline: boolean): Promise<void> {
    manager.active = s;
    await revealInSessionsView(s);
    if (withTimeline) showTimeline(s);
    log().info(`${s.title} is open already (the same files, unchanged, sequenced alike): showing it`);
    vscode.window.setStatusBarMessage(`SeqScope: ${s.title} is open already, unchanged: showing it (close it to load it again)`, 5000);
  }

  /** The Sessions view, shown, with the session selected in it. */
  async function revealInSessionsView(s: Session): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.extension.seqscope');
    const node = tree.sessionNode(s);
    // VS Code looks for the node among the root items it has: the refresh that lists the new
    // session (throttled, up to 200 ms away) must reach it first, or the reveal fails whenever
    // another session is open.
    tree.flushRefresh();
    try {
      await treeView.reveal(node, { select: true, focus: false, expand: true });
    } catch {
      // The view may not be visible yet; the session is in the tree all the same.
    }
  }

  /** A session just opened: shown in the Sessions view, its summary said. */
  async function revealSession(s: Session): Promise<void> {
    await revealInSessionsView(s);
    const sum = s.data.summary;
    const msg = `${s.title}: ${sum.delivered} delivered, ${sum.gaps} ${noun(sum.gaps, 'gap')} (${sum.lost} lost), ${sum.duplicates} ${noun(sum.duplicates, 'duplicate')}, ${sum.late} late${sum.invalid ? `, ${sum.invalid} invalid` : ''}`;
    // One notification: a damaged gzip capture's cut-off record is also an invalid one.
    const damage = s.damage?.length ? `${s.damage.join('. ')}. ` : '';
    // Records read and none sequenced: the options do not fit the capture. An error, with the fix.
    if (sum.unsequenced) {
      const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
      void vscode.window.showErrorMessage(`SeqScope: ${s.title}: ${damage}${sum.unsequenced.reason}. To sequence it, ${sum.unsequenced.fix.setting}.`, ...actions).then((a) => a && showTimeline(s));
    } else if (sum.tooWide) {
      // Once for the run, however many records it was.
      const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
      void vscode.window.showWarningMessage(`SeqScope: ${damage}${msg}. ${tooWideMessage(sum.tooWide, 'setting')}.`, ...actions).then((a) => a && showTimeline(s));
    } else if (sum.received + sum.invalid === 0 && !damage) {
      void vscode.window.showWarningMessage(`SeqScope: ${s.title} holds no records: the session is empty. Is it the right file? (A recording of a quiet topic is empty too.)`);
    } else if (sum.invalid || damage) {
      // Show Timeline only where it would show something: not when the timeline is on it already.
      const actions = TimelinePanel.isShowing(s) ? [] : ['Show Timeline'];
      void vscode.window.showWarningMessage(`SeqScope: ${damage}${msg}.${sum.invalid ? ' Invalid records were skipped: see the Invalid group.' : ''}`, ...actions).then((a) => a && showTimeline(s));
    } else {
      vscode.window.setStatusBarMessage(`SeqScope: ${msg}`, 5000);
    }
  }
}

export class NoSessionError extends Error {
  constructor() {
    super('no session is open: run "SeqScope: Open Capture…" or "SeqScope: Open Sample Capture" first');
  }
}

/** Per-session override of the settings: one Enter keeps them. */
async function pickOptions() {
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

async function pickFilter(s: Session): Promise<TraceFilterSpec | undefined> {
  const current = s.filter;
  type Item = vscode.QuickPickItem & { what: 'keys' | 'kinds' | 'seq' | 'attribute' | 'clear' };
  const what = await vscode.window.showQuickPick<Item>(
    [
      { label: 'Keys…', description: current.keys?.join(', '), what: 'keys' },
      { label: 'Kinds…', description: current.kinds?.join(', '), what: 'kinds' },
      { label: 'Sequence range…', description: current.seqFrom !== undefined || current.seqTo !== undefined ? `${current.seqFrom ?? ''}–${current.seqTo ?? ''}` : undefined, what: 'seq' },
      { label: 'Attribute value…', description: current.attribute ? `${current.attribute.name}=${current.attribute.value}` : undefined, what: 'attribute' },
      { label: 'Clear filter', what: 'clear' },
    ],
    { title: `Filter ${s.title} (now: ${describeFilter(current)})` },
  );
  if (!what) return undefined;
  switch (what.what) {
    case 'clear':
      return {};
    case 'keys': {
      // Listed in the key order the tree and the timeline use.
      const order = s.keyOrder === 'arrival' ? undefined : orderKeys(s.lanes, s.keyOrder, (l) => l.name);
      const keys = await pickKeys({ names: s.data.keyNames, describe: (i) => `${s.lanes[i].received} received`, current: current.keys, order });
      return keys ? { ...current, keys } : undefined;
    }
    case 'kinds': {
      const kinds = ['message', 'gap', 'duplicate', 'late', 'invalid'] as const;
      const picked = await vscode.window.showQuickPick(
        kinds.map((k) => ({ label: k, picked: current.kinds?.includes(k) })),
        { canPickMany: true, title: 'Show these kinds of event' },
      );
      return picked ? { ...current, kinds: picked.map((p) => p.label as (typeof kinds)[number]) } : undefined;
    }
    case 'seq': {
      const bits = s.options.seqBits;
      const top = 2 ** bits - 1;
      const text = await vscode.window.showInputBox({
        title: 'Sequence range',
        prompt:
          bits === 64
            ? 'from-to, inclusive (either side may be empty)'
            : `from-to, inclusive (either side may be empty); ${bits}-bit numbers wrap, so from above to runs through the wrap, e.g. ${top - 5}-5`,
        placeHolder: '100-200',
        validateInput: (v) => {
          const m = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(v);
          if (!m) return 'Write it as from-to, e.g. 100-200';
          const [from, to] = [m[1], m[2]].map((x) => (x ? Number(x) : undefined));
          return numberRangeProblem(from, to, bits);
        },
      });
      if (text === undefined) return undefined;
      const [a, b] = text.split('-').map((x) => x.trim());
      return { ...current, seqFrom: a ? Number(a) : undefined, seqTo: b ? Number(b) : undefined };
    }
    case 'attribute': {
      const text = await vscode.window.showInputBox({
        title: 'Attribute value',
        prompt: 'name=value (the captures are read again to find the matching records)',
        placeHolder: 'SecurityID=12345',
        validateInput: (v) => (/^[^=]+=.*$/.test(v) ? undefined : 'Write it as name=value'),
      });
      if (text === undefined) return undefined;
      const i = text.indexOf('=');
      return { ...current, attribute: { name: text.slice(0, i).trim(), value: text.slice(i + 1) } };
    }
  }
}
