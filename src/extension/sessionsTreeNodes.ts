/**
 * The Sessions tree's nodes: session → summary (→ hold and latency measures), keys → finding
 * groups → events; invalid records in their own group; "Load more" ending a long list; the
 * filter's info row; a comparison's missed ranges under its lanes. Each knows its parent, so `reveal` works.
 */
import type { FindingGroup } from '../core/trace/traceFilter';
import type { TimeMeasure } from '../core/replay/timePercentiles';
import type { EventView } from '../shared/timelineModel';
import type { Session } from './session';
import type { MissedRange } from '../core/compare/compareResult';

export type TreeNode = SessionNode | SummaryNode | MeasureNode | KeyNode | GroupNode | EventNode | LoadMoreNode | InfoNode | MissedGroupNode | RangeNode;

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

export type GroupKind = FindingGroup | 'invalid';

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
    readonly parent: GroupNode | SessionNode | MissedGroupNode,
    readonly remaining: number,
  ) {}
}

export class InfoNode {
  readonly kind = 'info';
  constructor(
    readonly parent: SessionNode,
    readonly label: string,
    readonly tooltip: string,
    /** A codicon (default: the filter's). */
    readonly icon = 'filter',
  ) {}
}

/** Under a comparison session's lane: the numbers that lane's side missed (the merged lane: what both lost), as ranges. */
export class MissedGroupNode {
  readonly kind = 'missed';
  /** How many ranges are shown (grows with "Load more"). */
  shown: number;
  constructor(
    readonly parent: KeyNode,
    readonly ranges: readonly MissedRange[],
    pageSize: number,
  ) {
    this.shown = pageSize;
  }
}

/** One range of missed numbers: clicking reveals it in the timeline. */
export class RangeNode {
  readonly kind = 'range';
  constructor(
    readonly parent: MissedGroupNode,
    readonly range: MissedRange,
    /** Its place in the group's list (an id for the tree item). */
    readonly index: number,
  ) {}
  get session(): Session {
    return sessionOf(this.parent.parent);
  }
}

/** The session a node belongs to. */
export function sessionOf(n: GroupNode | KeyNode | SessionNode): Session {
  let p: GroupNode | KeyNode | SessionNode = n;
  while (!(p instanceof SessionNode)) p = p.parent;
  return p.session;
}
