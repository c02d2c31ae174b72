/** The head of capture files, for the session's size estimate (sessionBudget.ts). */
import { open, stat } from 'node:fs/promises';
import type { CaptureSample } from '../sessionBudget';

/** Reads up to `headBytes` (shared among the files) from the head of each file and counts its whole lines. */
export async function sampleCaptures(paths: readonly string[], headBytes = 2 ** 20): Promise<CaptureSample> {
  let totalBytes = 0;
  let sampleBytes = 0;
  let sampleLines = 0;
  const each = Math.max(2 ** 16, Math.floor(headBytes / Math.max(1, paths.length)));
  for (const p of paths) {
    const size = (await stat(p)).size;
    totalBytes += size;
    const head = await readHead(p, Math.min(size, each));
    const whole = head.length >= size;
    let lines = 0;
    let last = -1;
    for (let i = head.indexOf(10); i >= 0; i = head.indexOf(10, i + 1)) {
      lines++;
      last = i;
    }
    if (whole) {
      // The whole file: a last line without its newline counts too.
      sampleBytes += head.length;
      sampleLines += lines + (head.length > 0 && head[head.length - 1] !== 10 ? 1 : 0);
    } else if (last >= 0) {
      sampleBytes += last + 1;
      sampleLines += lines;
    } else sampleBytes += head.length;
  }
  return { totalBytes, sampleBytes, sampleLines };
}

async function readHead(path: string, n: number): Promise<Buffer> {
  const f = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    let got = 0;
    while (got < n) {
      const { bytesRead } = await f.read(buf, got, n - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } finally {
    await f.close();
  }
}
