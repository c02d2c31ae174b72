/**
 * How the sequencer names an arrival that is not new: late (its number was declared lost, or is
 * below the sequence's start), or a duplicate — a redelivery (same messageId), part of a
 * redelivery cascade, or a conflict (same messageId, different content).
 */
import { KeySlot } from './keySlots';
import { hashId } from './messageHashes';
import { SequencerState } from './sequencerState';
import { KeyState } from './keyState';

/** The rules that name what arrives behind a key's expected number, and report it to the sink. */
export abstract class SequencerFindings<T> extends SequencerState<T> {
  /**
   * A number below the expected one: late if it was declared lost or is below the sequence's
   * start (never seen either way), else a duplicate.
   */
  protected behind(k: KeyState<T>, abs: number, messageId: string, item: T, now: number): void {
    const r = this.lostRangeOf(k, abs);
    if (r !== undefined) {
      const prior = r.arrived?.get(abs);
      const content = this.contentOf(item);
      if (prior !== undefined) {
        const conflict = prior.id === messageId && prior.content !== content;
        this.duplicate(k, abs, messageId, prior.id, true, item, now, prior.id === messageId && !conflict, conflict);
        return;
      }
      (r.arrived ??= new Map()).set(abs, { id: messageId, content });
      this.late(k, abs, messageId, item, now, r.declaredAt, false);
      return;
    }
    if (abs < this.keyNumbers[this.slot(k, KeySlot.SequenceStart)]) {
      this.beforeStart(k, abs, messageId, item, now);
      return;
    }
    let sameId = false;
    let conflict = false;
    const slot = this.historySlot(k, abs);
    if (slot >= 0) {
      const first = this.history.get(k, slot);
      // Equal 32-bit hashes of different ids would mislabel a second publish as a redelivery:
      // about one in four billion.
      sameId = first !== 0 && first === hashId(messageId);
      conflict = sameId && this.history.getContent(k, slot) !== this.contentOf(item);
    }
    this.duplicate(k, abs, messageId, sameId ? messageId : undefined, true, item, now, sameId && !conflict, conflict);
  }

  /** A number below the first of the key's sequence: late (the key started without it), or a copy of one that came so. */
  private beforeStart(k: KeyState<T>, abs: number, messageId: string, item: T, now: number): void {
    const f = this.findingsOf(k);
    const content = this.contentOf(item);
    const prior = f.beforeStart?.get(abs);
    if (prior !== undefined) {
      const conflict = prior.id === messageId && prior.content !== content;
      this.duplicate(k, abs, messageId, prior.id, true, item, now, prior.id === messageId && !conflict, conflict);
      return;
    }
    const seen = (f.beforeStart ??= new Map());
    // Bounded like the history: the oldest is forgotten (a copy of it is then late again).
    if (seen.size >= this.historySize) seen.delete(seen.keys().next().value as number);
    seen.set(abs, { id: messageId, content });
    this.late(k, abs, messageId, item, now, this.keyNumbers[this.slot(k, KeySlot.StartDeadline)], true);
  }

  private late(k: KeyState<T>, abs: number, messageId: string, item: T, now: number, lostAt: number, beforeStart: boolean): void {
    k.cascadeOpen = false;
    k.late++;
    this.totalsState.late++;
    this.sink.late(k, { seq: this.space.wrap(abs), messageId, lostAt, beforeStart, at: now, item });
  }

  protected duplicate(
    k: KeyState<T>,
    abs: number,
    messageId: string,
    firstMessageId: string | undefined,
    firstDelivered: boolean,
    item: T,
    now: number,
    redelivery = firstMessageId === messageId,
    conflict = false,
    firstItem: T | undefined = undefined,
  ): void {
    k.duplicates++;
    this.totalsState.duplicates++;
    if (conflict) {
      k.conflicts++;
      this.totalsState.conflicts++;
    }
    let cascade: number | undefined;
    if (redelivery) {
      const f = this.findingsOf(k);
      k.redeliveries++;
      this.totalsState.redeliveries++;
      // One cascade = a run of redeliveries of this key in increasing order with no fresh
      // message between them: Pub/Sub re-sending N and everything after it.
      const continues = k.cascadeOpen && (abs !== abs || abs > f.cascadeLast);
      if (!continues) {
        k.cascades++;
        this.totalsState.cascades++;
        f.cascadeId = ++this.cascadeCount;
      }
      k.cascadeOpen = true;
      f.cascadeLast = abs !== abs ? 0 : abs;
      cascade = f.cascadeId;
    }
    this.sink.duplicate(k, {
      seq: abs !== abs ? undefined : this.space.wrap(abs),
      messageId,
      redelivery,
      firstMessageId,
      firstDelivered,
      cascade,
      conflict,
      firstItem,
      at: now,
      item,
    });
  }
}
