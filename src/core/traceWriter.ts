/**
 * Writes a trace to a file or stream in any export format, a batch at a time, honouring
 * backpressure so memory stays bounded however long the run.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { createFormatter, TraceFormat, TraceFormatter } from './exporters';
import { TraceEvent } from './traceEvents';

export class ExportError extends Error {
  constructor(message: string, readonly path: string) {
    super(message);
    this.name = 'ExportError';
  }
}

export class TraceWriter {
  private pending: TraceEvent[] = [];
  private readonly formatter: TraceFormatter;
  private error: Error | undefined;
  private started = false;

  private constructor(
    private readonly out: Writable,
    readonly format: TraceFormat,
    private readonly label: string,
    private readonly ownsStream: boolean,
  ) {
    this.formatter = createFormatter(format);
    out.on('error', (e) => (this.error ??= e));
  }

  /** Opens `path` for writing (or wraps a stream such as stdout). */
  static async open(target: string | Writable, format: TraceFormat): Promise<TraceWriter> {
    if (typeof target !== 'string') return new TraceWriter(target, format, 'stdout', false);
    const stream = createWriteStream(target);
    try {
      await once(stream, 'open');
    } catch (e) {
      throw new ExportError(`cannot write ${target}: ${(e as Error).message}`, target);
    }
    return new TraceWriter(stream, format, target, true);
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
    let text = '';
    if (!this.started) {
      this.started = true;
      text = this.formatter.header();
    }
    if (this.pending.length) {
      text += this.formatter.format(this.pending);
      this.pending = [];
    }
    if (text && !this.out.write(text)) await this.wait('drain');
    this.check();
  }

  async close(): Promise<void> {
    await this.flush();
    const footer = this.formatter.footer();
    if (this.ownsStream) {
      this.out.end(footer);
      await this.wait('finish');
    } else if (footer) {
      if (!this.out.write(footer)) await this.wait('drain');
    }
    this.check();
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
    if (this.error) throw new ExportError(`cannot write ${this.label}: ${this.error.message}`, this.label);
  }
}
