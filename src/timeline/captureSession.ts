/**
 * A sequenced capture held for viewing: the summary, every event in columns, and the arrival log.
 * Answers the views' questions a page at a time — never "everything" — so a million events stay
 * cheap to browse. Browser-safe: the standalone HTML export builds one from embedded columns.
 */
import type { OpenState } from '../core/sequencer/openState';
import type { ReplaySummary } from '../core/replay/replayEngine';
import { ArrivalLog } from './arrivalLog';
import { lowerBound } from './binarySearch';
import { EventStore } from './eventStore';
import type { FindingGroup } from '../core/trace/traceFilter';
import { type CompareKind, type ComparedCounts, Flag, isCompareKind, Kind, KindName } from '../shared/timelineModel';
import { decodeEvent } from './eventView';
import { EventView } from '../shared/timelineModel';
import type { EmittedCounts } from '../shared/timelineModel';

/**
 * A capture session's title: its files' names (the first and a count past two), "(partial)" when
 * loading was cancelled. Shared by the extension and the loading worker, whose first view must
 * carry the very title the session will have.
 */
export function captureTitle(paths: readonly string[], partial: boolean): string {
  const names = paths.map((p) => p.split(/[\\/]/).pop() as string);
  return (names.length > 2 ? `${names[0]} +${names.length - 1}` : names.join(' + ')) + (partial ? ' (partial)' : '');
}

export class CaptureSession {
  constructor(
    readonly paths: readonly string[],
    /** Replaced as a live session grows (LiveFeed.refresh). */
    public summary: ReplaySummary,
    readonly store: EventStore,
    readonly log: ArrivalLog,
    /** Key names by key index (first-appearance order, the summary's byKey order). */
    readonly keyNames: readonly string[],
    /**
     * Where records are read back from when the captures cannot give them by byte range (an
     * archive: see archiveCopy.ts): one JSON Lines file in arrival order. Undefined: each
     * arrival's own file.
     */
    readonly copy?: string,
  ) {}

  /**
   * A live session's backlog right now: what a key holds behind an open gap (not in its start
   * window, where holding is the rule). Set by LiveFeed; undefined for a capture, which has ended.
   */
  heldNow: ((key: number) => number) | undefined;

  /** A live session's keys waiting on something now (open gaps, start windows). Set by LiveFeed. */
  openNow: (() => { key: number; state: OpenState }[]) | undefined;

  get arrivalCount(): number {
    return this.log.count;
  }

  /**
   * Clock range covered by the session (first arrival → last arrival or event): the data's, not
   * the sequencer's clock, which a live session moves with the wall clock — the axis then
   * stretched to "now" and squeezed the data into a sliver.
   */
  get timeRange(): { start: number; end: number } {
    const s = this.summary;
    const start = s.firstTime ?? 0;
    const log = this.log;
    let end = start;
    for (let i = log.count - 1; i >= 0 && i >= log.count - 64; i--) {
      const t = log.time.get(i);
      if (t === t) {
        end = Math.max(end, t);
        break;
      }
    }
    const n = this.store.count;
    if (n > 0) end = Math.max(end, this.store.t1.get(n - 1));
    return { start, end: end > start ? end : start + 1 };
  }

  event(id: number): EventView {
    return decodeEvent(this.store, this.log, this.keyNames, id);
  }

  /** One key's gaps / duplicates / late events, `limit` from `offset`. */
  findings(key: number, group: FindingGroup, offset: number, limit: number): EventView[] {
    const list = this.store.keys[key]?.[group];
    if (!list) return [];
    const out: EventView[] = [];
    for (let i = offset; i < Math.min(list.length, offset + limit); i++) out.push(this.event(list.get(i)));
    return out;
  }

  findingCount(key: number, group: FindingGroup): number {
    return this.store.keys[key]?.[group].length ?? 0;
  }

  invalidEvents(offset: number, limit: number): EventView[] {
    const list = this.store.invalid;
    const out: EventView[] = [];
    for (let i = offset; i < Math.min(list.length, offset + limit); i++) out.push(this.event(list.get(i)));
    return out;
  }

  /** Index of a key by name, or −1. */
  keyIndex(name: string): number {
    return this.keyNames.indexOf(name);
  }

  /**
   * Counts of a key's events emitted before replay position `position` (events caused by
   * arrivals < position; position > arrival count includes end of input).
   */
  keyCountsAt(key: number, position: number): EmittedCounts {
    const ke = this.store.keys[key];
    const c: EmittedCounts = { delivered: 0, gaps: 0, lost: 0, duplicates: 0, conflicts: 0, late: 0, reordered: 0, resets: 0, invalid: 0 };
    if (!ke) return c;
    const cause = this.store.cause.data;
    const count = (list: { data: Int32Array; length: number }) => lowerBound((i) => cause[list.data[i]], 0, list.length, position);
    const all = count(ke.all);
    c.gaps = count(ke.gap);
    c.duplicates = count(ke.duplicate);
    c.late = count(ke.late);
    c.reordered = count(ke.reordered);
    c.resets = count(ke.reset);
    c.delivered = all - c.gaps - c.duplicates - c.late - c.reordered - c.resets;
    for (let i = 0; i < c.gaps; i++) c.lost += this.store.extra.get(ke.gap.get(i));
    for (let i = 0; i < c.duplicates; i++) if (this.store.flags.get(ke.duplicate.get(i)) & Flag.conflict) c.conflicts++;
    return c;
  }

  /** A comparison's merged lane: the numbers its ranges hold by kind; undefined for any other lane. */
  comparedCounts(key: number): ComparedCounts | undefined {
    const ke = this.store.keys[key];
    if (!ke || ke.compared.length === 0) return undefined;
    const c: ComparedCounts = { onlyA: 0, onlyB: 0, lostBoth: 0 };
    for (let i = 0; i < ke.compared.length; i++) {
      const id = ke.compared.get(i);
      const kind = this.store.kind.get(id);
      const n = this.store.extra.get(id);
      if (kind === Kind.onlyA) c.onlyA += n;
      else if (kind === Kind.onlyB) c.onlyB += n;
      else c.lostBoth += n;
    }
    return c;
  }

  /** Session-wide counts up to a replay position. */
  countsAt(position: number): EmittedCounts {
    const c: EmittedCounts = { delivered: 0, gaps: 0, lost: 0, duplicates: 0, conflicts: 0, late: 0, reordered: 0, resets: 0, invalid: 0 };
    const cause = this.store.cause.data;
    const n = lowerBound((i) => cause[i], 0, this.store.count, position);
    const kind = this.store.kind.data;
    for (let i = 0; i < n; i++) {
      switch (kind[i]) {
        case Kind.message:
          c.delivered++;
          break;
        case Kind.gap:
          c.gaps++;
          c.lost += this.store.extra.get(i);
          break;
        case Kind.duplicate:
          c.duplicates++;
          if (this.store.flags.get(i) & Flag.conflict) c.conflicts++;
          break;
        case Kind.late:
          c.late++;
          break;
        case Kind.reordered:
          c.reordered++;
          break;
        case Kind.reset:
          c.resets++;
          break;
        case Kind.invalid:
          c.invalid++;
          break;
      }
    }
    return c;
  }

  /**
   * The replay position just after the next event of `kind` emitted at or after `position`
   * (so stepping there shows it), or undefined when there is none.
   */
  /**
   * Where "Run to Next Gap" stops after `position`: where a gap opens — just after the first
   * message held behind it arrived — and where it is declared lost, whichever comes first. A gap
   * declared at the end of input (the recording ended before its timeout) is still seen opening.
   */
  nextGapStop(position: number): number | undefined {
    let best = this.nextPositionOf('gap', position);
    const store = this.store;
    const kinds = store.kind.data;
    for (let i = 0; i < store.count; i++) {
      if (kinds[i] !== Kind.gap) continue;
      const opened = this.gapOpening(i);
      if (opened !== undefined && opened + 1 > position && (best === undefined || opened + 1 < best)) best = opened + 1;
    }
    return best;
  }

  /**
   * The arrival that opened a gap: the earliest-arrived of the messages its declaration releases
   * (they follow it in the store, on its key, with the same cause), or undefined.
   */
  gapOpening(gapId: number): number | undefined {
    const store = this.store;
    const key = store.key.get(gapId);
    const cause = store.cause.get(gapId);
    let first: number | undefined;
    for (let j = gapId + 1; j < store.count && store.cause.get(j) === cause; j++) {
      if (store.key.get(j) !== key || store.kind.get(j) === Kind.gap) continue;
      if (store.kind.get(j) !== Kind.message) continue;
      const a = store.arrival.get(j);
      if (a >= 0 && (first === undefined || a < first)) first = a;
    }
    return first;
  }

  /** A comparison's ranges are no step of the replay (they hold at every position): undefined for them. */
  nextPositionOf(kind: KindName, position: number, key?: number): number | undefined {
    const code = Kind[kind];
    if (isCompareKind(code)) return undefined;
    const store = this.store;
    const cause = store.cause.data;
    if (key !== undefined && kind !== 'invalid' && kind !== 'message') {
      const list = store.keys[key]?.[kind as Exclude<KindName, 'invalid' | 'message' | CompareKind>];
      if (!list) return undefined;
      const i = lowerBound((j) => cause[list.data[j]], 0, list.length, position);
      return i < list.length ? cause[list.data[i]] + 1 : undefined;
    }
    const kinds = store.kind.data;
    for (let i = lowerBound((j) => cause[j], 0, store.count, position); i < store.count; i++) {
      if (kinds[i] === code && (key === undefined || store.key.get(i) === key)) return cause[i] + 1;
    }
    return undefined;
  }
}
