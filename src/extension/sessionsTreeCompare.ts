/**
 * The Sessions tree's part for a comparison session (Compare with…): which side is which and
 * what the clocks suggest, at the top; under each lane, the ranges of numbers its side missed
 * (the merged lane: what both lost), paged, each revealed in the timeline when clicked.
 */
import * as vscode from 'vscode';
import type { MissedRange } from '../core/compare/compareResult';
import { noun } from '../core/util/plural';
import { comparisonIndex, missedOnLane } from '../timeline/compareLanes';
import { missedRangeEvent } from '../timeline/compareReveal';
import { comparisonNotes, sidesLine, totalsLine } from '../timeline/comparisonWords';
import { InfoNode, KeyNode, LoadMoreNode, MissedGroupNode, RangeNode, SessionNode, sessionOf, TreeNode } from './sessionsTreeNodes';

/** The info rows at the top of a comparison session (none for another session). */
export function comparisonInfo(node: SessionNode): InfoNode[] {
  const f = node.session.comparison;
  if (!f) return [];
  const files = (i: 0 | 1) => f.paths[i].join(', ');
  const out = [
    new InfoNode(
      node,
      sidesLine(f),
      `A (${f.labels[0]}): ${files(0)}\nB (${f.labels[1]}): ${files(1)}\n${totalsLine(f)}\nMerged: every copy of both in arrival order, the first copy of a number winning from either side. Sequenced as ${f.options}.`,
      'diff',
    ),
  ];
  for (const n of comparisonNotes(f)) out.push(new InfoNode(node, n, n, n.startsWith('no shared key') ? 'warning' : 'clock'));
  return out;
}

/** A comparison lane's group of missed ranges, when its side missed any. */
export function missedGroup(node: KeyNode, pageSize: number): MissedGroupNode | undefined {
  const f = node.parent.session.comparison;
  const role = f?.roles[node.key];
  if (!f || !role) return undefined;
  const ranges = comparisonIndex(f).rangesOf(role.key);
  const missed = ranges && missedOnLane(ranges, role.side);
  return missed?.length ? new MissedGroupNode(node, missed, pageSize) : undefined;
}

/** A group's ranges, a page at a time. */
export function missedChildren(node: MissedGroupNode): TreeNode[] {
  const n = Math.min(node.ranges.length, node.shown);
  const out: TreeNode[] = node.ranges.slice(0, n).map((r, i) => new RangeNode(node, r, i));
  if (node.ranges.length > n) out.push(new LoadMoreNode(node, node.ranges.length - n));
  return out;
}

/** What a group says: whose misses, on which side. */
function groupLabel(node: MissedGroupNode): string {
  const s = sessionOf(node.parent);
  const f = s.comparison!;
  const side = f.roles[node.parent.key].side;
  return side === 'merged' ? 'Lost in both' : `Missed by ${side === 'a' ? 'A' : 'B'} (${f.labels[side === 'a' ? 0 : 1]})`;
}

export function missedGroupItem(node: MissedGroupNode): vscode.TreeItem {
  const s = sessionOf(node.parent);
  const item = new vscode.TreeItem(groupLabel(node), vscode.TreeItemCollapsibleState.Collapsed);
  const count = node.ranges.reduce((n, r) => n + r.count, 0);
  item.id = `session:${s.id}:key:${node.parent.key}:missed`;
  item.description = `${count} in ${node.ranges.length} ${noun(node.ranges.length, 'run')}`;
  item.iconPath = new vscode.ThemeIcon('debug-disconnect');
  item.contextValue = 'missed';
  return item;
}

/** "#65534–1 (4)", "#10", or "3 messages" with --seq none. */
export function rangeLabel(r: MissedRange): string {
  if (r.from === undefined) return `${r.count} ${noun(r.count, 'message')}`;
  return r.from === r.to ? `#${r.from}` : `#${r.from}–${r.to}`;
}

export function rangeItem(node: RangeNode): vscode.TreeItem {
  const s = node.session;
  const r = node.range;
  const item = new vscode.TreeItem(rangeLabel(r), vscode.TreeItemCollapsibleState.None);
  item.id = `session:${s.id}:key:${node.parent.parent.key}:missed:${node.index}`;
  item.description = `${r.count} ${noun(r.count, r.from === undefined ? 'message' : 'number')}`;
  item.tooltip = `${groupLabel(node.parent)}: ${rangeLabel(r)}, ${r.count} ${noun(r.count, 'number')}. Click to reveal it in the timeline.`;
  item.iconPath = new vscode.ThemeIcon('circle-slash');
  item.command = { command: 'seqscope.timeline.reveal', title: 'Reveal in Timeline', arguments: [node] };
  item.contextValue = 'range';
  return item;
}

/** The event that shows a range in the timeline (see compareReveal.ts), or undefined. */
export function rangeEvent(node: RangeNode): number | undefined {
  const s = node.session;
  const f = s.comparison;
  if (!f) return undefined;
  return missedRangeEvent(s.data, comparisonIndex(f).laneOf, f.roles[node.parent.parent.key], node.range);
}
