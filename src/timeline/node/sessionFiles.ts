/**
 * Node-side access to a session's capture files: reading one record back by its byte range
 * (the detail pane, "copy message") and scanning the captures again for an attribute filter.
 * The session keeps neither records nor attributes in memory; the files are the store.
 */
import { open, FileHandle } from 'node:fs/promises';
import { CaptureReader } from '../../core/capture/captureReader';
import { ReceivedMessage, toRecord } from '../../core/capture/captureRecord';
import { MAX_RECORD_BYTES } from '../../core/capture/captureSplitters';
import { mergeCaptures } from '../../core/capture/mergeCaptures';
import { CaptureSession } from '../captureSession';

export class SessionFiles {
  private handles = new Map<number, Promise<FileHandle>>();

  constructor(private readonly session: CaptureSession) {}

  /** The record of an arrival, re-read from its file. Throws when the file changed under us. */
  async read(arrival: number): Promise<ReceivedMessage | undefined> {
    const log = this.session.log;
    if (arrival < 0 || arrival >= log.count) return undefined;
    const text = await this.readText(arrival);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(
        `${this.session.paths[log.file.get(arrival)]} changed since it was opened (line ${log.line.get(arrival)} is no longer the same record): reopen the capture`,
      );
    }
    const rm = toRecord(value);
    return typeof rm === 'string' ? undefined : rm;
  }

  /** The raw text of an arrival's record (also for invalid ones). */
  async readText(arrival: number): Promise<string | undefined> {
    const log = this.session.log;
    const offset = log.offset.get(arrival);
    const length = log.length.get(arrival);
    if (offset < 0 || length <= 0) return undefined;
    if (length > MAX_RECORD_BYTES) {
      // Reported invalid because it is too long to hold: reading it back would be no better.
      throw new Error(
        `line ${log.line.get(arrival)} of ${this.session.paths[log.file.get(arrival)]} is ${Math.round(length / 1024 / 1024)} MiB, too long to read back: open the file in an editor that handles large files`,
      );
    }
    // An archive's records are read back from its JSON Lines copy (see archiveCopy.ts).
    const fh = await this.handle(this.session.copy === undefined ? log.file.get(arrival) : -1);
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.toString('utf8', 0, bytesRead);
  }

  /**
   * Marks (1) the arrivals whose attribute `name` equals `value`, by reading the captures again
   * in the same merged order the session was built in.
   */
  async attributeMask(name: string, value: string, signal?: AbortSignal): Promise<Uint8Array> {
    const mask = new Uint8Array(this.session.log.count);
    // The copy of an archive holds every arrival, one line each, in arrival order.
    const copy = this.session.copy;
    const readers = copy === undefined ? this.session.paths.map((p, i) => new CaptureReader(p, i)) : [new CaptureReader(copy, 0)];
    for (const r of readers) await r.open();
    let i = 0;
    for await (const batch of mergeCaptures(readers, { signal })) {
      for (const e of batch) {
        if (i < mask.length && e.record?.message.attributes?.[name] === value) mask[i] = 1;
        i++;
      }
    }
    return mask;
  }

  async close(): Promise<void> {
    const hs = [...this.handles.values()];
    this.handles.clear();
    await Promise.all(hs.map(async (h) => (await h.catch(() => undefined))?.close()));
  }

  private handle(file: number): Promise<FileHandle> {
    let h = this.handles.get(file);
    if (!h) {
      h = open(file < 0 ? (this.session.copy as string) : this.session.paths[file], 'r');
      this.handles.set(file, h);
      h.catch(() => this.handles.delete(file));
    }
    return h;
  }
}
