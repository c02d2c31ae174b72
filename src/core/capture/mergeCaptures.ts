/**
 * Merges several captures into one arrival stream ordered by their clock (receivedAt, else
 * publishTime). Each file keeps its own order; ties go to the earlier file. This is how captures
 * from several recorders on one subscription become one session.
 */
import { CaptureEntry } from './captureRecord';
import { ReadOptions } from './captureReader';
import { EntrySource } from './parallelReader';

interface Cursor {
  readonly it: AsyncIterator<CaptureEntry[]>;
  batch: CaptureEntry[];
  i: number;
  /** Clock of the last timed entry read, for entries that have none (invalid ones). */
  last: number;
  done: boolean;
}

const OUT_BATCH = 4096;

export async function* mergeCaptures(readers: readonly EntrySource[], options: ReadOptions = {}): AsyncGenerator<CaptureEntry[]> {
  if (readers.length === 1) {
    yield* readers[0].batches(options);
    return;
  }
  const cursors: Cursor[] = readers.map((r) => ({ it: r.batches(options)[Symbol.asyncIterator](), batch: [], i: 0, last: -Infinity, done: false }));
  try {
    await Promise.all(cursors.map(refill));
    let out: CaptureEntry[] = [];
    for (;;) {
      let best: Cursor | undefined;
      let bestTime = Infinity;
      for (const c of cursors) {
        if (c.done) continue;
        const t = timeOf(c);
        if (best === undefined || t < bestTime) {
          best = c;
          bestTime = t;
        }
      }
      if (best === undefined) break;
      const e = best.batch[best.i++];
      if (e.time === e.time) best.last = e.time;
      out.push(e);
      if (out.length >= OUT_BATCH) {
        yield out;
        out = [];
      }
      if (best.i === best.batch.length) await refill(best);
    }
    if (out.length) yield out;
  } finally {
    await Promise.all(cursors.map((c) => c.it.return?.()));
  }
}

function timeOf(c: Cursor): number {
  const t = c.batch[c.i].time;
  return t === t ? t : c.last;
}

async function refill(c: Cursor): Promise<void> {
  for (;;) {
    const r = await c.it.next();
    if (r.done) {
      c.done = true;
      return;
    }
    if (r.value.length) {
      c.batch = r.value;
      c.i = 0;
      return;
    }
  }
}
