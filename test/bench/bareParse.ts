/**
 * The floor a replay is compared with: read a JSON Lines file in 1 MB chunks, split lines, JSON.parse
 * each, count — nothing else. Bundled to .bench/bareParse.js and run as its own node process,
 * exactly like the CLI, so both pay the same process start-up and I/O.
 *
 * Usage: node .bench/bareParse.js <file>   → prints {"lines": N, "bytes": B}
 */
import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;
const NL = 0x0a;

async function main(path: string): Promise<void> {
  const fh = await open(path, 'r');
  let lines = 0;
  let bytes = 0;
  let rest: Buffer | undefined;
  try {
    for (;;) {
      // A fresh buffer per read, as the replay's reader does, so the carried-over tail can
      // point into it without a copy.
      const buf = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      bytes += bytesRead;
      const chunk = rest ? Buffer.concat([rest, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(NL, start); nl >= 0; nl = chunk.indexOf(NL, start)) {
        if (nl > start) {
          JSON.parse(chunk.toString('utf8', start, nl));
          lines++;
        }
        start = nl + 1;
      }
      rest = start < chunk.length ? chunk.subarray(start) : undefined;
    }
    if (rest && rest.length) {
      JSON.parse(rest.toString('utf8'));
      lines++;
    }
  } finally {
    await fh.close();
  }
  process.stdout.write(JSON.stringify({ lines, bytes }) + '\n');
}

main(process.argv[2]).catch((e: unknown) => {
  process.stderr.write(`bareParse: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
