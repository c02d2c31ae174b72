/**
 * A one-line progress report on a terminal ("seqscope: reading feed.jsonl 45% (210 of 473
 * MiB)", "seqscope: publishing …", "seqscope: recording …"), redrawn in place a few times a
 * second and erased at the end, so a long run does not look hung. Only for a terminal: a log or
 * a pipe gets nothing (see progressLineFor).
 */
/** Redraws at most this often: more is flicker, and each redraw is a write. */
const INTERVAL_MS = 250;
const MIB = 1 << 20;

/** Where the line goes: stderr, or a test's fake terminal. */
type Terminal = Pick<NodeJS.WritableStream, 'write'>;

export class ProgressLine {
  private lastAt = -Infinity;
  private shown = false;

  constructor(
    private readonly out: Terminal,
    /** What is being read, as the summary names it. */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes read so far of `total` (0 when unknown: a stream). */
  update(read: number, total: number): void {
    this.show(`reading ${this.what} ${bytesDone(read, total)}`);
  }

  /** Any one-line state ("recording 1 200 messages …"), redrawn at most every 250 ms. */
  show(text: string): void {
    const t = this.now();
    if (t - this.lastAt < INTERVAL_MS) return;
    this.lastAt = t;
    // Carriage return and erase-line: the line is redrawn where it is.
    this.out.write(`\r\x1b[Kseqscope: ${text}`);
    this.shown = true;
  }

  /**
   * Writes a message of its own (a full line, ending in a newline) where the progress line is,
   * so the two do not share a line; the progress line comes back at the next show().
   */
  note(line: string): void {
    this.clear();
    this.out.write(line);
    this.lastAt = -Infinity;
  }

  /** Erases the line (before the summary is printed). */
  clear(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
  }
}

/** A progress line on `err` when it is a terminal and the user did not say --no-progress. */
export function progressLineFor(err: Terminal, what: string, enabled: boolean | undefined): ProgressLine | undefined {
  return enabled !== false && (err as { isTTY?: boolean }).isTTY ? new ProgressLine(err, what) : undefined;
}

/** "45% (210 of 473 MiB)", or "1.5 MiB" when the total is not known (a stream). */
export function bytesDone(read: number, total: number): string {
  return total > 0 ? `${Math.min(99, Math.floor((read / total) * 100))}% (${mib(read)} of ${mib(total)} MiB)` : `${mib(read)} MiB`;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0);
}
