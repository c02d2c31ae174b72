/**
 * The arrivals of a session in the order the sequencer saw them: where each record is in its
 * file (to read it back for the detail view, instead of keeping it in memory), and what it was
 * sequenced by (to re-run the sequencer for step-through replay).
 */
import { FloatColumn, IntColumn, StringColumn } from './columns';

export class ArrivalLog {
  readonly file = new IntColumn(4096);
  readonly line = new IntColumn(4096);
  readonly offset = new FloatColumn(4096);
  readonly length = new IntColumn(4096);
  /** Clock value; NaN for records without a valid time. */
  readonly time = new FloatColumn(4096);
  /** Key index, or −1 for an invalid record. */
  readonly key = new IntColumn(4096);
  readonly seq = new FloatColumn(4096);
  readonly messageId = new StringColumn(4096);

  get count(): number {
    return this.file.length;
  }

  add(file: number, line: number, offset: number, length: number, time: number, key: number, seq: number, messageId: string): number {
    const i = this.file.length;
    this.file.push(file);
    this.line.push(line);
    this.offset.push(offset);
    this.length.push(length);
    this.time.push(time);
    this.key.push(key);
    this.seq.push(seq);
    this.messageId.push(messageId);
    return i;
  }
}
