/**
 * The trace events a replay emits for what the sequencer reports, built from its reports and the
 * capture entry behind each (its record, when kept, for the times and content a reader wants).
 */
import { CaptureEntry } from '../capture/captureRecord';
import { conflictReason, contentDifferences } from '../capture/contentHash';
import { ScannedEntry } from '../capture/scannedEntry';
import { ResetInfo } from '../sequencer/resets';
import { DuplicateInfo, GapInfo, LateInfo, ReorderInfo } from '../sequencer/sequencer';
import { DuplicateEvent, GapEvent, LateEvent, MessageEvent, ReorderedEvent, ResetEvent } from '../trace/traceEvents';

/**
 * A delivered message's event. Without the record (a scanned entry whose bytes were not kept):
 * what sequencing read.
 */
export function messageEvent(
  key: string,
  seq: number | undefined,
  e: CaptureEntry,
  arrivedAt: number,
  releasedAt: number,
  heldMs: number,
  latencyMs: number | undefined,
  file: string | undefined,
): MessageEvent {
  const rm = e.record;
  const m = rm?.message;
  return new MessageRelease(
    'message',
    key,
    seq,
    m === undefined ? (e as ScannedEntry).messageId : m.messageId,
    m?.publishTime,
    rm?.receivedAt,
    m?.orderingKey,
    m?.attributes,
    m?.data,
    rm?.deliveryAttempt,
    arrivedAt,
    releasedAt,
    heldMs,
    latencyMs,
    file,
    e.line,
    m?.decodedBy,
  );
}

/** A gap's event: how long it was waited for, and why it was declared. */
export function gapEvent(key: string, g: GapInfo): GapEvent {
  return {
    type: 'gap',
    key,
    from: g.from,
    to: g.to,
    count: g.count,
    openedAt: g.openedAt,
    declaredAt: g.declaredAt,
    waitedMs: g.declaredAt - g.openedAt,
    reason: g.reason,
  };
}

/** A duplicate's event; a conflict says what differs from the first copy when that copy is at hand. */
export function duplicateEvent(key: string, d: DuplicateInfo<CaptureEntry>, file: string | undefined): DuplicateEvent {
  const rm = d.item.record;
  return {
    type: 'duplicate',
    key,
    seq: d.seq,
    messageId: d.messageId,
    redelivery: d.redelivery,
    firstMessageId: d.firstMessageId,
    cascade: d.cascade,
    conflict: d.conflict ? true : undefined,
    conflictReason: d.conflict ? conflictReason(rm && d.firstItem?.record && contentDifferences(d.firstItem.record.message, rm.message)) : undefined,
    deliveryAttempt: rm?.deliveryAttempt,
    publishTime: rm?.message.publishTime,
    receivedAt: rm?.receivedAt,
    at: d.at,
    file,
    line: d.item.line,
  };
}

/** A message judged by publish order that came after one of its key published later. */
export function reorderedEvent(key: string, r: ReorderInfo<CaptureEntry>, file: string | undefined): ReorderedEvent {
  const rm = r.item.record;
  return {
    type: 'reordered',
    key,
    messageId: r.messageId,
    publishTime: rm?.message.publishTime ?? isoTime(r.publishedMs),
    behindPublishTime: r.behindItem.record?.message.publishTime ?? isoTime(r.behindMs),
    behindMessageId: r.behindId,
    byMs: r.byMs,
    byPosition: r.byPosition,
    receivedAt: rm?.receivedAt,
    at: r.at,
    file,
    line: r.item.line,
  };
}

/** A late arrival's event: a number declared lost (or below the key's start) that came after all. */
export function lateEvent(key: string, l: LateInfo<CaptureEntry>, file: string | undefined): LateEvent {
  const rm = l.item.record;
  return {
    type: 'late',
    key,
    seq: l.seq,
    messageId: l.messageId,
    lostAt: l.lostAt,
    beforeStart: l.beforeStart ? true : undefined,
    publishTime: rm?.message.publishTime,
    receivedAt: rm?.receivedAt,
    at: l.at,
    file,
    line: l.item.line,
  };
}

/** A reset's event. */
export function resetEvent(key: string, r: ResetInfo): ResetEvent {
  return { type: 'reset', key, from: r.from, to: r.to, at: r.at, arrivedAt: r.arrivedAt, released: r.released, lost: r.lost, how: r.how };
}

/** A publish time the record did not keep as text (a scanned entry): ISO 8601, to the ms. */
function isoTime(ms: number): string | undefined {
  return ms === ms ? new Date(ms).toISOString() : undefined;
}

/**
 * A message event, made by a class rather than an object literal: an exporter holds a batch's
 * events until it writes them, so most survive a young-generation collection, and V8 then may
 * allocate an object literal's site in the old generation (see RecordEntry in captureRecord.ts
 * for what that costs). Parameters in the order of the JSONL export's fields, `type` first: a
 * class field would be defined after them.
 */
class MessageRelease implements MessageEvent {
  constructor(
    readonly type: 'message',
    readonly key: string,
    readonly seq: number | undefined,
    readonly messageId: string,
    readonly publishTime: string | undefined,
    readonly receivedAt: string | undefined,
    readonly orderingKey: string | undefined,
    readonly attributes: Record<string, string> | undefined,
    readonly data: string | undefined,
    readonly deliveryAttempt: number | undefined,
    readonly arrivedAt: number,
    readonly releasedAt: number,
    readonly heldMs: number,
    readonly latencyMs: number | undefined,
    readonly file: string | undefined,
    readonly line: number,
    readonly decodedBy: string | undefined,
  ) {}
}
