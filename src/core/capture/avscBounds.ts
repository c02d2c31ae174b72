/**
 * Bounds on avsc's reading of maps and arrays, installed once for every avsc type in the process
 * (imported for this effect by avroArchive.ts).
 */
import { types as avroTypes } from 'avsc';

/**
 * avsc reads a map's or an array's entries as many times as the count before them says, and a
 * read past the data fails silently only at the end (its design: see Tap in avsc's utils.js). A
 * damaged count in a block whose sync marker is intact (one flipped byte, found by the reader
 * fuzz test) then loops for up to 2^53 entries: the replay never ends. Every entry takes at
 * least one byte, so a count above the bytes left is damage: the record is marked invalid
 * (the tap past its end) and the block's decode reports it as such.
 */
interface AvroTap {
  buf: Buffer;
  pos: number;
  readLong(): number;
  skipLong(): void;
  readString(): string;
}
interface AvroCollection {
  valuesType?: { _read(tap: AvroTap): unknown };
  itemsType?: { _read(tap: AvroTap): unknown };
}
function entryCount(tap: AvroTap): number {
  let n = tap.readLong();
  if (n < 0) {
    n = -n;
    tap.skipLong();
  }
  if (n > tap.buf.length - tap.pos) {
    tap.pos = tap.buf.length + 1;
    return 0;
  }
  return n;
}
const mapProto = avroTypes.MapType.prototype as unknown as { _read(this: AvroCollection, tap: AvroTap): unknown };
mapProto._read = function (tap) {
  const values = this.valuesType!;
  const val: Record<string, unknown> = {};
  for (let n = entryCount(tap); n; n = entryCount(tap)) {
    while (n--) {
      const key = tap.readString();
      val[key] = values._read(tap);
    }
  }
  return val;
};
const arrayProto = avroTypes.ArrayType.prototype as unknown as { _read(this: AvroCollection, tap: AvroTap): unknown };
arrayProto._read = function (tap) {
  const items = this.itemsType!;
  const val: unknown[] = [];
  for (let n = entryCount(tap); n; n = entryCount(tap)) {
    while (n--) val.push(items._read(tap));
  }
  return val;
};
