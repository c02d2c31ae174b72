/**
 * A Cloud Storage subscription's text output: each message's payload as it was published,
 * followed by a newline — no message id, no publish time, no attributes, no ordering key
 * (Google's docs: CloudStorageConfig.TextConfig, "Message payloads will be written to files as
 * raw text, separated by a newline").
 *
 * Nothing in such a file says it is one, and a damaged JSON Lines capture must never be read as
 * bare payloads, so SeqScope never guesses it: it is read as text only when asked
 * (`seqscope replay --input-format text`). Each line is then one
 * message, in file order (taken as arrival order), with the id `<file name>#<line>` and clock 0
 * (no time is known), so several text files concatenate in the order they are given. Blank lines
 * are skipped, and a payload that held a newline reads as two messages.
 */
import { basename } from 'node:path';
import { CaptureEntry, RecordEntry } from './captureRecord';
import { RawRecord } from './captureSplitters';

/** The clock of records whose archive carries no time. */
export const UNTIMED_CLOCK = 0;

/** What the run cannot know about an archive without metadata: said once per file (CLI stderr, editor warning). */
export function untimedArchiveNote(label: string, kind: 'text' | 'avro'): string {
  const what =
    kind === 'text' ? 'a Cloud Storage subscription text archive (bare payloads)' : 'a Cloud Storage subscription Avro archive written without write_metadata';
  return `${label} is ${what}: its messages carry no ids, publish times, attributes or ordering keys; file order is taken as arrival order, each message is named <file>#<number>, and duplicates cannot be told from repeats`;
}

/** How records of `path` are named. */
export function archiveLabel(path: string, stdin: boolean): string {
  return stdin ? 'stdin' : basename(path);
}

/** Text lines (from the line splitter) as messages whose payload is the line. */
export function textEntries(raw: readonly RawRecord[], file: number, label: string): CaptureEntry[] {
  const out = new Array<CaptureEntry>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    if (r.invalid !== undefined) {
      out[i] = { file, line: r.line, offset: r.offset, length: r.length, time: NaN, invalid: r.invalid };
      continue;
    }
    const data = Buffer.from(r.text, 'utf8').toString('base64');
    out[i] = new RecordEntry(file, r.line, r.offset, r.length, UNTIMED_CLOCK, { message: { messageId: `${label}#${r.line}`, ...(data ? { data } : {}) } });
  }
  return out;
}
