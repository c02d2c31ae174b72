/**
 * How a standalone export packs its SessionSnapshot, and how the page unpacks it.
 *
 * Why: Chromium's HTML parser reads a page's inline data at only ~10–12 MB/s, so the plain
 * snapshot of a million events (~120 MB of base64 columns) would take over ten seconds just to
 * parse. Packed, it is ~10× smaller: each column's bytes are "shuffled" (byte planes: all first
 * bytes of the elements, then all second bytes, …, which turns slowly changing timestamps and
 * counters into long runs) and deflated, then base64-encoded; messageIds that are decimal
 * integers (Pub/Sub's are) travel as such a column too. The page inflates with the browser's
 * native DecompressionStream.
 *
 * The exporter (Node) packs with zlib; this module only unpacks. It is DOM-free and runs in
 * Node 20 too (DecompressionStream, Blob and Response are globals there), so round trips are
 * unit-tested.
 */
import type { Base64, SessionSnapshot } from './timelineModel';

export const PACKING = 'shuffle-deflate-raw-base64';

/** Element width in bytes of each snapshot column (the shuffle's stride). */
export const COLUMN_WIDTHS: { events: Record<keyof SessionSnapshot['events'], number>; arrivals: Record<keyof SessionSnapshot['arrivals'], number> } = {
  events: { kind: 1, key: 4, seq: 8, seqTo: 8, extra: 8, t0: 8, t1: 8, flags: 1, arrival: 4, cause: 4 },
  arrivals: { file: 4, line: 4, time: 8, key: 4, seq: 8 },
};

/** A SessionSnapshot whose columns (and messageIds) are packed. */
export interface PackedSnapshot extends Omit<SessionSnapshot, 'messageIds'> {
  packing: typeof PACKING;
  /** Empty: the ids are in `packedMessageIds`. */
  messageIds: string[];
  /** 'decimal': a packed Float64 column of the ids as numbers (−1 for none); 'json': a packed JSON array. */
  packedMessageIds: { encoding: 'decimal' | 'json'; data: string };
}

/** Byte planes back to elements: out[i·w + j] = planes[j·n + i]. */
export function unshuffle(planes: Uint8Array, width: number): Uint8Array {
  if (width === 1) return planes;
  const n = planes.length / width;
  const out = new Uint8Array(planes.length);
  for (let j = 0; j < width; j++) {
    const base = j * n;
    for (let i = 0, o = j; i < n; i++, o += width) out[o] = planes[base + i];
  }
  return out;
}

/** Elements to byte planes (the exporter's half, here so both directions are tested together). */
export function shuffle(bytes: Uint8Array, width: number): Uint8Array {
  if (width === 1) return bytes;
  const n = bytes.length / width;
  const out = new Uint8Array(bytes.length);
  for (let j = 0; j < width; j++) {
    const base = j * n;
    for (let i = 0, o = j; i < n; i++, o += width) out[base + i] = bytes[o];
  }
  return out;
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Unpacks a packed snapshot into one restoreSession() takes: the column fields become short
 * tokens, and the returned Base64 "decodes" a token to the column's bytes.
 */
export async function unpackSnapshot(
  packed: PackedSnapshot,
  base64: Base64,
  yieldNow: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0)),
): Promise<{ snapshot: SessionSnapshot; base64: Base64 }> {
  if (packed.packing !== PACKING) throw new Error(`unknown snapshot packing "${String(packed.packing)}"`);
  const columns = new Map<string, Uint8Array>();
  const unpack = async (text: string, width: number) => unshuffle(await inflate(base64.decode(text)), width);
  const jobs: Promise<void>[] = [];
  const events = {} as SessionSnapshot['events'];
  const arrivals = {} as SessionSnapshot['arrivals'];
  for (const [group, out] of [
    ['events', events],
    ['arrivals', arrivals],
  ] as const) {
    const widths = COLUMN_WIDTHS[group] as Record<string, number>;
    for (const [name, text] of Object.entries(packed[group] as Record<string, string>)) {
      const token = `${group}.${name}`;
      (out as Record<string, string>)[name] = token;
      jobs.push(unpack(text, widths[name] ?? 1).then((b) => void columns.set(token, b)));
    }
  }
  let messageIds: string[] = [];
  jobs.push(
    (async () => {
      const p = packed.packedMessageIds;
      if (p.encoding === 'json') {
        messageIds = JSON.parse(new TextDecoder().decode(await inflate(base64.decode(p.data)))) as string[];
        return;
      }
      const b = await unpack(p.data, 8);
      const ids = new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
      messageIds = new Array<string>(ids.length);
      // A million number-to-string conversions: in slices, so the page keeps drawing.
      for (let i = 0; i < ids.length; i++) {
        messageIds[i] = ids[i] < 0 ? '' : String(ids[i]);
        if ((i + 1) % 100_000 === 0) await yieldNow();
      }
    })(),
  );
  await Promise.all(jobs);
  const { packing: _p, packedMessageIds: _m, ...rest } = packed;
  const snapshot: SessionSnapshot = { ...rest, events, arrivals, messageIds };
  return {
    snapshot,
    base64: {
      encode: base64.encode,
      decode: (token) => {
        const b = columns.get(token);
        if (!b) throw new Error(`snapshot column ${token} is missing`);
        return b;
      },
    },
  };
}
