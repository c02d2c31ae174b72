/**
 * A benchmark stream in the binary form test/bench/jvm/CmeLoop.java reads (little-endian):
 * "SQJ1", int32 message count, int32 key count, each key's name as int32 byte length + UTF-8,
 * then per message int32 key index, int64 number, float64 arrival time (ms) — 20 bytes each.
 *
 * `node jvmStream.js <json args> <file>` (bundled by the bench) builds the engine section's
 * stream for those arguments, as engineContender.ts does, and writes it to the file.
 */
import { writeFileSync } from 'node:fs';
import { EngineInput, StreamKind, engineInput } from './streams';

const MAGIC = 'SQJ1';
const RECORD = 4 + 8 + 8;

/** What the file carries of an EngineInput. */
export type StreamColumns = Pick<EngineInput, 'count' | 'keyOf' | 'seq' | 'time'>;

export function encodeStream(input: StreamColumns): Buffer {
  const index = new Map<string, number>();
  const keyIndex = new Int32Array(input.count);
  for (let i = 0; i < input.count; i++) {
    const name = input.keyOf[i];
    let k = index.get(name);
    if (k === undefined) index.set(name, (k = index.size));
    keyIndex[i] = k;
  }
  const names = [...index.keys()].map((n) => Buffer.from(n, 'utf8'));
  const head = 12 + names.reduce((n, b) => n + 4 + b.length, 0);
  const buf = Buffer.alloc(head + input.count * RECORD);
  buf.write(MAGIC, 0, 'ascii');
  buf.writeInt32LE(input.count, 4);
  buf.writeInt32LE(names.length, 8);
  let at = 12;
  for (const b of names) {
    buf.writeInt32LE(b.length, at);
    b.copy(buf, at + 4);
    at += 4 + b.length;
  }
  for (let i = 0; i < input.count; i++, at += RECORD) {
    const seq = input.seq[i];
    if (!Number.isSafeInteger(seq)) throw new RangeError(`message ${i}: number ${seq} is not an integer a long holds exactly`);
    buf.writeInt32LE(keyIndex[i], at);
    buf.writeBigInt64LE(BigInt(seq), at + 4);
    buf.writeDoubleLE(input.time[i], at + 12);
  }
  return buf;
}

/** The reverse of encodeStream (for its test: the JVM has its own reader). */
export function decodeStream(buf: Buffer): StreamColumns {
  if (buf.toString('ascii', 0, 4) !== MAGIC) throw new Error(`not a stream file: starts ${JSON.stringify(buf.toString('latin1', 0, 4))}`);
  const count = buf.readInt32LE(4);
  const names: string[] = [];
  let at = 12;
  for (let k = buf.readInt32LE(8); k > 0; k--) {
    const n = buf.readInt32LE(at);
    names.push(buf.toString('utf8', at + 4, at + 4 + n));
    at += 4 + n;
  }
  if (buf.length !== at + count * RECORD) throw new Error(`stream file of ${buf.length} bytes: expected ${at + count * RECORD} for ${count} messages`);
  const keyOf = new Array<string>(count);
  const seq = new Float64Array(count);
  const time = new Float64Array(count);
  for (let i = 0; i < count; i++, at += RECORD) {
    keyOf[i] = names[buf.readInt32LE(at)];
    seq[i] = Number(buf.readBigInt64LE(at + 4));
    time[i] = buf.readDoubleLE(at + 12);
  }
  return { count, keyOf, seq, time };
}

export interface StreamFileArgs {
  readonly kind: StreamKind;
  readonly keys: number;
  readonly seqBits: 16 | 64;
  readonly total: number;
}

if (require.main === module) {
  const a = JSON.parse(process.argv[2] ?? '{}') as StreamFileArgs;
  const out = process.argv[3];
  if (!out) throw new Error('usage: node jvmStream.js <json args> <file>');
  writeFileSync(out, encodeStream(engineInput(a.kind, a.keys, a.total, a.seqBits)));
}
