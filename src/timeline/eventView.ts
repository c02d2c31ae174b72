/**
 * One event of a session as a plain object: what the tree items, the timeline's detail pane and
 * the "copy" commands show. Decoded from the columns on demand, a page at a time.
 */
import { ArrivalLog } from './arrivalLog';
import { EventStore } from './eventStore';
import { Flag, isCompareKind, Kind, KIND_NAMES, RESET_HOWS, type EventView } from '../shared/timelineModel';
import { sidesBeside } from './compareLanes';

export function decodeEvent(store: EventStore, log: ArrivalLog, keyNames: readonly string[], id: number): EventView {
  const kind = store.kind.get(id);
  const keyIndex = store.key.get(id);
  const v: EventView = {
    id,
    kind: KIND_NAMES[kind],
    key: keyIndex >= 0 ? keyNames[keyIndex] : '',
    keyIndex,
    t0: store.t0.get(id),
    t1: store.t1.get(id),
  };
  const seq = store.seq.get(id);
  if (seq === seq) v.seq = seq;
  const flags = store.flags.get(id);
  const extra = store.extra.get(id);
  if (kind === Kind.gap) {
    v.seqTo = store.seqTo.get(id);
    v.count = extra;
    v.reason = flags & Flag.reasonCapacity ? 'capacity' : flags & Flag.reasonEnd ? 'end' : flags & Flag.reasonReset ? 'reset' : 'timeout';
  } else if (isCompareKind(kind)) {
    v.seqTo = store.seqTo.get(id);
    v.count = extra;
    const sides = sidesBeside(keyNames, keyIndex);
    if (sides) v.sides = sides;
  } else if (kind === Kind.reset) {
    v.resetFrom = store.seqTo.get(id);
    v.how = RESET_HOWS[flags];
    v.released = store.released.get(id) ?? 0;
    v.lost = extra;
  } else {
    const a = store.arrival.get(id);
    v.arrival = a;
    v.file = log.file.get(a);
    v.line = log.line.get(a);
    const mid = log.messageId.get(a);
    if (mid) v.messageId = mid;
    if (kind === Kind.invalid) {
      v.problem = store.problems.get(id);
    } else if (kind === Kind.duplicate) {
      v.redelivery = (flags & Flag.redelivery) !== 0;
      if (flags & Flag.conflict) v.conflict = true;
      if (extra > 0) v.cascade = extra;
    } else if (kind === Kind.late) {
      if (flags & Flag.beforeStart) v.beforeStart = true;
      if (extra > 0) v.lostAt = extra;
    } else if (kind === Kind.reordered) {
      v.byMs = extra;
      v.byPosition = store.seqTo.get(id);
      const behind = store.behind.get(id);
      if (behind !== undefined) v.behindId = behind;
    } else if (kind === Kind.message && extra === extra) {
      v.latencyMs = extra;
    }
  }
  return v;
}
