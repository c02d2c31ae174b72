import * as vscode from 'vscode';
import { formatDuration } from '../core/util/duration';
import { noun } from '../core/util/plural';
import { EmittedCounts } from '../shared/timelineModel';
import type { FindingGroup } from '../core/trace/traceFilter';
import { EventView } from '../shared/timelineModel';
import { positionWords } from '../timeline/replayCursor';
import { describeFilter, findingCount, findingKindsOnly, KEY_FINDING_KINDS, keyListing } from '../core/trace/traceFilter';
import { KEY_ORDER_LABELS, KeyOrder } from '../core/trace/keyOrder';
import { Disposable } from './dispose';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { treePageSize } from './settings';
import { displayKey } from '../core/trace/keyLabel';
import { judgesPublishOrder, sequencingLabel, unseenFindings } from '../core/sequencer/sequencingOptions';
import { openStateWords } from '../core/sequencer/openState';
import { measuresOf, percentileLines, TIME_MEASURE_LABELS, TimeMeasure, TimePercentiles } from '../core/replay/timePercentiles';
import { RESET_HOW_WORDS } from '../core/sequencer/resets';

/**
 * The Sessions tree: session → summary, keys (each with its counts; hot keys marked) → Gaps /
 * Duplicates / Late / Reordered → events; invalid records in their own group. Long lists page with a
 * "Load more" node. Nodes know their parent, so `reveal` works. Counts follow the replay cursor.
 */
export type TreeNode = SessionNode | SummaryNode | MeasureNode | KeyNode | GroupNode | EventNode | LoadMoreNode | InfoNode;

/** The hold and latency percentiles as tooltip lines (over the whole session, whatever the replay shows). */
function timesText(t: TimePercentiles | undefined, whose: string): string {
  const lines = t ? percentileLines(t) : [];
  return lines.length ? `\n\n${whose} (the whole session), ${lines.join('\n')}` : '';
}

export class SessionNode {
  readonly kind = 'session';
  constructor(readonly session: Session) {}
}

export class SummaryNode {
  readonly kind = 'summary';
  constructor(readonly parent: SessionNode) {}
}

/** Under the Summary: one hold or latency measure's percentiles over the whole session. */
export class MeasureNode {
  readonly kind = 'measure';
  constructor(
    readonly parent: SummaryNode,
    readonly measure: TimeMeasure,
  ) {}
}

export class KeyNode {
  readonly kind = 'key';
  constructor(
    readonly parent: SessionNode,
    readonly key: number,
  ) {}
}

type GroupKind = FindingGroup | 'invalid';

export class GroupNode {
  readonly kind = 'group';
  /** How many items are shown (grows with "Load more"). */
  shown: number;
  constructor(
    readonly parent: KeyNode | SessionNode,
    readonly group: GroupKind,
    pageSize: number,
  ) {
    this.shown = pageSize;
  }
}

export class EventNode {
  readonly kind = 'event';
  constructor(
    readonly parent: GroupNode,
    readonly event: EventView,
  ) {}
  get session(): Session {
    return sessionOf(this.parent);
  }
}

export class LoadMoreNode {
  readonly kind = 'loadMore';
  constructor(
    readonly parent: GroupNode | SessionNode,
    readonly remaining: number,
  ) {}
}

export class InfoNode {
  readonly kind = 'info';
  constructor(
    readonly parent: SessionNode,
    readonly label: string,
    readonly tooltip: string,
  ) {}
}

function sessionOf(n: GroupNode | KeyNode | SessionNode): Session {
  let p: GroupNode | KeyNode | SessionNode = n;
  while (!(p instanceof SessionNode)) p = p.parent;
  return p.session;
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

export class SessionsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** Nodes are cached so identities are stable (reveal, expansion state, Load more). */
  private readonly sessionNodes = new Map<Session, SessionNode>();
  private readonly children = new Map<object, TreeNode[]>();
  /** Keys shown per session (the key list pages too). */
  private readonly keysShown = new Map<Session, number>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly manager: SessionManager) {
    super();
    this._register(manager.onDidChange(() => this.scheduleRefresh()));
    this._register({ dispose: () => this.refreshTimer && clearTimeout(this.refreshTimer) });
  }

  /** Refreshes at most ~5 times a second: replay at "max" changes counts on every tick. */
  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.refresh();
    }, 200);
  }

  /** A refresh that is waiting for its throttle, done now. */
  flushRefresh(): void {
    if (!this.refreshTimer) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.refresh();
  }

  refresh(): void {
    for (const s of [...this.sessionNodes.keys()]) {
      if (!this.manager.all.includes(s)) {
        this.sessionNodes.delete(s);
        this.keysShown.delete(s);
      }
    }
    this.children.clear();
    this.changed.fire(undefined);
  }

  sessionNode(s: Session): SessionNode {
    let n = this.sessionNodes.get(s);
    if (!n) {
      n = new SessionNode(s);
      this.sessionNodes.set(s, n);
    }
    return n;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node instanceof SessionNode ? undefined : node.parent;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return this.manager.all.map((s) => this.sessionNode(s));
    const cached = this.children.get(node);
    if (cached) return cached;
    const kids = this.computeChildren(node);
    this.children.set(node, kids);
    return kids;
  }

  private computeChildren(node: TreeNode): TreeNode[] {
    if (node instanceof SessionNode) {
      const s = node.session;
      // Pages over the keys the filter names, not over all keys: a named key past the first page
      // (key 5 000 of 100 000) was not listed at all until Load more reached it. A filter on
      // findings only lists the keys with such a finding; and the keys are in the key order
      // (seqscope.keyOrder), as the timeline's lanes are (see Session.listedKeys).
      const names = s.data.keyNames;
      const listed = s.listedKeys();
      const keys = listed.length;
      const out: TreeNode[] = [new SummaryNode(node)];
      if (s.filterActive) {
        const howMany = keyListing(s.filter)
          ? ` · ${keys.toLocaleString('en-US')} of ${names.length.toLocaleString('en-US')} ${noun(names.length, 'key')}`
          : '';
        out.push(
          new InfoNode(
            node,
            `Filter: ${describeFilter(s.filter)}${howMany}`,
            'The tree, the timeline and exports show only what passes this filter. Clear it from the view title.',
          ),
        );
      }
      const shown = Math.min(keys, this.keysShown.get(s) ?? treePageSize());
      for (let i = 0; i < shown; i++) out.push(new KeyNode(node, listed[i]));
      if (shown < keys) out.push(new LoadMoreNode(node, keys - shown));
      const kinds = s.filter.kinds;
      if (s.data.store.invalid.length && (!kinds?.length || kinds.includes('invalid'))) out.push(new GroupNode(node, 'invalid', treePageSize()));
      return out;
    }
    if (node instanceof SummaryNode) return measuresOf(node.parent.session.data.summary.percentiles).map((m) => new MeasureNode(node, m));
    if (node instanceof KeyNode) {
      const s = node.parent.session;
      const c = s.data.keyCountsAt(node.key, s.position);
      const shownKinds = findingKindsOnly(s.filter) ?? KEY_FINDING_KINDS;
      const groups: GroupKind[] = [];
      if (c.gaps && shownKinds.includes('gap')) groups.push('gap');
      if (c.duplicates && shownKinds.includes('duplicate')) groups.push('duplicate');
      if (c.late && shownKinds.includes('late')) groups.push('late');
      if (c.reordered && shownKinds.includes('reordered')) groups.push('reordered');
      if (c.resets && shownKinds.includes('reset')) groups.push('reset');
      return groups.map((g) => new GroupNode(node, g, treePageSize()));
    }
    if (node instanceof GroupNode) {
      const s = sessionOf(node);
      const total = this.groupCount(node);
      const n = Math.min(total, node.shown);
      const events = node.group === 'invalid' ? s.data.invalidEvents(0, n) : s.data.findings((node.parent as KeyNode).key, node.group, 0, n);
      const out: TreeNode[] = events.map((e) => new EventNode(node, e));
      if (total > n) out.push(new LoadMoreNode(node, total - n));
      return out;
    }
    return [];
  }

  /** Items of a group visible at the replay position. */
  private groupCount(node: GroupNode): number {
    const s = sessionOf(node);
    if (node.group === 'invalid') return node.parent instanceof SessionNode ? s.data.countsAt(s.position).invalid : 0;
    const c = s.data.keyCountsAt((node.parent as KeyNode).key, s.position);
    return findingCount(c, node.group);
  }

  /** "Load more": shows another page of the list the node ends. */
  loadMore(node: LoadMoreNode): void {
    const parent = node.parent;
    if (parent instanceof GroupNode) {
      parent.shown += treePageSize();
      this.children.delete(parent);
      this.changed.fire(parent);
    } else {
      const s = parent.session;
      this.keysShown.set(s, (this.keysShown.get(s) ?? treePageSize()) + treePageSize());
      this.children.delete(parent);
      this.changed.fire(parent);
    }
  }

  /** The tree node of an event (creating group pages as needed), for `reveal`. */
  nodeForEvent(s: Session, ev: EventView): EventNode | undefined {
    const sn = this.sessionNode(s);
    if (ev.kind === 'message') return undefined;
    let group: GroupNode | undefined;
    if (ev.kind === 'invalid') {
      group = this.getChildren(sn).find((n): n is GroupNode => n instanceof GroupNode && n.group === 'invalid');
    } else {
      const kn = this.keyNode(s, ev.keyIndex);
      if (!kn) return undefined;
      group = this.getChildren(kn).find((n): n is GroupNode => n instanceof GroupNode && n.group === ev.kind);
    }
    if (!group) return undefined;
    for (;;) {
      const kids = this.getChildren(group);
      const hit = kids.find((n): n is EventNode => n instanceof EventNode && n.event.id === ev.id);
      if (hit) return hit;
      const more = kids[kids.length - 1];
      if (!(more instanceof LoadMoreNode)) return undefined;
      group.shown += treePageSize();
      this.children.delete(group);
    }
  }

  /** A key's node (listing more keys as needed), or undefined when the filter does not list it. */
  keyNode(s: Session, key: number): KeyNode | undefined {
    const sn = this.sessionNode(s);
    // Where the key is listed: the filter and the key order put it elsewhere than its index.
    const at = s.listedKeys().indexOf(key);
    if (at < 0) return undefined;
    if ((this.keysShown.get(s) ?? treePageSize()) <= at) {
      this.keysShown.set(s, at + treePageSize());
      this.children.delete(sn);
    }
    return this.getChildren(sn).find((n): n is KeyNode => n instanceof KeyNode && n.key === key);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node instanceof SessionNode) {
      const s = node.session;
      const item = new vscode.TreeItem(s.title, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `session:${s.id}`;
      const sum = s.data.summary;
      const live = s.live;
      if (live) {
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
      item.contextValue = 'session';
      item.iconPath = new vscode.ThemeIcon(this.manager.active === s ? 'pulse' : 'file');
      item.description = `${sequencingLabel(s.options)} · ${keysWords(sum.keys, s.keyOrder)} · ${sum.received + sum.invalid} ${noun(sum.received + sum.invalid, 'record')}${s.replay.active ? ` · ${positionWords(s.replay.position, s.data.arrivalCount)}` : ''}`;
      // A folder of archive files may hold thousands: the first few, and how many more.
      const files = s.sourcePaths
        .slice(0, 10)
        .map((p, i) => `- \`${p}\`${p === s.data.paths[i] ? '' : ' (gzip: read from a decompressed copy, deleted when the session closes)'}`);
      if (s.sourcePaths.length > 10) files.push(`- … and ${s.sourcePaths.length - 10} more`);
      const copy =
        s.data.copy === undefined
          ? ''
          : `\n\n${s.inputFormat === 'text' ? 'Read as text archives (bare payloads). ' : ''}Records are read back from a JSON Lines copy, deleted when the session closes.`;
      item.tooltip = new vscode.MarkdownString(`**${escapeMd(s.title)}**\n\n${files.join('\n')}${copy}\n\n${escapeMd(sum.options)}`);
      return item;
    }
    if (node instanceof SummaryNode) {
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
    if (node instanceof MeasureNode) {
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
    if (node instanceof KeyNode) {
      const s = node.parent.session;
      const c = s.data.keyCountsAt(node.key, s.position);
      const lane = s.lanes[node.key];
      const name = s.data.keyNames[node.key];
      const hasFindings = c.gaps + c.duplicates + c.late + c.reordered + c.resets > 0;
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
        timesText(k.percentiles, "This key's messages");
      item.contextValue = 'key';
      return item;
    }
    if (node instanceof GroupNode) {
      const n = this.groupCount(node);
      const item = new vscode.TreeItem(GROUP_LABEL[node.group], vscode.TreeItemCollapsibleState.Collapsed);
      const s = sessionOf(node);
      item.id = `session:${s.id}:${node.parent instanceof KeyNode ? `key:${node.parent.key}:` : ''}${node.group}`;
      item.description = String(n);
      item.iconPath = new vscode.ThemeIcon(GROUP_ICON[node.group]);
      item.contextValue = `group.${node.group}`;
      return item;
    }
    if (node instanceof EventNode) {
      const item = eventItem(node.event);
      item.id = `session:${node.session.id}:event:${node.event.id}`;
      item.command = { command: 'seqscope.revealInTimeline', title: 'Reveal in Timeline', arguments: [node] };
      return item;
    }
    if (node instanceof LoadMoreNode) {
      const item = new vscode.TreeItem(`Load more… (${node.remaining} more)`, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'seqscope.tree.loadMore', title: 'Load More', arguments: [node] };
      item.contextValue = 'loadMore';
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('filter');
    item.tooltip = node.tooltip;
    item.contextValue = 'info';
    return item;
  }
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

/**
 * Reveals an event's node (a mark clicked in a timeline). As in revealing a session: a live
 * session's tree refreshes on a throttle, and VS Code resolves the node among the children it
 * has. Before the node is made: a refresh makes the nodes anew.
 */
export async function revealEventInTree(tree: SessionsTreeProvider, treeView: vscode.TreeView<TreeNode>, s: Session, eventId: number): Promise<void> {
  tree.flushRefresh();
  const node = tree.nodeForEvent(s, s.data.event(eventId));
  if (node) await treeView.reveal(node, { select: true, focus: false, expand: true });
}

/**
 * Shows where a found message is in the Sessions view: its finding when it is one (a duplicate,
 * a late or invalid record), else its key (messages are not listed one by one). Returns what was
 * selected, or undefined when the filter hides it.
 */
export async function revealMessageInTree(
  tree: SessionsTreeProvider,
  treeView: vscode.TreeView<TreeNode>,
  s: Session,
  eventId: number,
): Promise<TreeNode | undefined> {
  tree.flushRefresh();
  const ev = s.data.event(eventId);
  const node = tree.nodeForEvent(s, ev) ?? (ev.kind === 'invalid' ? undefined : tree.keyNode(s, ev.keyIndex));
  if (node) await treeView.reveal(node, { select: true, focus: false, expand: node instanceof EventNode });
  return node;
}
