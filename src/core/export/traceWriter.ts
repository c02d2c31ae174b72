/**
 * Writes a trace to a file or stream in any export format, a batch at a time, honouring
 * backpressure so memory stays bounded however long the run.
 */
import { once } from 'node:events';
import { pipeline, Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { createFormatter, ExportOptions, TraceChunk, TraceFormat, TraceFormatter } from './';
import type { KeyOrder } from '../trace/keyOrder';
import { OutputFile, writeError } from './outputFile';
import { TraceEvent } from '../trace/traceEvents';

export class TraceWriter {
  private pending: TraceEvent[] = [];
  private readonly formatter: TraceFormatter<TraceChunk>;
  private error: Error | undefined;
  private started = false;
  /** For a compressed file: settles once the compressor has written everything to the file. */
  private written: Promise<void> | undefined;

  private constructor(
    private readonly out: Writable,
    readonly format: TraceFormat,
    private readonly label: string,
    /** The file this writer owns and ends; undefined for a stream it was given (stdout). */
    private readonly file: OutputFile | undefined,
    keyOrder: KeyOrder | undefined,
    options: ExportOptions | undefined,
  ) {
    this.formatter = createFormatter(format, keyOrder, options);
    out.on('error', (e) => (this.error ??= e));
  }

  /**
   * Opens `path` for writing (or wraps a stream such as stdout). A path ending in `.gz` gets
   * the trace gzip-compressed (its format then comes from the name before `.gz`). The file
   * takes its place at `path` only when `close()` succeeds (see OutputFile); `discard()` leaves
   * `path` as it was. `keyOrder` orders the keys' tracks of a Chrome trace; `options` adds decoded payloads.
   */
  static async open(target: string | Writable, format: TraceFormat, keyOrder?: KeyOrder, options?: ExportOptions): Promise<TraceWriter> {
    if (typeof target !== 'string') return new TraceWriter(target, format, 'stdout', undefined, keyOrder, options);
    const output = await OutputFile.open(target);
    const file = output.stream;
    if (!isCompressedPath(target)) return new TraceWriter(file, format, target, output, keyOrder, options);
    // Compression runs on libuv's thread pool, beside the sequencing on the main thread. Level 1:
    // on a 1 M-line replay it kept up with the export (about as fast as writing it plain, where
    // the default level 6 took half as long again) for a file 1.25× the default's size. Larger
    // output chunks than zlib's 16 KiB: fewer hand-overs between the pool and the main thread.
    const gzip = createGzip({ level: 1, chunkSize: 1 << 18 });
    const writer = new TraceWriter(gzip, format, target, output, keyOrder, options);
    writer.written = new Promise((resolve) =>
      pipeline(gzip, file, (e) => {
        if (e) writer.error ??= e;
        resolve();
      }),
    );
    return writer;
  }

  /** Sets the time origin for formats that have one; call before the first event. */
  startAt(ms: number): void {
    this.formatter.startAt?.(ms);
  }

  add(ev: TraceEvent): void {
    this.pending.push(ev);
  }

  /** Formats and writes what was added; waits when the destination is behind. */
  async flush(): Promise<void> {
    this.check();
    let chunk: TraceChunk = '';
    if (!this.started) {
      this.started = true;
      chunk = this.formatter.header();
    }
    if (this.pending.length) {
      chunk = join(chunk, this.formatter.format(this.pending));
      this.pending = [];
    }
    if (chunk.length && !this.out.write(chunk)) await this.wait('drain');
    this.check();
  }

  /**
   * Writes the end of the trace and, for a file, puts it in place. A failure here or before
   * (see `check`) leaves the writer to `discard()`: runReplay does that.
   */
  async close(): Promise<void> {
    await this.flush();
    const footer = this.formatter.footer();
    if (this.file) {
      this.out.end(footer);
      await this.wait('finish');
      await this.written;
      this.check();
      await this.file.commit();
      return;
    }
    if (footer.length && !this.out.write(footer)) await this.wait('drain');
    this.check();
  }

  /**
   * Abandons the trace: a file's partial output is removed and whatever was at its path before
   * stays; a given stream is left as it is. Safe after `close()` (then it does nothing).
   */
  async discard(): Promise<void> {
    if (!this.file) return;
    if (this.out !== this.file.stream) this.out.destroy();
    await this.file.discard();
  }

  /** Waits for a stream event; a stream error while waiting becomes an ExportError. */
  private async wait(event: string): Promise<void> {
    try {
      await once(this.out, event);
    } catch (e) {
      this.error ??= e as Error;
    }
  }

  private check(): void {
    if (this.error) throw writeError(this.label, this.error, this.file?.left);
  }
}

/** Two chunks as one: text joined as text, bytes as bytes (a formatter gives one kind or the other). */
function join(a: TraceChunk, b: TraceChunk): TraceChunk {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  return Buffer.concat([typeof a === 'string' ? Buffer.from(a) : a, typeof b === 'string' ? Buffer.from(b) : b]);
}

/** Whether an export path asks for gzip compression. */
export function isCompressedPath(path: string): boolean {
  return path.toLowerCase().endsWith('.gz');
}
