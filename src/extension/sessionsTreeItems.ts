/**
 * What the Sessions tree shows for each kind of node: a table of item builders, one per node
 * kind (a new kind fails to compile until it has one), and the words and icons they use.
 */
import * as vscode from 'vscode';
import { formatDuration } from '../core/util/duration';
import { noun } from '../core/util/plural';
import type { EmittedCounts, EventView } from '../shared/timelineModel';
import { positionWords } from '../timeline/replayCursor';
import { KEY_ORDER_LABELS, KeyOrder } from '../core/trace/keyOrder';
import { displayKey } from '../core/trace/keyLabel';
import { judgesPublishOrder, sequencingLabel, unseenFindings } from '../core/sequencer/sequencingOptions';
import { openStateWords } from '../core/sequencer/openState';
import { measuresOf, percentileLines, TIME_MEASURE_LABELS, TimePercentiles } from '../core/replay/timePercentiles';
import { RESET_HOW_WORDS } from '../core/sequencer/resets';
import type { LiveStatus, Session } from './session';
import {
  EventNode,
  GroupKind,
  GroupNode,
  InfoNode,
  KeyNode,
  LoadMoreNode,
  MeasureNode,
  SessionNode,
  sessionOf,
  SummaryNode,
  TreeNode,
} from './sessionsTreeNodes';
import { missedGroup, missedGroupItem, rangeItem } from './sessionsTreeCompare';

/** What an item needs beyond its node: the active session, and a group's count at the replay position. */
export interface ItemContext {
  readonly active: Session | undefined;
  readonly groupCount: (node: GroupNode) => number;
}

type ItemBuilder<N extends TreeNode> = (node: N, ctx: ItemContext) => vscode.TreeItem;

const ITEM_BUILDERS: { readonly [K in TreeNode['kind']]: ItemBuilder<Extract<TreeNode, { kind: K }>> } = {
  session: (node, ctx) => sessionItem(node, ctx.active),
  summary: summaryItem,
  measure: measureItem,
  key: keyItem,
  group: (node, ctx) => groupItem(node, ctx.groupCount),
  event: eventNodeItem,
  loadMore: loadMoreItem,
  info: infoItem,
  missed: missedGroupItem,
  range: rangeItem,
};

/** The tree item for `node`, by its kind. */
export function treeItem(node: TreeNode, ctx: ItemContext): vscode.TreeItem {
  return (ITEM_BUILDERS[node.kind] as ItemBuilder<TreeNode>)(node, ctx);
}

/** The hold and latency percentiles as tooltip lines (over the whole session, whatever the replay shows). */
function timesText(t: TimePercentiles | undefined, whose: string): string {
  const lines = t ? percentileLines(t) : [];
  return lines.length ? `\n\n${whose} (the whole session), ${lines.join('\n')}` : '';
}

const GROUP_LABEL: Record<GroupKind, string> = {
  gap: 'Gaps',
  duplicate: 'Duplicates',
  late: 'Late',
  reordered: 'Reordered',
  reset: 'Resets',
  invalid: 'Invalid',
};
const GROUP_ICON: Record<GroupKind, string> = {
  gap: 'debug-disconnect',
  duplicate: 'copy',
  late: 'watch',
  reordered: 'arrow-swap',
  reset: 'debug-restart',
  invalid: 'error',
};

/** A session: a live one's state and rate, or a capture's files; the active one marked. */
function sessionItem(node: SessionNode, active: Session | undefined): vscode.TreeItem {
  const s = node.session;
  const item = new vscode.TreeItem(s.title, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `session:${s.id}`;
  const sum = s.data.summary;
  const live = s.live;
  if (live) return liveSessionItem(item, s, live);
  item.contextValue = s.comparison ? 'session.comparison' : 'session';
  item.iconPath = new vscode.ThemeIcon(s.loading !== undefined ? 'loading~spin' : active === s ? 'pulse' : s.comparison ? 'diff' : 'file');
  item.description = `${s.loadingWords ? `${s.loadingWords} · ` : ''}${sequencingLabel(s.options)} · ${keysWords(sum.keys, s.keyOrder)} · ${sum.received + sum.invalid} ${noun(sum.received + sum.invalid, 'record')}${s.replay.active ? ` · ${positionWords(s.replay.position, s.data.arrivalCount)}` : ''}`;
  // A folder of archive files may hold thousands: the first few, and how many more.
  const files = s.sourcePaths
    .slice(0, 10)
    .map((p, i) => `- \`${p}\`${p === s.data.paths[i] ? '' : ' (gzip: read from a decompressed copy, deleted when the session closes)'}`);
  if (s.sourcePaths.length > 10) files.push(`- … and ${s.sourcePaths.length - 10} more`);
  const copy =
    s.data.copy === undefined
      ? ''
      : `\n\n${s.inputFormat === 'text' ? 'Read as text archives (bare payloads). ' : ''}Records are read back from a JSON Lines copy, deleted when the session closes.`;
  const loading = s.loadingWords
    ? `\n\nStill ${s.loadingWords.replace('…', '')}: the counts, keys and timeline grow until it is whole. Cancel in its notification keeps what was read, marked partial.`
    : '';
  item.tooltip = new vscode.MarkdownString(`**${escapeMd(s.title)}**\n\n${files.join('\n')}${copy}${loading}\n\n${escapeMd(sum.options)}`);
  return item;
}

/** A live session's row: its state (an outage's reason), rate and window, and what it reads and records. */
function liveSessionItem(item: vscode.TreeItem, s: Session, live: LiveStatus): vscode.TreeItem {
  const sum = s.data.summary;
  item.contextValue = live.tapGone ? 'session.live.tapGone' : live.tapOf ? 'session.live.tap' : 'session.live';
  item.iconPath = new vscode.ThemeIcon(
    live.state === 'disconnected' ? 'debug-disconnect' : 'radio-tower',
    live.state === 'disconnected' ? new vscode.ThemeColor('errorForeground') : undefined,
  );
  item.description =
    // An outage's short reason first: the row is narrow, and its icon says disconnected.
    (live.state === 'live' && !live.tapGone ? `live · ${Math.round(live.rate)}/s` : live.outage ? live.outage.reason : live.state) +
    ` · ${sequencingLabel(s.options)} · ${keysWords(sum.keys, s.keyOrder)} · ${live.received} received` +
    (live.reconnects ? ` · ${live.redeliveredSinceReconnect} redelivered since reconnect` : '') +
    (live.windows > 1 ? ` · window ${live.windows}` : '');
  item.tooltip = new vscode.MarkdownString(
    `**${escapeMd(s.title)}** — ${escapeMd(live.detail)}\n\n- subscription \`${live.subscription}\`${live.tapOf ? `\n- tap on \`${live.tapOf}\` (deleted on detach)` : ''}\n- recording \`${s.data.paths[0]}\`\n\n${escapeMd(sum.options)}` +
      (live.windows > 1
        ? `\n\nWindow ${live.windows}: the views show the latest million arrivals; the counts above cover everything since attach, and the recording keeps every line (Detach to browse it all).`
        : ''),
  );
  return item;
}

/** The session's counts at the replay position; its hold and latency measures under it. */
function summaryItem(node: SummaryNode): vscode.TreeItem {
  const s = node.parent.session;
  const c = s.data.countsAt(s.position);
  // Collapsible when there are hold and latency percentiles to list under it.
  const item = new vscode.TreeItem(
    'Summary',
    measuresOf(s.data.summary.percentiles).length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `session:${s.id}:summary`;
  const unseen = unseenFindings(s.options);
  item.iconPath = new vscode.ThemeIcon(c.gaps || c.late || c.reordered || c.resets ? 'warning' : unseen ? 'info' : 'pass');
  const reordered =
    (judgesPublishOrder(s.options) || c.reordered ? ` · ${c.reordered} reordered` : '') + (c.resets ? ` · ${c.resets} ${noun(c.resets, 'reset')}` : '');
  item.description = unseen
    ? `${c.delivered} delivered · ${c.duplicates} dup${reordered} · ${c.invalid} invalid · ${unseen.split(':')[0]}: gaps cannot be seen`
    : countsText(c, true);
  item.tooltip =
    (unseen ? `${unseen}.\n` : '') +
    `delivered ${c.delivered} · gaps ${c.gaps} · lost ${c.lost} · duplicates ${c.duplicates}${c.conflicts ? ` (${c.conflicts} conflicting)` : ''} · late ${c.late}${reordered} · invalid ${c.invalid}` +
    (s.replay.active ? ` (replay: ${positionWords(s.replay.position, s.data.arrivalCount)})` : '') +
    timesText(s.data.summary.percentiles, "All keys' messages");
  item.contextValue = 'summary';
  return item;
}

/** One hold or latency measure's percentiles over the whole session. */
function measureItem(node: MeasureNode): vscode.TreeItem {
  const s = node.parent.parent.session;
  const p = s.data.summary.percentiles[node.measure]!;
  const item = new vscode.TreeItem(TIME_MEASURE_LABELS[node.measure], vscode.TreeItemCollapsibleState.None);
  item.id = `session:${s.id}:summary:${node.measure}`;
  item.iconPath = new vscode.ThemeIcon(node.measure === 'hold' ? 'watch' : 'pulse');
  item.description = `p50 ${formatDuration(p.p50)} · p90 ${formatDuration(p.p90)} · p99 ${formatDuration(p.p99)} · max ${formatDuration(p.max)}`;
  item.tooltip = `${TIME_MEASURE_LABELS[node.measure]}, over all keys' ${p.count.toLocaleString('en-US')} ${noun(p.count, 'message')} (the whole session, whatever the replay shows): ${item.description}. Percentiles within 3 significant digits; the maximum exact. A key's own are in its tooltip.`;
  item.contextValue = 'measure';
  return item;
}

/** A key's counts at the replay position, hot and open-state marks, and the detail in its tooltip. */
function keyItem(node: KeyNode): vscode.TreeItem {
  const s = node.parent.session;
  const c = s.data.keyCountsAt(node.key, s.position);
  const lane = s.lanes[node.key];
  const name = s.data.keyNames[node.key];
  const hasFindings = c.gaps + c.duplicates + c.late + c.reordered + c.resets > 0 || missedGroup(node, 1) !== undefined;
  const item = new vscode.TreeItem(displayKey(name), hasFindings ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `session:${s.id}:key:${node.key}`;
  item.iconPath = new vscode.ThemeIcon(lane.hot ? 'flame' : 'key', lane.hot ? new vscode.ThemeColor('charts.orange') : undefined);
  const open = s.live?.openState(node.key);
  const counts = unseenFindings(s.options)
    ? `${c.delivered} delivered · ${c.duplicates} dup${judgesPublishOrder(s.options) ? ` · ${c.reordered} reordered` : ''}`
    : countsText(c, false);
  item.description = counts + (lane.hot ? ' · hot' : '') + (open ? ` · ${openStateWords(open)}` : '');
  const k = s.data.summary.byKey[node.key];
  item.tooltip =
    `key ${name}: received ${k.received}, delivered ${c.delivered}, gaps ${c.gaps} (lost ${c.lost}), duplicates ${c.duplicates}${c.conflicts ? ` (${c.conflicts} conflicting)` : ''}, late ${c.late}${judgesPublishOrder(s.options) || c.reordered ? `, reordered ${c.reordered}${k.maxReorder ? ` (farthest out of place ${formatDuration(k.maxReorder.byMs)}, ${k.maxReorder.byPosition} ${noun(k.maxReorder.byPosition, 'position')})` : ''}` : ''}${c.resets ? `, resets ${c.resets} (its numbers started again)` : ''}; longest hold ${formatDuration(k.maxHoldMs)}, most held ${k.maxHeld}${lane.hot ? '. Hot key: over 3× the mean traffic, or 1 000+ messages held behind an open gap.' : ''}${open ? `. Now ${openStateWords(open)}${open.kind === 'waiting' ? ' (declared lost when the wait reaches the gap timeout, unless it arrives)' : ' (the start window: the lowest number held becomes the first expected)'}.` : ''}` +
    (lane.compared
      ? `. Compared: ${lane.compared.onlyA} ${noun(lane.compared.onlyA, 'number')} only A had, ${lane.compared.onlyB} only B had, ${lane.compared.lostBoth} lost in both (the marks on this lane)`
      : '') +
    timesText(k.percentiles, "This key's messages");
  item.contextValue = 'key';
  return item;
}

/** A finding group with its count. */
function groupItem(node: GroupNode, groupCount: (node: GroupNode) => number): vscode.TreeItem {
  const n = groupCount(node);
  const item = new vscode.TreeItem(GROUP_LABEL[node.group], vscode.TreeItemCollapsibleState.Collapsed);
  const s = sessionOf(node);
  item.id = `session:${s.id}:${node.parent instanceof KeyNode ? `key:${node.parent.key}:` : ''}${node.group}`;
  item.description = String(n);
  item.iconPath = new vscode.ThemeIcon(GROUP_ICON[node.group]);
  item.contextValue = `group.${node.group}`;
  return item;
}

/** An event: clicking reveals it in the timeline. */
function eventNodeItem(node: EventNode): vscode.TreeItem {
  const item = eventItem(node.event);
  item.id = `session:${node.session.id}:event:${node.event.id}`;
  item.command = { command: 'seqscope.timeline.reveal', title: 'Reveal in Timeline', arguments: [node] };
  return item;
}

function loadMoreItem(node: LoadMoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`Load more… (${node.remaining} more)`, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: 'seqscope.tree.loadMore', title: 'Load More', arguments: [node] };
  item.contextValue = 'loadMore';
  return item;
}

/** The filter's info row. */
function infoItem(node: InfoNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon(node.icon);
  item.tooltip = node.tooltip;
  item.contextValue = 'info';
  return item;
}

function countsText(c: EmittedCounts, withInvalid: boolean): string {
  const parts = [`${c.delivered} delivered`, `${c.gaps} ${noun(c.gaps, 'gap')}`, `${c.lost} lost`, `${c.duplicates} dup`, `${c.late} late`];
  if (c.conflicts) parts.splice(4, 0, `${c.conflicts} ${noun(c.conflicts, 'conflict')}`);
  if (c.reordered) parts.push(`${c.reordered} reordered`);
  if (c.resets) parts.push(`${c.resets} ${noun(c.resets, 'reset')}`);
  if (withInvalid) parts.push(`${c.invalid} invalid`);
  return parts.join(' · ');
}

function time(t: number): string {
  return t === t ? new Date(t).toISOString().slice(11, 23) : '';
}

export function eventItem(e: EventView): vscode.TreeItem {
  let label: string;
  let description: string;
  let icon: string;
  switch (e.kind) {
    case 'gap':
      label = e.count === 1 ? `#${e.seq}` : `#${e.seq}–${e.seqTo}`;
      description = `${e.count} lost · waited ${formatDuration(e.t1 - e.t0)}${e.reason !== 'timeout' ? ` (${e.reason})` : ''} · ${time(e.t1)}`;
      icon = 'debug-disconnect';
      break;
    case 'duplicate':
      label = e.seq !== undefined ? `#${e.seq}` : (e.messageId ?? '');
      description = `${e.conflict ? 'conflict: same messageId, other content' : e.redelivery ? `redelivery${e.cascade ? ` · cascade ${e.cascade}` : ''}` : 'second publish'} · ${time(e.t1)} · line ${e.line}`;
      icon = e.conflict ? 'diff' : e.redelivery ? 'sync' : 'copy';
      break;
    case 'late':
      label = `#${e.seq}`;
      description = `late${e.beforeStart ? " (before the key's first number)" : ''} · ${time(e.t1)} · line ${e.line}`;
      icon = 'watch';
      break;
    case 'reordered':
      label = e.messageId ?? '';
      description = `reordered · ${formatDuration(e.byMs ?? 0)}, ${e.byPosition} ${noun(e.byPosition ?? 0, 'position')} out of place${e.behindId ? ` (after ${e.behindId})` : ''} · ${time(e.t1)} · line ${e.line}`;
      icon = 'arrow-swap';
      break;
    case 'reset':
      label = `reset #${e.resetFrom} → #${e.seq}`;
      description = `${e.how ? RESET_HOW_WORDS[e.how] : ''} · released ${e.released ?? 0} · lost ${e.lost ?? 0} · ${time(e.t1)}`;
      icon = 'debug-restart';
      break;
    case 'invalid':
      label = `line ${e.line}`;
      description = e.problem ?? '';
      icon = 'error';
      break;
    default:
      label = e.seq !== undefined ? `#${e.seq}` : (e.messageId ?? '');
      description = time(e.t1);
      icon = 'mail';
  }
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.description = description;
  item.iconPath = new vscode.ThemeIcon(icon);
  item.tooltip = e.kind === 'reset' ? resetTooltip(e) : `${e.kind} ${label}${e.messageId ? `\nmessageId ${e.messageId}` : ''}\n${description}`;
  item.contextValue = `event.${e.kind}`;
  return item;
}

function resetTooltip(e: EventView): string {
  return `The key's numbers started again: #${e.resetFrom} was the old sequence's last, #${e.seq} the new one's first (arrived ${time(e.t0)}).\nDecided at ${time(e.t1)}: ${e.how ? RESET_HOW_WORDS[e.how] : 'unknown'}.\nReleased ${e.released ?? 0} held ${noun(e.released ?? 0, 'message')} of the old sequence; declared ${e.lost ?? 0} of its ${noun(e.lost ?? 0, 'number')} lost.`;
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** "3 keys", and how they are listed when not as first seen: "3 keys by name". */
function keysWords(n: number, order: KeyOrder): string {
  return `${n} ${noun(n, 'key')}${order === 'arrival' ? '' : ` by ${KEY_ORDER_LABELS[order]}`}`;
}
