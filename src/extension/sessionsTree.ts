import * as vscode from 'vscode';
import { describeFilter, findingCount, findingKindsOnly, KEY_FINDING_KINDS, keyListing } from '../core/trace/traceFilter';
import { measuresOf } from '../core/replay/timePercentiles';
import type { EventView } from '../shared/timelineModel';
import { noun } from '../core/util/plural';
import { Disposable } from './dispose';
import { Session } from './session';
import { SessionManager } from './sessionManager';
import { treePageSize } from './settings';
import { treeItem } from './sessionsTreeItems';
import {
  EventNode,
  GroupKind,
  GroupNode,
  InfoNode,
  KeyNode,
  LoadMoreNode,
  MeasureNode,
  MissedGroupNode,
  SessionNode,
  sessionOf,
  SummaryNode,
  TreeNode,
} from './sessionsTreeNodes';
import { comparisonInfo, missedChildren, missedGroup } from './sessionsTreeCompare';
import { steadyState, TreeRefreshPace } from './treeRefreshPace';

export type { TreeNode } from './sessionsTreeNodes';
export { EventNode, GroupNode, InfoNode, KeyNode, LoadMoreNode, MeasureNode, MissedGroupNode, RangeNode, SessionNode, SummaryNode } from './sessionsTreeNodes';

/**
 * The Sessions tree: session → summary, keys (each with its counts; hot keys marked) → Gaps /
 * Duplicates / Late / Reordered → events; invalid records in their own group. Long lists page with a
 * "Load more" node. Nodes know their parent, so `reveal` works. Counts follow the replay cursor.
 */
export class SessionsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** Nodes are cached so identities are stable (reveal, expansion state, Load more). */
  private readonly sessionNodes = new Map<Session, SessionNode>();
  private readonly children = new Map<object, TreeNode[]>();
  /** Keys shown per session (the key list pages too). */
  private readonly keysShown = new Map<Session, number>();
  /** When the tree draws again: soon after a change of state, once a second for a live stream's counts. */
  private readonly pace = new TreeRefreshPace(() => this.refresh(), { now: Date.now, setTimeout, clearTimeout });

  constructor(private readonly manager: SessionManager) {
    super();
    this._register(manager.onDidChange(() => this.pace.changed(steadyState(manager.all, manager.active?.id))));
    this._register(this.pace);
  }

  /** A refresh that is waiting for its pace, done now. */
  flushRefresh(): void {
    this.pace.flush();
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
      const out: TreeNode[] = [new SummaryNode(node), ...comparisonInfo(node)];
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
      const missed = missedGroup(node, treePageSize());
      return [...(missed ? [missed] : []), ...groups.map((g) => new GroupNode(node, g, treePageSize()))];
    }
    if (node instanceof MissedGroupNode) return missedChildren(node);
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
    if (parent instanceof GroupNode || parent instanceof MissedGroupNode) {
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
    return treeItem(node, { active: this.manager.active, groupCount: (n) => this.groupCount(n) });
  }
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
