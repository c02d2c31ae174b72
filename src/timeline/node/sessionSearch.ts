/**
 * Find Messages over a loaded session: each arrival's record is read back from its capture by the
 * byte range the arrival log keeps (sessions hold no payloads), a few MiB at a time in file order,
 * and matched by messageId and decoded payload (core/trace/messageMatch.ts). Memory stays flat
 * however large the capture: one read buffer and the hits. Runs on a worker for the extension
 * (searchInWorker.ts), so the host stays responsive and a cancel ends it at once.
 *
 * A capture read without byte ranges (an Avro archive) is read again from the start instead, its
 * n-th record being its n-th arrival.
 */
import { open } from 'node:fs/promises';
import { CaptureReader } from '../../core/capture/captureReader';
import { ReceivedMessage, toRecord } from '../../core/capture/captureRecord';
import { MAX_RECORD_BYTES } from '../../core/capture/captureSplitters';
import { decodedTextOf } from '../../core/trace/decodedText';
import { compilePayloadFinder, compilePayloadPattern, SearchInput, snippet } from '../../core/trace/messageMatch';
import type { SchemaSet } from '../../core/schema/schemaSet';

/** Where each arrival's record is: the arrival log's columns (ArrivalLog). */
export interface RecordRanges {
  readonly file: Int32Array;
  readonly offset: Float64Array;
  readonly length: Int32Array;
}

export interface SearchHit {
  readonly arrival: number;
  /** True when the messageId is the one looked for; else the payload matched. */
  readonly byId: boolean;
  /** The payload around the match (or its start, for an id match); empty for a binary one. */
  readonly preview: string;
}

export interface SearchResult {
  /** The first `limit` hits in arrival order. */
  readonly hits: SearchHit[];
  /** Every match, also past the limit. */
  readonly matched: number;
  /** Records read. */
  readonly searched: number;
  /** Records whose payload is binary (not searched as text). */
  readonly binary: number;
  /** Records that could not be read back (invalid JSON, too long, not a message). */
  readonly unreadable: number;
  readonly cancelled: boolean;
}

export interface SearchOptions {
  readonly signal?: AbortSignal;
  /** Hits kept (the rest are counted). */
  readonly limit?: number;
  /** Records read so far of the total, and matches so far: a few times a second. */
  readonly onProgress?: (searched: number, total: number, matched: number) => void;
  /** The session's schemas: a payload with a schema is searched as the record it decodes (JSON text). */
  readonly schemas?: SchemaSet;
}

export const SEARCH_HIT_LIMIT = 10_000;
const BLOCK = 4 * 1024 * 1024;
const PROGRESS_MS = 100;

export async function searchCaptures(paths: readonly string[], ranges: RecordRanges, input: SearchInput, options: SearchOptions = {}): Promise<SearchResult> {
  const limit = options.limit ?? SEARCH_HIT_LIMIT;
  const test = compilePayloadPattern(input.payload);
  const find = compilePayloadFinder(input.payload);
  const textOf = decodedTextOf(options.schemas);
  const total = ranges.file.length;
  const hits: SearchHit[] = [];
  let matched = 0;
  let searched = 0;
  let binary = 0;
  let unreadable = 0;
  let lastProgress = 0;
  let keptOfFile = 0;

  const consider = (arrival: number, rm: ReceivedMessage | undefined): void => {
    searched++;
    if (!rm) {
      unreadable++;
      return;
    }
    const m = rm.message;
    const byId = input.messageId !== undefined && m.messageId === input.messageId;
    const p = textOf(rm);
    if (p === 'binary') binary++;
    const text = typeof p === 'object' ? p.text : undefined;
    if (!byId && (text === undefined || !test(text))) return;
    matched++;
    // The first `limit` of each file, sorted and cut below: several captures interleave their
    // arrivals, and the first `limit` overall are among them.
    if (keptOfFile < limit) {
      keptOfFile++;
      const at = text === undefined ? undefined : byId ? ([0, 0] as const) : find(text);
      hits.push({ arrival, byId, preview: text === undefined || at === undefined ? '' : snippet(text, at[0]) });
    }
  };
  const progress = (force = false): void => {
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_MS) return;
    lastProgress = now;
    options.onProgress?.(searched, total, matched);
  };

  let cancelled = false;
  for (let f = 0; f < paths.length && !cancelled; f++) {
    const arrivals = arrivalsOf(ranges.file, f);
    if (arrivals.length === 0) continue;
    keptOfFile = 0;
    const byRange = arrivals.every((a) => ranges.offset[a] >= 0);
    cancelled = byRange
      ? await searchByRanges(paths[f], arrivals, ranges, consider, progress, options.signal)
      : await searchByReading(paths[f], f, arrivals, consider, progress, options.signal);
  }
  progress(true);
  hits.sort((a, b) => a.arrival - b.arrival);
  hits.length = Math.min(hits.length, limit);
  return { hits, matched, searched, binary, unreadable, cancelled };
}

/** The arrivals of capture `f`, in arrival order (which is its file order). */
function arrivalsOf(file: Int32Array, f: number): Int32Array {
  let n = 0;
  for (let i = 0; i < file.length; i++) if (file[i] === f) n++;
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < file.length; i++) if (file[i] === f) out[j++] = i;
  return out;
}

type Consider = (arrival: number, rm: ReceivedMessage | undefined) => void;

/** Reads the arrivals' byte ranges a block at a time; true when cancelled. */
async function searchByRanges(
  path: string,
  arrivals: Int32Array,
  ranges: RecordRanges,
  consider: Consider,
  progress: () => void,
  signal?: AbortSignal,
): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(BLOCK);
    let start = 0;
    let end = 0;
    for (const a of arrivals) {
      if (signal?.aborted) return true;
      const offset = ranges.offset[a];
      const length = ranges.length[a];
      if (length <= 0 || length > MAX_RECORD_BYTES) {
        consider(a, undefined);
        continue;
      }
      if (offset < start || offset + length > end) {
        if (length > buf.length) buf = Buffer.allocUnsafe(length);
        const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
        start = offset;
        end = offset + bytesRead;
        progress();
        // The file is shorter than the session says: it changed since it was opened.
        if (offset + length > end) throw new Error(`${path} changed since it was opened (it ends before the record of arrival ${a + 1}): reopen the capture`);
      }
      consider(a, parseRecord(buf.toString('utf8', offset - start, offset - start + length)));
    }
    return false;
  } finally {
    await fh.close();
  }
}

function parseRecord(text: string): ReceivedMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const rm = toRecord(value);
  return typeof rm === 'string' ? undefined : rm;
}

/** Reads a capture without byte ranges again from its start; true when cancelled. */
async function searchByReading(
  path: string,
  f: number,
  arrivals: Int32Array,
  consider: Consider,
  progress: () => void,
  signal?: AbortSignal,
): Promise<boolean> {
  const reader = new CaptureReader(path, f);
  await reader.open();
  let n = 0;
  try {
    for await (const batch of reader.batches({ signal })) {
      for (const e of batch) {
        if (n < arrivals.length) consider(arrivals[n], e.record);
        n++;
      }
      progress();
    }
  } finally {
    await reader.close();
  }
  return signal?.aborted === true;
}
