/**
 * A one-line progress report on a terminal ("seqscope: reading feed.jsonl 45% (210 of 473
 * MiB)"), redrawn in place a few times a second and erased at the end, so a replay of a
 * gigabyte capture does not look hung. Only for a terminal: a log or a pipe gets nothing.
 */
import { Writable } from 'node:stream';

/** Redraws at most this often: more is flicker, and each redraw is a write. */
const INTERVAL_MS = 250;
const MIB = 1 << 20;

export class ProgressLine {
  private lastAt = -Infinity;
  private shown = false;

  constructor(
    private readonly out: Writable,
    /** What is being read, as the summary names it. */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes read so far of `total` (0 when unknown: a stream). */
  update(read: number, total: number): void {
    const t = this.now();
    if (t - this.lastAt < INTERVAL_MS) return;
    this.lastAt = t;
    const done = total > 0 ? `${Math.min(99, Math.floor((read / total) * 100))}% (${mib(read)} of ${mib(total)} MiB)` : `${mib(read)} MiB`;
    // Carriage return and erase-line: the line is redrawn where it is.
    this.out.write(`\r\x1b[Kseqscope: reading ${this.what} ${done}`);
    this.shown = true;
  }

  /** Erases the line (before the summary is printed). */
  clear(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
  }
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0);
}
