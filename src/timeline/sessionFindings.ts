/**
 * A loaded session's findings as trace events — what the agent tools list about a capture file
 * (core/inspect) read from the session's columns instead of sequencing the files again. Times,
 * numbers, messageIds and reasons come from the columns; publish times are not kept there.
 */
import { type FindingEvent, MAX_FINDINGS_KEPT } from '../core/inspect/findingKinds';
import { assertNever } from '../core/util/assertNever';
import { isCompareKind, type EventView } from '../shared/timelineModel';
import type { CaptureSession } from './captureSession';

export interface SessionFindings {
  readonly findings: FindingEvent[];
  /** Findings past `max`, counted but not listed. */
  readonly dropped: number;
  /** The arrival each finding is about (its record), for those about one (not gaps and resets). */
  readonly arrivalOf: ReadonlyMap<FindingEvent, number>;
}

/**
 * Every finding of the session in the order found, the first `max` of them.
 * @param fileNames The capture names findings cite (when there are several), by file index: the session's paths when absent.
 */
export function sessionFindings(data: CaptureSession, fileNames: readonly string[] = data.paths, max = MAX_FINDINGS_KEPT): SessionFindings {
  const findings: FindingEvent[] = [];
  const arrivalOf = new Map<FindingEvent, number>();
  let dropped = 0;
  const kinds = data.store.kind;
  for (let id = 0; id < data.store.count; id++) {
    if (kinds.get(id) === 0 || isCompareKind(kinds.get(id))) continue;
    if (findings.length >= max) {
      dropped++;
      continue;
    }
    const v = data.event(id);
    const ev = findingOf(v, fileNames);
    if (!ev) continue;
    findings.push(ev);
    if (v.arrival !== undefined && v.arrival >= 0) arrivalOf.set(ev, v.arrival);
  }
  return { findings, dropped, arrivalOf };
}

/** One event as the finding it is (undefined for a released message). */
export function findingOf(v: EventView, fileNames: readonly string[]): FindingEvent | undefined {
  // As the trace has it: the file is named when there are several.
  const file = fileNames.length > 1 && v.file !== undefined ? fileNames[v.file] : undefined;
  const where = { ...(file !== undefined ? { file } : {}), line: v.line ?? 0 };
  const messageId = v.messageId ?? '';
  switch (v.kind) {
    case 'message':
      return undefined;
    case 'gap':
      return {
        type: 'gap',
        key: v.key,
        from: v.seq ?? 0,
        to: v.seqTo ?? 0,
        count: v.count ?? 0,
        openedAt: v.t0,
        declaredAt: v.t1,
        waitedMs: v.t1 - v.t0,
        reason: v.reason ?? 'timeout',
      };
    case 'duplicate':
      return {
        type: 'duplicate',
        key: v.key,
        ...(v.seq !== undefined ? { seq: v.seq } : {}),
        messageId,
        redelivery: v.redelivery ?? false,
        ...(v.conflict ? { conflict: true as const } : {}),
        ...(v.cascade ? { cascade: v.cascade } : {}),
        at: v.t1,
        ...where,
      };
    case 'late':
      return {
        type: 'late',
        key: v.key,
        seq: v.seq ?? 0,
        messageId,
        lostAt: v.lostAt ?? NaN,
        ...(v.beforeStart ? { beforeStart: true as const } : {}),
        at: v.t1,
        ...where,
      };
    case 'reordered':
      return {
        type: 'reordered',
        key: v.key,
        messageId,
        behindMessageId: v.behindId ?? '',
        byMs: v.byMs ?? 0,
        byPosition: v.byPosition ?? 0,
        at: v.t1,
        ...where,
      };
    case 'reset':
      return {
        type: 'reset',
        key: v.key,
        from: v.resetFrom ?? 0,
        to: v.seq ?? 0,
        at: v.t1,
        arrivedAt: v.t0,
        released: v.released ?? 0,
        lost: v.lost ?? 0,
        how: v.how ?? 'next',
      };
    case 'invalid':
      return { type: 'invalid', ...where, reason: v.problem ?? 'invalid record', ...(v.t1 === v.t1 ? { at: v.t1 } : {}) };
    case 'onlyA':
    case 'onlyB':
    case 'lostBoth':
      // A comparison's ranges: its own facts (compareResult.ts), no trace event.
      return undefined;
    default:
      return assertNever(v.kind);
  }
}
