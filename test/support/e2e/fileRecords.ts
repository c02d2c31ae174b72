/**
 * Reads a session's records back from its capture files, by the byte offset and length the
 * arrival log keeps: the RecordSource the standalone export embeds records from.
 */
import { open, FileHandle } from 'node:fs/promises';
import { toRecord } from '../../../src/core/capture/captureRecord';
import type { CaptureSession } from '../../../src/timeline/captureSession';
import type { RecordSource } from '../../../src/timeline/timelineService';

export function fileRecordSource(session: CaptureSession): RecordSource & { close(): Promise<void> } {
  const files = new Map<number, Promise<FileHandle>>();
  const log = session.log;
  const read: RecordSource = async (arrival) => {
    const offset = log.offset.get(arrival);
    const length = log.length.get(arrival);
    const file = log.file.get(arrival);
    if (!(offset >= 0) || !(length > 0)) return undefined;
    let fh = files.get(file);
    if (!fh) {
      fh = open(session.paths[file], 'r');
      files.set(file, fh);
    }
    const buf = Buffer.alloc(length);
    await (await fh).read(buf, 0, length, offset);
    const rm = toRecord(JSON.parse(buf.toString('utf8')));
    return typeof rm === 'string' ? undefined : rm;
  };
  return Object.assign(read, {
    async close() {
      for (const fh of files.values()) await (await fh).close();
      files.clear();
    },
  });
}
