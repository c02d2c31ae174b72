/**
 * A JSON Lines copy of an archive's records, written while the archive loads.
 *
 * A session reads a record back by its byte range in its file (the detail pane, Copy Message,
 * the attribute filter), which an Avro archive (binary blocks, maybe deflated) and a text
 * archive (bare payloads, no ids) cannot give. So the loader writes each arrival, as the reader
 * made it, to one JSON Lines file in arrival order — the order the captures were merged in —
 * and the arrival log points into that copy:
 *   - a record as the ReceivedMessage the JSON Lines reader reads (`{"message": {…}}`);
 *   - an invalid record as `{"invalid": reason, "file": name, "record": n}`, so every arrival
 *     has its line (the attribute filter counts arrivals by reading the copy in order) and Copy
 *     Message on it says what was wrong.
 * The records' own file and record number stay in the arrival log: the tree and the detail pane
 * name the archive, not the copy. Written with synchronous writes: the loader runs on a worker
 * thread of its own.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import type { CaptureEntry } from '../../core/capture/captureRecord';
import type { ArrivalCopy } from '../sessionBuilder';

const FLUSH_BYTES = 1 << 20;

export class ArchiveCopy implements ArrivalCopy {
  private fd: number | undefined;
  private buffer = Buffer.allocUnsafe(FLUSH_BYTES * 2);
  private used = 0;
  /** Bytes written to the file (flushed or not): where the next line starts. */
  private offset = 0;
  /** Offset and length of the line last appended. */
  lastOffset = 0;
  lastLength = 0;

  constructor(
    readonly path: string,
    /** The archives' paths, by file index (invalid lines name their file). */
    private readonly sources: readonly string[],
  ) {
    // 'wx': a copy is a new file in a folder of its own; never write over anything.
    this.fd = openSync(path, 'wx', 0o600);
  }

  /** Appends the entry's line; its place is then lastOffset / lastLength. */
  append(e: CaptureEntry): void {
    const text =
      e.record !== undefined
        ? JSON.stringify(e.record)
        : JSON.stringify({ invalid: e.invalid ?? 'invalid', file: basename(this.sources[e.file] ?? ''), record: e.line });
    const max = text.length * 3 + 1;
    if (this.used + max > this.buffer.length) {
      this.flush();
      if (max > this.buffer.length) this.buffer = Buffer.allocUnsafe(max);
    }
    const n = this.buffer.write(text, this.used, 'utf8');
    this.buffer[this.used + n] = 0x0a;
    this.lastOffset = this.offset;
    this.lastLength = n;
    this.used += n + 1;
    this.offset += n + 1;
    if (this.used >= FLUSH_BYTES) this.flush();
  }

  /** Writes what is buffered and closes the file (once). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private flush(): void {
    let at = 0;
    while (at < this.used) at += writeSync(this.fd as number, this.buffer, at, this.used - at);
    this.used = 0;
  }
}
